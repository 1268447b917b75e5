"""``tf.contrib.losses``: TF1's losses in the contrib argument order, and metric learning.

``loss_ops.py`` (``tf.compat.v1.losses``' maths with predictions or logits first, as TF
1.15's contrib had them) and ``metric_learning.py`` (``triplet_semihard_loss``,
``contrastive_loss``, ``pairwise_distance``).
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'absolute_difference': '.loss_ops',
    'add_loss': '.loss_ops',
    'compute_weighted_loss': '.loss_ops',
    'cosine_distance': '.loss_ops',
    'get_losses': '.loss_ops',
    'get_regularization_losses': '.loss_ops',
    'get_total_loss': '.loss_ops',
    'hinge_loss': '.loss_ops',
    'log_loss': '.loss_ops',
    'mean_pairwise_squared_error': '.loss_ops',
    'mean_squared_error': '.loss_ops',
    'sigmoid_cross_entropy': '.loss_ops',
    'softmax_cross_entropy': '.loss_ops',
    'sparse_softmax_cross_entropy': '.loss_ops',
    'metric_learning': '.metric_learning:',
})
