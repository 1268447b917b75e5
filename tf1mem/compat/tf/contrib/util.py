"""``tf.contrib.util``: the tensor-proto helpers TF 1.15 kept here, at their TF 2 homes."""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    "make_tensor_proto": "tensorflow:compat.v1.make_tensor_proto",
    "make_ndarray": "tensorflow:compat.v1.make_ndarray",
    "constant_value": "tensorflow.python.framework.tensor_util",
})
