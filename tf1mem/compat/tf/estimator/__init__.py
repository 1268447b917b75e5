"""``tf.estimator`` under tf1mem: TF 1.15's Estimator API, written on TF 2.21's v1 training.

TensorFlow removed ``tf.estimator`` in 2.16; this package is what TF1 scripts get as
``tf.estimator`` (and ``import tensorflow.estimator``) under ``python -m tf1mem.run``,
``tf1mem.v1`` and ``tf1mem.legacy()``. It provides :class:`Estimator`,
:class:`EstimatorSpec`, :class:`ModeKeys`, :class:`RunConfig`, ``inputs``
(``numpy_input_fn``, ``pandas_input_fn``), ``export``, ``train_and_evaluate`` with
:class:`TrainSpec` / :class:`EvalSpec` (locally or over a ``TF_CONFIG`` cluster) and the
exporters (:class:`LatestExporter`, :class:`FinalExporter`, :class:`BestExporter`), the canned ``LinearRegressor``,
``LinearClassifier``, ``DNNRegressor``, ``DNNClassifier``, ``DNNLinearCombined*``,
``Baseline*`` (TF1's variable names, heads and metric keys), ``experimental``
(``experimental.py``: ``KMeans``, tf.contrib.factorization's KMeansClustering; the
early-stopping hooks of ``early_stopping.py``; ``InMemoryEvaluatorHook`` of ``hooks.py``),
TF1's hook aliases (``tf.estimator.SessionRunHook``, ...). Every
other TF1 name raises :class:`tf1mem.compat.errors.RemovedAttributeError` naming what
to use instead. Importing this package imports no TensorFlow.
"""

from tf1mem import _lazy
from tf1mem.compat import errors, table
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

# The canned estimators, tf.estimator.experimental and the hook aliases, on first use;
# the TF1 names tf1mem does not provide raise, naming the table's replacement.
__getattr__, __dir__, _LAZY = _lazy.attach(__name__, {
    **_CANNED,
    "experimental": ".experimental:",
    **{name: f"tensorflow:compat.v1.train.{name}" for name in _TRAIN_ALIASES},
}, fallback=errors.removed_names(
    "tf.estimator", __name__, table.ESTIMATOR_REMOVED,
    unknown="module 'tf.estimator' (tf1mem's TF1 Estimator API) has no attribute {name!r}"))
