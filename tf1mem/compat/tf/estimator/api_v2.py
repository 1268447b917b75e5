"""``tf.compat.v2.estimator`` under tf1mem: the names TF 1.15.5's v2 Estimator API had.

Measured on TF 1.15.5: ``tf.compat.v2.estimator`` had every name of ``tf.estimator``
but ``inputs`` and ``tpu``; most were the very same objects (``RunConfig``,
``EstimatorSpec``, ``ModeKeys``, ``TrainSpec`` / ``EvalSpec``, ``train_and_evaluate``,
the exporters, the hook aliases), and ``export`` held the same names. These come from
:mod:`tf1mem.compat.tf.estimator`. ``Estimator`` was ``EstimatorV2`` (no
``export_savedmodel``): :class:`~tf1mem.compat.tf.estimator.estimator.EstimatorV2`. The
canned estimators there were their V2 classes, whose ``loss_reduction`` defaults to
``SUM_OVER_BATCH_SIZE`` where TF1's sums: tf1mem re-implements only TF1's, so those
names raise :class:`tf1mem.compat.removed.RemovedAttributeError` naming the
``tf.compat.v1.estimator`` class rather than train a different loss unnoticed; so do
the other names whose v2 object differed (``experimental``, the ``*_parse_example_spec``
functions). Importing this module imports no TensorFlow.
"""

import importlib

__all__ = ["Estimator"]

# Names TF 1.15.5's tf.compat.v2.estimator did not have at all -> what to use.
_ABSENT = {
    "inputs": "tf.compat.v1.estimator.inputs (numpy_input_fn, pandas_input_fn), or tf.data",
    "tpu": "tf.distribute.TPUStrategy with tf.keras",
}

# Names whose tf.compat.v2.estimator object differed from tf.estimator's in TF 1.15.5,
# and that tf1mem does not provide in their v2 form.
_V2_ONLY = frozenset({
    "BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "DNNClassifier",
    "DNNEstimator", "DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator",
    "DNNLinearCombinedRegressor", "DNNRegressor", "LinearClassifier", "LinearEstimator",
    "LinearRegressor", "classifier_parse_example_spec", "regressor_parse_example_spec",
    "experimental",
})


def _estimator_package():
    return importlib.import_module("tf1mem.compat.tf.estimator")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "Estimator":
        from tf1mem.compat.tf.estimator import estimator

        value = estimator.EstimatorV2
    elif name in _ABSENT:
        raise AttributeError(
            f"module 'tf.compat.v2.estimator' has no attribute {name!r} (TF 1.15's v2 "
            f"Estimator API had none either); use {_ABSENT[name]}.")
    elif name in _V2_ONLY:
        from tf1mem.compat import errors as removed

        raise removed.RemovedAttributeError(
            f"tf.compat.v2.estimator.{name} is TF 1.15's v2 form (loss_reduction "
            f"SUM_OVER_BATCH_SIZE for the canned estimators), which tf1mem does not "
            f"provide. Use instead: tf.compat.v1.estimator.{name} (TF1's, which tf1mem "
            f"re-implements where it can), or tf.keras.")
    else:
        try:
            value = getattr(_estimator_package(), name)
        except AttributeError:
            raise AttributeError(f"module 'tf.compat.v2.estimator' (tf1mem's TF 1.15 v2 "
                                 f"Estimator API) has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__():
    package = _estimator_package()
    return sorted((set(dir(package)) - set(_ABSENT) - _V2_ONLY) | set(globals()))
