"""``tf.estimator.train_and_evaluate`` with ``TrainSpec`` / ``EvalSpec``: local or a cluster.

Owns TF 1.15's schedules. Without a ``TF_CONFIG`` cluster (local): train until
``TrainSpec.max_steps`` (or the input ends), evaluating after a checkpoint is saved once
``EvalSpec.throttle_secs`` have passed since the last evaluation, and once more at the
end. Over a ``TF_CONFIG`` cluster, what the task does depends on its type: a ``ps``
starts its ``tf.train.Server`` and serves forever; the ``chief`` and each ``worker``
start theirs and train (``tf.train.replica_device_setter``, a MonitoredTrainingSession
to their own server; the chief initialises and saves checkpoints; worker ``i`` first
waits ``5 * (i + 1)`` s, at most 60, as TF 1.15 did); a ``master`` trains and evaluates
as the local schedule does; the ``evaluator`` evaluates each new checkpoint in
``model_dir`` (at most one per ``throttle_secs``) until one reaches ``max_steps``.
After every evaluation each of ``EvalSpec.exporters`` is called with
``model_dir/export/<name>`` (see :mod:`tf1mem.compat.tf.estimator.exporter`).

The servers are ``tf.train.Server``: under ``python -m tf1mem.run`` they listen on
loopback only (its bind shim and server check), unless ``--allow-remote``.
"""

import os
import time

from tf1mem.compat.tf.estimator import exporter as exporter_lib
from tf1mem.compat.tf.estimator import run_config as run_config_lib

__all__ = ["TrainSpec", "EvalSpec", "train_and_evaluate"]

TaskType = run_config_lib.TaskType
# TF 1.15: worker i waits (i + 1) * 5 s, at most 60 s (RunConfig's
# experimental_max_worker_delay_secs), so the chief initialises the model first.
_DELAY_SECS_PER_WORKER = 5
_MAX_DELAY_SECS = 60


