"""``BaselineClassifier`` / ``BaselineRegressor``: TF 1.15's bias-only canned models.

Owns the baseline model_fn: one variable ``baseline/bias`` (zeros, one entry per logit),
the same logits for every example of the batch, FTRL with learning rate 0.3 by default,
and the heads of :mod:`.head`; so the model learns the label's prior (classifier) or
mean (regressor), as in TF 1.15.
"""

from tf1mem.compat.tf.estimator import estimator as estimator_lib
from tf1mem.compat.tf.estimator.canned import head as head_lib
from tf1mem.compat.tf.estimator.canned import optimizers

__all__ = ["BaselineClassifier", "BaselineRegressor"]


class _Baseline(estimator_lib.Estimator):
    def __init__(self, head, model_dir, optimizer, config):
        def model_fn(features, labels, mode, config):
            import tensorflow as tf

            v1 = tf.compat.v1
            if isinstance(features, dict):
                if not features:
                    raise ValueError("features must not be empty: the baseline takes the "
                                     "batch size from the first feature")
                first = features[sorted(features)[0]]
            else:
                first = features
            if isinstance(first, tf.SparseTensor):
                batch = first.dense_shape[0]
            else:
                batch = tf.shape(first, out_type=tf.int64)[0]
            with v1.variable_scope("baseline"):
                bias = v1.get_variable("bias", shape=[head.logits_dimension],
                                       initializer=v1.zeros_initializer())
                logits = tf.ones(tf.stack([batch, 1]), dtype=bias.dtype) * bias
            opt = optimizers.get_optimizer(optimizer, 0.3) if mode == "train" else None
            with v1.name_scope("head"):
                return head.create_estimator_spec(
                    features if isinstance(features, dict) else {}, mode, logits,
                    labels=labels, optimizer=opt)

        super().__init__(model_fn, model_dir=model_dir, config=config)


class BaselineClassifier(_Baseline):
    """TF 1.15's ``tf.estimator.BaselineClassifier`` (predicts the label prior)."""

    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, loss_reduction=None):
        super().__init__(head_lib.make_head(n_classes, weight_column, label_vocabulary,
                                            loss_reduction), model_dir, optimizer, config)


class BaselineRegressor(_Baseline):
    """TF 1.15's ``tf.estimator.BaselineRegressor`` (predicts the label mean)."""

    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, loss_reduction=None):
        super().__init__(head_lib.regression_head(label_dimension, weight_column,
                                                  loss_reduction), model_dir, optimizer, config)
