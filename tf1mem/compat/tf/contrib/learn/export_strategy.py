"""``tf.contrib.learn``'s export strategies for a ``tf.estimator.Estimator``.

Owns ``ExportStrategy(name, export_fn, strip_default_attrs)`` and
``make_export_strategy`` (also ``saved_model_export_utils.make_export_strategy``): the
strategy named ``"Servo"`` that writes a timestamped SavedModel with
``estimator.export_savedmodel`` under ``model_dir/export/Servo`` and keeps the
``exports_to_keep`` newest. :class:`~tf1mem.compat.tf.contrib.learn.experiment.Experiment`
calls the strategies after its final evaluations, as TF 1.15.5 did. The serving function
must return a ``tf.estimator.export.ServingInputReceiver`` (contrib's ``InputFnOps`` left
with the contrib Estimator). Nothing here imports TensorFlow at import time.
"""

import collections
import inspect

from tf1mem.compat.tf.estimator import exporter as _exporter

__all__ = ["ExportStrategy", "make_export_strategy"]

_SERVO = "Servo"


class ExportStrategy(collections.namedtuple(
        "ExportStrategy", ["name", "export_fn", "strip_default_attrs"])):
    """A named export function: ``export_fn(estimator, export_dir_base,
    checkpoint_path[, strip_default_attrs][, eval_result])`` returning the export path."""

    def __new__(cls, name, export_fn, strip_default_attrs=None):
        if not callable(export_fn):
            raise TypeError(f"ExportStrategy {name!r}: export_fn must be callable, got "
                            f"{export_fn!r}")
        return super().__new__(cls, name, export_fn, strip_default_attrs)

    def export(self, estimator, export_path, checkpoint_path=None, eval_result=None):
        """Calls ``export_fn`` with the arguments it takes; returns what it returned."""
        params = inspect.signature(self.export_fn).parameters
        kwargs = {}
        if "strip_default_attrs" in params:
            kwargs["strip_default_attrs"] = bool(self.strip_default_attrs)
        if "eval_result" in params:
            kwargs["eval_result"] = eval_result
        return self.export_fn(estimator, export_path, checkpoint_path, **kwargs)


def make_export_strategy(serving_input_fn, default_output_alternative_key=None,
                         assets_extra=None, as_text=False, exports_to_keep=5,
                         strip_default_attrs=None):
    """TF 1.15's ``make_export_strategy`` for core Estimators.

    Args:
      serving_input_fn: returns a ``tf.estimator.export.ServingInputReceiver``.
      default_output_alternative_key: must be None (TF 1.15's rule for core Estimators).
      assets_extra: dict of ``assets.extra`` path -> source file.
      as_text: write ``saved_model.pbtxt``.
      exports_to_keep: how many timestamped exports to keep (None: all).
      strip_default_attrs: passed to the export function, as in TF 1.15.

    Returns:
      An :class:`ExportStrategy` named ``"Servo"``.
    """
    if not callable(serving_input_fn):
        raise ValueError(f"make_export_strategy: serving_input_fn must be a function "
                         f"returning a tf.estimator.export.ServingInputReceiver, got "
                         f"{serving_input_fn!r}")
    _exporter._check_exports_to_keep("make_export_strategy", exports_to_keep)

    def export_fn(estimator, export_dir_base, checkpoint_path=None,
                  strip_default_attrs=False):
        if default_output_alternative_key is not None:
            raise ValueError(f"default_output_alternative_key is not supported in core "
                             f"Estimator. Given: {default_output_alternative_key}")
        result = estimator.export_savedmodel(
            export_dir_base, serving_input_fn, assets_extra=assets_extra, as_text=as_text,
            checkpoint_path=checkpoint_path, strip_default_attrs=strip_default_attrs)
        _exporter._garbage_collect(export_dir_base, exports_to_keep)
        return result

    return ExportStrategy(_SERVO, export_fn, strip_default_attrs)
