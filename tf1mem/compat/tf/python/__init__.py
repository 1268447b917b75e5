"""``tensorflow.python``: TF1's internal modules that TF1-era code imported and TF 2.21 lacks
or changed, at their TF1 paths (``tensorflow.python.util.nest`` is :mod:`.util.nest`).

The runtime serves them to user code only (tf1mem's table,
:data:`tf1mem.compat.table.INTERNAL_MODULES`); the real ``tensorflow.python`` modules,
which libraries see, are not changed.
"""
