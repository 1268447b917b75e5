"""``tf.contrib.estimator``'s extenders: a wrapped optimizer and Estimators built on another.

What TF 1.15 did, and this keeps:

- ``clip_gradients_by_norm(optimizer, clip_norm)``: a ``tf.train.Optimizer`` named
  ``ClipByNorm<name>`` that clips the gradients by their global norm
  (``tf.clip_by_global_norm``) and hands them to ``optimizer``, whose slots and
  variables (``w/Adam``, ``beta1_power``) it uses: checkpoints are the wrapped
  optimizer's;
- ``add_metrics(estimator, metric_fn)``: a new Estimator on the same model_dir, config
  and warm start whose evaluation adds (and may override) ``metric_fn``'s metrics;
  ``metric_fn`` takes any of ``features``, ``labels``, ``predictions``, ``config``;
- ``forward_features(estimator, keys=None)``: a new Estimator whose predictions (and
  PredictOutput export signatures) also carry the named features (all of them for
  None); a key that is missing or already predicted, or a SparseTensor feature, is
  refused when the model is built.

TensorFlow is imported inside the functions.
"""

from tf1mem.compat.tf.estimator import model_fn as model_fn_lib

__all__ = ["add_metrics", "clip_gradients_by_norm", "forward_features"]

_METRIC_FN_ARGS = frozenset({"features", "labels", "predictions", "config"})
_TRANSFORM_CLASS = None


def _v1():
    from tf1mem._tf import v1

    return v1()


def _transform_gradients_class():
    """An Optimizer that transforms (gradient, variable) pairs before another applies them."""
    global _TRANSFORM_CLASS
    if _TRANSFORM_CLASS is not None:
        return _TRANSFORM_CLASS
    v1 = _v1()

    class _TransformGradients(v1.train.Optimizer):
        def __init__(self, optimizer, transform_grads_fn, name=None):
            super().__init__(use_locking=False, name=name or optimizer.get_name())
            self._optimizer = optimizer
            self._transform_grads_fn = transform_grads_fn

        def compute_gradients(self, *args, **kwargs):
            return self._optimizer.compute_gradients(*args, **kwargs)

        def apply_gradients(self, grads_and_vars, global_step=None, name=None):
            grads_and_vars = self._transform_grads_fn(grads_and_vars)
            return self._optimizer.apply_gradients(grads_and_vars, global_step, name)

        def get_slot(self, *args, **kwargs):
            return self._optimizer.get_slot(*args, **kwargs)

        def get_slot_names(self, *args, **kwargs):
            return self._optimizer.get_slot_names(*args, **kwargs)

        def variables(self):
            return self._optimizer.variables()

    _TRANSFORM_CLASS = _TransformGradients
    return _TRANSFORM_CLASS


def clip_gradients_by_norm(optimizer, clip_norm):
    """``optimizer``, applying gradients clipped to global norm ``clip_norm``.

    Raises:
      TypeError: ``optimizer`` is not a ``tf.compat.v1.train.Optimizer`` (a Keras
        optimizer has no compute_gradients/apply_gradients pair to wrap).
    """
    v1 = _v1()
    if not isinstance(optimizer, v1.train.Optimizer):
        raise TypeError(f"clip_gradients_by_norm: optimizer must be a tf.train.Optimizer "
                        f"(tf.compat.v1.train.*Optimizer), got {optimizer!r}; for a Keras "
                        f"optimizer pass global_clipnorm={clip_norm!r} to it instead")

    def clip(grads_and_vars):
        gradients, variables = zip(*grads_and_vars)
        clipped, _ = v1.clip_by_global_norm(gradients, clip_norm)
        return list(zip(clipped, variables))

    return _transform_gradients_class()(optimizer, clip,
                                        name="ClipByNorm" + optimizer.get_name())


def _check_estimator(estimator, what):
    from tf1mem.compat.tf.estimator.estimator import Estimator

    if not isinstance(estimator, Estimator):
        raise TypeError(f"{what}: estimator must be a tf.estimator.Estimator, got "
                        f"{estimator!r}")


