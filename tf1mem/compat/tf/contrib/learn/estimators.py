"""tf.contrib.learn's canned estimators on tf1mem's ``tf.estimator.Estimator``.

Owns TF 1.15's contrib.learn interface: ``fit`` / ``evaluate`` / ``predict`` taking numpy
``x`` and ``y`` (read by :mod:`.data_feeder`: ``fit`` shuffles with TF 1.15's seed,
``evaluate`` and ``predict`` read each row once, all rows in one batch unless
``batch_size``) or an ``input_fn``; ``evaluate``'s dict (``loss`` is the mean loss,
plus the head's metrics and ``global_step``); ``predict`` as a generator of one example
at a time (``as_iterable=True``) or arrays; ``predict_classes`` / ``predict_proba`` /
``predict_scores``; and the models ``DNNClassifier``, ``DNNRegressor``,
``LinearClassifier``, ``LinearRegressor``, ``DNNLinearCombinedClassifier`` /
``Regressor`` with TF 1.15's graphs: partitioned variables,
``tf.contrib.layers.fully_connected`` layers (``dnn/hiddenlayer_<i>/weights|biases``,
``dnn/logits/...``), ``optimize_loss`` inside the head's scope (its
``<head>/dnn/learning_rate`` variable, the optimizer slots under TF 1.15's names), so
checkpoints and seeded runs equal TF 1.15.5's. Nothing here imports TensorFlow at import
time.
"""

import math

from tf1mem.compat.tf.contrib.layers import feature_column as fc
from tf1mem.compat.tf.contrib.layers import feature_column_ops as fc_ops
from tf1mem.compat.tf.contrib.learn import data_feeder
from tf1mem.compat.tf.contrib.learn import head as head_lib
from tf1mem.compat.tf.contrib.learn import metric_spec
from tf1mem.compat.tf.contrib.learn import model_fn as model_fn_lib
from tf1mem.compat.tf.contrib.learn import run_config
from tf1mem.compat.tf.estimator import estimator as core

__all__ = ["DNNClassifier", "DNNRegressor", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "Estimator", "LinearClassifier", "LinearRegressor",
           "MetricSpec", "ModelFnOps", "NotFittedError", "PredictionKey", "SKCompat",
           "infer_real_valued_columns_from_input"]

ModeKeys = core.ModeKeys
ModelFnOps = model_fn_lib.ModelFnOps
MetricSpec = metric_spec.MetricSpec
PredictionKey = metric_spec.PredictionKey
_DNN_LEARNING_RATE = 0.05  # TF 1.15's contrib DNN default
_LINEAR_LEARNING_RATE = 0.2  # TF 1.15's contrib linear default (capped by 1/sqrt(columns))
_ACTIVATIONS = ("relu", "tanh", "sigmoid")


class NotFittedError(ValueError, AttributeError):
    """Evaluating or predicting before ``fit`` wrote a checkpoint (TF 1.15's class)."""


def _tf():
    import tensorflow as tf

    return tf


def _verify_input_args(x, y, input_fn, batch_size):
    """TF 1.15's checks of which inputs may come together, with what to do instead."""
    tf = _tf()
    if input_fn is None:
        if x is None:
            raise ValueError("Either x or input_fn must be provided: pass the numpy features "
                             "as x=... (and labels as y=...), or input_fn=a function "
                             "returning (features, labels)")
        if tf.is_tensor(x) or (y is not None and tf.is_tensor(y)):
            raise ValueError("Inputs cannot be tensors. Please provide input_fn: x and y "
                             "take numpy arrays; wrap tensors in input_fn=lambda: (x, y)")
    else:
        if x is not None or y is not None:
            raise ValueError("Can not provide both input_fn and x or y: pass either the "
                             "numpy arrays (x=, y=) or input_fn")
        if batch_size is not None:
            raise ValueError("Can not provide both input_fn and batch_size: batch_size is "
                             "for x=/y=; the input_fn decides its own batches")


def _hooks(monitors, estimator):
    """Session hooks as given; tf.contrib.learn monitors run by one adapter hook."""
    from tf1mem.compat.tf.contrib.learn import monitors as monitor_lib

    return monitor_lib.replace_monitors_with_hooks(monitors, estimator)


