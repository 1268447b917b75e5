"""``tf.compat.v2.estimator`` under tf1mem: the names TF 1.15.5's v2 Estimator API had.

Measured on TF 1.15.5: ``tf.compat.v2.estimator`` had every name of ``tf.estimator``
but ``inputs`` and ``tpu``; most were the very same objects (``RunConfig``,
``EstimatorSpec``, ``ModeKeys``, ``TrainSpec`` / ``EvalSpec``, ``train_and_evaluate``,
the exporters, the hook aliases), and ``export`` held the same names. These come from
:mod:`tf1mem.compat.tf.estimator`. ``Estimator`` was ``EstimatorV2`` (no
``export_savedmodel``): :class:`~tf1mem.compat.tf.estimator.estimator.EstimatorV2`. The
canned estimators there were their V2 classes, whose ``loss_reduction`` defaults to
``SUM_OVER_BATCH_SIZE`` where TF1's sums: tf1mem re-implements only TF1's, so those
names raise :class:`tf1mem.compat.errors.RemovedAttributeError` naming the
``tf.compat.v1.estimator`` class rather than train a different loss unnoticed; so do
the other names whose v2 object differed (``experimental``, the ``*_parse_example_spec``
functions). Importing this module imports no TensorFlow.
"""

from tf1mem import _lazy
from tf1mem.compat import errors, table
from tf1mem.compat.tf import estimator as _estimator

__all__ = ["Estimator"]


def _v2_form(qualified, replacement):
    return (f"{qualified} is TF 1.15's v2 form (loss_reduction SUM_OVER_BATCH_SIZE for the "
            f"canned estimators), which tf1mem does not provide. Use instead: "
            f"{replacement}.")


def _not_in_v2(name):
    if name in table.ESTIMATOR_V2_ABSENT:
        return (f"module 'tf.compat.v2.estimator' has no attribute {name!r} (TF 1.15's v2 "
                f"Estimator API had none either); use {table.ESTIMATOR_V2_ABSENT[name]}.")
    return (f"module 'tf.compat.v2.estimator' (tf1mem's TF 1.15 v2 Estimator API) has no "
            f"attribute {name!r}")


# Estimator is EstimatorV2; tf.estimator's other names, on first use, but those TF 1.15's
# v2 API lacked or had in another form, which raise.
__getattr__, __dir__, _LAZY = _lazy.attach(__name__, {
    **{name: "tf1mem.compat.tf.estimator" for name in dir(_estimator)
       if not name.startswith("__") and name not in table.ESTIMATOR_V2_ABSENT
       and name not in table.ESTIMATOR_V2_ONLY},
    "Estimator": "tf1mem.compat.tf.estimator.estimator:EstimatorV2",
}, fallback=errors.removed_names(
    "tf.compat.v2.estimator", __name__,
    {name: f"tf.compat.v1.estimator.{name} (TF1's, which tf1mem re-implements where it "
           f"can), or tf.keras" for name in table.ESTIMATOR_V2_ONLY},
    message=_v2_form, unknown=_not_in_v2))
