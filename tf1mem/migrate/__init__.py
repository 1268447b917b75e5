"""Migration from TF1: what each file needs, read from the package's one removed-API table.

The wing owns the scanner (:mod:`~tf1mem.migrate.scanner`: ``ast`` only, never runs the
scanned code), the judge of one name (:mod:`~tf1mem.migrate.knowledge`, reading
:mod:`tf1mem.compat.table` and :mod:`~tf1mem.migrate.tf_names`, never TensorFlow), the data
about the installed TensorFlow under the shim (:mod:`~tf1mem.migrate.tf_names`, written by
:mod:`~tf1mem.migrate.snapshot`), the TF 2 forms of the TF1 idioms
(:mod:`~tf1mem.migrate.forms`), the text and JSON reports (:mod:`~tf1mem.migrate.report`)
and the ``tf_upgrade_v2`` rewrite (:mod:`~tf1mem.migrate.rewrite`). The command is
``python -m tf1mem.scan``. Nothing is imported at import time.
"""