def _stop_if_input_constant_hook(fed):
    """Stops prediction after one batch when the input cannot end by itself.

    TF 1.15's rule: an input without queue runners and not fed from numpy is constant
    (constant tensors, and also a Dataset), so predict reads one batch of it.
    """
    v1 = _tf().compat.v1

    class _StopIfInputConstant(v1.train.SessionRunHook):
        def begin(self):
            self._constant = not fed and not v1.get_collection(v1.GraphKeys.QUEUE_RUNNERS)

        def after_run(self, run_context, run_values):
            if self._constant:
                run_context.request_stop()

    return _StopIfInputConstant()


def _feature_dict(features):
    return features if isinstance(features, dict) else {"": features}


class _LearnEstimator(core.Estimator):
    """tf.contrib.learn's Estimator interface over tf1mem's core Estimator.

    Args:
      model_fn: a core ``model_fn(features, labels, mode, config)`` returning an
        EstimatorSpec (the canned models build theirs).
      feature_engineering_fn: ``fn(features, labels) -> (features, labels)`` applied
        before the model, or None.
      metric_keys: the order of ``evaluate``'s dict (the head's, as TF 1.15 built it).
      feature_dict: give the model a dict of features (``{'': x}`` for one tensor), as
        the canned models take them; False: the input's features as they are.
    """

    def __init__(self, model_fn, model_dir=None, config=None, feature_engineering_fn=None,
                 metric_keys=(), feature_dict=True):
        self._metric_keys = tuple(metric_keys)
        self._extra_metrics = {}  # evaluate(metrics=...) while it builds its graph
        if config is None:
            config = run_config.RunConfig()
        if feature_engineering_fn is not None and not callable(feature_engineering_fn):
            raise ValueError(f"feature_engineering_fn must be callable, got "
                             f"{feature_engineering_fn!r}")

        def wrapped(features, labels, mode, config):
            if mode == ModeKeys.TRAIN:
                # TF 1.15 built this read of the global step between the input and the
                # model; its ops count in the seeds of the model's initializers.
                from tensorflow.python.training import training_util

                training_util._get_or_create_global_step_read()
            if feature_engineering_fn is not None:
                features, labels = feature_engineering_fn(features, labels)
            # Random ops without a seed take TF 1.15's op seeds from the shim
            # (tf1mem.compat.runtime.op_seeds): this model_fn's ops are TF1's, so its seeded
            # initial weights are too.
            spec = model_fn(_feature_dict(features) if feature_dict else features,
                            labels, mode, config)
            if mode == ModeKeys.EVAL and self._extra_metrics:
                spec = spec._replace(eval_metric_ops=self._metric_ops(
                    spec, _feature_dict(features) if feature_dict else features, labels))
            return spec

        super().__init__(wrapped, model_dir=model_dir, config=config)

    def _metric_ops(self, spec, features, labels):
        """The model's eval_metric_ops plus those of evaluate's ``metrics``."""
        import tensorflow as tf

        ops = dict(spec.eval_metric_ops)
        with tf.compat.v1.name_scope("metrics"):
            for name, metric in self._extra_metrics.items():
                ops[name] = metric.create_metric_ops(features, labels, spec.predictions)
        return ops

    def _require_fitted(self):
        if not self.latest_checkpoint():
            raise NotFittedError(f"Couldn't find trained model at {self.model_dir}: call "
                                 f"fit() first (or pass a model_dir holding checkpoints)")

    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None,
            max_steps=None):
        """Trains on numpy ``x``/``y`` (shuffled batches, all rows when batch_size is None)
        or on ``input_fn``, for ``steps`` more steps or up to ``max_steps``.

        Returns:
          self.

        Raises:
          ValueError: both steps and max_steps; no input or two kinds of input; y missing.
        """
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        _verify_input_args(x, y, input_fn, batch_size)
        hooks = _hooks(monitors, self)
        if x is not None:
            if y is None:
                raise ValueError("fit(x=...) needs the labels as y=...")
            feeder = data_feeder.NumpyFeeder(x, y, batch_size, shuffle=True, epochs=None)
            input_fn = feeder.input_fn
            hooks.insert(0, feeder.hook())
        self.train(input_fn, hooks=hooks, steps=steps, max_steps=max_steps)
        return self

    def partial_fit(self, x=None, y=None, input_fn=None, steps=1, batch_size=None,
                    monitors=None):
        """``fit`` for ``steps`` (default 1) more steps."""
        return self.fit(x=x, y=y, input_fn=input_fn, steps=steps, batch_size=batch_size,
                        monitors=monitors)

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None,
                 steps=None, metrics=None, name=None, checkpoint_path=None, hooks=None,
                 log_progress=True):
        """Evaluates the newest checkpoint on numpy ``x``/``y`` (each row once) or on
        ``input_fn``.

        Returns:
          A dict: ``loss`` (the mean loss), the head's metrics, those of ``metrics`` (a
          dict of name -> :class:`MetricSpec`), ``global_step``.

        Raises:
          NotFittedError: no checkpoint. ValueError: bad inputs or metrics.
        """
        _verify_input_args(x, y, input_fn, batch_size)
        if metrics is not None and not isinstance(metrics, dict):
            raise ValueError(f"Metrics argument should be None or dict. Got {metrics!r}.")
        for key, spec in (metrics or {}).items():
            if not isinstance(spec, MetricSpec):
                raise ValueError(f"evaluate(metrics=...): {key!r} must be a "
                                 f"tf.contrib.learn.MetricSpec(metric_fn, prediction_key=...) "
                                 f"under tf1mem, got {spec!r}")
        hooks = list(hooks or ())
        if x is not None:
            if y is None:
                raise ValueError("evaluate(x=...) needs the labels as y=...")
            feeder = data_feeder.NumpyFeeder(x, y, batch_size, shuffle=False, epochs=1)
            input_fn = feeder.input_fn
            hooks.insert(0, feeder.hook())
        elif feed_fn is not None:
            hooks.insert(0, _tf().compat.v1.train.FeedFnHook(feed_fn))
        if checkpoint_path is None:
            self._require_fitted()
        self._extra_metrics = dict(metrics or {})
        try:
            results = super().evaluate(input_fn, steps=steps, hooks=hooks,
                                       checkpoint_path=checkpoint_path, name=name)
        finally:
            self._extra_metrics = {}
        order = [k for k in self._metric_keys if k in results]
        order += [k for k in results if k not in order and k != "global_step"]
        return {key: results[key] for key in order + ["global_step"]}

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True,
                iterate_batches=False):
        """Predictions for numpy ``x`` (each row once) or ``input_fn``'s features.

        Returns:
          as_iterable: a generator of one example's dict of predictions at a time (one
          batch's with iterate_batches); else a dict of arrays (all rows of ``x``, the
          first batch of ``input_fn``). An ``input_fn`` without queue runners is read
          for one batch only (TF 1.15's rule: its input is constant).
        """
        _verify_input_args(x, None, input_fn, batch_size)
        self._require_fitted()
        hooks = []
        if x is not None:
            feeder = data_feeder.NumpyFeeder(x, None, batch_size, shuffle=False, epochs=1)
            input_fn = feeder.input_fn
            hooks.append(feeder.hook())
        keys = list(outputs) if outputs else None
        if as_iterable:
            return self._predict_generator(input_fn, keys, hooks, iterate_batches)
        import numpy as np

        batches = self._predict_generator(input_fn, keys, hooks, True)
        if x is None:
            return next(iter(batches))
        batches = list(batches)
        return {key: np.concatenate([b[key] for b in batches]) for key in batches[0]}

    def _predict_generator(self, input_fn, keys, hooks, iterate_batches):
        hooks = hooks + [_stop_if_input_constant_hook(fed=bool(hooks))]
        yield from super().predict(input_fn, predict_keys=keys, hooks=hooks,
                                   yield_single_examples=not iterate_batches)

    def _predict_key(self, key, x, input_fn, batch_size, as_iterable):
        preds = self.predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                             as_iterable=as_iterable)
        if as_iterable:
            return (pred[key] for pred in preds)
        return preds[key]


