"""``tf.contrib.tensor_forest.client``: the TF1 package holding ``random_forest``, the
``TensorForestEstimator`` on tf1mem's ``tf.contrib.learn``
(:mod:`tf1mem.compat.tf.contrib.tensor_forest.client.random_forest`); TF 1.15's
``eval_metrics`` beside it is named removed, with what to use instead."""

from tf1mem import _lazy
from tf1mem.compat import errors

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    "random_forest": ".random_forest:",
}, fallback=errors.removed_names("tf.contrib.tensor_forest.client", __name__))
