"""The heads of tf.contrib.learn's canned estimators (TF 1.15's contrib heads).

Owns what a contrib.learn model does after its logits, which is not what tf.estimator's
heads do: the training loss is the *mean* of the per-example loss (tf.estimator's v1
heads sum it), the head opens its own variable scope (``multi_class_head``,
``binary_logistic_head``, ``regression_head``) around the loss and the training op, the
prediction keys are ``classes`` (int64 ``[batch]``), ``probabilities``, ``logits``,
``logistic`` (binary) and ``scores`` (regression), and the evaluation reports
``loss`` and ``accuracy`` (multi-class), TF 1.15's ten binary metrics, or ``loss``
(regression). The result is a ``tf.estimator.EstimatorSpec`` for tf1mem's Estimator.
Nothing here imports TensorFlow at import time.
"""

from tf1mem.compat.tf.estimator import model_fn as model_fn_lib

__all__ = ["multi_class_head", "regression_head"]

ModeKeys = model_fn_lib.ModeKeys


def _tf():
    import tensorflow as tf

    return tf


def _mean_loss(unreduced, weights):
    """(training loss, reported loss): TF 1.15's ``_compute_weighted_loss``."""
    tf = _tf()
    with tf.compat.v1.name_scope("loss", values=(unreduced, weights)) as scope:
        if weights is None:
            loss = tf.reduce_mean(unreduced, name=scope)
            return loss, loss
        weights = tf.compat.v1.broadcast_to(weights, tf.shape(unreduced))
        weighted = tf.multiply(unreduced, weights)
        return (tf.reduce_mean(weighted, name=scope),
                tf.math.divide(tf.reduce_sum(weighted), tf.reduce_sum(weights),
                               name="weighted_average_loss"))


class _Head:
    """One head: ``logits_dimension``, the scope name, and :meth:`spec`."""

    scope_name = None
    metric_keys = ("loss",)  # the order of TF 1.15's evaluate() dict, global_step last

    def __init__(self, logits_dimension, weight_column_name=None):
        self.logits_dimension = logits_dimension
        self._weight_column_name = weight_column_name

    def _weights(self, features):
        tf = _tf()
        if not self._weight_column_name:
            return None
        if self._weight_column_name not in features:
            raise ValueError(f"Weights {self._weight_column_name} missing from features "
                             f"{sorted(features)}: the input must provide the "
                             f"weight_column_name feature")
        weights = tf.cast(features[self._weight_column_name], tf.float32)
        return tf.reshape(weights, (-1, 1)) if weights.shape.rank == 1 else weights

    def spec(self, features, mode, labels, logits, train_op_fn):
        """The EstimatorSpec of one mode (predictions; loss, metrics and train op when
        labels are given outside prediction)."""
        tf = _tf()
        with tf.compat.v1.variable_scope(None, default_name=self.scope_name,
                                         values=tuple(features.values()) + (logits,)):
            predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT or labels is None:
                return model_fn_lib.EstimatorSpec(mode, predictions=predictions)
            labels = self._labels(labels)
            weights = self._weights(features)
            loss, reported = self._loss(labels, logits, weights)
            with tf.compat.v1.name_scope(""):
                tf.compat.v1.summary.scalar("loss", tf.identity(reported))
            if mode == ModeKeys.TRAIN:
                with tf.compat.v1.name_scope(None, "train_op", (loss, labels)):
                    train_op = train_op_fn(loss)
                return model_fn_lib.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                                  train_op=train_op)
            with tf.compat.v1.name_scope("metrics"):
                metrics = self._metrics(reported, predictions, labels, weights)
            return model_fn_lib.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                              eval_metric_ops=metrics)

    def _labels(self, labels):
        tf = _tf()
        if isinstance(labels, dict):
            raise ValueError(f"labels must be a Tensor for tf.contrib.learn's canned "
                             f"estimators, got a dict with keys {sorted(labels)}")
        if isinstance(labels, tf.SparseTensor):
            raise ValueError("SparseTensor labels are not supported: feed a dense Tensor")
        return tf.convert_to_tensor(labels)


class _MultiClassHead(_Head):
    scope_name = "multi_class_head"
    metric_keys = ("loss", "accuracy")

    def __init__(self, n_classes, weight_column_name=None):
        super().__init__(n_classes, weight_column_name)

    def _predictions(self, logits):
        tf = _tf()
        with tf.compat.v1.name_scope(None, "predictions", (logits,)):
            return {"logits": logits,
                    "probabilities": tf.nn.softmax(logits, name="probabilities"),
                    "classes": tf.argmax(logits, 1, name="classes")}

    def _loss(self, labels, logits, weights):
        tf = _tf()
        if not labels.dtype.is_integer:
            raise ValueError(f"Labels dtype should be integer Instead got {labels.dtype}: "
                             f"give class ids 0..n_classes-1")
        squeezed = labels.shape.rank == 2
        ids = tf.squeeze(labels, axis=(1,)) if squeezed else labels
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
        if squeezed:
            loss = tf.expand_dims(loss, 1)
        return _mean_loss(loss, weights)

    def _metrics(self, reported, predictions, labels, weights):
        m = _tf().compat.v1.metrics
        return {"loss": m.mean(reported),
                "accuracy": m.accuracy(labels, predictions["classes"], weights)}


