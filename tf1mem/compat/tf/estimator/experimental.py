"""``tf.estimator.experimental`` under tf1mem: ``KMeans`` (TF 1.13+'s name of
tf.contrib.factorization's ``KMeansClustering``), the early-stopping hooks
(``early_stopping.py``), ``InMemoryEvaluatorHook`` and ``make_stop_at_checkpoint_step_hook``
(``hooks.py``), each imported on first use; every other name raises
:class:`tf1mem.compat.errors.RemovedAttributeError` naming what to use instead (the
table's replacement, else tf.keras).
"""

from tf1mem import _lazy
from tf1mem.compat import errors as _errors
from tf1mem.compat import table as _table

_NAMES = {
    "KMeans": "tf1mem.compat.tf.contrib.factorization.estimators:KMeansClustering",
    "InMemoryEvaluatorHook": ".hooks",
    "make_stop_at_checkpoint_step_hook": ".hooks",
    **{name: ".early_stopping" for name in (
        "make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook",
        "stop_if_no_decrease_hook", "stop_if_no_increase_hook")},
}

# (the imports are private: dir() lists the TF1 names only)
__getattr__, __dir__, __all__ = _lazy.attach(__name__, _NAMES, fallback=_errors.removed_names(
    "tf.estimator.experimental", __name__, _table.ESTIMATOR_EXPERIMENTAL_REMOVED,
    default="tf.keras (tf.estimator.experimental left with tf.estimator in TF 2.16; tf1mem "
            "provides " + ", ".join(sorted(_NAMES)) + ")"))
