"""The machinery that puts the TF1 surface into a process; it names no TF1 API itself.

Import hooks and user-code detection, the ``tensorflow.contrib`` / ``tensorflow.examples``
finder that reads :mod:`tf1mem.compat.table`, user code's views of ``tensorflow`` and
``tf.compat``, patches to TensorFlow's internals, the install/undo lifecycle with its
frozen options, session hooks, TF 1.15's op seeds, and running a script as ``python``
would. Nothing here imports TensorFlow at import time.
"""