def add_metrics(estimator, metric_fn):
    """A new Estimator evaluating ``estimator``'s metrics plus ``metric_fn``'s.

    Args:
      estimator: a ``tf.estimator.Estimator`` (custom or canned).
      metric_fn: takes any of ``features``, ``labels``, ``predictions`` (the model's),
        ``config``; returns ``{name: (value, update_op)}``. A name the model already
        has is replaced.

    Raises:
      ValueError: ``metric_fn`` takes another argument.
    """
    from tf1mem.compat.tf.estimator import estimator as estimator_lib

    _check_estimator(estimator, "add_metrics")
    args = estimator_lib._fn_args(metric_fn)
    invalid = [a for a in args if a not in _METRIC_FN_ARGS]
    if invalid:
        raise ValueError(f"metric_fn ({metric_fn}) has following not expected args: "
                         f"{invalid}; it may take only {sorted(_METRIC_FN_ARGS)}")

    def new_model_fn(features, labels, mode, config):
        spec = estimator.model_fn(features, labels, mode, config)
        if mode != model_fn_lib.ModeKeys.EVAL:
            return spec
        available = {"features": features, "labels": labels,
                     "predictions": spec.predictions, "config": config}
        added = metric_fn(**{name: available[name] for name in args})
        metrics = dict(spec.eval_metric_ops or {})
        metrics.update(added)
        return spec._replace(eval_metric_ops=metrics)

    return estimator_lib.Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir,
                                   config=estimator.config,
                                   warm_start_from=estimator._warm_start)


def forward_features(estimator, keys=None):
    """A new Estimator whose predictions also hold the features named by ``keys``.

    Args:
      keys: a feature name, a list of them, or None for every feature.

    Raises:
      TypeError: ``keys`` is neither a string nor a list/tuple of strings.
      ValueError: (when the model is built) a key not among the features, a key the
        model already predicts, predictions that are not a dict, or a forwarded
        feature that is not a dense Tensor (a SparseTensor).
    """
    from tensorflow.python.saved_model.model_utils import export_output

    from tf1mem.compat.tf.estimator import estimator as estimator_lib

    _check_estimator(estimator, "forward_features")
    if keys is not None:
        if isinstance(keys, str):
            keys = [keys]
        elif not isinstance(keys, (list, tuple)):
            raise TypeError(f"keys should be either a string or a list of strings. Given: "
                            f"{type(keys)}")
        for key in keys:
            if not isinstance(key, str):
                raise TypeError(f"All items in the given keys list should be a string. "
                                f"There exist an item with type: {type(key)}")

    def new_model_fn(features, labels, mode, config):
        v1 = _v1()
        spec = estimator.model_fn(features, labels, mode, config)
        predictions = spec.predictions
        if predictions is None:
            return spec
        if not isinstance(predictions, dict):
            raise ValueError(f"Predictions should be a dict to be able to forward features. "
                             f"Given: {type(predictions)}")
        names = list(features) if keys is None else keys
        for key in names:
            if key not in features:
                raise ValueError(f"keys should be exist in features. Key \"{key}\" is not in "
                                 f"features dict. features dict has following keys: "
                                 f"{list(features)}. Please check arguments of "
                                 f"forward_features.")
            if key in predictions:
                raise ValueError(f"Cannot forward feature key ({key}). Since it does exist "
                                 f"in predictions. Existing prediction keys: "
                                 f"{list(predictions)}. Please check arguments of "
                                 f"forward_features.")
        predictions = dict(predictions)
        for key in names:
            feature = v1.convert_to_tensor_or_sparse_tensor(features[key])
            if not isinstance(feature, v1.Tensor):
                raise ValueError(f"Forwarded feature ({key}) should be a Tensor. Please use "
                                 f"keys argument of forward_features to filter unwanted "
                                 f"features. Type of features[{key}] is {type(feature)}.")
            predictions[key] = feature
        outputs = dict(spec.export_outputs or {})
        for name in ("predict", "serving_default"):
            if isinstance(outputs.get(name), export_output.PredictOutput):
                merged = dict(outputs[name].outputs)
                merged.update((key, predictions[key]) for key in names)
                outputs[name] = export_output.PredictOutput(merged)
        return spec._replace(predictions=predictions,
                             export_outputs=outputs or spec.export_outputs)

    return estimator_lib.Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir,
                                   config=estimator.config)