class SKCompat:
    """TF 1.15's scikit-learn style wrapper: ``fit(x, y)``, ``score(x, y)``, ``predict(x)``
    with batches of 128 rows by default."""

    def __init__(self, estimator):
        if not isinstance(estimator, _LearnEstimator):
            raise ValueError(f"SKCompat wraps a tf.contrib.learn estimator under tf1mem, "
                             f"got {estimator!r}")
        self._estimator = estimator

    def fit(self, x, y, batch_size=128, steps=None, max_steps=None, monitors=None):
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps,
                            max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x, y, batch_size=128, steps=None, metrics=None, name=None):
        return self._estimator.evaluate(x=x, y=y, batch_size=batch_size, steps=steps,
                                        metrics=metrics, name=name)

    def predict(self, x, batch_size=128, outputs=None):
        """A dict of arrays of every prediction (``outputs``: those keys), all rows."""
        # The base predict, as TF 1.15: a classifier's own predict returns classes only.
        return _LearnEstimator.predict(self._estimator, x=x, batch_size=batch_size,
                                       outputs=outputs, as_iterable=False)


def _signatures(labels):
    """(dtype, shape with any batch size) of a Tensor or each Tensor of a dict."""
    if isinstance(labels, dict):
        return {key: _signatures(value) for key, value in labels.items()}
    shape = labels.shape
    if shape.rank:
        shape = _tf().TensorShape([None]).concatenate(shape[1:])
    return labels.dtype, shape


