"""``tf.contrib.learn.ModelFnOps``: what a contrib.learn ``model_fn`` returns.

Owns TF 1.15's record of a contrib model (``mode``, ``predictions``, ``loss``,
``train_op``, ``eval_metric_ops``, hooks, ``scaffold``), its checks (TRAIN needs
``train_op``, TRAIN and EVAL need ``loss``, INFER needs ``predictions``), the older
``(predictions, loss, train_op)`` tuple a model_fn could return instead, and the
``tf.estimator.EstimatorSpec`` tf1mem's Estimator runs. The modes are TF 1.15's learn
keys (``"train"``, ``"eval"``, ``"infer"``), the strings tf.estimator's keys also are.
Nothing here imports TensorFlow at import time.
"""

import collections

from tf1mem.compat.tf.estimator import model_fn as core

__all__ = ["ModeKeys", "ModelFnOps", "to_estimator_spec"]


class ModeKeys:
    """TF 1.15's ``tf.contrib.learn.ModeKeys`` (``INFER``, where tf.estimator says
    ``PREDICT``)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"

_MODES = ("train", "eval", "infer")


class ModelFnOps(collections.namedtuple("ModelFnOps", [
        "predictions", "loss", "train_op", "eval_metric_ops", "output_alternatives",
        "training_chief_hooks", "training_hooks", "scaffold", "mode"])):
    """TF 1.15's ``tf.contrib.learn.ModelFnOps``.

    Raises:
      ValueError: an unknown mode, or what the mode needs missing.
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                output_alternatives=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None):
        if mode not in _MODES:
            raise ValueError(f"mode={mode!r} unrecognized: one of tf.contrib.learn.ModeKeys "
                             f"TRAIN, EVAL, INFER {_MODES}")
        if mode == "train" and train_op is None:
            raise ValueError("Missing train_op: mode TRAIN needs the op that trains the "
                             "model (e.g. optimizer.minimize(loss, global_step))")
        if mode != "infer" and loss is None:
            raise ValueError(f"Missing loss: mode {mode.upper()} needs a scalar loss tensor")
        if mode == "infer" and predictions is None:
            raise ValueError("Missing predictions: mode INFER needs a tensor or a dict of "
                             "tensors")
        return super().__new__(cls, predictions, loss, train_op, eval_metric_ops or {},
                               output_alternatives, list(training_chief_hooks or ()),
                               list(training_hooks or ()), scaffold, mode)

    def estimator_spec(self, default_serving_output_alternative_key=None):
        """The same model as a ``tf.estimator.EstimatorSpec``."""
        return core.EstimatorSpec(
            self.mode, predictions=self.predictions if self.predictions is not None else {},
            loss=self.loss, train_op=self.train_op, eval_metric_ops=self.eval_metric_ops,
            training_chief_hooks=self.training_chief_hooks,
            training_hooks=self.training_hooks, scaffold=self.scaffold)


def to_estimator_spec(result, mode):
    """A contrib model_fn's result (ModelFnOps or ``(predictions, loss, train_op)``) as an
    EstimatorSpec for ``mode``.

    Raises:
      ValueError: any other result.
    """
    if isinstance(result, ModelFnOps):
        return result.estimator_spec()
    if isinstance(result, (tuple, list)) and len(result) == 3:
        predictions, loss, train_op = result
        return ModelFnOps(mode, predictions=predictions, loss=loss,
                          train_op=train_op).estimator_spec()
    raise ValueError(f"a tf.contrib.learn model_fn must return ModelFnOps or a "
                     f"(predictions, loss, train_op) tuple, got {result!r}")
