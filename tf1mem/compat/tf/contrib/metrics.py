"""``tf.contrib.metrics``: the ``streaming_*`` metrics on ``tf.compat.v1.metrics``.

TF 1.15's ``streaming_X(predictions, labels, ...)`` is ``tf.compat.v1.metrics.X``
with the first two arguments the other way round (``labels`` first there): each
function here takes the contrib order and calls the v1 metric by keyword, which
gives the same (value, update_op) pair (checked against TF 1.15.5 by the corpus
script ``contrib_losses_metrics.py``). ``accuracy`` is contrib's one-shot (not
streaming) accuracy; ``f1_score`` is the best F1 over thresholds, as TF 1.15's. The
streaming metrics without a v1 twin
(``streaming_concat``, ``streaming_covariance``, ``streaming_pearson_correlation``
...) are not provided: see :data:`tf1mem.compat.table.REMOVED_SYMBOLS`.
"""

from tf1mem import _lazy
from tf1mem._tf import v1 as _v1

# streaming name -> (v1 metric, the contrib parameters after predictions/labels)
_PAIRED = {
    "streaming_accuracy": ("accuracy", ()),
    "streaming_auc": ("auc", ("num_thresholds", "metrics_collections", "updates_collections",
                              "curve", "name")),
    "streaming_precision": ("precision", ()),
    "streaming_recall": ("recall", ()),
    "streaming_mean_absolute_error": ("mean_absolute_error", ()),
    "streaming_mean_squared_error": ("mean_squared_error", ()),
    "streaming_root_mean_squared_error": ("root_mean_squared_error", ()),
    "streaming_true_positives": ("true_positives", ()),
    "streaming_true_negatives": ("true_negatives", ()),
    "streaming_false_positives": ("false_positives", ()),
    "streaming_false_negatives": ("false_negatives", ()),
}


def _paired(name, v1_name):
    def metric(predictions, labels, weights=None, metrics_collections=None,
               updates_collections=None, name=None, **kwargs):
        return getattr(_v1().metrics, v1_name)(
            labels=labels, predictions=predictions, weights=weights,
            metrics_collections=metrics_collections,
            updates_collections=updates_collections, name=name, **kwargs)

    metric.__name__ = metric.__qualname__ = name
    metric.__doc__ = (f"TF 1.15's tf.contrib.metrics.{name}(predictions, labels, ...): "
                      f"tf.compat.v1.metrics.{v1_name} with the arguments by keyword.")
    return metric


def streaming_auc(predictions, labels, weights=None, num_thresholds=200,
                  metrics_collections=None, updates_collections=None, curve="ROC", name=None):
    return _v1().metrics.auc(labels=labels, predictions=predictions, weights=weights,
                             num_thresholds=num_thresholds,
                             metrics_collections=metrics_collections,
                             updates_collections=updates_collections, curve=curve, name=name)


def streaming_mean(values, weights=None, metrics_collections=None, updates_collections=None,
                   name=None):
    return _v1().metrics.mean(values, weights=weights, metrics_collections=metrics_collections,
                              updates_collections=updates_collections, name=name)


