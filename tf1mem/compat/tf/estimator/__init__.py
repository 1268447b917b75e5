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
other TF1 name raises :class:`tf1mem.compat.removed.RemovedAttributeError` naming what
to use instead. Importing this package imports no TensorFlow.
"""

import importlib

from tf1mem.compat import table

from tf1mem.compat.tf.estimator import export, inputs
from tf1mem.compat.tf.estimator.estimator import Estimator, WarmStartSettings
from tf1mem.compat.tf.estimator.exporter import (BestExporter, Exporter, FinalExporter,
                                              LatestExporter)
from tf1mem.compat.tf.estimator.model_fn import EstimatorSpec, ModeKeys
from tf1mem.compat.tf.estimator.run_config import RunConfig
from tf1mem.compat.tf.estimator.training import EvalSpec, TrainSpec, train_and_evaluate

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "WarmStartSettings",
           "TrainSpec", "EvalSpec", "train_and_evaluate", "inputs", "export", "Exporter",
           "LatestExporter", "FinalExporter", "BestExporter", "LinearRegressor",
           "LinearClassifier", "DNNRegressor", "DNNClassifier", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "BaselineClassifier", "BaselineRegressor", "VocabInfo"]

_CANNED = {
    "LinearRegressor": "tf1mem.compat.tf.estimator.canned.linear",
    "LinearClassifier": "tf1mem.compat.tf.estimator.canned.linear",
    "DNNRegressor": "tf1mem.compat.tf.estimator.canned.dnn",
    "DNNClassifier": "tf1mem.compat.tf.estimator.canned.dnn",
    "DNNLinearCombinedClassifier": "tf1mem.compat.tf.estimator.canned.dnn_linear_combined",
    "DNNLinearCombinedRegressor": "tf1mem.compat.tf.estimator.canned.dnn_linear_combined",
    "BaselineClassifier": "tf1mem.compat.tf.estimator.canned.baseline",
    "BaselineRegressor": "tf1mem.compat.tf.estimator.canned.baseline",
}

# tf.estimator.X that were plain aliases of tf.compat.v1.train.X in TF 1.15.
_TRAIN_ALIASES = ("SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
                  "CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook",
                  "FinalOpsHook", "GlobalStepWaiterHook", "LoggingTensorHook",
                  "NanLossDuringTrainingError",
                  "NanTensorHook", "ProfilerHook", "SecondOrStepTimer", "StepCounterHook",
                  "StopAtStepHook", "SummarySaverHook", "VocabInfo")

# tf.estimator.experimental: the names tf1mem provides -> (module, attribute).
_EXPERIMENTAL = {
    "KMeans": ("tf1mem.compat.tf.contrib.factorization.estimators", "KMeansClustering"),
    "InMemoryEvaluatorHook": ("tf1mem.compat.tf.estimator.hooks", "InMemoryEvaluatorHook"),
    "make_stop_at_checkpoint_step_hook": ("tf1mem.compat.tf.estimator.hooks",
                                          "make_stop_at_checkpoint_step_hook"),
    **{name: ("tf1mem.compat.tf.estimator.early_stopping", name) for name in (
        "make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook",
        "stop_if_no_decrease_hook", "stop_if_no_increase_hook")},
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
            from tf1mem.compat import errors as removed

            raise removed.RemovedAttributeError(removed.removed_message(
                f"tf.estimator.experimental.{name}", table.ESTIMATOR_EXPERIMENTAL_REMOVED.get(
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
    elif name in table.ESTIMATOR_REMOVED:
        from tf1mem.compat import errors as removed

        raise removed.RemovedAttributeError(removed.removed_message(
            f"tf.estimator.{name}", table.ESTIMATOR_REMOVED[name]))
    else:
        raise AttributeError(f"module 'tf.estimator' (tf1mem's TF1 Estimator API) has no "
                             f"attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(__all__) | set(_TRAIN_ALIASES) | set(globals()))