def _placeholders(signatures):
    v1 = _tf().compat.v1
    if isinstance(signatures, dict):
        return {key: _placeholders(value) for key, value in signatures.items()}
    dtype, shape = signatures
    return v1.placeholder(dtype, shape, name="labels")


class Estimator(_LearnEstimator):
    """TF 1.15's ``tf.contrib.learn.Estimator`` around a contrib ``model_fn``.

    Args:
      model_fn: ``model_fn(features, labels, [mode], [params], [config], [model_dir])``
        (the first two by position, any names, e.g. ``targets``) returning
        :class:`ModelFnOps` or ``(predictions, loss, train_op)``; its mode is a
        ``tf.contrib.learn.ModeKeys`` key.
      params: passed to the model_fn, which must then take ``params``.
      The others are the canned estimators'.

    Raises:
      ValueError: no callable model_fn; params the model_fn does not take.
    """

    def __init__(self, model_fn=None, model_dir=None, config=None, params=None,
                 feature_engineering_fn=None):
        if not callable(model_fn):
            raise ValueError(f"model_fn must be callable (features, labels, mode, params) -> "
                             f"ModelFnOps, got {model_fn!r}")
        args = core._fn_args(model_fn)
        if params is not None and "params" not in args:
            raise ValueError(f"Estimator's model_fn ({model_fn}) does not have a params "
                             f"argument, but params ({params}) were passed to the Estimator's "
                             f"constructor.")
        self._learn_params = params
        self._learn_model_fn = model_fn
        self._labels_info = None
        estimator = self

        def wrapped(features, labels, mode, config):
            if mode == ModeKeys.TRAIN and labels is not None:
                estimator._labels_info = _signatures(labels)
            elif mode == ModeKeys.PREDICT and labels is None and estimator._labels_info:
                # TF 1.15 gave the model_fn placeholders shaped like the labels fit() saw,
                # so a model_fn that builds its loss in every mode also predicts.
                labels = _placeholders(estimator._labels_info)
            kwargs = {}
            if "mode" in args:
                kwargs["mode"] = mode
            if "params" in args:
                kwargs["params"] = estimator.params
            if "config" in args:
                kwargs["config"] = config
            if "model_dir" in args:
                kwargs["model_dir"] = estimator.model_dir
            return model_fn_lib.to_estimator_spec(model_fn(features, labels, **kwargs), mode)

        super().__init__(wrapped, model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn, feature_dict=False)

    @property
    def params(self):
        """The params given to the constructor (None when none were)."""
        return self._learn_params

    @property
    def model_fn(self):
        return self._learn_model_fn


def _activation(activation_fn):
    tf = _tf()
    if activation_fn is None:
        return tf.nn.relu
    if isinstance(activation_fn, str):
        if activation_fn not in _ACTIVATIONS:
            raise ValueError(f"Activation name should be one of [{', '.join(_ACTIVATIONS)}], "
                             f"you provided {activation_fn}.")
        return getattr(tf.nn, activation_fn)
    return activation_fn


def _optimizer(optimizer, default):
    """What optimize_loss takes: a name, an Optimizer, or the result of a callable."""
    if optimizer is None:
        return default
    return optimizer() if callable(optimizer) else optimizer


def _partitioner(config, min_slice_size=None):
    tf = _tf()
    kwargs = {} if min_slice_size is None else {"min_slice_size": min_slice_size}
    return tf.compat.v1.min_max_variable_partitioner(
        max_partitions=max(1, config.num_ps_replicas), **kwargs)


def _columns(feature_columns):
    if feature_columns is None or isinstance(feature_columns, (str, bytes)):
        raise ValueError(f"feature_columns must be a list of tf.contrib.layers columns "
                         f"(e.g. [tf.contrib.layers.real_valued_column('', dimension=4)]), "
                         f"got {feature_columns!r}")
    columns = tuple(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty: give at least one "
                         "tf.contrib.layers.real_valued_column")
    fc_ops.check_columns(columns)
    return columns


