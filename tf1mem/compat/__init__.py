"""The compatibility wing: TF1 code runs unchanged on TensorFlow 2.

It owns everything that makes ``import tensorflow`` in a user's TF1 script behave as
TF 1.15 did, and nothing else:

- :mod:`~tf1mem.compat.shim`: the explicit, undoable install (import hook, module
  finder for ``tensorflow.contrib`` / ``tensorflow.examples``, TF 2 behaviour off,
  TF-internal names TF1-era libraries use);
- :mod:`~tf1mem.compat.contrib`: the removed-API table: each ``tf.contrib`` module
  and removed top-level name, mapped to its TF 2 home or to an error that names the
  replacement (the single source the shim raises from);
- :mod:`~tf1mem.compat.session_hooks`: every Session a script makes gets tf1mem's
  config options and is noted for the GPU-options warning; optionally a placement
  report (read through :mod:`tf1mem.observe`);
- :mod:`~tf1mem.compat.tutorial_mnist`: ``tensorflow.examples.tutorials.mnist.mnist``
  (the tutorial's model file); ``input_data`` is :mod:`tf1mem.data.input_data`;
- :mod:`~tf1mem.compat.script`: running a script or module as ``python`` would,
  under the shim (what ``python -m tf1mem.run`` does after parsing its flags).

Later re-implementations of removed APIs (``tf.estimator``, ``tf.contrib.eager``, ...)
go here too. This wing may use :mod:`tf1mem.config`, :mod:`tf1mem.data` and
:mod:`tf1mem.observe`; it never imports :mod:`tf1mem.distributed` or a command module.
"""
