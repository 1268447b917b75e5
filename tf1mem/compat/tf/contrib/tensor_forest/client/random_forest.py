"""``tf.contrib.tensor_forest.client.random_forest``: TF1's ``TensorForestEstimator``.

This module owns the estimator wrapper TF1 code used around the forest:
``TensorForestEstimator(params, model_dir=..., config=...)`` with contrib.learn's ``fit`` /
``evaluate`` / ``predict`` (numpy ``x``/``y`` or an ``input_fn``), built on tf1mem's
``tf.contrib.learn.Estimator`` and its contrib multi-class head, as TF 1.15 built it on
contrib.learn's: the forest's averaged probabilities are the head's *logits* (for two
classes, TF1's log-odds of class 1), so ``predict`` yields ``logits`` (the forest's
probabilities), ``probabilities`` (their softmax, as TF 1.15 reported), ``classes`` and
``prediction_variance``; ``evaluate`` reports ``loss``, ``accuracy`` and ``global_step``;
each training step trains the forest on the batch and adds one to the global step.
``TensorForestLossHook`` stops training when the head's loss has not improved by
``early_stopping_loss_threshold`` (a fraction) in ``early_stopping_rounds`` steps, as in
TF1. Not provided (a clear ValueError): ``feature_columns``, a custom ``head``,
``num_trainers > 1``, ``include_all_in_serving``; TF1's ``MultiForestMultiHeadEstimator``
and ``CoreTensorForestEstimator`` are not written.
"""

import tensorflow as tf

from tf1mem.compat import errors
from tf1mem.compat.tf.contrib.learn import head as head_lib
from tf1mem.compat.tf.contrib.learn.estimators import Estimator
from tf1mem.compat.tf.contrib.learn.model_fn import ModelFnOps
from tf1mem.compat.tf.contrib.tensor_forest.python import tensor_forest

__all__ = [
    "TensorForestEstimator", "TensorForestLossHook", "get_model_fn", "EPSILON",
    "VARIANCE_PREDICTION_KEY", "KEYS_NAME", "LOSS_NAME", "TREE_PATHS_PREDICTION_KEY",
]

_v1 = tf.compat.v1

KEYS_NAME = "keys"
LOSS_NAME = "rf_training_loss"
TREE_PATHS_PREDICTION_KEY = "tree_paths"
VARIANCE_PREDICTION_KEY = "prediction_variance"
EPSILON = 0.000001

__getattr__ = errors.removed_names("tf.contrib.tensor_forest.client.random_forest", __name__)


class TensorForestLossHook(_v1.train.SessionRunHook):
    """Requests a stop when the loss has not fallen by ``early_stopping_loss_threshold``
    (a fraction of the best loss so far) for ``early_stopping_rounds`` steps."""

    def __init__(self, early_stopping_rounds, early_stopping_loss_threshold=None,
                 loss_op=None):
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_loss_threshold = early_stopping_loss_threshold or 0.0
        self.loss_op = loss_op
        self.min_loss = None
        self.last_step = -1
        self.steps = 0  # steps since the loss last improved

    def before_run(self, run_context):
        loss = self.loss_op if self.loss_op is not None else \
            run_context.session.graph.get_operation_by_name(LOSS_NAME).outputs[0]
        return _v1.train.SessionRunArgs({"global_step": _v1.train.get_global_step(),
                                         "current_loss": loss})

    def after_run(self, run_context, run_values):
        current_loss = run_values.results["current_loss"]
        current_step = run_values.results["global_step"]
        self.steps += 1
        # A global step that goes back (a restart from a checkpoint) starts over.
        if self.last_step == -1 or self.last_step > current_step:
            _v1.logging.info("TensorForestLossHook resetting last_step.")
            self.last_step = current_step
            self.steps = 0
            self.min_loss = None
            return
        self.last_step = current_step
        if self.min_loss is None or current_loss < (
                self.min_loss - self.min_loss * self.early_stopping_loss_threshold):
            self.min_loss = current_loss
            self.steps = 0
        if self.steps > self.early_stopping_rounds:
            _v1.logging.info("TensorForestLossHook requesting stop.")
            run_context.request_stop()


class _LogAtEndHook(_v1.train.SessionRunHook):
    """Logs each op's value (in key order) when the session ends, as TF1's hook did."""

    def __init__(self, op_dict):
        self._ops = op_dict

    def end(self, session):
        for name in sorted(self._ops):
            _v1.logging.info("%s: %s", name, session.run(self._ops[name]))


def _not_supported(what, instead):
    raise ValueError(f"TensorForestEstimator({what}) is not supported by tf1mem's "
                     f"tensor_forest: {instead}")


