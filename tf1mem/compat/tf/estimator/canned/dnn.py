"""``DNNRegressor`` and ``DNNClassifier`` (TF 1.15's v1 canned feed-forward models).

Owns the DNN model_fn: ``tf.compat.v1.feature_column.input_layer`` under
``dnn/input_from_feature_columns``, one ``dense`` layer per ``hidden_units`` entry
(``dnn/hiddenlayer_<i>/kernel|bias``, Glorot-uniform, ReLU by default, optional
dropout while training), ``dnn/logits``, Adagrad with learning rate 0.05 by default, and
the heads of :mod:`.head`. The names are TF 1.15's, so its checkpoints restore.
"""

from tf1mem.compat.tf.estimator import estimator as estimator_lib
from tf1mem.compat.tf.estimator.canned import head as head_lib
from tf1mem.compat.tf.estimator.canned import linear as linear_lib
from tf1mem.compat.tf.estimator.canned import optimizers

__all__ = ["DNNRegressor", "DNNClassifier"]


def _dnn_logits(features, mode, units, hidden_units, feature_columns, activation_fn, dropout,
                config):
    """The logits, built inside the caller's ``dnn`` variable scope (TF1's names)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    partitioner = linear_lib._partitioner(config)
    # TF 1.15's canned DNN was a Keras model: resource variables (4 ops each and a read
    # at each use, where a ref variable builds 3), so a seeded graph's draws need them
    with v1.variable_scope("input_from_feature_columns", values=tuple(features.values()),
                           partitioner=partitioner, use_resource=True):
        net = v1.feature_column.input_layer(features, feature_columns)
    for layer_id, width in enumerate(hidden_units):
        with v1.variable_scope(f"hiddenlayer_{layer_id}", values=(net,),
                               use_resource=True) as scope:
            net = v1.layers.dense(net, units=width, activation=activation_fn,
                                  kernel_initializer=v1.glorot_uniform_initializer(),
                                  name=scope)
            if dropout is not None and mode == "train":
                net = v1.layers.dropout(net, rate=dropout, training=True)
        _layer_summary(net, scope.name)
    with v1.variable_scope("logits", values=(net,), use_resource=True) as scope:
        logits = v1.layers.dense(net, units=units, activation=None,
                                 kernel_initializer=v1.glorot_uniform_initializer(),
                                 name=scope)
    _layer_summary(logits, scope.name)
    return logits


def _layer_summary(value, tag):
    import tensorflow as tf

    tf.compat.v1.summary.scalar(f"{tag}/fraction_of_zero_values", tf.math.zero_fraction(value))
    tf.compat.v1.summary.histogram(f"{tag}/activation", value)


class _DNN(estimator_lib.Estimator):
    def __init__(self, head, hidden_units, feature_columns, model_dir, optimizer,
                 activation_fn, dropout, config, warm_start_from, batch_norm):
        columns = linear_lib._check_columns(feature_columns)
        if not hidden_units or not all(isinstance(u, int) and u > 0 for u in hidden_units):
            raise ValueError(f"hidden_units must be a non-empty list of positive integers, "
                             f"got {hidden_units!r}")
        if dropout is not None and not 0 <= dropout < 1:
            raise ValueError(f"dropout must be in [0, 1) or None, got {dropout!r}")
        if batch_norm:
            raise NotImplementedError(
                "DNNClassifier/DNNRegressor(batch_norm=True) is not provided by tf1mem's "
                "tf.estimator; use a custom model_fn with tf.layers.batch_normalization")
        hidden_units = list(hidden_units)

        def model_fn(features, labels, mode, config):
            if not isinstance(features, dict):
                raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                                 f"{type(features)}")
            act = activation_fn
            if act is None:
                import tensorflow as tf

                act = tf.nn.relu
            import tensorflow as tf

            v1 = tf.compat.v1
            opt = optimizers.get_optimizer(optimizer, 0.05) if mode == "train" else None
            # One "dnn" scope around logits and head, as TF 1.15: the optimizer's own
            # variables (Adam's beta1_power) are then dnn/head/beta1_power.
            with v1.variable_scope("dnn", values=tuple(features.values()),
                                   partitioner=linear_lib._partitioner(config)):
                logits = _dnn_logits(features, mode, head.logits_dimension, hidden_units,
                                     columns, act, dropout, config)
                with v1.name_scope("head"):
                    spec = head.create_estimator_spec(features, mode, logits, labels=labels,
                                                      optimizer=opt)
            return spec

        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNClassifier(_DNN):
    """TF 1.15's ``tf.estimator.DNNClassifier``."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 activation_fn=None, dropout=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=None, batch_norm=False):
        head = head_lib.make_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, hidden_units, feature_columns, model_dir, optimizer,
                         activation_fn, dropout, config, warm_start_from, batch_norm)


class DNNRegressor(_DNN):
    """TF 1.15's ``tf.estimator.DNNRegressor``."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Adagrad", activation_fn=None, dropout=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None,
                 loss_reduction=None, batch_norm=False):
        head = head_lib.regression_head(label_dimension, weight_column, loss_reduction)
        super().__init__(head, hidden_units, feature_columns, model_dir, optimizer,
                         activation_fn, dropout, config, warm_start_from, batch_norm)
