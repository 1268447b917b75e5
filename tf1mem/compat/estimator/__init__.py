"""``tf.estimator`` under tf1mem: TF 1.15's Estimator API, written on TF 2.21's v1 training.

TensorFlow removed ``tf.estimator`` in 2.16; this package is what TF1 scripts get as
``tf.estimator`` (and ``import tensorflow.estimator``) under ``python -m tf1mem.run``,
``tf1mem.v1`` and ``tf1mem.legacy()``. It provides :class:`Estimator`,
:class:`EstimatorSpec`, :class:`ModeKeys`, :class:`RunConfig`, ``inputs``
(``numpy_input_fn``, ``pandas_input_fn``), ``export``, ``train_and_evaluate`` with
:class:`TrainSpec` / :class:`EvalSpec` (locally or over a ``TF_CONFIG`` cluster) and the
exporters (:class:`LatestExporter`, :class:`FinalExporter`, :class:`BestExporter`), the canned ``LinearRegressor``,
``LinearClassifier``, ``DNNRegressor``, ``DNNClassifier``, ``DNNLinearCombined*``,
``Baseline*`` (TF1's variable names, heads and metric keys), ``experimental``'s
``KMeans`` (tf.contrib.factorization's KMeansClustering), early-stopping hooks
(``early_stopping.py``), ``InMemoryEvaluatorHook`` (``hooks.py``), TF1's hook aliases
(``tf.estimator.SessionRunHook``, ...). Every
other TF1 name raises :class:`tf1mem.compat.contrib.RemovedAttributeError` naming what
to use instead. Importing this package imports no TensorFlow.
"""

import importlib

from tf1mem.compat.estimator import export, inputs
from tf1mem.compat.estimator.estimator import Estimator, WarmStartSettings
from tf1mem.compat.estimator.exporter import (BestExporter, Exporter, FinalExporter,
                                              LatestExporter)
from tf1mem.compat.estimator.model_fn import EstimatorSpec, ModeKeys
from tf1mem.compat.estimator.run_config import RunConfig
from tf1mem.compat.estimator.training import EvalSpec, TrainSpec, train_and_evaluate

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "WarmStartSettings",
           "TrainSpec", "EvalSpec", "train_and_evaluate", "inputs", "export", "Exporter",
           "LatestExporter", "FinalExporter", "BestExporter", "LinearRegressor",
           "LinearClassifier", "DNNRegressor", "DNNClassifier", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "BaselineClassifier", "BaselineRegressor", "VocabInfo"]

_CANNED = {
    "LinearRegressor": "tf1mem.compat.estimator.canned.linear",
    "LinearClassifier": "tf1mem.compat.estimator.canned.linear",
    "DNNRegressor": "tf1mem.compat.estimator.canned.dnn",
    "DNNClassifier": "tf1mem.compat.estimator.canned.dnn",
    "DNNLinearCombinedClassifier": "tf1mem.compat.estimator.canned.dnn_linear_combined",
    "DNNLinearCombinedRegressor": "tf1mem.compat.estimator.canned.dnn_linear_combined",
    "BaselineClassifier": "tf1mem.compat.estimator.canned.baseline",
    "BaselineRegressor": "tf1mem.compat.estimator.canned.baseline",
}

# tf.estimator.X that were plain aliases of tf.compat.v1.train.X in TF 1.15.
_TRAIN_ALIASES = ("SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
                  "CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook",
                  "FinalOpsHook", "GlobalStepWaiterHook", "LoggingTensorHook",
                  "NanLossDuringTrainingError",
                  "NanTensorHook", "ProfilerHook", "SecondOrStepTimer", "StepCounterHook",
                  "StopAtStepHook", "SummarySaverHook", "VocabInfo")