def get_model_fn(params, graph_builder_class=tensor_forest.RandomForestGraphs,
                 device_assigner=None, weights_name=None, keys_name=None,
                 early_stopping_rounds=100, early_stopping_loss_threshold=0.001,
                 report_feature_importances=False):
    """A contrib.learn ``model_fn(features, labels, mode)`` training the forest of ``params``
    (filled :class:`~tf1mem.compat.tf.contrib.tensor_forest.python.tensor_forest.ForestHParams`)."""
    head = head_lib.multi_class_head(params.num_classes, weight_column_name=weights_name)

    def _model_fn(features, labels, mode):
        if not isinstance(features, dict):
            features = {"features": features}
        features = dict(features)
        weights = features.pop(weights_name) if weights_name and weights_name in features \
            else None
        keys = features.pop(keys_name) if keys_name and keys_name in features else None
        graph_builder = graph_builder_class(params, device_assigner=device_assigner)
        logits, tree_paths, variance = graph_builder.inference_graph(features)
        _v1.summary.scalar("average_tree_size", graph_builder.average_size())
        if params.num_classes == 2:
            # TF1's log-odds of class 1 (its guard against probabilities of 0 and 1).
            class_1 = tf.slice(logits, [0, 1], [-1, 1])
            logits = tf.math.log(tf.maximum(class_1 / tf.maximum(1.0 - class_1, EPSILON),
                                            EPSILON))
        training_graph = None
        if labels is not None and mode == "train":
            with tf.control_dependencies([logits.op]):
                training_graph = tf.group(
                    graph_builder.training_graph(features, labels, input_weights=weights),
                    _v1.assign_add(_v1.train.get_global_step(), 1))
        if weights is not None:
            features[weights_name] = weights
        spec = head.spec(features, mode, labels, logits, lambda unused_loss: training_graph)
        predictions = dict(spec.predictions)
        if keys is not None:
            predictions[keys_name] = keys
        predictions[VARIANCE_PREDICTION_KEY] = variance
        hooks = list(spec.training_hooks)
        if early_stopping_rounds and spec.loss is not None:
            hooks.append(TensorForestLossHook(
                early_stopping_rounds,
                early_stopping_loss_threshold=early_stopping_loss_threshold,
                loss_op=spec.loss))
        if report_feature_importances and mode == "train":
            hooks.append(_LogAtEndHook(
                {"1: feature_importances": graph_builder.feature_importances()}))
        return ModelFnOps(mode, predictions=predictions, loss=spec.loss,
                          train_op=spec.train_op, eval_metric_ops=spec.eval_metric_ops,
                          training_hooks=hooks)

    return _model_fn


class TensorForestEstimator(Estimator):
    """TF 1.15's ``TensorForestEstimator``: a random forest as a contrib.learn Estimator.

    Args:
      params: :class:`ForestHParams` (filled here, as TF1 did: the object is changed).
      model_dir, config, feature_engineering_fn: as any contrib.learn Estimator.
      graph_builder_class: builds the forest (``RandomForestGraphs`` by default).
      weight_column: the feature holding example weights (removed from the features).
      keys_column: a feature passed through to ``predict``'s dicts.
      early_stopping_rounds, early_stopping_loss_threshold: :class:`TensorForestLossHook`
        (a falsy ``early_stopping_rounds`` turns it off).
      report_feature_importances: log the feature importances at the end of training.

    Raises:
      ValueError: an option tf1mem does not provide, or parameters the forest refuses.
    """

    def __init__(self, params, device_assigner=None, model_dir=None, feature_columns=None,
                 graph_builder_class=tensor_forest.RandomForestGraphs, config=None,
                 weight_column=None, keys_column=None, feature_engineering_fn=None,
                 early_stopping_rounds=100, early_stopping_loss_threshold=0.001,
                 num_trainers=1, trainer_id=0, report_feature_importances=False,
                 local_eval=False, version=None, head=None, include_all_in_serving=False):
        if feature_columns is not None:
            _not_supported("feature_columns=...", "feed a dict of dense numeric features "
                           "(concatenated in sorted key order) or one [batch, num_features] "
                           "tensor")
        if head is not None:
            _not_supported("head=...", "leave it None (the contrib multi-class head)")
        if num_trainers != 1 or trainer_id != 0:
            _not_supported(f"num_trainers={num_trainers!r}, trainer_id={trainer_id!r}",
                           "train all trees in one trainer (the defaults)")
        if include_all_in_serving:
            _not_supported("include_all_in_serving=True", "leave it False")
        params = params.fill()
        tensor_forest._check(params)
        super().__init__(model_fn=get_model_fn(
            params, graph_builder_class, device_assigner, weights_name=weight_column,
            keys_name=keys_column, early_stopping_rounds=early_stopping_rounds,
            early_stopping_loss_threshold=early_stopping_loss_threshold,
            report_feature_importances=report_feature_importances),
            model_dir=model_dir, config=config, feature_engineering_fn=feature_engineering_fn)

    def evaluate(self, *args, **kwargs):
        """contrib.learn's ``evaluate``, its dict in TF 1.15's order: ``loss``,
        ``accuracy``, any other metric, ``global_step``."""
        results = super().evaluate(*args, **kwargs)
        first = [key for key in ("loss", "accuracy") if key in results]
        rest = [key for key in results if key not in first and key != "global_step"]
        return {key: results[key] for key in first + rest + ["global_step"]}
