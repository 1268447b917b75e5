"""TF 1.15's heads for the canned estimators: loss, predictions and eval metrics from logits.

Owns what a canned estimator does after its logits: the label checks (shape, range,
``label_vocabulary``), the per-example loss and its reduction (``loss_reduction``,
``SUM`` by default as in TF 1.15's v1 canned estimators), ``weight_column``, the
prediction keys (``logits``, ``logistic``, ``probabilities``, ``class_ids``,
``classes``, ``all_class_ids``, ``all_classes``; ``predictions`` for regression) and the
metric keys TF 1.15 reported (``accuracy``, ``accuracy_baseline``, ``auc``,
``auc_precision_recall``, ``average_loss``, ``label/mean``, ``precision``,
``prediction/mean``, ``recall``; ``loss`` and ``global_step`` come from the Estimator).
"""

from tf1mem.compat.tf.estimator import model_fn as model_fn_lib

__all__ = ["regression_head", "binary_head", "multi_class_head", "make_head"]

ModeKeys = model_fn_lib.ModeKeys


def _tf():
    import tensorflow as tf

    return tf


def _check_reduction(loss_reduction):
    v1 = _tf().compat.v1
    allowed = (v1.losses.Reduction.SUM, v1.losses.Reduction.SUM_OVER_BATCH_SIZE,
               v1.losses.Reduction.MEAN, v1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS,
               v1.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS)
    if loss_reduction not in allowed:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction!r}; one of {allowed} "
                         f"(tf.losses.Reduction)")
    return loss_reduction


class _Head:
    """Common part: weights, the reduced loss, the EstimatorSpec for each mode."""

    def __init__(self, logits_dimension, weight_column=None, loss_reduction=None, name=None):
        v1 = _tf().compat.v1
        self.logits_dimension = logits_dimension
        self._weight_column = weight_column
        self._loss_reduction = _check_reduction(
            v1.losses.Reduction.SUM if loss_reduction is None else loss_reduction)
        self._name = name

    def _weights(self, features, logits):
        tf = _tf()
        if self._weight_column is None:
            return 1.0
        key = self._weight_column if isinstance(self._weight_column, str) else getattr(
            self._weight_column, "key", None)
        if key is None:
            raise ValueError(f"weight_column must be a string or a numeric_column, got "
                             f"{self._weight_column!r}")
        if key not in features:
            raise ValueError(f"weight_column {key!r} is not in the features "
                             f"({sorted(features)}); the input_fn must provide it")
        weights = tf.cast(features[key], tf.float32)
        return tf.reshape(weights, [-1, 1])

    def _labels_2d(self, labels, logits, dimension):
        tf = _tf()
        if labels is None:
            raise ValueError("You must provide a labels Tensor. Given: None. Suggested "
                             "troubleshooting steps: Check that your data contain your "
                             "label feature. Check that your input_fn properly parses and "
                             "returns labels.")
        if isinstance(labels, dict):
            raise ValueError(f"labels must be a Tensor for this head, got a dict with keys "
                             f"{sorted(labels)}")
        labels = tf.convert_to_tensor(labels)
        if labels.shape.rank == 1:
            labels = tf.expand_dims(labels, -1)
        if labels.shape.rank is not None and labels.shape.rank != 2:
            raise ValueError(f"labels shape must be [batch_size, {dimension}] (or "
                             f"[batch_size]), got {labels.shape}")
        if labels.shape.rank == 2 and labels.shape[1] is not None and labels.shape[1] != dimension:
            raise ValueError(f"Mismatched label shape. Expected labels dimension={dimension}."
                             f"  Received {labels.shape[1]}. Suggested Fix: check your "
                             f"n_classes / label_dimension argument to the estimator and/or "
                             f"the shape of your label.")
        return labels

    def _mean(self, values, weights):
        return _tf().compat.v1.metrics.mean(values, weights=weights)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              train_op_fn=None):
        """The EstimatorSpec of a canned estimator in ``mode``."""
        tf = _tf()
        v1 = tf.compat.v1
        predictions = self._predictions(logits)
        if mode == ModeKeys.PREDICT:
            return model_fn_lib.EstimatorSpec(mode, predictions=predictions,
                                              export_outputs=self._export_outputs(predictions))
        weights = self._weights(features, logits)
        labels, unreduced = self._labels_and_loss(labels, logits)
        loss = v1.losses.compute_weighted_loss(
            unreduced, weights=weights, reduction=self._loss_reduction,
            loss_collection=None)
        if mode == ModeKeys.EVAL:
            metrics = self._metrics(labels, predictions, unreduced, weights)
            return model_fn_lib.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                              eval_metric_ops=metrics)
        reg = v1.losses.get_regularization_losses()
        total = loss + tf.add_n(reg) if reg else loss
        v1.summary.scalar("average_loss", tf.reduce_mean(unreduced))
        if optimizer is not None:
            train_op = optimizer.minimize(total, global_step=v1.train.get_global_step())
        else:
            train_op = train_op_fn(total)
        update_ops = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
        if update_ops:
            train_op = tf.group(train_op, *update_ops)
        return model_fn_lib.EstimatorSpec(mode, predictions=predictions, loss=total,
                                          train_op=train_op)