def _not_provided(what, instead):
    raise NotImplementedError(f"{what} is not provided by tf1mem's tf.contrib.learn: "
                              f"{instead}")


def _layer_summary(value, tag, separator):
    """TF 1.15's summaries of a layer: ``<tag>_fraction_of_zero_values`` and
    ``<tag>_activation`` for the DNN models, with "/" for the combined ones."""
    tf = _tf()
    tf.compat.v1.summary.scalar(f"{tag}{separator}fraction_of_zero_values",
                                tf.math.zero_fraction(value))
    tf.compat.v1.summary.histogram(f"{tag}{separator}activation", value)


def _dnn_logits(features, mode, config, units, hidden_units, columns, activation_fn, dropout,
                input_layer_min_slice_size, separator):
    """The DNN's logits, built inside the caller's ``dnn`` variable scope as TF 1.15 did."""
    import tf_slim

    v1 = _tf().compat.v1
    with v1.variable_scope(
            "input_from_feature_columns", values=tuple(features.values()),
            partitioner=_partitioner(config, input_layer_min_slice_size or 64 << 20)
    ) as input_scope:
        net = fc_ops.dnn_input(features, columns, input_scope)
    for layer_id, width in enumerate(hidden_units):
        with v1.variable_scope(f"hiddenlayer_{layer_id}", values=(net,)) as scope:
            net = tf_slim.fully_connected(net, width, activation_fn=activation_fn,
                                          variables_collections=["dnn"], scope=scope)
            if dropout is not None and mode == ModeKeys.TRAIN:
                net = tf_slim.dropout(net, keep_prob=1.0 - dropout)
        _layer_summary(net, scope.name, separator)
    with v1.variable_scope("logits", values=(net,)) as scope:
        logits = tf_slim.fully_connected(net, units, activation_fn=None,
                                         variables_collections=["dnn"], scope=scope)
    _layer_summary(logits, scope.name, separator)
    return logits


def _dnn_model_fn(head, hidden_units, columns, optimizer, activation_fn, dropout,
                  gradient_clip_norm, input_layer_min_slice_size):
    import tf_slim

    def model_fn(features, labels, mode, config):
        v1 = _tf().compat.v1
        with v1.variable_scope("dnn", values=tuple(features.values()),
                               partitioner=_partitioner(config)):
            logits = _dnn_logits(features, mode, config, head.logits_dimension, hidden_units,
                                 columns, activation_fn, dropout, input_layer_min_slice_size,
                                 "_")

            def train_op_fn(loss):
                return tf_slim.optimize_loss(
                    loss=loss, global_step=v1.train.get_global_step(),
                    learning_rate=_DNN_LEARNING_RATE,
                    optimizer=_optimizer(optimizer, "Adagrad"),
                    clip_gradients=gradient_clip_norm, name="dnn", summaries=[])

            return head.spec(features, mode, labels, logits, train_op_fn)

    return model_fn


def _check_dnn(hidden_units, dropout, enable_centered_bias, embedding_lr_multipliers):
    if not hidden_units or not all(
            isinstance(u, int) and not isinstance(u, bool) and u > 0 for u in hidden_units):
        raise ValueError(f"hidden_units must be a non-empty list of positive integers, got "
                         f"{hidden_units!r}")
    if dropout is not None and not 0 <= dropout < 1:
        raise ValueError(f"dropout must be in [0, 1) or None, got {dropout!r}")
    if enable_centered_bias:
        _not_provided("enable_centered_bias=True", "leave it False (the default); the "
                      "logits layer has a bias already")
    if embedding_lr_multipliers:
        _not_provided("embedding_lr_multipliers", "leave it None (the embeddings then learn "
                      "at the optimizer's rate)")
    return list(hidden_units)


class _Classifier(_LearnEstimator):
    """``predict`` / ``predict_classes`` / ``predict_proba`` of TF 1.15's classifiers."""

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted classes, or the ``outputs`` keys' dicts when given."""
        if not outputs:
            return self.predict_classes(x=x, input_fn=input_fn, batch_size=batch_size,
                                        as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size,
                               outputs=outputs, as_iterable=as_iterable)

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The predicted class ids (int64), one per example."""
        preds = self._predict_key("classes", x, input_fn, batch_size, as_iterable)
        return preds if as_iterable else preds.reshape(-1)

    def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The class probabilities ``[n_classes]`` of each example."""
        return self._predict_key("probabilities", x, input_fn, batch_size, as_iterable)


