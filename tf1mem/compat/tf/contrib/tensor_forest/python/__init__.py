"""``tf.contrib.tensor_forest.python``: the TF1 package holding ``tensor_forest``, the
forest's hyper-parameters and graphs
(:mod:`tf1mem.compat.tf.contrib.tensor_forest.python.tensor_forest`); TF 1.15's ops modules
beside it (``data_ops``, ``model_ops``, ``stats_ops``, ``tensor_forest_ops``) are named
removed, with what to use instead."""

from tf1mem import _lazy
from tf1mem.compat import errors

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    "tensor_forest": ".tensor_forest:",
}, fallback=errors.removed_names("tf.contrib.tensor_forest.python", __name__))
