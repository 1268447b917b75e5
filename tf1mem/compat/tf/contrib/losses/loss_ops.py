"""``tf.contrib.losses``: TF 1.15's argument order on ``tf.compat.v1.losses``' maths.

The contrib functions took the prediction first (``softmax_cross_entropy(logits,
onehot_labels)``, ``mean_squared_error(predictions, labels)``), ``tf.compat.v1.losses``
takes the labels first: a plain alias would swap them for positional calls. Each
function here takes TF 1.15's contrib parameters and calls the v1 loss by keyword,
which computes the same value (checked against TF 1.15.5 by the corpus script
``contrib_losses_metrics.py``). ``metric_learning`` is
:mod:`tf1mem.compat.tf.contrib.losses.metric_learning`.
"""

from tf1mem._tf import v1 as _v1
from tf1mem.compat.tf.contrib.losses import metric_learning

__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
           "get_losses", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "log_loss", "mean_pairwise_squared_error", "mean_squared_error", "metric_learning",
           "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


def _losses():
    return _v1().losses


def absolute_difference(predictions, labels=None, weights=1.0, scope=None):
    return _losses().absolute_difference(labels=labels, predictions=predictions,
                                         weights=weights, scope=scope)


def add_loss(loss, loss_collection="losses"):
    return _losses().add_loss(loss, loss_collection=loss_collection)


def compute_weighted_loss(losses, weights=1.0, scope=None):
    return _losses().compute_weighted_loss(losses, weights=weights, scope=scope)


def cosine_distance(predictions, labels=None, axis=None, weights=1.0, scope=None, dim=None):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    return _losses().cosine_distance(labels=labels, predictions=predictions, axis=axis,
                                     weights=weights, scope=scope)


def get_losses(scope=None, loss_collection="losses"):
    return _losses().get_losses(scope=scope, loss_collection=loss_collection)


def get_regularization_losses(scope=None):
    return _losses().get_regularization_losses(scope=scope)


def get_total_loss(add_regularization_losses=True, name="total_loss"):
    return _losses().get_total_loss(add_regularization_losses=add_regularization_losses,
                                    name=name)


def hinge_loss(logits, labels=None, scope=None):
    # TF 1.15's contrib hinge_loss is unreduced (one value per element) and, unlike
    # the other losses, not added to the LOSSES collection.
    return _losses().hinge_loss(labels=labels, logits=logits, scope=scope,
                                loss_collection=None, reduction=_losses().Reduction.NONE)


def log_loss(predictions, labels=None, weights=1.0, epsilon=1e-7, scope=None):
    return _losses().log_loss(labels=labels, predictions=predictions, weights=weights,
                              epsilon=epsilon, scope=scope)


def mean_pairwise_squared_error(predictions, labels=None, weights=1.0, scope=None):
    return _losses().mean_pairwise_squared_error(labels=labels, predictions=predictions,
                                                 weights=weights, scope=scope)


def mean_squared_error(predictions, labels=None, weights=1.0, scope=None):
    return _losses().mean_squared_error(labels=labels, predictions=predictions,
                                        weights=weights, scope=scope)


def sigmoid_cross_entropy(logits, multi_class_labels, weights=1.0, label_smoothing=0,
                          scope=None):
    return _losses().sigmoid_cross_entropy(multi_class_labels=multi_class_labels,
                                           logits=logits, weights=weights,
                                           label_smoothing=label_smoothing, scope=scope)


def softmax_cross_entropy(logits, onehot_labels, weights=1.0, label_smoothing=0, scope=None):
    return _losses().softmax_cross_entropy(onehot_labels=onehot_labels, logits=logits,
                                           weights=weights, label_smoothing=label_smoothing,
                                           scope=scope)


def sparse_softmax_cross_entropy(logits, labels, weights=1.0, scope=None):
    return _losses().sparse_softmax_cross_entropy(labels=labels, logits=logits,
                                                  weights=weights, scope=scope)
