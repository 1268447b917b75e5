"""``tf.contrib.tensor_forest``: TF1's random forest, re-implemented in TF ops.

``python/tensor_forest.py`` (``ForestHParams``, ``RandomForestGraphs``: the forest's
training and inference graphs) and ``client/random_forest.py`` (``TensorForestEstimator``,
on tf1mem's ``tf.contrib.learn``), at their TF1 paths; this package names the modules TF
1.15's ``tf.contrib.tensor_forest`` had as attributes.
"""

from tf1mem import _lazy
from tf1mem.compat import errors

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    "python": ".python:",
    "client": ".client:",
    "tensor_forest": ".python.tensor_forest:",
    "random_forest": ".client.random_forest:",
}, fallback=errors.removed_names("tf.contrib.tensor_forest", __name__))