class TrainSpec:
    """What to train on: ``input_fn``, ``max_steps`` (None: until input ends), ``hooks``."""

    def __init__(self, input_fn, max_steps=None, hooks=None, saving_listeners=None):
        if not callable(input_fn):
            raise TypeError(f"TrainSpec: input_fn must be callable, got {input_fn!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps <= 0):
            raise ValueError(f"TrainSpec: max_steps must be a positive integer or None, got "
                             f"{max_steps!r}")
        self.input_fn = input_fn
        self.max_steps = max_steps
        self.hooks = tuple(hooks or ())
        self.saving_listeners = tuple(saving_listeners or ())


class EvalSpec:
    """What to evaluate on, how often (``throttle_secs``, ``start_delay_secs``), exporters.

    ``exporters``: one :class:`tf.estimator.Exporter` or an iterable of them, with
    unique names (checked here, as TF 1.15 did).
    """

    def __init__(self, input_fn, steps=100, name=None, hooks=None, exporters=None,
                 start_delay_secs=120, throttle_secs=600):
        if not callable(input_fn):
            raise TypeError(f"EvalSpec: input_fn must be callable, got {input_fn!r}")
        if steps is not None and (not isinstance(steps, int) or steps <= 0):
            raise ValueError(f"EvalSpec: steps must be a positive integer or None, got "
                             f"{steps!r}")
        if throttle_secs < 0 or start_delay_secs < 0:
            raise ValueError(f"EvalSpec: throttle_secs ({throttle_secs}) and start_delay_secs "
                             f"({start_delay_secs}) must be >= 0")
        self.exporters = exporter_lib.validate_exporters(exporters)
        self.input_fn = input_fn
        self.steps = steps
        self.name = name
        self.hooks = tuple(hooks or ())
        self.start_delay_secs = start_delay_secs
        self.throttle_secs = throttle_secs


def _log(msg, *args):
    from tf1mem._tf import v1

    v1().logging.info(msg, *args)


class _Evaluator:
    """Evaluates the newest checkpoint (once each) and calls the exporters after."""

    def __init__(self, estimator, eval_spec, max_training_steps):
        self._estimator = estimator
        self._spec = eval_spec
        self._max_steps = max_training_steps
        self.previous_checkpoint = None
        self.result = None
        self.export_results = []
        self.final_export_done = False

    def evaluate_and_export(self):
        """Returns True when a new checkpoint was evaluated (and exported)."""
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint:
            _log("Estimator is not trained yet. Will start an evaluation when a checkpoint "
                 "is ready.")
            return False
        if checkpoint == self.previous_checkpoint:
            _log("No new checkpoint ready for evaluation. Skip the current evaluation pass "
                 "as evaluation results are expected to be same for the same checkpoint.")
            return False
        result = self._estimator.evaluate(
            self._spec.input_fn, steps=self._spec.steps, hooks=self._spec.hooks,
            checkpoint_path=checkpoint, name=self._spec.name)
        final = bool(self._max_steps) and int(result["global_step"]) >= self._max_steps
        export_base = os.path.join(self._estimator.model_dir, "export")
        self.export_results = [
            exporter.export(estimator=self._estimator,
                            export_path=os.path.join(export_base, exporter.name),
                            checkpoint_path=checkpoint, eval_result=result,
                            is_the_final_export=final)
            for exporter in self._spec.exporters]
        self.final_export_done = self.final_export_done or final
        self.result = result
        self.previous_checkpoint = checkpoint
        return True


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Trains and evaluates ``estimator`` locally or as this task of a TF_CONFIG cluster.

    Returns:
      Local (and ``master``): ``(eval_result, export_results)``, the last evaluation's
      dict and what each exporter returned after it. Other cluster tasks: None, as
      TF 1.15 (a ``ps`` never returns).

    Raises:
      TypeError: wrong argument types.
      ValueError: a TF_CONFIG task type train_and_evaluate cannot run, naming it.
      tf1mem.ClusterError: under ``python -m tf1mem.run``, a server that would not
        listen on loopback only.
    """
    from tf1mem.compat.tf.estimator.estimator import Estimator

    if not isinstance(estimator, Estimator):
        raise TypeError(f"estimator must be a tf.estimator.Estimator, got {estimator!r}")
    if not isinstance(train_spec, TrainSpec) or not isinstance(eval_spec, EvalSpec):
        raise TypeError("train_spec must be a tf.estimator.TrainSpec and eval_spec a "
                        "tf.estimator.EvalSpec")
    config = estimator.config
    if config.task_type == TaskType.EVALUATOR:
        return _run_evaluator(estimator, train_spec, eval_spec)
    if not config.cluster_spec.as_dict():
        _log("Running training and evaluation locally (non-distributed).")
        return _run_local(estimator, train_spec, eval_spec)
    if config.task_type == TaskType.PS:
        _start_server(config).join()
        return None
    if config.task_type == TaskType.MASTER:
        _start_server(config)
        return _run_local(estimator, train_spec, eval_spec)
    if config.task_type not in (TaskType.CHIEF, TaskType.WORKER):
        raise ValueError(f"TF_CONFIG task type {config.task_type!r} cannot run "
                         f"train_and_evaluate; use one of chief, worker, ps, master, "
                         f"evaluator")
    _start_server(config)
    _train_distributed(estimator, train_spec, config)
    return None


def _start_server(config):
    """This task's ``tf.train.Server`` (TF 1.15's ``_start_std_server``)."""
    from tf1mem._tf import v1 as _v1

    v1 = _v1()
    if not config.master:
        raise RuntimeError(f"Could not start server for task {config.task_type}:"
                           f"{config.task_id}; be sure TF_CONFIG names its address")
    _log("Start Tensorflow server.")
    session_config = v1.ConfigProto(log_device_placement=False)
    if config.session_config is not None:
        session_config.gpu_options.CopyFrom(config.session_config.gpu_options)
    return v1.train.Server(config.cluster_spec, job_name=config.task_type,
                           task_index=config.task_id, config=session_config,
                           protocol=config.protocol)


def _train_distributed(estimator, train_spec, config):
    delay = 0
    if config.task_type == TaskType.WORKER:
        bound = _MAX_DELAY_SECS
        if config._experimental_max_worker_delay_secs is not None:
            bound = int(config._experimental_max_worker_delay_secs)
        delay = min(bound, (config.task_id + 1) * _DELAY_SECS_PER_WORKER)
    if delay > 0:
        _log("Waiting %d secs before starting training.", delay)
        time.sleep(delay)
    estimator.train(train_spec.input_fn, hooks=train_spec.hooks,
                    max_steps=train_spec.max_steps,
                    saving_listeners=train_spec.saving_listeners)


def _run_evaluator(estimator, train_spec, eval_spec):
    """Evaluates new checkpoints until one reaches ``max_steps`` (TF 1.15's evaluator)."""
    if eval_spec.start_delay_secs:
        _log("Waiting %f secs before starting eval.", eval_spec.start_delay_secs)
        time.sleep(eval_spec.start_delay_secs)
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    while not evaluator.final_export_done:
        start = time.monotonic()
        evaluator.evaluate_and_export()
        if evaluator.final_export_done:
            break
        wait = eval_spec.throttle_secs - (time.monotonic() - start)
        if wait > 0:
            _log("Waiting %f secs before starting next eval run.", wait)
            time.sleep(wait)
    _log("Exiting evaluation, global_step=%s >= train max_steps=%s",
         evaluator.result["global_step"], train_spec.max_steps)
    return None


def _run_local(estimator, train_spec, eval_spec):
    from tf1mem._tf import v1 as _v1

    v1 = _v1()
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    state = {"last": time.monotonic() - eval_spec.throttle_secs}

    class _EvalListener(v1.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            if global_step_value == 0 or \
                    time.monotonic() - state["last"] < eval_spec.throttle_secs:
                return
            if evaluator.evaluate_and_export():
                state["last"] = time.monotonic()

    listeners = list(train_spec.saving_listeners) + [_EvalListener()]
    estimator.train(train_spec.input_fn, hooks=train_spec.hooks,
                    max_steps=train_spec.max_steps, saving_listeners=listeners)
    # Training ends with a checkpoint; evaluate it unless that was just done.
    if estimator.latest_checkpoint() != evaluator.previous_checkpoint:
        evaluator.evaluate_and_export()
    return evaluator.result, evaluator.export_results
