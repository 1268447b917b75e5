"""``tf.estimator`` exporters: SavedModels written after evaluations, as in TF 1.15.

Owns :class:`Exporter` (the interface ``EvalSpec(exporters=...)`` takes) and TF 1.15's
three: :class:`LatestExporter` (every evaluation, keeping the newest
``exports_to_keep``), :class:`FinalExporter` (only the evaluation at the end of
training) and :class:`BestExporter` (when ``compare_fn`` says the evaluation beat the
best so far; the best is first read back from the event files of earlier evaluations).
``train_and_evaluate`` calls ``export`` with ``model_dir/export/<name>`` as the
``export_path``; each export is ``Estimator.export_saved_model`` into a new timestamped
folder below it. :func:`validate_exporters` is the check ``EvalSpec`` applies.
"""

import abc
import glob
import os
import shutil

__all__ = ["Exporter", "LatestExporter", "FinalExporter", "BestExporter",
           "validate_exporters"]


def _log(msg, *args):
    from tf1mem._tf import v1

    v1().logging.info(msg, *args)


class Exporter(abc.ABC):
    """A class representing a type of model export (``tf.estimator.Exporter``)."""

    @property
    @abc.abstractmethod
    def name(self):
        """The folder name below ``model_dir/export``; unique within one EvalSpec."""

    @abc.abstractmethod
    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        """Exports ``checkpoint_path`` of ``estimator`` below ``export_path``.

        Args:
          estimator: the Estimator being trained.
          export_path: the folder this exporter writes into (``model_dir/export/<name>``).
          checkpoint_path: the checkpoint just evaluated.
          eval_result: that evaluation's dict (metrics, ``loss``, ``global_step``).
          is_the_final_export: whether this is the evaluation at the end of training.

        Returns:
          The export folder (bytes), or None when nothing was exported.
        """


def _check_exports_to_keep(cls, exports_to_keep):
    if exports_to_keep is None:
        return
    if isinstance(exports_to_keep, bool) or not isinstance(exports_to_keep, int) \
            or exports_to_keep <= 0:
        raise ValueError(f"{cls}: `exports_to_keep`, if provided, must be a positive number; "
                         f"got {exports_to_keep!r} (None keeps every export)")


def _check_receiver_fn(cls, serving_input_receiver_fn):
    if not callable(serving_input_receiver_fn):
        raise ValueError(f"{cls}: serving_input_receiver_fn must be a function returning a "
                         f"tf.estimator.export.ServingInputReceiver, got "
                         f"{serving_input_receiver_fn!r}")


def _check_name(cls, name):
    if not isinstance(name, str) or not name:
        raise ValueError(f"{cls}: name must be a non-empty string (the folder below "
                         f"model_dir/export), got {name!r}")


class _SavedModelExporter(Exporter):
    """Writes one SavedModel with ``estimator.export_saved_model``."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False,
                 owner=None):
        cls = owner or type(self).__name__
        _check_name(cls, name)
        _check_receiver_fn(cls, serving_input_receiver_fn)
        if assets_extra is not None and not isinstance(assets_extra, dict):
            raise ValueError(f"{cls}: assets_extra must be a dict of destination path (in "
                             f"assets.extra) -> source file, got {assets_extra!r}")
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = bool(as_text)

    @property
    def name(self):
        return self._name

    def _export(self, estimator, export_path, checkpoint_path):
        return estimator.export_saved_model(
            export_path, self._serving_input_receiver_fn, assets_extra=self._assets_extra,
            as_text=self._as_text, checkpoint_path=checkpoint_path)

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        return self._export(estimator, export_path, checkpoint_path)


def _garbage_collect(export_path, exports_to_keep):
    """Deletes all but the ``exports_to_keep`` newest timestamped exports."""
    if exports_to_keep is None or not os.path.isdir(export_path):
        return
    # Only finished exports are timestamps; "temp-..." folders are not ours to judge.
    versions = sorted((int(entry), entry) for entry in os.listdir(export_path)
                      if entry.isdigit())
    for _, entry in versions[:-exports_to_keep]:
        path = os.path.join(export_path, entry)
        try:
            shutil.rmtree(path)
        except OSError as exc:
            from tf1mem._tf import v1

            v1().logging.warning("Can not delete %s recursively: %s", path, exc)


class LatestExporter(_SavedModelExporter):
    """Exports after every evaluation, keeping the ``exports_to_keep`` newest (None: all).

    Raises:
      ValueError: an empty name, a receiver fn that is not callable, or
        ``exports_to_keep`` not a positive integer or None.
    """

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False,
                 exports_to_keep=5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        _check_exports_to_keep("LatestExporter", exports_to_keep)
        self._exports_to_keep = exports_to_keep

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        result = self._export(estimator, export_path, checkpoint_path)
        _garbage_collect(export_path, self._exports_to_keep)
        return result


class FinalExporter(_SavedModelExporter):
    """Exports only after the evaluation at the end of training (``max_steps`` reached)."""

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        if not is_the_final_export:
            return None
        _log("Performing the final export in the end of training.")
        return self._export(estimator, export_path, checkpoint_path)


def _loss_smaller(best_eval_result, current_eval_result):
    """TF 1.15's default ``compare_fn``: whether the current ``loss`` is smaller."""
    for what, result in (("best_eval_result", best_eval_result),
                         ("current_eval_result", current_eval_result)):
        if not result or "loss" not in result:
            raise ValueError(f"{what} cannot be empty or no loss is found in it: {result!r} "
                             f"(pass a compare_fn that reads the metric your model has)")
    return best_eval_result["loss"] > current_eval_result["loss"]