class _Regressor(_LearnEstimator):
    """``predict`` / ``predict_scores`` of TF 1.15's regressors."""

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted values, or the ``outputs`` keys' dicts when given."""
        if not outputs:
            return self.predict_scores(x=x, input_fn=input_fn, batch_size=batch_size,
                                       as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size,
                               outputs=outputs, as_iterable=as_iterable)

    def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The predicted value of each example."""
        return self._predict_key("scores", x, input_fn, batch_size, as_iterable)


class DNNClassifier(_Classifier):
    """TF 1.15's ``tf.contrib.learn.DNNClassifier`` (softmax, or logistic for 2 classes)."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column_name=None, optimizer=None, activation_fn=None, dropout=None,
                 gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None):
        hidden_units = _check_dnn(hidden_units, dropout, enable_centered_bias,
                                  embedding_lr_multipliers)
        if label_keys is not None:
            _not_provided("DNNClassifier(label_keys=...)", "map the labels to class ids "
                          "0..n_classes-1 first, or use tf.estimator.DNNClassifier("
                          "label_vocabulary=...)")
        self._feature_columns = _columns(feature_columns)
        head = head_lib.multi_class_head(n_classes, weight_column_name)
        super().__init__(_dnn_model_fn(head, hidden_units, self._feature_columns, optimizer,
                                       _activation(activation_fn), dropout,
                                       gradient_clip_norm, input_layer_min_slice_size),
                         model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


class DNNRegressor(_Regressor):
    """TF 1.15's ``tf.contrib.learn.DNNRegressor`` (mean squared error)."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None,
                 optimizer=None, activation_fn=None, dropout=None, gradient_clip_norm=None,
                 enable_centered_bias=False, config=None, feature_engineering_fn=None,
                 label_dimension=1, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        hidden_units = _check_dnn(hidden_units, dropout, enable_centered_bias,
                                  embedding_lr_multipliers)
        self._feature_columns = _columns(feature_columns)
        head = head_lib.regression_head(label_dimension, weight_column_name)
        super().__init__(_dnn_model_fn(head, hidden_units, self._feature_columns, optimizer,
                                       _activation(activation_fn), dropout,
                                       gradient_clip_norm, input_layer_min_slice_size),
                         model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


def _linear_model_fn(head, columns, optimizer, gradient_clip_norm):
    def model_fn(features, labels, mode, config):
        tf = _tf()
        v1 = tf.compat.v1
        with v1.variable_scope("linear", values=tuple(features.values()),
                               partitioner=_partitioner(config, 64 << 20)):
            logits = fc_ops.linear_logits(features, columns, head.logits_dimension, "linear")

            def train_op_fn(loss):
                variables = v1.get_collection("linear")
                grads = v1.gradients(loss, variables)
                if gradient_clip_norm:
                    grads, _ = tf.clip_by_global_norm(grads, gradient_clip_norm)
                return _linear_optimizer(optimizer, len(columns)).apply_gradients(
                    zip(grads, variables), global_step=v1.train.get_global_step())

            return head.spec(features, mode, labels, logits, train_op_fn)

    return model_fn


def _linear_optimizer(optimizer, n_columns):
    """TF 1.15's linear optimizer: FTRL at min(0.2, 1/sqrt(columns)) by default, a name of
    tf.contrib.layers.OPTIMIZER_CLS_NAMES at 0.2, an Optimizer, or a callable's result."""
    tf = _tf()
    if optimizer is None:
        return tf.compat.v1.train.FtrlOptimizer(
            learning_rate=min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(n_columns)))
    if isinstance(optimizer, str):
        from tf_slim.layers import optimizers

        if optimizer not in optimizers.OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of "
                             f"[{', '.join(sorted(optimizers.OPTIMIZER_CLS_NAMES))}], you "
                             f"provided {optimizer}.")
        return optimizers.OPTIMIZER_CLS_NAMES[optimizer](learning_rate=_LINEAR_LEARNING_RATE)
    return optimizer() if callable(optimizer) else optimizer


def _check_linear(enable_centered_bias, joint_weights):
    if enable_centered_bias:
        _not_provided("enable_centered_bias=True", "leave it False (the default); the "
                      "linear model has bias_weight already")
    if joint_weights:
        _not_provided("joint weights", "leave _joint_weight(s) False (the default)")


