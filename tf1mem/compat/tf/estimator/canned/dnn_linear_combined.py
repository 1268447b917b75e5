"""``DNNLinearCombinedClassifier`` / ``Regressor``: TF 1.15's wide-and-deep canned models.

Owns the combined model_fn: a linear part (``linear/linear_model/...``, FTRL by default)
and a DNN part (``dnn/hiddenlayer_<i>/...``, Adagrad by default), their logits summed,
each part trained by its own optimizer on its own variables (default learning rates
TF 1.15's for this model: 0.001 for the DNN, min(0.005, 1/sqrt(#columns)) for FTRL), then the global step
incremented once, as TF 1.15 did; either part may be left out. The checkpoint names are
TF 1.15's (the optimizers run in the head's name scope: ``dnn/.../Adam``,
``head/beta1_power``).
"""

import math

from tf1mem.compat.tf.estimator import estimator as estimator_lib
from tf1mem.compat.tf.estimator.canned import dnn as dnn_lib
from tf1mem.compat.tf.estimator.canned import head as head_lib
from tf1mem.compat.tf.estimator.canned import linear as linear_lib
from tf1mem.compat.tf.estimator.canned import optimizers

__all__ = ["DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor"]


class _Combined(estimator_lib.Estimator):
    def __init__(self, head, model_dir, linear_feature_columns, linear_optimizer,
                 dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
                 dnn_dropout, config, warm_start_from, batch_norm, linear_sparse_combiner):
        linear_columns = list(linear_feature_columns or [])
        dnn_columns = list(dnn_feature_columns or [])
        if not linear_columns and not dnn_columns:
            raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                             "defined.")
        if dnn_columns and not dnn_hidden_units:
            raise ValueError(f"dnn_hidden_units must be defined when dnn_feature_columns is "
                             f"specified. dnn_feature_columns: {dnn_columns}")
        if batch_norm:
            raise NotImplementedError(
                "DNNLinearCombined*(batch_norm=True) is not provided by tf1mem's "
                "tf.estimator; use a custom model_fn with tf.layers.batch_normalization")
        if linear_sparse_combiner not in ("mean", "sqrtn", "sum"):
            raise ValueError(f"linear_sparse_combiner must be 'mean', 'sqrtn' or 'sum', got "
                             f"{linear_sparse_combiner!r}")
        hidden_units = list(dnn_hidden_units or [])

        def model_fn(features, labels, mode, config):
            import tensorflow as tf

            v1 = tf.compat.v1
            if not isinstance(features, dict):
                raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                                 f"{type(features)}")
            logits = []
            partitioner = linear_lib._partitioner(config)
            dnn_scope = linear_scope = None
            if dnn_columns:
                with v1.variable_scope("dnn", values=tuple(features.values()),
                                       partitioner=partitioner) as scope:
                    dnn_scope = scope.name
                    logits.append(dnn_lib._dnn_logits(
                        features, mode, head.logits_dimension, hidden_units, dnn_columns,
                        dnn_activation_fn or tf.nn.relu, dnn_dropout, config))
            if linear_columns:
                with v1.variable_scope("linear", values=tuple(features.values()),
                                       partitioner=partitioner) as scope:
                    linear_scope = scope.name
                    linear_logits = v1.feature_column.linear_model(
                        features, linear_columns, units=head.logits_dimension,
                        sparse_combiner=linear_sparse_combiner)
                    dnn_lib._layer_summary(linear_logits, scope.name)
                logits.append(linear_logits)
            total = logits[0] if len(logits) == 1 else logits[0] + logits[1]

            def train_op_fn(loss):
                ops = []
                if dnn_scope is not None:
                    ops.append(optimizers.get_optimizer(dnn_optimizer, 0.001).minimize(
                        loss, var_list=v1.get_collection(
                            v1.GraphKeys.TRAINABLE_VARIABLES, scope=dnn_scope)))
                if linear_scope is not None:
                    rate = min(0.005, 1.0 / math.sqrt(len(linear_columns)))
                    ops.append(optimizers.get_optimizer(linear_optimizer, rate).minimize(
                        loss, var_list=v1.get_collection(
                            v1.GraphKeys.TRAINABLE_VARIABLES, scope=linear_scope)))
                with tf.control_dependencies([tf.group(*ops)]):
                    return v1.assign_add(v1.train.get_global_step(), 1).op

            with v1.name_scope("head"):
                return head.create_estimator_spec(features, mode, total, labels=labels,
                                                  train_op_fn=train_op_fn)

        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(_Combined):
    """TF 1.15's ``tf.estimator.DNNLinearCombinedClassifier`` (wide and deep)."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=None, dnn_dropout=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=None, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = head_lib.make_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, model_dir, linear_feature_columns, linear_optimizer,
                         dnn_feature_columns, dnn_optimizer, dnn_hidden_units,
                         dnn_activation_fn, dnn_dropout, config, warm_start_from, batch_norm,
                         linear_sparse_combiner)


class DNNLinearCombinedRegressor(_Combined):
    """TF 1.15's ``tf.estimator.DNNLinearCombinedRegressor`` (wide and deep)."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=None, dnn_dropout=None, label_dimension=1,
                 weight_column=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=None, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = head_lib.regression_head(label_dimension, weight_column, loss_reduction)
        super().__init__(head, model_dir, linear_feature_columns, linear_optimizer,
                         dnn_feature_columns, dnn_optimizer, dnn_hidden_units,
                         dnn_activation_fn, dnn_dropout, config, warm_start_from, batch_norm,
                         linear_sparse_combiner)
