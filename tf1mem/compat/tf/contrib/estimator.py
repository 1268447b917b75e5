"""``tf.contrib.estimator``: the extenders, and the hooks TF 1.10-1.12 had here.

``clip_gradients_by_norm``, ``add_metrics``, ``forward_features`` (tf1mem's
``tf.estimator`` extenders), and the early-stopping hooks and ``InMemoryEvaluatorHook``
that TF 1.10-1.12 had here before they moved to ``tf.estimator.experimental`` (the same
objects). The heads, ``RNNClassifier``, ``replicate_model_fn`` and
``SavedModelEstimator`` are named removed by tf1mem's table, with their replacement.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'add_metrics': 'tf1mem.compat.tf.estimator.extenders',
    'clip_gradients_by_norm': 'tf1mem.compat.tf.estimator.extenders',
    'forward_features': 'tf1mem.compat.tf.estimator.extenders',
    'make_early_stopping_hook': 'tf1mem.compat.tf.estimator.early_stopping',
    'stop_if_higher_hook': 'tf1mem.compat.tf.estimator.early_stopping',
    'stop_if_lower_hook': 'tf1mem.compat.tf.estimator.early_stopping',
    'stop_if_no_decrease_hook': 'tf1mem.compat.tf.estimator.early_stopping',
    'stop_if_no_increase_hook': 'tf1mem.compat.tf.estimator.early_stopping',
    'InMemoryEvaluatorHook': 'tf1mem.compat.tf.estimator.hooks',
})