def streaming_mean_tensor(values, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    return _v1().metrics.mean_tensor(values, weights=weights,
                                     metrics_collections=metrics_collections,
                                     updates_collections=updates_collections, name=name)


def streaming_mean_iou(predictions, labels, num_classes, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    return _v1().metrics.mean_iou(labels=labels, predictions=predictions,
                                  num_classes=num_classes, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)


def streaming_recall_at_k(predictions, labels, k, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    # TF 1.15: the mean of in_top_k over the batch, streamed.
    v1 = _v1()
    in_top_k = v1.to_float(v1.nn.in_top_k(predictions, labels, k))
    return v1.metrics.mean(in_top_k, weights=weights, metrics_collections=metrics_collections,
                           updates_collections=updates_collections,
                           name=name or f"recall_at_{k}")


def streaming_sparse_precision_at_k(predictions, labels, k, class_id=None, weights=None,
                                    metrics_collections=None, updates_collections=None,
                                    name=None):
    return _v1().metrics.precision_at_k(labels=labels, predictions=predictions, k=k,
                                        class_id=class_id, weights=weights,
                                        metrics_collections=metrics_collections,
                                        updates_collections=updates_collections, name=name)


def streaming_sparse_recall_at_k(predictions, labels, k, class_id=None, weights=None,
                                 metrics_collections=None, updates_collections=None,
                                 name=None):
    return _v1().metrics.recall_at_k(labels=labels, predictions=predictions, k=k,
                                     class_id=class_id, weights=weights,
                                     metrics_collections=metrics_collections,
                                     updates_collections=updates_collections, name=name)


def accuracy(predictions, labels, weights=None, name=None):
    """TF 1.15's ``tf.contrib.metrics.accuracy``: the (weighted) fraction equal, now."""
    v1 = _v1()
    with v1.name_scope(name, "accuracy", [predictions, labels, weights]):
        predictions = v1.convert_to_tensor(predictions)
        labels = v1.convert_to_tensor(labels)
        if predictions.dtype != labels.dtype:
            raise ValueError(f"dtypes of predictions and labels should match; got "
                             f"{predictions.dtype!r} and {labels.dtype!r}")
        correct = v1.cast(v1.equal(predictions, labels), v1.float32)
        if weights is not None:
            weights = v1.cast(weights, v1.float32)
            return v1.div(v1.reduce_sum(correct * weights), v1.reduce_sum(weights))
        return v1.reduce_mean(correct)


def f1_score(labels, predictions, weights=None, num_thresholds=200,
             metrics_collections=None, updates_collections=None, name=None):
    """TF 1.15's ``tf.contrib.metrics.f1_score``: the best F1 over thresholds, streamed.

    ``predictions`` are probabilities in [0, 1]; at each of ``num_thresholds``
    thresholds spread evenly over [0, 1] (the ends moved out by 1e-7) the streamed true
    positives, false positives and false negatives give an F1, and the value is the
    largest (``labels`` first, as TF 1.15's classification metrics took them). Returns
    ``(f1, update_op)``, the update op giving the best F1 after the batch.
    """
    v1 = _v1()
    from tensorflow.python.ops import metrics_impl

    if not isinstance(num_thresholds, int) or num_thresholds < 2:
        raise ValueError(f"f1_score: num_thresholds must be an int of at least 2 (the two "
                         f"ends of [0, 1]); got {num_thresholds!r}")
    epsilon = 1e-7
    with v1.variable_scope(name, "f1", (labels, predictions, weights)):
        predictions, labels, weights = metrics_impl._remove_squeezable_dimensions(  # pylint: disable=protected-access
            predictions=predictions, labels=labels, weights=weights)
        inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        thresholds = [-epsilon] + inner + [1.0 + epsilon]
        values, updates = metrics_impl._confusion_matrix_at_thresholds(  # pylint: disable=protected-access
            labels, predictions, thresholds, weights, includes=("tp", "fp", "fn"))

        def best(counts, suffix):
            tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
            precision = v1.div(tp, epsilon + tp + fp, name=f"precision_{suffix}")
            recall = v1.div(tp, epsilon + tp + fn, name=f"recall_{suffix}")
            return v1.reduce_max(2.0 * precision * recall / (precision + recall + epsilon))

        value, update_op = best(values, "value"), best(updates, "update")
        if metrics_collections:
            v1.add_to_collections(metrics_collections, value)
        if updates_collections:
            v1.add_to_collections(updates_collections, update_op)
        return value, update_op


for _name, (_v1_name, _) in _PAIRED.items():
    globals()[_name] = _paired(_name, _v1_name)
del _name, _v1_name

# TF 1.15's tf.contrib.metrics also re-exported the set operations and confusion_matrix.
__getattr__, __dir__, _TF_NAMES = _lazy.attach(__name__, {
    "set_difference": "tensorflow:compat.v1.sets.set_difference",
    "set_intersection": "tensorflow:compat.v1.sets.set_intersection",
    "set_size": "tensorflow:compat.v1.sets.set_size",
    "set_union": "tensorflow:compat.v1.sets.set_union",
    "confusion_matrix": "tensorflow:compat.v1.confusion_matrix",
})
__all__ = sorted([*_PAIRED, "streaming_auc", "streaming_mean", "streaming_mean_tensor",
                  "streaming_mean_iou", "streaming_recall_at_k",
                  "streaming_sparse_precision_at_k", "streaming_sparse_recall_at_k",
                  "accuracy", "f1_score", *_TF_NAMES])