def _export_output(name, *args, **kwargs):
    from tensorflow.python.saved_model.model_utils import export_output

    return getattr(export_output, name)(*args, **kwargs)


class _RegressionHead(_Head):
    def __init__(self, label_dimension=1, **kwargs):
        if not isinstance(label_dimension, int) or label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension!r}: must be an "
                             f"integer >= 1")
        super().__init__(label_dimension, **kwargs)

    def _predictions(self, logits):
        return {"predictions": logits}

    def _export_outputs(self, predictions):
        regress = _export_output("RegressionOutput", value=predictions["predictions"])
        return {"serving_default": regress, "regression": regress,
                "predict": _export_output("PredictOutput", predictions)}

    def _labels_and_loss(self, labels, logits):
        tf = _tf()
        labels = tf.cast(self._labels_2d(labels, logits, self.logits_dimension), tf.float32)
        return labels, tf.compat.v1.squared_difference(logits, labels)

    def _metrics(self, labels, predictions, unreduced, weights):
        return {"average_loss": self._mean(unreduced, weights),
                "prediction/mean": self._mean(predictions["predictions"], weights),
                "label/mean": self._mean(labels, weights)}


class _ClassHead(_Head):
    def __init__(self, n_classes, label_vocabulary=None, **kwargs):
        if label_vocabulary is not None:
            if not isinstance(label_vocabulary, (list, tuple)) or not all(
                    isinstance(v, str) for v in label_vocabulary):
                raise ValueError(f"label_vocabulary should be a list or a tuple of strings. "
                                 f"Given type: {type(label_vocabulary)}")
            if len(label_vocabulary) != n_classes:
                raise ValueError(f"label_vocabulary has {len(label_vocabulary)} entries but "
                                 f"n_classes is {n_classes}")
        self._vocab = list(label_vocabulary) if label_vocabulary else None
        self._n_classes = n_classes
        super().__init__(1 if n_classes == 2 else n_classes, **kwargs)

    def _label_ids(self, labels, logits):
        tf = _tf()
        labels = self._labels_2d(labels, logits, 1)
        if self._vocab is not None:
            if labels.dtype != tf.string:
                raise ValueError(f"Labels dtype should be string when label_vocabulary is "
                                 f"given, got {labels.dtype}")
            table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
                tf.constant(self._vocab), tf.range(self._n_classes, dtype=tf.int64)), -1)
            ids = table.lookup(labels)
            check = tf.debugging.assert_non_negative(
                ids, message=f"Labels must be <= n_classes - 1 and one of label_vocabulary "
                             f"{self._vocab}")
        else:
            if labels.dtype == tf.string:
                raise ValueError("Labels are strings: pass label_vocabulary=[...] to the "
                                 "estimator, or feed integer class ids")
            ids = tf.cast(labels, tf.int64)
            check = tf.debugging.assert_less(
                ids, tf.constant(self._n_classes, tf.int64),
                message=f"Labels must be <= n_classes - 1 (n_classes={self._n_classes})")
            check = tf.group(check, tf.debugging.assert_non_negative(
                ids, message="Labels must >= 0"))
        with tf.control_dependencies([check]):
            return tf.identity(ids)

    def _classes(self, class_ids):
        tf = _tf()
        if self._vocab is not None:
            return tf.gather(tf.constant(self._vocab), class_ids)
        return tf.strings.as_string(class_ids, name="str_classes")

    def _export_outputs(self, predictions):
        classify = _export_output("ClassificationOutput", scores=predictions["probabilities"],
                                  classes=predictions["all_classes"])
        return {"serving_default": classify, "classification": classify,
                "predict": _export_output("PredictOutput", predictions)}

    def _all_classes(self, logits):
        tf = _tf()
        batch = tf.shape(logits)[0]
        ids = tf.tile(tf.expand_dims(tf.range(self._n_classes), 0), [batch, 1])
        names = tf.constant(self._vocab) if self._vocab is not None else tf.strings.as_string(
            tf.range(self._n_classes))
        return ids, tf.tile(tf.expand_dims(names, 0), [batch, 1])


