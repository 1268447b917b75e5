"""``tf.estimator.Estimator``: TF 1.15's train / evaluate / predict loop on TF 2.21's v1 machinery.

Owns the life cycle of one model directory: each call builds a fresh graph, seeds it from
``RunConfig.tf_random_seed``, calls the ``input_fn`` and the ``model_fn``, and runs a
``tf.compat.v1.train.MonitoredTrainingSession`` (training) or ``MonitoredSession``
(evaluation, prediction) with the hooks TF 1.15 used: loss/step logging every
``log_step_count_steps``, ``global_step/sec``, summaries every ``save_summary_steps``,
checkpoints by steps or seconds (and at the end), a NaN-loss check, the stop step.
Training resumes from the newest checkpoint in ``model_dir``. Evaluation returns the
``eval_metric_ops`` values plus ``loss`` and ``global_step`` and writes them as event
files to ``model_dir/eval[_name]``. What TF 1.15 logged at INFO (``loss = ..., step =
...``, ``Saving dict for global step ...``) is logged the same way.
"""

import collections
import copy
import datetime
import inspect
import os
import tempfile

from tf1mem.compat.tf.estimator import model_fn as model_fn_lib
from tf1mem.compat.tf.estimator import run_config as run_config_lib

__all__ = ["Estimator", "EstimatorV2", "WarmStartSettings"]

ModeKeys = model_fn_lib.ModeKeys

_MODEL_FN_ARGS = ("features", "labels", "mode", "params", "config")
_NOT_PROVIDED = {
    "experimental_export_all_saved_models": "tf.compat.v1.saved_model.Builder",
    "export_estimator_to_saved_model": "tf.compat.v1.saved_model.Builder",
}


def _v1():
    from tf1mem._tf import v1

    return v1()


def _log(msg, *args):
    _v1().logging.info(msg, *args)


