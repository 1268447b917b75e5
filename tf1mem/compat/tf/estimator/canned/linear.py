"""``LinearRegressor`` and ``LinearClassifier`` (TF 1.15's v1 canned linear models).

Owns the linear model_fn: ``tf.compat.v1.feature_column.linear_model`` under the
``linear`` variable scope (so variables are ``linear/linear_model/<column>/weights`` and
``linear/linear_model/bias_weights``, as TF 1.15 saved them), FTRL with learning rate
``min(0.2, 1/sqrt(len(feature_columns)))`` by default, and the heads of :mod:`.head`.
"""

import math

from tf1mem.compat.tf.estimator import estimator as estimator_lib
from tf1mem.compat.tf.estimator.canned import head as head_lib
from tf1mem.compat.tf.estimator.canned import optimizers

__all__ = ["LinearRegressor", "LinearClassifier"]


def _check_columns(feature_columns):
    if feature_columns is None or isinstance(feature_columns, (str, bytes)):
        raise ValueError(f"feature_columns must be a list of tf.feature_column columns, got "
                         f"{feature_columns!r}")
    columns = list(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty")
    return columns


def _partitioner(config):
    from tf1mem._tf import v1 as _v1

    return _v1().min_max_variable_partitioner(
        max_partitions=max(1, config.num_ps_replicas), min_slice_size=64 << 20)


def _linear_model_fn(features, labels, mode, head, feature_columns, optimizer,
                     sparse_combiner, config):
    import tensorflow as tf

    v1 = tf.compat.v1
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")
    opt = optimizer() if mode == "train" else None
    # One "linear" scope around logits and head, as TF 1.15 (optimizer variables of its
    # own, if any, are then linear/head/...).
    with v1.variable_scope("linear", values=tuple(features.values()),
                           partitioner=_partitioner(config)):
        logits = v1.feature_column.linear_model(
            features, feature_columns, units=head.logits_dimension,
            sparse_combiner=sparse_combiner)
        bias = [v for v in v1.global_variables() if "linear_model/bias_weights" in v.name]
        if bias and mode == "train":
            v1.summary.scalar("bias", tf.reduce_mean(tf.concat(
                [tf.reshape(b, [-1]) for b in bias], 0)))
        with v1.name_scope("head"):
            spec = head.create_estimator_spec(features, mode, logits, labels=labels,
                                              optimizer=opt)
    return spec


class _Linear(estimator_lib.Estimator):
    def __init__(self, head, feature_columns, model_dir, optimizer, config, warm_start_from,
                 sparse_combiner):
        columns = _check_columns(feature_columns)
        if sparse_combiner not in ("mean", "sqrtn", "sum"):
            raise ValueError(f"sparse_combiner must be 'mean', 'sqrtn' or 'sum', got "
                             f"{sparse_combiner!r}")
        rate = min(0.2, 1.0 / math.sqrt(len(columns)))

        def model_fn(features, labels, mode, config):
            return _linear_model_fn(features, labels, mode, head, columns,
                                    lambda: optimizers.get_optimizer(optimizer, rate),
                                    sparse_combiner, config)

        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class LinearRegressor(_Linear):
    """TF 1.15's ``tf.estimator.LinearRegressor`` (squared error, summed over the batch)."""

    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None, partitioner=None, warm_start_from=None,
                 loss_reduction=None, sparse_combiner="sum"):
        head = head_lib.regression_head(label_dimension, weight_column, loss_reduction)
        super().__init__(head, feature_columns, model_dir, optimizer, config,
                         warm_start_from, sparse_combiner)


class LinearClassifier(_Linear):
    """TF 1.15's ``tf.estimator.LinearClassifier`` (sigmoid for 2 classes, else softmax)."""

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None, partitioner=None,
                 warm_start_from=None, loss_reduction=None, sparse_combiner="sum"):
        head = head_lib.make_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, feature_columns, model_dir, optimizer, config,
                         warm_start_from, sparse_combiner)