class _BinaryLogisticHead(_Head):
    scope_name = "binary_logistic_head"
    metric_keys = ("loss", "accuracy", "labels/prediction_mean", "labels/actual_label_mean",
                   "accuracy/baseline_label_mean", "auc", "auc_precision_recall",
                   "accuracy/threshold_0.500000_mean",
                   "precision/positive_threshold_0.500000_mean",
                   "recall/positive_threshold_0.500000_mean")

    def __init__(self, weight_column_name=None):
        super().__init__(1, weight_column_name)

    def _predictions(self, logits):
        tf = _tf()
        with tf.compat.v1.name_scope(None, "predictions", (logits,)):
            two_class = tf.concat((tf.zeros_like(logits), logits), 1)
            return {"logits": logits, "logistic": tf.sigmoid(logits, name="logistic"),
                    "probabilities": tf.nn.softmax(two_class, name="probabilities"),
                    "classes": tf.argmax(two_class, 1, name="classes")}

    def _loss(self, labels, logits, weights):
        tf = _tf()
        labels = tf.cast(labels, tf.float32)
        if labels.shape.rank == 1:
            labels = tf.expand_dims(labels, 1)
        return _mean_loss(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                  logits=logits), weights)

    def _metrics(self, reported, predictions, labels, weights):
        tf = _tf()
        m = tf.compat.v1.metrics
        logistic = predictions["logistic"]
        float_labels = tf.cast(labels, tf.float32)
        bool_labels = tf.cast(labels, tf.bool)
        at_half = tf.cast(tf.greater_equal(logistic, 0.5), tf.float32)

        def squeezed(pair):
            return tf.squeeze(pair[0]), tf.squeeze(pair[1])

        return {
            "loss": m.mean(reported),
            "accuracy": m.accuracy(labels, predictions["classes"], weights),
            "labels/prediction_mean": m.mean(logistic, weights),
            "labels/actual_label_mean": m.mean(float_labels, weights),
            "accuracy/baseline_label_mean": m.mean(float_labels, weights),
            "auc": m.auc(bool_labels, logistic, weights),
            "auc_precision_recall": m.auc(bool_labels, logistic, weights, curve="PR"),
            "accuracy/threshold_0.500000_mean": m.accuracy(labels, at_half, weights),
            "precision/positive_threshold_0.500000_mean": squeezed(
                m.precision_at_thresholds(labels, logistic, (0.5,), weights)),
            "recall/positive_threshold_0.500000_mean": squeezed(
                m.recall_at_thresholds(labels, logistic, (0.5,), weights)),
        }


class _RegressionHead(_Head):
    scope_name = "regression_head"

    def __init__(self, label_dimension=1, weight_column_name=None):
        if isinstance(label_dimension, bool) or not isinstance(label_dimension, int) or \
                label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension!r}: must be an "
                             f"integer >= 1")
        super().__init__(label_dimension, weight_column_name)

    def _predictions(self, logits):
        tf = _tf()
        with tf.compat.v1.name_scope(None, "predictions", (logits,)):
            if self.logits_dimension == 1:
                logits = tf.squeeze(logits, axis=(1,), name="scores")
            return {"scores": logits}

    def _loss(self, labels, logits, weights):
        tf = _tf()
        if labels.shape.rank == 1:
            labels = tf.expand_dims(labels, 1)
        if not labels.shape.is_compatible_with(logits.shape):
            raise ValueError(f"labels shape {labels.shape} does not match the model's output "
                             f"{logits.shape}: label_dimension={self.logits_dimension}")
        return _mean_loss(tf.compat.v1.squared_difference(logits, tf.cast(labels, tf.float32)),
                          weights)

    def _metrics(self, reported, predictions, labels, weights):
        return {"loss": _tf().compat.v1.metrics.mean(reported)}


def multi_class_head(n_classes, weight_column_name=None):
    """TF 1.15's contrib head for ``n_classes`` classes (logistic when 2)."""
    if isinstance(n_classes, bool) or not isinstance(n_classes, int) or n_classes < 2:
        raise ValueError(f"n_classes must be > 1 for classification: {n_classes!r}")
    if n_classes == 2:
        return _BinaryLogisticHead(weight_column_name)
    return _MultiClassHead(n_classes, weight_column_name)


def regression_head(label_dimension=1, weight_column_name=None):
    """TF 1.15's contrib regression head (mean squared error)."""
    return _RegressionHead(label_dimension, weight_column_name)