class LinearClassifier(_Classifier):
    """TF 1.15's ``tf.contrib.learn.LinearClassifier`` (logistic for 2 classes, else
    softmax), trained with FTRL by default."""

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
                 _joint_weight=False, config=None, feature_engineering_fn=None,
                 label_keys=None):
        _check_linear(enable_centered_bias, _joint_weight)
        if label_keys is not None:
            _not_provided("LinearClassifier(label_keys=...)", "map the labels to class ids "
                          "0..n_classes-1 first, or use tf.estimator.LinearClassifier("
                          "label_vocabulary=...)")
        self._feature_columns = _columns(feature_columns)
        head = head_lib.multi_class_head(n_classes, weight_column_name)
        super().__init__(_linear_model_fn(head, self._feature_columns, optimizer,
                                          gradient_clip_norm),
                         model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


class LinearRegressor(_Regressor):
    """TF 1.15's ``tf.contrib.learn.LinearRegressor`` (mean squared error, FTRL by
    default)."""

    def __init__(self, feature_columns, model_dir=None, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
                 label_dimension=1, _joint_weights=False, config=None,
                 feature_engineering_fn=None):
        _check_linear(enable_centered_bias, _joint_weights)
        self._feature_columns = _columns(feature_columns)
        head = head_lib.regression_head(label_dimension, weight_column_name)
        super().__init__(_linear_model_fn(head, self._feature_columns, optimizer,
                                          gradient_clip_norm),
                         model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


class _Combined:
    """The settings of a DNN-linear combined model (TF 1.15's ``params``)."""

    def __init__(self, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                 dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                 gradient_clip_norm, input_layer_min_slice_size, fix_global_step_increment_bug,
                 enable_centered_bias, joint_linear_weights, embedding_lr_multipliers):
        _check_linear(enable_centered_bias, joint_linear_weights)
        if embedding_lr_multipliers:
            _not_provided("embedding_lr_multipliers", "leave it None (the embeddings then "
                          "learn at the optimizer's rate)")
        if not linear_feature_columns and not dnn_feature_columns:
            raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                             "defined.")
        self.linear_columns = _columns(linear_feature_columns) if linear_feature_columns \
            else ()
        self.dnn_columns = _columns(dnn_feature_columns) if dnn_feature_columns else ()
        if self.dnn_columns and not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                             "specified.")
        self.hidden_units = _check_dnn(dnn_hidden_units, dnn_dropout, False, None) if \
            self.dnn_columns else []
        self.linear_optimizer = linear_optimizer
        self.dnn_optimizer = dnn_optimizer
        self.activation_fn = _activation(dnn_activation_fn)
        self.dropout = dnn_dropout
        self.gradient_clip_norm = gradient_clip_norm
        self.input_layer_min_slice_size = input_layer_min_slice_size
        self.fix_global_step_increment_bug = fix_global_step_increment_bug
        self.feature_columns = self.linear_columns + self.dnn_columns

    def model_fn(self, head):
        import tf_slim

        def model_fn(features, labels, mode, config):
            tf = _tf()
            v1 = tf.compat.v1
            dnn_optimizer = _optimizer(self.dnn_optimizer, "Adagrad")
            linear_optimizer = _optimizer(self.linear_optimizer, "Ftrl")
            dnn_logits = linear_logits = None
            if self.dnn_columns:
                with v1.variable_scope("dnn", values=tuple(features.values()),
                                       partitioner=_partitioner(config)):
                    dnn_logits = _dnn_logits(
                        features, mode, config, head.logits_dimension, self.hidden_units,
                        self.dnn_columns, self.activation_fn, self.dropout,
                        self.input_layer_min_slice_size, "/")
            if self.linear_columns:
                with v1.variable_scope("linear", values=tuple(features.values()),
                                       partitioner=_partitioner(config, 64 << 20)) as scope:
                    linear_logits = fc_ops.linear_logits(features, self.linear_columns,
                                                     head.logits_dimension, "linear")
                    _layer_summary(linear_logits, scope.name, "/")
            if dnn_logits is not None and linear_logits is not None:
                logits = dnn_logits + linear_logits
            else:
                logits = dnn_logits if dnn_logits is not None else linear_logits
            # TF 1.15's default (fix_global_step_increment_bug=False): each optimizer
            # counts a step, so the global step grows by 2 per run when both train. TF1
            # let each optimizer add its 1 (two unlocked AssignAdds on one variable, which
            # can lose one when they run at once); one locked add of the count instead.
            per_run = 1 if self.fix_global_step_increment_bug else None

            def train_op_fn(loss):
                global_step = v1.train.get_global_step()
                train_ops = []
                if dnn_logits is not None:
                    train_ops.append(tf_slim.optimize_loss(
                        loss=loss, global_step=global_step, learning_rate=_DNN_LEARNING_RATE,
                        optimizer=dnn_optimizer, clip_gradients=self.gradient_clip_norm,
                        variables=v1.get_collection("dnn"), name="dnn", summaries=[],
                        increment_global_step=False))
                if linear_logits is not None:
                    train_ops.append(tf_slim.optimize_loss(
                        loss=loss, global_step=global_step,
                        learning_rate=min(_LINEAR_LEARNING_RATE,
                                          1.0 / math.sqrt(len(self.linear_columns))),
                        optimizer=linear_optimizer, clip_gradients=self.gradient_clip_norm,
                        variables=v1.get_collection("linear"), name="linear", summaries=[],
                        increment_global_step=False))
                train_op = tf.group(*train_ops)
                # after the hooks' read of the step (TF's global_step + 0): a read run
                # late saw the new value and StopAtStepHook stopped a run early
                from tensorflow.python.training import training_util

                read = training_util._get_or_create_global_step_read()  # pylint: disable=protected-access
                with tf.control_dependencies([train_op, read]), v1.colocate_with(global_step):
                    return v1.assign_add(global_step, per_run or len(train_ops),
                                         use_locking=True).op

            return head.spec(features, mode, labels, logits, train_op_fn)

        return model_fn


