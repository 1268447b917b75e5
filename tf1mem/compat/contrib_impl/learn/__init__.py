"""The parts of ``tf.contrib.learn`` that TF1 code kept using after its Estimators.

Owns: ``preprocessing`` (``VocabularyProcessor``, ``CategoricalVocabulary``,
``tokenizer``, ``TOKENIZER_RE``), ``datasets`` (``mnist`` is tf1mem's MNIST loader,
``load_dataset("mnist")``), ``ModeKeys`` (TF1's learn keys: ``"train"``, ``"eval"``,
``"infer"``), ``RunConfig`` (TF 1.15's contrib signature on tf1mem's
``tf.estimator.RunConfig``), ``Experiment``, ``learn_runner`` and the export strategies
(``make_export_strategy``, ``ExportStrategy``) around a core ``tf.estimator.Estimator``,
and the canned models of :mod:`.estimators` (``DNNClassifier``, ``DNNRegressor``,
``LinearClassifier``, ``LinearRegressor``, ``DNNLinearCombinedClassifier`` /
``Regressor``, the contrib ``Estimator(model_fn)`` with ``ModelFnOps``, ``MetricSpec``,
``PredictionKey``, ``SKCompat``, ``NotFittedError``,
``infer_real_valued_columns_from_input``), and ``monitors`` (``BaseMonitor``, ``EveryN``,
``ValidationMonitor`` run as session hooks: :mod:`.monitors`). Everything else (the other
monitors) is named removed by :mod:`tf1mem.compat.contrib`, with a replacement. Values equal TF 1.15.5's
(corpus scripts ``contrib_learn.py``, ``contrib_learn_experiment.py``,
``contrib_learn_canned.py``, ``contrib_learn_feature_columns.py``,
``contrib_learn_more_columns.py``, ``contrib_learn_custom_model.py``). Nothing here imports TensorFlow at import time.
"""

from tf1mem.compat.contrib_impl.learn import datasets, learn_runner, monitors, preprocessing, utils
from tf1mem.compat.contrib_impl.learn import estimators
from tf1mem.compat.contrib_impl.learn.experiment import Experiment
from tf1mem.compat.contrib_impl.learn.export_strategy import ExportStrategy, make_export_strategy
from tf1mem.compat.contrib_impl.learn.run_config import RunConfig

__all__ = ["Experiment", "ExportStrategy", "ModeKeys", "RunConfig", "datasets",
           "learn_runner", "make_export_strategy", "monitors", "preprocessing", "symbols",
           "utils"]


class ModeKeys:
    """TF 1.15's ``tf.contrib.learn.ModeKeys`` (``INFER``, where tf.estimator says
    ``PREDICT``)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"


def symbols():
    """The names tf.contrib.learn resolves to under tf1mem."""
    from tf1mem.compat.contrib_impl.learn import io

    return {"io": io, "ModeKeys": ModeKeys, "RunConfig": RunConfig, "Experiment": Experiment,
            "learn_runner": learn_runner, "ExportStrategy": ExportStrategy,
            "make_export_strategy": make_export_strategy, "datasets": datasets,
            "preprocessing": preprocessing, "utils": utils, "monitors": monitors,
            **{name: getattr(estimators, name) for name in estimators.__all__}}
