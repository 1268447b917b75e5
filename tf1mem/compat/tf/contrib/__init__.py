"""``tf.contrib``'s modules that tf1mem re-implements (one module or package each).

A module of several files is a package whose ``__init__`` only names its public
symbols (:func:`tf1mem._lazy.attach`). Which TF1 names each serves, and what the rest of
``tf.contrib`` maps to or was replaced by, is tf1mem's table (:mod:`tf1mem.compat.table`).
"""
