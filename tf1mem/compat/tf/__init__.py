"""TF1's module tree, re-implemented: each TF1 API tf1mem writes sits at its TF1 path.

``tf.contrib.rnn`` is :mod:`tf1mem.compat.tf.contrib.rnn`, ``tf.estimator`` is
:mod:`tf1mem.compat.tf.estimator`, ``tensorflow.examples.tutorials.mnist.mnist`` is
:mod:`tf1mem.compat.tf.examples.tutorials.mnist.mnist`. tf1mem's table
(:mod:`tf1mem.compat.table`) says which TF1 names these modules serve; the runtime
(:mod:`tf1mem.compat.runtime`) serves them to user code. Modules here are loaded only
after TensorFlow, so they may import it at their top; they import each other only
through public names.
"""
