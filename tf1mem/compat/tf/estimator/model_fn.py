"""``tf.estimator.ModeKeys`` and ``tf.estimator.EstimatorSpec``, with TF 1.15's checks.

Owns what a ``model_fn`` hands back and the validation TF1 applied to it: a wrong spec
fails when it is built (naming the field and what it must be), never later in a session.
"""

import collections

__all__ = ["ModeKeys", "EstimatorSpec"]


class ModeKeys:
    """The three modes a ``model_fn`` is called in (TF1's strings)."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


_MODES = (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT)

_FIELDS = ("mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
           "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks",
           "prediction_hooks")


def _v1():
    from tf1mem._tf import v1

    return v1()


def _check_tensor(value, what):
    import tensorflow as tf

    if isinstance(value, tf.Operation) and what == "train_op":
        return value
    try:
        return tf.compat.v1.convert_to_tensor_or_indexed_slices(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"EstimatorSpec: {what} must be a Tensor, got {value!r} ({exc})") from None


def _check_graph(values, graph):
    for name, value in values:
        if value is not None and getattr(value, "graph", graph) is not graph:
            raise ValueError(
                f"EstimatorSpec: {name} ({value!r}) must be from the default graph: build "
                f"every tensor of the model_fn inside the model_fn, not outside it.")


def _check_hooks(hooks, what):
    v1 = _v1()
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, v1.train.SessionRunHook):
            raise TypeError(f"EstimatorSpec: all hooks in {what} must be SessionRunHook "
                            f"instances, got {hook!r}")
    return hooks


class EstimatorSpec(collections.namedtuple("EstimatorSpec", _FIELDS)):
    """What a ``model_fn`` returns: the ops and objects that define the model.

    Validated as in TF 1.15: TRAIN needs ``loss`` and ``train_op``, EVAL needs
    ``loss``, PREDICT needs ``predictions``; ``loss`` is a scalar (or shape ``[1]``)
    tensor; ``predictions`` a tensor or a dict of tensors; ``eval_metric_ops`` a dict
    of ``(value, update_op)`` pairs; hooks are SessionRunHooks; every tensor is from
    the default graph.
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                export_outputs=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None, evaluation_hooks=None, prediction_hooks=None):
        import tensorflow as tf

        v1 = tf.compat.v1
        if mode not in _MODES:
            raise ValueError(f"EstimatorSpec: mode={mode!r} is not one of {_MODES} "
                             f"(tf.estimator.ModeKeys.TRAIN, EVAL or PREDICT)")
        graph = v1.get_default_graph()
        if train_op is None and mode == ModeKeys.TRAIN:
            raise ValueError("EstimatorSpec: train_op is missing: mode TRAIN needs the op "
                             "that trains the model (e.g. optimizer.minimize(loss, global_step))")
        if train_op is not None:
            train_op = _check_tensor(train_op, "train_op")
        if loss is None and mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError(f"EstimatorSpec: loss is missing: mode {mode.upper()} needs a "
                             f"scalar loss tensor")
        if loss is not None:
            loss = _check_tensor(loss, "loss")
            shape = loss.shape
            if shape.rank is not None and not (shape.rank == 0 or tuple(shape.as_list()) == (1,)):
                raise ValueError(f"EstimatorSpec: loss must be a scalar, got shape {shape} "
                                 f"(reduce it, e.g. with tf.reduce_mean)")
            if shape.rank == 1:
                loss = tf.reshape(loss, [])
        if predictions is None and mode == ModeKeys.PREDICT:
            raise ValueError("EstimatorSpec: predictions are missing: mode PREDICT needs a "
                             "tensor or a dict of tensors")
        if predictions is not None:
            if isinstance(predictions, dict):
                predictions = {k: _check_tensor(v, f"predictions[{k!r}]")
                               for k, v in predictions.items()}
            else:
                predictions = _check_tensor(predictions, "predictions")
        if eval_metric_ops is None:
            eval_metric_ops = {}
        if not isinstance(eval_metric_ops, dict):
            raise TypeError(f"EstimatorSpec: eval_metric_ops must be a dict, got "
                            f"{eval_metric_ops!r}")
        checked = {}
        for key, pair in eval_metric_ops.items():
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"EstimatorSpec: eval_metric_ops[{key!r}] must be a "
                                f"(metric_tensor, update_op) tuple, got {pair!r}")
            checked[key] = (_check_tensor(pair[0], f"eval_metric_ops[{key!r}][0]"),
                            _check_tensor(pair[1], "train_op") if isinstance(
                                pair[1], tf.Operation) else
                            _check_tensor(pair[1], f"eval_metric_ops[{key!r}][1]"))
        eval_metric_ops = checked
        if export_outputs is not None and not isinstance(export_outputs, dict):
            raise TypeError(f"EstimatorSpec: export_outputs must be a dict, got "
                            f"{export_outputs!r}")
        tensors = [("loss", loss), ("train_op", train_op)]
        if isinstance(predictions, dict):
            tensors += [(f"predictions[{k!r}]", v) for k, v in predictions.items()]
        else:
            tensors.append(("predictions", predictions))
        for key, (value, update) in eval_metric_ops.items():
            tensors += [(f"eval_metric_ops[{key!r}]", value),
                        (f"eval_metric_ops[{key!r}] update", update)]
        _check_graph(tensors, graph)
        if scaffold is not None and not isinstance(scaffold, v1.train.Scaffold):
            raise TypeError(f"EstimatorSpec: scaffold must be a tf.train.Scaffold, got "
                            f"{scaffold!r}")
        scaffold = scaffold or v1.train.Scaffold()
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops=eval_metric_ops, export_outputs=export_outputs,
            training_chief_hooks=_check_hooks(training_chief_hooks, "training_chief_hooks"),
            training_hooks=_check_hooks(training_hooks, "training_hooks"),
            scaffold=scaffold,
            evaluation_hooks=_check_hooks(evaluation_hooks, "evaluation_hooks"),
            prediction_hooks=_check_hooks(prediction_hooks, "prediction_hooks"))

    def _replace(self, **kwds):
        fields = self._asdict()
        fields.update(kwds)
        return EstimatorSpec(**fields)