class DNNLinearCombinedClassifier(_Classifier):
    """TF 1.15's ``tf.contrib.learn.DNNLinearCombinedClassifier`` (wide and deep): the sum
    of a linear model's logits (FTRL) and a DNN's (Adagrad)."""

    def __init__(self, model_dir=None, n_classes=2, weight_column_name=None,
                 linear_feature_columns=None, linear_optimizer=None,
                 _joint_linear_weights=False, dnn_feature_columns=None, dnn_optimizer=None,
                 dnn_hidden_units=None, dnn_activation_fn=None, dnn_dropout=None,
                 gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None,
                 fix_global_step_increment_bug=False):
        if label_keys is not None:
            _not_provided("DNNLinearCombinedClassifier(label_keys=...)", "map the labels to "
                          "class ids 0..n_classes-1 first")
        combined = _Combined(linear_feature_columns, linear_optimizer, dnn_feature_columns,
                             dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                             gradient_clip_norm, input_layer_min_slice_size,
                             fix_global_step_increment_bug, enable_centered_bias,
                             _joint_linear_weights, embedding_lr_multipliers)
        self._feature_columns = combined.feature_columns
        head = head_lib.multi_class_head(n_classes, weight_column_name)
        super().__init__(combined.model_fn(head), model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


class DNNLinearCombinedRegressor(_Regressor):
    """TF 1.15's ``tf.contrib.learn.DNNLinearCombinedRegressor``: the sum of a linear
    model's output (FTRL) and a DNN's (Adagrad), mean squared error."""

    def __init__(self, model_dir=None, weight_column_name=None, linear_feature_columns=None,
                 linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None,
                 dnn_optimizer=None, dnn_hidden_units=None, dnn_activation_fn=None,
                 dnn_dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
                 label_dimension=1, config=None, feature_engineering_fn=None,
                 embedding_lr_multipliers=None, input_layer_min_slice_size=None,
                 fix_global_step_increment_bug=False):
        combined = _Combined(linear_feature_columns, linear_optimizer, dnn_feature_columns,
                             dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                             gradient_clip_norm, input_layer_min_slice_size,
                             fix_global_step_increment_bug, enable_centered_bias,
                             _joint_linear_weights, embedding_lr_multipliers)
        self._feature_columns = combined.feature_columns
        head = head_lib.regression_head(label_dimension, weight_column_name)
        super().__init__(combined.model_fn(head), model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn,
                         metric_keys=head.metric_keys)


def infer_real_valued_columns_from_input(x):
    """TF 1.15's columns for numpy ``x``: one real_valued_column per feature (``''`` for
    an array, each key of a dict), float64 read as float32."""
    tf = _tf()
    feeder = data_feeder.NumpyFeeder(x, None, batch_size=None, shuffle=False)
    with tf.Graph().as_default():
        features, _ = feeder.input_fn()
        return fc.infer_real_valued_columns(features)
