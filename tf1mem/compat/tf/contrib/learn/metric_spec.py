"""``tf.contrib.learn.MetricSpec`` and ``PredictionKey``: extra metrics for ``evaluate``.

Owns how TF 1.15 called a metric function given as a ``MetricSpec``: the prediction
(``prediction_key`` of a dict of predictions), the label (``label_key`` of a dict) and
the weights (``weight_key`` of the features) it takes, passed by the names the function
uses (``labels`` / ``label`` / ``targets`` / ``target``, ``predictions`` / ``prediction``
/ ``logits`` / ``logit``, ``weights`` / ``weight``), by position where it names no label
(predictions first) or names the label first without a prediction name (labels, then
predictions). Nothing here imports TensorFlow at import time.
"""

import functools
import inspect

__all__ = ["MetricSpec", "PredictionKey"]

_LABEL_NAMES = ("labels", "label", "targets", "target")
_PREDICTION_NAMES = ("predictions", "prediction", "logits", "logit")
_WEIGHT_NAMES = ("weights", "weight")


class PredictionKey:
    """TF 1.15's ``tf.contrib.learn.PredictionKey``: the canned models' prediction keys."""

    CLASSES = "classes"
    PROBABILITIES = "probabilities"
    LOGITS = "logits"
    LOGISTIC = "logistic"
    SCORES = "scores"
    TOP_K = "top_k"
    GENERIC = "output"


def _arg_names(fn):
    if isinstance(fn, functools.partial):
        bound = set(fn.keywords or ())
        return tuple(a for a in _arg_names(fn.func)[len(fn.args):] if a not in bound)
    params = inspect.signature(fn).parameters.values()
    return tuple(p.name for p in params
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _one_of(fn_name, names, candidates, required=False):
    found = [n for n in names if n in candidates]
    if len(found) > 1:
        raise ValueError(f"{fn_name} takes {found}: a metric_fn must name at most one of "
                         f"{list(candidates)}")
    if required and not found:
        raise ValueError(f"{fn_name} has no argument named one of {list(candidates)}, but "
                         f"MetricSpec needs one (rename it, or wrap the function)")
    return found[0] if found else None


def _pick(value, key, what):
    """One tensor: ``value[key]``, or ``value`` itself / its only entry without a key."""
    if key:
        if not isinstance(value, dict):
            raise ValueError(f"MetricSpec with {what}_key specified requires {what}s dict, "
                             f"got {value!r}: drop {what}_key for a single tensor")
        if key not in value:
            raise KeyError(f"{what}_key {key!r} is not among the {what}s {sorted(value)}")
        return value[key]
    if isinstance(value, dict):
        if len(value) != 1:
            raise ValueError(f"MetricSpec without specified {what}_key requires {what}s "
                             f"tensor or single element dict, got {sorted(value)}: set "
                             f"{what}_key")
        return next(iter(value.values()))
    return value


class MetricSpec:
    """TF 1.15's ``tf.contrib.learn.MetricSpec``.

    Args:
      metric_fn: returns ``(value, update_op)`` from predictions, labels and weights,
        e.g. ``tf.contrib.metrics.streaming_accuracy``.
      prediction_key, label_key: the entries to take from dicts of predictions / labels.
      weight_key: the feature holding the weights, or None.
    """

    def __init__(self, metric_fn, prediction_key=None, label_key=None, weight_key=None):
        if not callable(metric_fn):
            raise TypeError(f"metric_fn must be callable, got {metric_fn!r}")
        self.metric_fn = metric_fn
        self.prediction_key = prediction_key
        self.label_key = label_key
        self.weight_key = weight_key
        self._call = self._adapt(metric_fn, weight_key is not None)

    @staticmethod
    def _adapt(metric_fn, weighted):
        name = getattr(metric_fn, "__name__", repr(metric_fn))
        names = _arg_names(metric_fn)
        label = _one_of(name, names, _LABEL_NAMES)
        prediction = _one_of(name, names, _PREDICTION_NAMES)
        weight = _one_of(name, names, _WEIGHT_NAMES, required=weighted)

        def call(labels, predictions, weights):
            extra = {weight: weights} if weights is not None else {}
            if label and prediction:
                return metric_fn(**{label: labels, prediction: predictions}, **extra)
            if label and names and label == names[0]:
                return metric_fn(labels, predictions, **extra)
            if label:
                return metric_fn(predictions, **{label: labels}, **extra)
            if prediction:
                return metric_fn(**{prediction: predictions}, **extra)
            return metric_fn(predictions, **extra)

        return call

    def create_metric_ops(self, inputs, labels, predictions):
        """``(value, update_op)`` of the metric on one model's features, labels and
        predictions."""
        weights = None
        if self.weight_key is not None:
            weights = _pick(inputs, self.weight_key, "weight")
        return self._call(_pick(labels, self.label_key, "label"),
                          _pick(predictions, self.prediction_key, "prediction"), weights)

    def __repr__(self):
        return (f"MetricSpec(metric_fn={getattr(self.metric_fn, '__name__', self.metric_fn)}, "
                f"prediction_key={self.prediction_key}, label_key={self.label_key}, "
                f"weight_key={self.weight_key})")
