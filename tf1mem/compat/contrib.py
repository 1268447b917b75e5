"""What ``tf.contrib`` (and other APIs gone from TF 2) become under the TF1 shim.

This module owns the mapping table and nothing else: which ``tf.contrib.X`` names
resolve to a maintained implementation (``slim``, ``layers`` and ``framework`` to
tf-slim, ``rnn`` to TF's v1 RNN cells, ``data`` to ``tf.data.experimental``, ...),
and, for everything else, the error that says the API was removed with TF 2 and
what replaces it. :mod:`tf1mem.compat.shim` builds the ``tensorflow.contrib`` modules from
it. Nothing here imports TensorFlow at import time.
"""

import importlib
import types

from tf1mem import errors
from tf1mem._tf import v1 as _v1

__all__ = [
    "RemovedModuleError",
    "RemovedAttributeError",
    "CONTRIB_MODULES",
    "REMOVED_CONTRIB",
    "REMOVED_TOP_LEVEL",
    "removed_message",
    "make_composite",
]


class RemovedModuleError(errors.ShimError, ImportError):
    """Importing a TF1 module that TF 2 no longer has and tf1mem does not map."""


class RemovedAttributeError(errors.ShimError, AttributeError):
    """Using a TF1 symbol that TF 2 no longer has and tf1mem does not map."""


def _slim():
    return importlib.import_module("tf_slim")


def _attr(path):
    """Returns a resolver for a dotted attribute path below ``tf.compat.v1``."""

    def resolve():
        obj = _v1()
        for part in path.split("."):
            obj = getattr(obj, part)
        return obj

    return resolve


# tf.contrib.X -> where its symbols come from, first match wins. A source is a
# module name (str) or a zero-argument callable returning a module or a dict.
def _rnn_extras():
    v1 = _v1()
    return {
        "static_rnn": v1.nn.static_rnn,
        "static_bidirectional_rnn": v1.nn.static_bidirectional_rnn,
        "static_state_saving_rnn": v1.nn.static_state_saving_rnn,
        "stack_bidirectional_dynamic_rnn": None,
    }


def _framework_extras():
    import tensorflow as tf

    v1 = tf.compat.v1
    return {
        "nest": tf.nest,
        "get_or_create_global_step": v1.train.get_or_create_global_step,
        "get_global_step": v1.train.get_global_step,
        "is_tensor": tf.is_tensor,
        "sort": tf.sort,
        "argsort": tf.argsort,
        "load_checkpoint": tf.train.load_checkpoint,
        "load_variable": tf.train.load_variable,
        "list_variables": tf.train.list_variables,
        "init_from_checkpoint": v1.train.init_from_checkpoint,
        "convert_to_tensor_or_sparse_tensor": v1.convert_to_tensor_or_sparse_tensor,
    }


def _layers_extras():
    v1 = _v1()
    return {"l2_normalize": v1.nn.l2_normalize, "embed_sequence": None}


CONTRIB_MODULES = {
    # name: (sources, note for the module docstring)
    "slim": ("tf_slim", "tf-slim, the maintained home of tf.contrib.slim"),
    "layers": ((_layers_extras, "tf_slim"), "tf-slim's layers, initializers, regularizers"),
    "framework": ((_framework_extras, "tf_slim"), "tf-slim's variables/arg_scope and TF core"),
    "rnn": ((_rnn_extras, _attr("nn.rnn_cell")), "tf.compat.v1.nn.rnn_cell and static_rnn"),
    "data": ((_attr("data.experimental"),), "tf.data.experimental"),
    "losses": ((_attr("losses"),), "tf.compat.v1.losses"),
    "metrics": ((_attr("metrics"),), "tf.compat.v1.metrics (streaming_* are gone)"),
    "keras": ((_attr("keras"),), "tf.compat.v1.keras"),
    "summary": ((_attr("summary"),), "tf.compat.v1.summary"),
}