class _BinaryHead(_ClassHead):
    def __init__(self, **kwargs):
        super().__init__(2, **kwargs)

    def _predictions(self, logits):
        tf = _tf()
        logistic = tf.sigmoid(logits, name="logistic")
        two = tf.concat([tf.zeros_like(logits), logits], axis=-1, name="two_class_logits")
        class_ids = tf.expand_dims(tf.argmax(two, axis=-1), -1)
        all_ids, all_classes = self._all_classes(logits)
        return {"logits": logits, "logistic": logistic,
                "probabilities": tf.nn.softmax(two, name="probabilities"),
                "class_ids": class_ids, "classes": self._classes(class_ids),
                "all_class_ids": all_ids, "all_classes": all_classes}

    def _labels_and_loss(self, labels, logits):
        tf = _tf()
        ids = self._label_ids(labels, logits)
        float_labels = tf.cast(ids, tf.float32)
        return float_labels, tf.nn.sigmoid_cross_entropy_with_logits(
            labels=float_labels, logits=logits)

    def _metrics(self, labels, predictions, unreduced, weights):
        tf = _tf()
        m = tf.compat.v1.metrics
        label_mean, label_update = self._mean(labels, weights)
        class_ids = predictions["class_ids"]
        return {
            "accuracy": m.accuracy(labels, class_ids, weights=weights),
            "accuracy_baseline": (tf.maximum(label_mean, 1. - label_mean),
                                  tf.maximum(label_update, 1. - label_update)),
            "auc": m.auc(labels, predictions["logistic"], weights=weights, curve="ROC"),
            "auc_precision_recall": m.auc(labels, predictions["logistic"], weights=weights,
                                          curve="PR"),
            "average_loss": self._mean(unreduced, weights),
            "label/mean": (label_mean, label_update),
            "precision": m.precision(labels, class_ids, weights=weights),
            "prediction/mean": self._mean(predictions["logistic"], weights),
            "recall": m.recall(labels, class_ids, weights=weights),
        }


class _MultiClassHead(_ClassHead):
    def _predictions(self, logits):
        tf = _tf()
        class_ids = tf.expand_dims(tf.argmax(logits, axis=-1), -1)
        all_ids, all_classes = self._all_classes(logits)
        return {"logits": logits, "probabilities": tf.nn.softmax(logits, name="probabilities"),
                "class_ids": class_ids, "classes": self._classes(class_ids),
                "all_class_ids": all_ids, "all_classes": all_classes}

    def _labels_and_loss(self, labels, logits):
        tf = _tf()
        ids = self._label_ids(labels, logits)
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(
            labels=ids, logits=logits, reduction=tf.compat.v1.losses.Reduction.NONE,
            loss_collection=None)
        return ids, tf.expand_dims(loss, -1)

    def _metrics(self, labels, predictions, unreduced, weights):
        m = _tf().compat.v1.metrics
        return {"accuracy": m.accuracy(labels, predictions["class_ids"], weights=weights),
                "average_loss": self._mean(unreduced, weights)}


def regression_head(label_dimension=1, weight_column=None, loss_reduction=None):
    """TF1's regression head (squared error)."""
    return _RegressionHead(label_dimension, weight_column=weight_column,
                           loss_reduction=loss_reduction)


def binary_head(weight_column=None, label_vocabulary=None, loss_reduction=None):
    """TF1's binary head (sigmoid cross-entropy)."""
    return _BinaryHead(weight_column=weight_column, label_vocabulary=label_vocabulary,
                       loss_reduction=loss_reduction)


def multi_class_head(n_classes, weight_column=None, label_vocabulary=None,
                     loss_reduction=None):
    """TF1's multi-class head (softmax cross-entropy)."""
    return _MultiClassHead(n_classes, weight_column=weight_column,
                           label_vocabulary=label_vocabulary, loss_reduction=loss_reduction)


def make_head(n_classes, weight_column=None, label_vocabulary=None, loss_reduction=None):
    """The head of a canned classifier with ``n_classes`` (an integer > 1)."""
    if isinstance(n_classes, bool) or not isinstance(n_classes, int) or n_classes <= 1:
        raise ValueError(f"n_classes must be > 1: {n_classes!r}")
    if n_classes == 2:
        return binary_head(weight_column, label_vocabulary, loss_reduction)
    return multi_class_head(n_classes, weight_column, label_vocabulary, loss_reduction)