def _fn_args(fn):
    """The argument names of a function, a method, a partial or a callable object."""
    import functools

    if isinstance(fn, functools.partial):
        inner = _fn_args(fn.func)
        return tuple(a for a in inner[len(fn.args):] if a not in (fn.keywords or {}))
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(
        fn, "__call__", fn)
    params = inspect.signature(target).parameters
    return tuple(name for name, p in params.items()
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


class WarmStartSettings:
    """Where to warm-start variables from (``tf.estimator.WarmStartSettings``)."""

    def __init__(self, ckpt_to_initialize_from, vars_to_warm_start=".*",
                 var_name_to_vocab_info=None, var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("WarmStartSettings: ckpt_to_initialize_from must be a checkpoint "
                             "path or a model_dir, got " + repr(ckpt_to_initialize_from))
        self.ckpt_to_initialize_from = os.fspath(ckpt_to_initialize_from)
        self.vars_to_warm_start = vars_to_warm_start
        self.var_name_to_vocab_info = var_name_to_vocab_info or {}
        self.var_name_to_prev_var_name = var_name_to_prev_var_name or {}

    def __repr__(self):
        return (f"WarmStartSettings(ckpt_to_initialize_from={self.ckpt_to_initialize_from!r}, "
                f"vars_to_warm_start={self.vars_to_warm_start!r})")


def _dataset_hook_class():
    v1 = _v1()

    class _DatasetInitializerHook(v1.train.SessionRunHook):
        """Initializes the iterator of an input_fn's Dataset when a session starts."""

        def __init__(self, iterator):
            self._initializer = iterator.initializer

        def after_create_session(self, session, coord):
            session.run(self._initializer)

    return _DatasetInitializerHook


def _replica_device_setter(config):
    """TF 1.15's default device function: variables on the ps tasks, round robin."""
    if not config.num_ps_replicas:
        return None
    from tensorflow.python.training import device_setter

    v1 = _v1()
    worker = (f"/job:{config.task_type}/task:{config.task_id}" if config.task_type
              else "/job:worker")
    return v1.train.replica_device_setter(
        ps_tasks=config.num_ps_replicas, worker_device=worker, merge_devices=True,
        ps_ops=list(device_setter.STANDARD_PS_OPS), cluster=config.cluster_spec)


def _final_ops_hook(final_ops):
    return _v1().train.FinalOpsHook(final_ops)


def _stop_after_n_evals_hook(num_evals, update_op_count):
    v1 = _v1()

    class _StopAfterNEvalsHook(v1.train.SessionRunHook):
        """Stops evaluation after ``num_evals`` runs, logging progress as TF1 did."""

        def __init__(self):
            self._done = 0
            self._log_every = max(num_evals // 10, 1)

        def after_run(self, run_context, run_values):
            self._done += 1
            if self._done == num_evals or self._done % self._log_every == 0:
                _log("Evaluation [%d/%d]", self._done, num_evals)
            if self._done >= num_evals:
                run_context.request_stop()

    return _StopAfterNEvalsHook()


class _EvalGraph(collections.namedtuple(
        "_EvalGraph", ["scaffold", "update_op", "final_hook", "hooks"])):
    """A built evaluation: the model's scaffold, the op that updates every metric, the
    hook that reads them at the end, and the hooks to run it with."""


class Estimator:
    """TF 1.15's Estimator: a model_fn, a model_dir, and train / evaluate / predict.

    Args:
      model_fn: ``model_fn(features, labels, mode, params, config)``; any subset that
        includes ``features`` (TF1's rule), returning an :class:`EstimatorSpec`.
      model_dir: where checkpoints and event files go. None: ``config.model_dir``,
        else a new temporary folder (logged), as in TF1.
      config: a :class:`RunConfig`, or None for the default one.
      params: a dict passed to ``model_fn`` (deep-copied); the model_fn must take
        ``params`` then.
      warm_start_from: a checkpoint path, a model_dir or a
        :class:`WarmStartSettings`: variables are initialised from it when training
        starts without a checkpoint of its own.

    Raises:
      ValueError: bad model_fn signature, params the model_fn does not take, a
        model_dir differing from ``config.model_dir``, a config that is no RunConfig.
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None,
                 warm_start_from=None):
        if not callable(model_fn):
            raise ValueError(f"model_fn must be callable, got {model_fn!r}")
        args = _fn_args(model_fn)
        if "features" not in args:
            raise ValueError(f"model_fn ({model_fn}) must include features argument.")
        unknown = [a for a in args if a not in _MODEL_FN_ARGS and a != "self"]
        if unknown:
            raise ValueError(f"model_fn ({model_fn}) has following not expected args: "
                             f"{unknown}; it may take only {list(_MODEL_FN_ARGS)}")
        if params is not None and "params" not in args:
            raise ValueError(f"model_fn ({model_fn}) does not include params argument, but "
                             f"params ({params}) is passed to Estimator.")
        if config is None:
            config = run_config_lib.RunConfig()
            _log("Using default config.")
        if not isinstance(config, run_config_lib.RunConfig):
            raise ValueError(f"config must be an instance of tf.estimator.RunConfig, but "
                             f"provided {config!r}.")
        if model_dir is not None:
            model_dir = os.fspath(model_dir)
            if config.model_dir is not None and os.path.normpath(
                    config.model_dir) != os.path.normpath(model_dir):
                raise ValueError(
                    f"model_dir are set both in constructor and RunConfig, but with "
                    f"different values. In constructor: '{model_dir}', in RunConfig: "
                    f"'{config.model_dir}'.")
            config = config.replace(model_dir=model_dir) if config.model_dir is None else config
        elif config.model_dir is None:
            model_dir = tempfile.mkdtemp()
            _v1().logging.warning("Using temporary folder as model directory: %s", model_dir)
            config = config.replace(model_dir=model_dir)
        self._config = config
        self._model_dir = config.model_dir
        _log("Using config: %s", str(config._as_dict()))
        self._model_fn = model_fn
        self._model_fn_args = args
        self._params = copy.deepcopy(params or {})
        if isinstance(warm_start_from, (str, os.PathLike)):
            warm_start_from = WarmStartSettings(warm_start_from)
        if warm_start_from is not None and not isinstance(warm_start_from, WarmStartSettings):
            raise ValueError(f"warm_start_from must be a path or a tf.estimator."
                             f"WarmStartSettings, got {warm_start_from!r}")
        self._warm_start = warm_start_from
        self._device_fn = config.device_fn or _replica_device_setter(config)

    def __getattr__(self, name):
        if name in _NOT_PROVIDED:
            from tf1mem.compat import errors as removed

            raise removed.RemovedAttributeError(removed.removed_message(
                f"tf.estimator.Estimator.{name}", _NOT_PROVIDED[name]))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: copy.deepcopy(self._config))
    params = property(lambda self: copy.deepcopy(self._params))
    model_fn = property(lambda self: self._call_model_fn_public)

    def _call_model_fn_public(self, features, labels, mode, config):
        return self._call_model_fn(features, labels, mode, config)

    # -- checkpoints ---------------------------------------------------------------

    def latest_checkpoint(self):
        """The newest checkpoint path in model_dir, or None."""
        return _v1().train.latest_checkpoint(self._model_dir)

    def _require_checkpoint(self):
        path = self.latest_checkpoint()
        if not path:
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}: "
                             f"train the Estimator first (or pass a model_dir holding "
                             f"checkpoints)")
        return path

    def get_variable_names(self):
        """Names of the variables in the newest checkpoint (sorted, as TF1 listed them)."""
        import tensorflow as tf

        return [name for name, _ in tf.train.list_variables(self._require_checkpoint())]

    def get_variable_value(self, name):
        """The value (a numpy array) of variable ``name`` in the newest checkpoint."""
        import tensorflow as tf

        return tf.train.load_variable(self._require_checkpoint(), name)

    # -- building ------------------------------------------------------------------

    def _call_input_fn(self, input_fn, mode):
        if not callable(input_fn):
            raise ValueError(f"input_fn must be callable (a function returning a Dataset or "
                             f"(features, labels)), got {input_fn!r}")
        args = _fn_args(input_fn)
        kwargs = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = self.config
        with _v1().device("/cpu:0"):
            return input_fn(**kwargs)

    def _features_and_labels(self, input_fn, mode):
        """Calls input_fn; returns (features, labels, hooks) with a Dataset iterated."""
        import tensorflow as tf

        result = self._call_input_fn(input_fn, mode)
        hooks = []
        if isinstance(result, tf.data.Dataset):
            iterator = tf.compat.v1.data.make_initializable_iterator(result)
            hooks.append(_dataset_hook_class()(iterator))
            result = iterator.get_next()
        if isinstance(result, (list, tuple)):
            if len(result) != 2:
                raise ValueError(f"input_fn must return (features, labels), features, or a "
                                 f"Dataset of them; got a {type(result).__name__} of "
                                 f"{len(result)} elements")
            features, labels = result
        else:
            features, labels = result, None
        return features, labels, hooks

    def _call_model_fn(self, features, labels, mode, config):
        kwargs = {}
        if "labels" in self._model_fn_args:
            kwargs["labels"] = labels
        elif labels is not None and mode != ModeKeys.PREDICT:
            raise ValueError(f"model_fn ({self._model_fn}) does not include labels argument, "
                             f"but the input_fn returns labels; add labels to the model_fn")
        if "mode" in self._model_fn_args:
            kwargs["mode"] = mode
        if "params" in self._model_fn_args:
            kwargs["params"] = self.params
        if "config" in self._model_fn_args:
            kwargs["config"] = config
        _log("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        _log("Done calling model_fn.")
        if not isinstance(spec, model_fn_lib.EstimatorSpec):
            raise ValueError(f"model_fn should return an EstimatorSpec, got {spec!r}")
        return spec

    def _new_graph(self, device_fn=None):
        v1 = _v1()
        graph = v1.Graph()
        with graph.as_default(), graph.device(device_fn):
            if self._config.tf_random_seed is not None:
                v1.set_random_seed(self._config.tf_random_seed)
            v1.train.get_or_create_global_step(graph)
        return graph

    def _default_saver(self):
        v1 = _v1()
        savers = v1.get_collection(v1.GraphKeys.SAVERS)
        if savers:
            return savers[0]
        saver = v1.train.Saver(sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                               keep_checkpoint_every_n_hours=(
                                   self._config.keep_checkpoint_every_n_hours),
                               defer_build=True, save_relative_paths=True)
        v1.add_to_collection(v1.GraphKeys.SAVERS, saver)
        return saver

    # -- train ---------------------------------------------------------------------

    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains until input_fn ends, ``steps`` more steps, or global step ``max_steps``.

        Returns:
          self, as in TF1.

        Raises:
          ValueError: both steps and max_steps, or a non-positive one.
        """
        import numpy as np
        from tensorflow.python.training import training_util

        v1 = _v1()
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        hooks = list(hooks or ())
        for hook in hooks:
            if not isinstance(hook, v1.train.SessionRunHook):
                raise TypeError(f"hooks must be SessionRunHook instances, got {hook!r}")
        saving_listeners = list(saving_listeners or ())
        for listener in saving_listeners:
            if not isinstance(listener, v1.train.CheckpointSaverListener):
                raise TypeError(f"saving_listeners must be CheckpointSaverListener "
                                f"instances, got {listener!r}")
        if max_steps is not None:
            latest = self.latest_checkpoint()
            if latest and int(v1.train.load_variable(latest, "global_step")) >= max_steps:
                _log("Skipping training since max_steps has already saved.")
                return self
        graph = self._new_graph(self._device_fn)
        with graph.as_default(), graph.device(self._device_fn):
            global_step = v1.train.get_global_step()
            # TF 1.15 built the hooks' global-step read here, before input_fn (11 ops a
            # seeded graph counts: its model drew TF1's initial weights after them)
            training_util._get_or_create_global_step_read(graph)  # pylint: disable=protected-access
            features, labels, input_hooks = self._features_and_labels(input_fn, ModeKeys.TRAIN)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, self.config)
            self._maybe_warm_start()
            v1.summary.scalar("loss", spec.loss)
            with v1.control_dependencies([spec.train_op]):
                step_after = v1.identity(global_step.read_value() if hasattr(
                    global_step, "read_value") else global_step)
            all_hooks = input_hooks + hooks + list(spec.training_hooks) + [
                v1.train.NanTensorHook(spec.loss)]
            if steps is not None or max_steps is not None:
                all_hooks.append(v1.train.StopAtStepHook(num_steps=steps, last_step=max_steps))
            if self._config.log_step_count_steps:
                all_hooks.append(v1.train.LoggingTensorHook(
                    {"loss": spec.loss, "step": step_after},
                    every_n_iter=self._config.log_step_count_steps))
            scaffold = spec.scaffold
            if scaffold.saver is None:
                self._default_saver()
            chief_hooks = list(spec.training_chief_hooks)
            if (self._config.save_checkpoints_secs or self._config.save_checkpoints_steps
                    or saving_listeners):
                if not (self._config.save_checkpoints_secs
                        or self._config.save_checkpoints_steps):
                    raise ValueError("There should be a CheckpointSaverHook to use "
                                     "saving_listeners: set RunConfig(save_checkpoints_steps"
                                     "=N) or save_checkpoints_secs")
                if not any(isinstance(h, v1.train.CheckpointSaverHook) for h in chief_hooks):
                    chief_hooks.append(v1.train.CheckpointSaverHook(
                        self._model_dir, save_secs=self._config.save_checkpoints_secs,
                        save_steps=self._config.save_checkpoints_steps, scaffold=scaffold,
                        listeners=saving_listeners))
            loss = None
            with v1.train.MonitoredTrainingSession(
                    master=self._config.master, is_chief=self._config.is_chief,
                    checkpoint_dir=self._model_dir, scaffold=scaffold, hooks=all_hooks,
                    chief_only_hooks=chief_hooks, save_checkpoint_secs=0,
                    save_checkpoint_steps=None,
                    save_summaries_steps=self._config.save_summary_steps,
                    config=self._config.session_config,
                    log_step_count_steps=self._config.log_step_count_steps) as session:
                while not session.should_stop():
                    _, loss = session.run([spec.train_op, spec.loss])
            if loss is not None:
                _log("Loss for final step: %s.", np.asarray(loss))
        return self

    def _maybe_warm_start(self):
        if self._warm_start is None or self.latest_checkpoint():
            return
        v1 = _v1()
        ws = self._warm_start
        _log("Warm-starting with WarmStartSettings: %r", ws)
        v1.train.warm_start(ws.ckpt_to_initialize_from, vars_to_warm_start=ws.vars_to_warm_start,
                            var_name_to_vocab_info=ws.var_name_to_vocab_info,
                            var_name_to_prev_var_name=ws.var_name_to_prev_var_name)

    # -- evaluate ------------------------------------------------------------------

    def _checkpoint_or_none(self, checkpoint_path, what):
        if checkpoint_path is not None:
            checkpoint_path = os.fspath(checkpoint_path)
            if os.path.isdir(checkpoint_path):
                found = _v1().train.latest_checkpoint(checkpoint_path)
                if not found:
                    raise ValueError(f"checkpoint_path {checkpoint_path!r} is a folder "
                                     f"without checkpoints")
                return found
            if not _v1().train.checkpoint_exists(checkpoint_path):
                raise ValueError(f"checkpoint_path {checkpoint_path!r} names no checkpoint "
                                 f"(expected the prefix of .index/.data files)")
            return checkpoint_path
        latest = self.latest_checkpoint()
        if not latest:
            _log("Could not find trained model in model_dir: %s, running initialization "
                 "to %s.", self._model_dir, what)
        return latest

    def eval_dir(self, name=None):
        """The folder evaluations write their event files to: ``model_dir/eval``, or
        ``model_dir/eval_<name>`` for ``evaluate(name=...)``."""
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Evaluates the model on input_fn (until it ends, or ``steps`` batches).

        Returns:
          A dict of the ``eval_metric_ops`` values, ``loss`` (mean of the per-batch
          loss) and ``global_step`` (of the checkpoint evaluated).
        """
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        checkpoint_path = self._checkpoint_or_none(checkpoint_path, "evaluate")
        graph = self._new_graph()
        with graph.as_default():
            built = self._evaluate_build_graph(input_fn, hooks, steps)
            return self._evaluate_run(built, checkpoint_path, self.eval_dir(name))

    def _evaluate_build_graph(self, input_fn, hooks, steps):
        """Builds the evaluation in the default graph (one made by :meth:`_new_graph`).

        Returns:
          An :class:`_EvalGraph`, which :meth:`_evaluate_run` runs (once, or again in
          the same graph, as InMemoryEvaluatorHook does).
        """
        v1 = _v1()
        global_step = v1.train.get_global_step()
        features, labels, input_hooks = self._features_and_labels(input_fn, ModeKeys.EVAL)
        spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self.config)
        metrics = dict(spec.eval_metric_ops)
        if "global_step" in metrics:
            raise ValueError("Metric with name \"global_step\" is not allowed, because "
                             "Estimator already defines a default metric with the same "
                             "name.")
        if "loss" not in metrics:
            metrics["loss"] = v1.metrics.mean(spec.loss)
        update_op = v1.group(*[update for _, update in metrics.values()])
        final = {key: value for key, (value, _) in metrics.items()}
        final["global_step"] = global_step
        final_hook = _final_ops_hook(final)
        all_hooks = input_hooks + list(hooks or ()) + list(spec.evaluation_hooks)
        if steps is not None:
            all_hooks.append(_stop_after_n_evals_hook(steps, len(metrics)))
        all_hooks.append(final_hook)
        if spec.scaffold.saver is None:
            self._default_saver()
        return _EvalGraph(spec.scaffold, update_op, final_hook, all_hooks)

    def _evaluate_run(self, built, checkpoint_path, eval_dir, scaffold=None):
        """Runs a built evaluation to its end; logs and writes its results to eval_dir.

        Args:
          checkpoint_path: the checkpoint to restore, or None (the scaffold's
            init_op sets the variables).
          scaffold: None for the model's own.
        """
        import numpy as np

        v1 = _v1()
        _log("Starting evaluation at %s",
             datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
        creator = v1.train.ChiefSessionCreator(
            scaffold=scaffold or built.scaffold, master=self._config.evaluation_master,
            config=self._config.session_config,
            checkpoint_filename_with_path=checkpoint_path)
        batches = 0
        with v1.train.MonitoredSession(session_creator=creator, hooks=built.hooks) as session:
            while not session.should_stop():
                session.run(built.update_op)
                batches += 1
        _log("Finished evaluation at %s",
             datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d-%H:%M:%S"))
        results = dict(built.final_hook.final_ops_values)
        step = int(results["global_step"])
        if not batches:
            v1.logging.warning(
                "Evaluation at global step %d read no batch: its input_fn gave no data (one "
                "used up by an earlier evaluation in the same graph stays used up, as in "
                "TF 1.15), so its metrics are of nothing.", step)
        _log("Saving dict for global step %d: %s", step,
             ", ".join(f"{k} = {results[k]!s}" for k in sorted(results)))
        self._write_eval_summary(eval_dir, results, step, checkpoint_path)
        ordered = {k: results[k] for k in sorted(results) if k != "global_step"}
        ordered["global_step"] = np.int64(results["global_step"])
        return ordered

    def _write_eval_summary(self, eval_dir, results, step, checkpoint_path):
        import numpy as np

        v1 = _v1()
        writer = v1.summary.FileWriterCache.get(eval_dir)
        summary = v1.Summary()
        for key in sorted(results):
            if key == "global_step":
                continue
            value = np.asarray(results[key])
            if value.shape == () and np.issubdtype(value.dtype, np.number):
                summary.value.add(tag=key, simple_value=float(value))
            else:
                v1.logging.warning("Skipping summary for %s, must be a float, np.float32, "
                                   "np.int64, np.int32 or int.", key)
        writer.add_summary(summary, step)
        if checkpoint_path:
            _log("Saving 'checkpoint_path' summary for global step %d: %s", step,
                 checkpoint_path)
            text = v1.Summary()
            text.value.add(tag="checkpoint_path", tensor=v1.make_tensor_proto(
                checkpoint_path)).metadata.plugin_data.plugin_name = "text"
            writer.add_summary(text, step)
        writer.flush()

    # -- export --------------------------------------------------------------------

    def export_saved_model(self, export_dir_base, serving_input_receiver_fn,
                           assets_extra=None, as_text=False, checkpoint_path=None,
                           experimental_mode=ModeKeys.PREDICT):
        """Exports the PREDICT graph and the checkpoint as a SavedModel (tag ``serve``).

        The model_fn is called on ``serving_input_receiver_fn()``'s features; its
        ``export_outputs`` (a PredictOutput of the predictions by default) become the
        signatures, as TF 1.15 built them. The SavedModel goes to a new timestamped
        folder below ``export_dir_base``, written to a temporary folder first and
        renamed, so a half-written export is never left under the final name.

        Returns:
          The export folder, as bytes (TF 1.15's type).

        Raises:
          ValueError: no checkpoint; a receiver fn not returning a ServingInputReceiver.
          NotImplementedError: experimental_mode other than PREDICT.
        """
        import shutil

        import tensorflow as tf
        from tensorflow.python.saved_model.model_utils import export_utils

        from tf1mem.compat.tf.estimator import export as export_lib

        v1 = tf.compat.v1
        if experimental_mode != ModeKeys.PREDICT:
            raise NotImplementedError(
                f"export_saved_model(experimental_mode={experimental_mode!r}): tf1mem exports "
                f"the PREDICT graph only")
        if checkpoint_path is None:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            raise ValueError(f"Couldn't find trained model at {self._model_dir}: train the "
                             f"Estimator first, or pass checkpoint_path")
        graph = self._new_graph()
        with graph.as_default():
            receiver = serving_input_receiver_fn()
            if not isinstance(receiver, export_lib.ServingInputReceiver):
                raise ValueError(f"serving_input_receiver_fn must return a tf.estimator.export."
                                 f"ServingInputReceiver, got {receiver!r}")
            spec = self._call_model_fn(receiver.features, None, ModeKeys.PREDICT, self.config)
            outputs = export_utils.get_export_outputs(spec.export_outputs, spec.predictions)
            signatures = export_utils.build_all_signature_defs(
                receiver.receiver_tensors, outputs, receiver.receiver_tensors_alternatives)
            saver = spec.scaffold.saver or v1.train.Saver(sharded=True)
            local_init = spec.scaffold.local_init_op or v1.train.Scaffold.default_local_init_op()
            export_dir = export_utils.get_timestamped_export_dir(export_dir_base)
            temp_dir = export_utils.get_temp_export_dir(export_dir)
            with v1.Session(config=self._config.session_config) as session:
                saver.restore(session, checkpoint_path)
                builder = v1.saved_model.Builder(temp_dir)
                builder.add_meta_graph_and_variables(
                    session, [v1.saved_model.tag_constants.SERVING],
                    signature_def_map=signatures,
                    assets_collection=v1.get_collection(v1.GraphKeys.ASSET_FILEPATHS),
                    main_op=local_init, saver=saver, strip_default_attrs=True)
                builder.save(as_text)
        if assets_extra:
            extra = os.path.join(os.fsdecode(temp_dir), "assets.extra")
            for dest, source in assets_extra.items():
                target = os.path.join(extra, dest)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(source, target)
        os.rename(os.fsdecode(temp_dir), os.fsdecode(export_dir))
        _log("SavedModel written to: %s", os.fsdecode(export_dir))
        return export_dir

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                          as_text=False, checkpoint_path=None, strip_default_attrs=False):
        """TF 1.15's older spelling of :meth:`export_saved_model`."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn,
                                       assets_extra=assets_extra, as_text=as_text,
                                       checkpoint_path=checkpoint_path)

    # -- predict -------------------------------------------------------------------

    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None,
                yield_single_examples=True):
        """Yields predictions for input_fn's features, one example at a time by default.

        Args:
          predict_keys: a key or list of keys of a dict of predictions to keep.
          yield_single_examples: False yields whole batches.

        Raises:
          ValueError: a predict_key the model does not predict; predictions whose
            batch sizes differ while yielding single examples.
        """
        v1 = _v1()
        checkpoint_path = self._checkpoint_or_none(checkpoint_path, "predict")
        graph = self._new_graph()
        with graph.as_default():
            features, _, input_hooks = self._features_and_labels(input_fn, ModeKeys.PREDICT)
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self.config)
            predictions = spec.predictions
            if predict_keys is not None:
                if isinstance(predict_keys, str):
                    predict_keys = [predict_keys]
                if not isinstance(predictions, dict):
                    raise ValueError(f"predict_keys argument is not valid in case of non-dict "
                                     f"predictions: {predictions}")
                missing = [k for k in predict_keys if k not in predictions]
                if missing:
                    raise ValueError(f"Expected to run at least one output from "
                                     f"{sorted(predictions)}, provided {predict_keys}: "
                                     f"{missing} are not predicted")
                predictions = {k: predictions[k] for k in predict_keys}
            if spec.scaffold.saver is None:
                self._default_saver()
            creator = v1.train.ChiefSessionCreator(
                scaffold=spec.scaffold, master=self._config.master,
                config=self._config.session_config,
                checkpoint_filename_with_path=checkpoint_path)
            all_hooks = input_hooks + list(hooks or ()) + list(spec.prediction_hooks)
            with v1.train.MonitoredSession(session_creator=creator, hooks=all_hooks) as session:
                while not session.should_stop():
                    batch = session.run(predictions)
                    if not yield_single_examples:
                        yield batch
                        continue
                    if not isinstance(batch, dict):
                        for row in batch:
                            yield row
                        continue
                    sizes = {k: v.shape[0] if getattr(v, "ndim", 0) else None
                             for k, v in batch.items()}
                    if None in sizes.values() or len(set(sizes.values())) != 1:
                        raise ValueError(
                            f"Batch length of predictions should be same. {sizes}: "
                            f"predictions must all have the batch as first dimension "
                            f"(or pass yield_single_examples=False)")
                    for i in range(next(iter(sizes.values()))):
                        yield {k: v[i] for k, v in batch.items()}


class EstimatorV2(Estimator):
    """``tf.compat.v2.estimator.Estimator``: :class:`Estimator` without ``export_savedmodel``.

    TF 1.15's v2 API Estimator was the same Estimator less that deprecated spelling;
    calling it raised AttributeError there too.
    """

    def export_savedmodel(self, *args, **kwargs):
        """Raises AttributeError, as TF 1.15's ``tf.compat.v2.estimator.Estimator`` did."""
        raise AttributeError(
            "tf.compat.v2.estimator.Estimator has no export_savedmodel (TF 1.15's v2 API "
            "removed that deprecated spelling): call export_saved_model with the same "
            "arguments, or use tf.compat.v1.estimator.Estimator.")