class BestExporter(Exporter):
    """Exports when an evaluation is better than every earlier one (``compare_fn``).

    Args:
      name: the folder below ``model_dir/export``.
      serving_input_receiver_fn: as for ``export_saved_model``.
      event_file_pattern: event files, relative to model_dir, holding earlier
        evaluations: the best of them is the one to beat at the first export (None:
        the first evaluation is exported).
      compare_fn: ``compare_fn(best_eval_result, current_eval_result)``, True when the
        current is better; default: smaller ``loss``.
      assets_extra, as_text: as for ``export_saved_model``.
      exports_to_keep: how many of the newest best exports to keep (None: all).

    Raises:
      ValueError: no compare_fn or one without those two arguments, and as
        :class:`LatestExporter`.
    """

    def __init__(self, name="best_exporter", serving_input_receiver_fn=None,
                 event_file_pattern="eval/*.tfevents.*", compare_fn=_loss_smaller,
                 assets_extra=None, as_text=False, exports_to_keep=5):
        if compare_fn is None:
            raise ValueError("BestExporter: `compare_fn` must not be None; it is "
                             "compare_fn(best_eval_result, current_eval_result) -> bool")
        from tf1mem.compat.tf.estimator.estimator import _fn_args

        args = set(_fn_args(compare_fn))
        missing = {"best_eval_result", "current_eval_result"} - args
        if missing:
            raise ValueError(f"BestExporter: compare_fn {compare_fn!r} must take the "
                             f"arguments best_eval_result and current_eval_result; it lacks "
                             f"{sorted(missing)}")
        _check_exports_to_keep("BestExporter", exports_to_keep)
        self._saved_model_exporter = _SavedModelExporter(
            name, serving_input_receiver_fn, assets_extra, as_text, owner="BestExporter")
        self._event_file_pattern = event_file_pattern
        self._compare_fn = compare_fn
        self._exports_to_keep = exports_to_keep
        self._model_dir = None
        self._best_eval_result = None

    @property
    def name(self):
        return self._saved_model_exporter.name

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        if self._model_dir != estimator.model_dir and self._event_file_pattern:
            _log("Loading best metric from event files.")
            self._model_dir = estimator.model_dir
            self._best_eval_result = self._best_from_event_files(
                os.path.join(self._model_dir, self._event_file_pattern))
        if self._best_eval_result is not None and not self._compare_fn(
                best_eval_result=self._best_eval_result, current_eval_result=eval_result):
            return None
        _log("Performing best model export.")
        self._best_eval_result = eval_result
        result = self._saved_model_exporter._export(estimator, export_path, checkpoint_path)
        _garbage_collect(export_path, self._exports_to_keep)
        return result

    def _best_from_event_files(self, pattern):
        """The best evaluation recorded in the event files matching ``pattern``, or None."""
        from tensorflow.python.summary import summary_iterator

        best = None
        for path in sorted(glob.glob(pattern)):
            for event in summary_iterator.summary_iterator(path):
                if not event.HasField("summary"):
                    continue
                result = {value.tag: value.simple_value for value in event.summary.value
                          if value.HasField("simple_value")}
                if result and (best is None or self._compare_fn(
                        best_eval_result=best, current_eval_result=result)):
                    best = result
        return best


def validate_exporters(exporters):
    """``EvalSpec``'s check: one Exporter or an iterable of them, names unique.

    Returns:
      A tuple of the exporters (empty for None or empty).

    Raises:
      TypeError: something that is not an Exporter (naming it).
      ValueError: an empty, non-string or repeated name (listing all names).
    """
    if exporters is None:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    head = (f"`exporters` must be an Exporter, an iterable of Exporter, or `None`, found "
            f"{exporters}.")
    if isinstance(exporters, (str, bytes)) or not hasattr(exporters, "__iter__"):
        raise TypeError(f"{head} It is a {type(exporters).__name__}; pass e.g. "
                        f"tf.estimator.LatestExporter(name, serving_input_receiver_fn)")
    exporters = tuple(exporters)
    names = []
    for i, exporter in enumerate(exporters):
        if not isinstance(exporter, Exporter):
            raise TypeError(f"{head} Element {i} ({exporter!r}) is a "
                            f"{type(exporter).__name__}, not a tf.estimator.Exporter")
        name = exporter.name
        if not name:
            raise ValueError(f"An Exporter cannot have a name that is `None` or empty. All "
                             f"exporter names: {[e.name for e in exporters]}")
        if not isinstance(name, str):
            raise ValueError(f"An Exporter must have a string name. Given: {type(name)} "
                             f"({name!r}) for element {i}")
        if name in names:
            raise ValueError(f"`exporters` must have unique names. Such a name cannot be "
                             f"`None`. {name!r} is used twice; all exporter names: "
                             f"{[e.name for e in exporters]}")
        names.append(name)
    return exporters