# TF1 names not provided -> what to use instead.
_NOT_PROVIDED = {
    "tpu": "tf.distribute.TPUStrategy with tf.keras",
    "BoostedTreesClassifier": "TensorFlow Decision Forests (pip install "
                              "tensorflow_decision_forests)",
    "BoostedTreesRegressor": "TensorFlow Decision Forests (pip install "
                             "tensorflow_decision_forests)",
    "BoostedTreesEstimator": "TensorFlow Decision Forests",
    "DNNLinearCombinedEstimator": "a custom model_fn",
    "BaselineEstimator": "a custom model_fn",
    "LinearEstimator": "tf.estimator.LinearRegressor / LinearClassifier, or a custom model_fn",
    "DNNEstimator": "tf.estimator.DNNRegressor / DNNClassifier, or a custom model_fn",
    "add_metrics": "tf.contrib.estimator.add_metrics (TF 1.15's home of it; tf1mem "
                   "provides it)",
    "classifier_parse_example_spec": "tf.compat.v1.feature_column.make_parse_example_spec "
                                     "plus the label's tf.io.FixedLenFeature",
    "regressor_parse_example_spec": "tf.compat.v1.feature_column.make_parse_example_spec "
                                    "plus the label's tf.io.FixedLenFeature",
    "Head": "the canned estimators' own heads, or a custom model_fn",
    "MultiLabelHead": "a custom model_fn with tf.nn.sigmoid_cross_entropy_with_logits",
    "MultiHead": "a custom model_fn",
    "RegressionHead": "tf.estimator.LinearRegressor / DNNRegressor, or a custom model_fn",
    "BinaryClassHead": "tf.estimator.LinearClassifier / DNNClassifier",
    "MultiClassHead": "tf.estimator.LinearClassifier / DNNClassifier (n_classes > 2)",
    "PoissonRegressionHead": "a custom model_fn with tf.nn.log_poisson_loss",
    "LogisticRegressionHead": "a custom model_fn",
    "RNNClassifier": "a custom model_fn with tf.compat.v1.nn.dynamic_rnn",
    "KMeans": "tf.estimator.experimental.KMeans (tf1mem provides it) or scikit-learn's "
              "sklearn.cluster.KMeans",
}

# tf.estimator.experimental: the names tf1mem provides -> (module, attribute).
_EXPERIMENTAL = {
    "KMeans": ("tf1mem.compat.contrib_impl.factorization_estimators", "KMeansClustering"),
    "InMemoryEvaluatorHook": ("tf1mem.compat.estimator.hooks", "InMemoryEvaluatorHook"),
    "make_stop_at_checkpoint_step_hook": ("tf1mem.compat.estimator.hooks",
                                          "make_stop_at_checkpoint_step_hook"),
    **{name: ("tf1mem.compat.estimator.early_stopping", name) for name in (
        "make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook",
        "stop_if_no_decrease_hook", "stop_if_no_increase_hook")},
}
# TF 1.15's other tf.estimator.experimental names -> what to use instead.
_EXPERIMENTAL_NOT_PROVIDED = {
    "LinearSDCA": "tf.estimator.LinearClassifier / LinearRegressor with an FTRL or SGD "
                  "optimizer (the SDCA optimizer's kernels left with TF 2)",
    "build_raw_supervised_input_receiver_fn": "tf.estimator.export."
                                              "build_raw_serving_input_receiver_fn",
    "call_logit_fn": "call your logit_fn in your own model_fn",
    "dnn_logit_fn_builder": "tf.compat.v1.layers.dense layers in your own model_fn",
    "linear_logit_fn_builder": "tf.compat.v1.feature_column.linear_model in your own "
                               "model_fn",
}


def _experimental_module():
    """``tf.estimator.experimental``: ``KMeans`` (TF 1.13+'s name of
    tf.contrib.factorization.KMeansClustering), the early-stopping hooks,
    ``InMemoryEvaluatorHook`` and ``make_stop_at_checkpoint_step_hook``; every other name
    raises, naming what to use."""
    import types

    module = types.ModuleType(
        "tf.estimator.experimental", "tf.estimator.experimental under tf1mem: "
        + ", ".join(sorted(_EXPERIMENTAL)) + ".")

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in _EXPERIMENTAL:
            from tf1mem.compat import contrib

            raise contrib.RemovedAttributeError(contrib.removed_message(
                f"tf.estimator.experimental.{name}", _EXPERIMENTAL_NOT_PROVIDED.get(
                    name, "tf.keras (tf.estimator.experimental left with tf.estimator in "
                    "TF 2.16; tf1mem provides " + ", ".join(sorted(_EXPERIMENTAL)) + ")")))
        source, attr = _EXPERIMENTAL[name]
        value = getattr(importlib.import_module(source), attr)
        module.__dict__[name] = value
        return value

    module.__getattr__ = __getattr__
    module.__dir__ = lambda: sorted(_EXPERIMENTAL)
    return module


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _CANNED:
        value = getattr(importlib.import_module(_CANNED[name]), name)
    elif name == "experimental":
        value = _experimental_module()
    elif name in _TRAIN_ALIASES:
        from tf1mem._tf import v1

        value = getattr(v1().train, name)
    elif name in _NOT_PROVIDED:
        from tf1mem.compat import contrib

        raise contrib.RemovedAttributeError(contrib.removed_message(
            f"tf.estimator.{name}", _NOT_PROVIDED[name]))
    else:
        raise AttributeError(f"module 'tf.estimator' (tf1mem's TF1 Estimator API) has no "
                             f"attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(__all__) | set(_TRAIN_ALIASES) | set(globals()))