# Removed modules: tf.contrib.X -> replacement advice.
REMOVED_CONTRIB = {
    "factorization": "scikit-learn's sklearn.cluster.KMeans (KMeans), or write the "
                     "model with tf.compat.v1 ops; tf.estimator.experimental.KMeans "
                     "left with tf.estimator in TF 2.16",
    "tensor_forest": "TensorFlow Decision Forests (pip install tensorflow_decision_forests)",
    "learn": "tf.keras (Estimators and tf.contrib.learn were removed; "
             "tf.contrib.learn.datasets.mnist is tensorflow.examples.tutorials.mnist.input_data)",
    "estimator": "tf.estimator (tf1mem provides TF 1.15's core Estimator API; "
                 "tf.contrib.estimator's extras are not provided), or tf.keras",
    "distributions": "TensorFlow Probability: tfp.distributions",
    "bayesflow": "TensorFlow Probability",
    "seq2seq": "tensorflow_addons.seq2seq, or Keras attention layers",
    "opt": "tf.keras.optimizers, or tensorflow_addons.optimizers",
    "crf": "tensorflow_addons.text.crf",
    "image": "tf.image, or tensorflow_addons.image",
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU (they use cuDNN on a GPU)",
    "training": "tf.compat.v1.train (HParams: a dict, absl flags or keras_tuner)",
    "lookup": "tf.lookup",
    "tpu": "tf.distribute.TPUStrategy",
    "eager": "tf.compat.v1 with tf.enable_eager_execution(), or TF 2 itself",
    "memory_stats": "tf.config.experimental.get_memory_info('GPU:0') "
                    "(peak and current bytes), or tf1mem's memory tools",
    "quantize": "the TensorFlow Model Optimization Toolkit (tfmot)",
    "graph_editor": "no replacement; rebuild the graph with tf.compat.v1 ops",
    "integrate": "TensorFlow Probability: tfp.math.ode",
    "predictor": "tf.saved_model.load",
    "mixed_precision": "tf.keras.mixed_precision",
    "nccl": "tf.distribute.MirroredStrategy",
    "gan": "TF-GAN (pip install tensorflow-gan)",
    "timeseries": "no direct replacement; Keras models",
    "boosted_trees": "TensorFlow Decision Forests",
    "hooks": "tf.compat.v1.train's SessionRunHooks",
    "text": "TensorFlow Text (tensorflow_text)",
    "staging": "tf.data prefetching",
    "util": "tf.make_ndarray / tf.make_tensor_proto",
}

# Removed top-level TF1 names (tf.X) -> replacement advice. (tf.estimator is provided by
# tf1mem.compat.estimator.)
REMOVED_TOP_LEVEL = {}

# Per-symbol advice for names that a mapped contrib module no longer has.
REMOVED_SYMBOLS = {
    "rnn.LayerNormBasicLSTMCell": "tf.compat.v1.nn.rnn_cell.LSTMCell plus layer "
                                  "normalisation, or tf.keras.layers.LSTMCell",
    "rnn.LSTMBlockCell": "tf.compat.v1.nn.rnn_cell.LSTMCell (same maths, no fused kernel)",
    "rnn.GRUBlockCell": "tf.compat.v1.nn.rnn_cell.GRUCell",
    "rnn.AttentionCellWrapper": "Keras attention layers",
    "rnn.stack_bidirectional_dynamic_rnn": "stack tf.compat.v1.nn.bidirectional_dynamic_rnn "
                                           "calls, one per layer",
    "layers.embed_sequence": "tf.compat.v1.nn.embedding_lookup on a tf.get_variable matrix",
    "layers.real_valued_column": "tf.keras preprocessing layers",
    "layers.sparse_column_with_hash_bucket": "tf.keras.layers.Hashing",
    "training.HParams": "a dict, absl flags or keras_tuner",
}


def removed_message(qualified, replacement=None):
    """The one wording every "removed" error uses.

    Args:
      qualified: the TF1 name, e.g. ``"tf.contrib.factorization.KMeans"``.
      replacement: what to use instead, or None when there is nothing to name.
    """
    msg = (f"{qualified} was removed with TensorFlow 2 (tf.contrib and the other "
           f"TF1-only APIs are gone) and tf1mem does not provide it.")
    if replacement:
        msg += f" Use instead: {replacement}."
    return msg


def _lookup(sources, name):
    for source in sources:
        if isinstance(source, str):
            table = importlib.import_module(source)
        else:
            table = source()
        if isinstance(table, dict):
            if name in table:
                return table[name]
        elif hasattr(table, name):
            return getattr(table, name)
    raise KeyError(name)


def make_composite(fullname, contrib_name):
    """Builds the module object for ``tf.contrib.<contrib_name>``.

    A one-source mapping is the source module itself (``tf.contrib.slim is
    tf_slim``); several sources give a new module whose attributes are looked up
    lazily, first source first.

    Returns:
      A module. Raises KeyError when ``contrib_name`` is not mapped.
    """
    sources, note = CONTRIB_MODULES[contrib_name]
    if isinstance(sources, str):
        return importlib.import_module(sources)
    module = types.ModuleType(fullname, f"tf.contrib.{contrib_name} under tf1mem: {note}.")

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            value = _lookup(sources, name)
        except KeyError:
            value = None
        if value is None:
            key = f"{contrib_name}.{name}"
            raise RemovedAttributeError(removed_message(
                f"tf.contrib.{key}", REMOVED_SYMBOLS.get(key)))
        module.__dict__[name] = value  # cache: later lookups are plain dict hits
        return value

    module.__getattr__ = __getattr__
    module.__path__ = []  # a package, so `import tensorflow.contrib.rnn.x` reaches the finder
    return module
