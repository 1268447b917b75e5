"""``tf.estimator.export``: serving input receivers and export outputs for SavedModel export.

Owns what ``Estimator.export_saved_model`` needs from the user: a ``serving_input_receiver_fn``
returning a :class:`ServingInputReceiver` (the serving placeholders and the features the
model_fn gets from them), TF 1.15's two builders of such functions (parsing serialized
``tf.Example`` protos, or raw tensors), and the export-output classes (TF 2.21 still
ships them: ``PredictOutput``, ``ClassificationOutput``, ``RegressionOutput``).
"""

from tf1mem import _lazy
from tf1mem.compat import errors

_OUTPUTS = ("PredictOutput", "ClassificationOutput", "RegressionOutput", "ExportOutput")

# The export outputs are TF 2.21's own, on first use; every other TF1 name of
# tf.estimator.export raises, naming the receivers.
__getattr__, __dir__, _LAZY = _lazy.attach(__name__, {
    name: "tensorflow.python.saved_model.model_utils.export_output" for name in _OUTPUTS
}, fallback=errors.removed_names(
    "tf.estimator.export", __name__, {},
    default="tf.estimator.export.ServingInputReceiver with "
            "build_parsing_serving_input_receiver_fn or build_raw_serving_input_receiver_fn"))
__all__ = ["ServingInputReceiver", "build_parsing_serving_input_receiver_fn",
           "build_raw_serving_input_receiver_fn", *_OUTPUTS]


def _as_dict(value, default_key, what):
    import tensorflow as tf

    if value is None:
        raise ValueError(f"ServingInputReceiver: {what} must be given")
    if not isinstance(value, dict):
        value = {default_key: value}
    for key, tensor in value.items():
        if not isinstance(key, str):
            raise ValueError(f"ServingInputReceiver: {what} keys must be strings, got {key!r}")
        if not isinstance(tensor, (tf.Tensor, tf.SparseTensor)):
            raise ValueError(f"ServingInputReceiver: {what}[{key!r}] must be a Tensor or "
                             f"SparseTensor, got {tensor!r}")
    return value


class ServingInputReceiver:
    """The serving inputs: ``receiver_tensors`` are fed, ``features`` go to the model_fn.

    A single tensor is wrapped as ``{"feature": t}`` (features) / ``{"input": t}``
    (receiver_tensors), as in TF 1.15.
    """

    def __init__(self, features, receiver_tensors, receiver_tensors_alternatives=None):
        self.features = _as_dict(features, "feature", "features")
        self.receiver_tensors = _as_dict(receiver_tensors, "input", "receiver_tensors")
        alternatives = {}
        for name, tensors in (receiver_tensors_alternatives or {}).items():
            alternatives[name] = _as_dict(tensors, "input", f"receiver_tensors_alternatives"
                                                             f"[{name!r}]")
        self.receiver_tensors_alternatives = alternatives or None


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """A serving_input_receiver_fn that parses serialized ``tf.Example`` protos.

    The receiver tensor is ``examples`` (a string vector, the placeholder
    ``input_example_tensor``); features are ``tf.parse_example(examples, feature_spec)``.
    """
    if not isinstance(feature_spec, dict) or not feature_spec:
        raise ValueError(f"feature_spec must be a non-empty dict (e.g. from tf.feature_column."
                         f"make_parse_example_spec), got {feature_spec!r}")

    def serving_input_receiver_fn():
        import tensorflow as tf

        v1 = tf.compat.v1
        serialized = v1.placeholder(tf.string, shape=[default_batch_size],
                                    name="input_example_tensor")
        features = v1.parse_example(serialized, feature_spec)
        return ServingInputReceiver(features, {"examples": serialized})

    return serving_input_receiver_fn


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """A serving_input_receiver_fn feeding raw tensors: one placeholder per feature.

    Args:
      features: a dict of tensors (or a tensor) whose dtypes and shapes (after the
        batch dimension) the placeholders take.
    """
    features = features if isinstance(features, dict) else {"feature": features}

    def serving_input_receiver_fn():
        import tensorflow as tf

        v1 = tf.compat.v1
        receivers = {}
        for name, tensor in features.items():
            shape = [default_batch_size] + tensor.shape.as_list()[1:] \
                if tensor.shape.rank is not None else None
            receivers[name] = v1.placeholder(tensor.dtype, shape=shape, name=name)
        return ServingInputReceiver(dict(receivers), receivers)

    return serving_input_receiver_fn
