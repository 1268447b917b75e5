"""``tf.contrib.learn.Experiment``: TF 1.15's schedules around a ``tf.estimator.Estimator``.

Owns what each schedule trains and evaluates, as TF 1.15.5 did (measured on it):

* ``train()``: ``estimator.train(max_steps=train_steps)`` with ``train_monitors`` and
  ``saving_listeners``; returns the estimator.
* ``evaluate()``: waits ``eval_delay_secs`` (120 s by default), then evaluates
  ``eval_steps`` steps named ``"one_pass"`` with ``eval_hooks``.
* ``train_and_evaluate()`` (the local schedule): trains to ``train_steps`` while a hook
  evaluates the newest checkpoint every ``min_eval_frequency`` steps (default 1, 1000 for
  a ``gs://`` model_dir, 0 turns it off), at most once per ``check_interval_secs`` (5 s),
  each checkpoint once; then evaluates the final checkpoint. Returns ``(eval_result,
  export_results)``.
* ``local_run()``: ``train()`` then one evaluation, without the in-training ones.
* ``continuous_train_and_eval()``: ``train_steps_per_iteration`` steps (default
  ``train_steps // 10``, 1000 without ``train_steps``) then an evaluation, until
  ``train_steps`` or the predicate says stop.
* ``test()``: one training step, one evaluation step (without ``eval_hooks``).
* ``continuous_eval()``, ``continuous_eval_on_train_data()``: evaluate each new checkpoint
  until one reaches ``train_steps``; ``run_std_server()``: this task's server.

``export_strategies`` (``make_export_strategy``, see
:mod:`~tf1mem.compat.tf.contrib.learn.export_strategy`) run after the final evaluation of
``train_and_evaluate()`` and ``local_run()``, after each evaluation of
``continuous_train_and_eval()`` and after ``test()``, into ``model_dir/export/<name>``, as
TF 1.15.5 did. Nothing here imports TensorFlow at import time.
"""

import os
import time

from tf1mem.compat.tf.contrib.learn.export_strategy import ExportStrategy

__all__ = ["Experiment"]

_ONE_PASS = "one_pass"
_DEFAULT = object()  # "not passed": the Experiment's own setting
_DEFAULT_STEPS_PER_ITERATION = 1000
_GCS_MIN_EVAL_FREQUENCY = 1000
_MAX_WORKER_DELAY_SECS = 60
_DELAY_SECS_PER_WORKER = 5


def _log(msg, *args):
    from tf1mem._tf import v1

    v1().logging.info(msg, *args)


def _validation_hook_class():
    """A SessionRunHook that evaluates during training, as TF 1.15's ValidationMonitor.

    Every ``every_n_steps`` global steps (counted from 0) it marks an evaluation due; the
    next ``before_run`` (after the checkpoint hooks of the step that made it due have
    run) evaluates the newest checkpoint, unless it was evaluated already or the last
    check was less than ``check_interval_secs`` ago.
    """
    from tf1mem._tf import v1 as _v1

    v1 = _v1()

    class _ValidationHook(v1.train.SessionRunHook):
        def __init__(self, experiment, every_n_steps, check_interval_secs):
            self._experiment = experiment
            self._every_n = every_n_steps
            self._interval = check_interval_secs
            self._last_step = 0
            self._last_check = None
            self._due = False
            self._global_step = None

        def begin(self):
            self._global_step = v1.train.get_global_step()

        def before_run(self, run_context):
            if self._due:
                self._due = False
                now = time.monotonic()
                if self._last_check is None or now - self._last_check >= self._interval:
                    self._last_check = now
                    self._experiment._evaluate_new_checkpoint()
            return v1.train.SessionRunArgs(self._global_step)

        def after_run(self, run_context, run_values):
            step = int(run_values.results)
            if step >= self._last_step + self._every_n:
                self._last_step = step
                self._due = True

    return _ValidationHook


class Experiment:
    """TF 1.15's ``tf.contrib.learn.Experiment`` for a core ``tf.estimator.Estimator``.

    Args:
      estimator: a ``tf.estimator.Estimator``.
      train_input_fn, eval_input_fn: the input functions of training and evaluation.
      eval_metrics: must be None (TF 1.15's rule for core Estimators: metrics go in
        ``EstimatorSpec(eval_metric_ops=...)``).
      train_steps: the global step training stops at (None: until the input ends).
      eval_steps: steps of each evaluation (None: until the input ends).
      train_monitors: ``SessionRunHook``s of training.
      eval_hooks: ``SessionRunHook``s of evaluation.
      local_eval_frequency: ignored, as TF 1.15 did.
      eval_delay_secs: seconds ``evaluate()`` and ``continuous_eval()`` wait first.
      continuous_eval_throttle_secs: least seconds between two continuous evaluations.
      min_eval_frequency: global steps between evaluations in ``train_and_evaluate()``
        (None: 1, or 1000 with a ``gs://`` model_dir; 0: none until the end).
      delay_workers_by_global_step: accepted; tf1mem delays cluster workers by time
        only (see ``train``).
      export_strategies: an ``ExportStrategy``, an iterable of them, or None.
      train_steps_per_iteration: training steps per ``continuous_train_and_eval`` round.
      checkpoint_and_export: accepted; the strategies export after the evaluations
        listed in the module docstring.
      saving_listeners: ``CheckpointSaverListener``s of training.
      check_interval_secs: least seconds between two evaluations during training.

    Raises:
      ValueError: an estimator that is no ``tf.estimator.Estimator``, ``eval_metrics``,
        a negative ``min_eval_frequency``, export strategies that are no
        ``ExportStrategy``.
    """

    def __init__(self, estimator, train_input_fn, eval_input_fn, eval_metrics=None,
                 train_steps=None, eval_steps=100, train_monitors=None, eval_hooks=None,
                 local_eval_frequency=None, eval_delay_secs=120,
                 continuous_eval_throttle_secs=60, min_eval_frequency=None,
                 delay_workers_by_global_step=False, export_strategies=None,
                 train_steps_per_iteration=None, checkpoint_and_export=False,
                 saving_listeners=None, check_interval_secs=5):
        from tf1mem.compat.tf.estimator.estimator import Estimator

        if not isinstance(estimator, Estimator):
            raise ValueError(f"`estimator` must implement `tf.contrib.learn.Evaluable` or "
                             f"`tf.estimator.Estimator`; got {estimator!r} (tf1mem provides "
                             f"tf.estimator.Estimator only)")
        if eval_metrics is not None:
            raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`. "
                             "Use `eval_metric_ops` in `tf.estimator.EstimatorSpec` instead.")
        self._export_strategies = _check_export_strategies(export_strategies)
        if min_eval_frequency is not None and min_eval_frequency < 0:
            raise ValueError(f"min_eval_frequency must be >= 0 or None, got "
                             f"{min_eval_frequency!r}")
        if train_steps_per_iteration is not None and (
                not isinstance(train_steps_per_iteration, int)
                or train_steps_per_iteration <= 0):
            raise ValueError(f"`train_steps_per_iteration` must be a positive integer, got "
                             f"{train_steps_per_iteration!r}")
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._train_monitors = list(train_monitors or ())
        self._eval_hooks = list(eval_hooks or ())
        self._local_eval_frequency = local_eval_frequency
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
        if min_eval_frequency is None:
            gcs = str(estimator.model_dir).startswith("gs://")
            min_eval_frequency = _GCS_MIN_EVAL_FREQUENCY if gcs else 1
        self._min_eval_frequency = min_eval_frequency
        self._delay_workers_by_global_step = delay_workers_by_global_step
        self._train_steps_per_iteration = train_steps_per_iteration
        self._checkpoint_and_export = checkpoint_and_export
        self._saving_listeners = list(saving_listeners or ())
        self._check_interval_secs = check_interval_secs
        self._last_evaluated = None

    estimator = property(lambda self: self._estimator)
    eval_metrics = property(lambda self: None)
    train_steps = property(lambda self: self._train_steps)
    eval_steps = property(lambda self: self._eval_steps)

    def extend_train_hooks(self, additional_hooks):
        """Adds ``SessionRunHook``s to training."""
        self._train_monitors.extend(additional_hooks)

    def reset_export_strategies(self, new_export_strategies=None):
        """Replaces the export strategies; returns the previous ones (a tuple)."""
        previous = self._export_strategies
        self._export_strategies = _check_export_strategies(new_export_strategies)
        return previous

    def _maybe_export(self, eval_result):
        """Runs each export strategy on the newest checkpoint; returns their results."""
        checkpoint = self._estimator.latest_checkpoint()
        base = os.path.join(self._estimator.model_dir, "export")
        return [strategy.export(self._estimator, os.path.join(base, strategy.name),
                                checkpoint_path=checkpoint, eval_result=eval_result)
                for strategy in self._export_strategies]

    # -- the pieces -----------------------------------------------------------------

    def _worker_delay(self):
        config = self._estimator.config
        if config.task_type in (None, "master", "chief") or not config.cluster_spec.as_dict():
            return 0
        return min(_MAX_WORKER_DELAY_SECS, config.task_id * _DELAY_SECS_PER_WORKER)

    def _train(self, hooks=(), steps=None, max_steps=None):
        return self._estimator.train(
            self._train_input_fn, hooks=self._train_monitors + list(hooks), steps=steps,
            max_steps=max_steps, saving_listeners=self._saving_listeners or None)

    def _evaluate(self, name, steps=_DEFAULT, checkpoint_path=None, hooks=_DEFAULT):
        steps = self._eval_steps if steps is _DEFAULT else steps
        hooks = self._eval_hooks if hooks is _DEFAULT else hooks
        return self._estimator.evaluate(self._eval_input_fn, steps=steps, hooks=hooks,
                                        name=name, checkpoint_path=checkpoint_path)

    def _evaluate_new_checkpoint(self, name=None):
        """Evaluates the newest checkpoint unless it was already; True when it did."""
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint or checkpoint == self._last_evaluated:
            return False
        self._evaluate(name, checkpoint_path=checkpoint)
        self._last_evaluated = checkpoint
        return True

    # -- the schedules --------------------------------------------------------------

    def train(self, delay_secs=None):
        """Trains to ``train_steps``; returns the estimator.

        In a ``TF_CONFIG`` cluster this task's ``tf.train.Server`` is started first (its
        training session runs on it) and worker ``i`` waits ``5 * i`` s (at most 60;
        TF 1.15.5 logged 9 s for worker 2), unless ``delay_secs`` is given.
        """
        config = self._estimator.config
        if config.cluster_spec.as_dict() and config.master:
            from tf1mem.compat.tf.estimator import training

            training._start_server(config)
        delay = self._worker_delay() if delay_secs is None else delay_secs
        if delay:
            _log("Waiting %d secs before starting training.", delay)
            time.sleep(delay)
        return self._train(max_steps=self._train_steps)

    def evaluate(self, delay_secs=None, name=None):
        """Waits ``delay_secs`` (None: ``eval_delay_secs``), then evaluates ``eval_steps``
        steps. Returns the metrics dict."""
        delay = self._eval_delay_secs if delay_secs is None else delay_secs
        if delay:
            _log("Waiting %d secs before starting eval.", delay)
            time.sleep(delay)
        return self._evaluate(_ONE_PASS if name is None else name)

    def train_and_evaluate(self):
        """Trains, evaluating during training (``min_eval_frequency``) and at the end.

        Returns:
          ``(eval_result, export_results)``: the final evaluation's dict and what each
          export strategy returned after it.
        """
        hooks = []
        if self._min_eval_frequency:
            hooks.append(_validation_hook_class()(self, self._min_eval_frequency,
                                                  self._check_interval_secs))
        self._train(hooks=hooks, max_steps=self._train_steps)
        result = self._evaluate(None)
        return result, self._maybe_export(result)

    def local_run(self):
        """TF 1.15's deprecated local schedule: ``train()`` then one evaluation.

        Returns:
          ``(eval_result, export_results)``.
        """
        self._train(max_steps=self._train_steps)
        result = self._evaluate(None)
        return result, self._maybe_export(result)

    def continuous_train_and_eval(self, continuous_eval_predicate_fn=None):
        """Alternates ``train_steps_per_iteration`` training steps and an evaluation.

        Args:
          continuous_eval_predicate_fn: called with the last evaluation's dict (None
            before the first); the loop stops when it returns False.

        Returns:
          ``(eval_result, export_results)``.
        """
        per_iteration = self._train_steps_per_iteration
        if per_iteration is None:
            per_iteration = (self._train_steps // 10 if self._train_steps
                             else _DEFAULT_STEPS_PER_ITERATION)
        result, exports = None, []
        while continuous_eval_predicate_fn is None or continuous_eval_predicate_fn(result):
            self._train(steps=per_iteration)
            result = self._evaluate(_ONE_PASS)
            exports = self._maybe_export(result)
            if self._train_steps and int(result["global_step"]) >= self._train_steps:
                break
        return result, exports

    def test(self):
        """One training step and one evaluation step (without ``eval_hooks``, as TF
        1.15.5). Returns the metrics dict."""
        self._train(steps=1)
        result = self._evaluate(_ONE_PASS, steps=1, hooks=())
        self._maybe_export(result)
        return result

    def continuous_eval(self, delay_secs=None, throttle_delay_secs=None,
                        evaluate_checkpoint_only_once=True, continuous_eval_predicate_fn=None,
                        name="continuous"):
        """Evaluates each new checkpoint until one reaches ``train_steps`` or the
        predicate (called with the last result) returns False. Returns None (TF 1.15)."""
        return self._continuous_eval(self._eval_input_fn, name, delay_secs,
                                     throttle_delay_secs, evaluate_checkpoint_only_once,
                                     continuous_eval_predicate_fn)

    def continuous_eval_on_train_data(self, delay_secs=None, throttle_delay_secs=None,
                                      continuous_eval_predicate_fn=None,
                                      name="continuous_on_train_data"):
        """:meth:`continuous_eval` on ``train_input_fn``. Returns None."""
        return self._continuous_eval(self._train_input_fn, name, delay_secs,
                                     throttle_delay_secs, True, continuous_eval_predicate_fn)

    def _continuous_eval(self, input_fn, name, delay_secs, throttle_delay_secs, only_once,
                         predicate):
        delay = self._eval_delay_secs if delay_secs is None else delay_secs
        throttle = (self._continuous_eval_throttle_secs if throttle_delay_secs is None
                    else throttle_delay_secs)
        if delay:
            _log("Waiting %f secs before starting eval.", delay)
            time.sleep(delay)
        result, previous = None, None
        while predicate is None or predicate(result):
            start = time.monotonic()
            checkpoint = self._estimator.latest_checkpoint()
            if checkpoint and not (only_once and checkpoint == previous):
                result = self._estimator.evaluate(input_fn, steps=self._eval_steps,
                                                  hooks=self._eval_hooks, name=name,
                                                  checkpoint_path=checkpoint)
                previous = checkpoint
                if self._train_steps and int(result["global_step"]) >= self._train_steps:
                    break
            wait = throttle - (time.monotonic() - start)
            if wait > 0:
                time.sleep(wait)

    def run_std_server(self):
        """Starts this task's ``tf.train.Server`` and serves until the process ends."""
        from tf1mem.compat.tf.estimator import training

        training._start_server(self._estimator.config).join()


def _check_export_strategies(export_strategies):
    """The strategies as a tuple (as TF 1.15 kept them); TF 1.15's error for anything
    else, naming the first value that is no ExportStrategy."""
    if export_strategies is None:
        return ()
    if isinstance(export_strategies, ExportStrategy):
        return (export_strategies,)
    try:
        strategies = tuple(export_strategies)
    except TypeError:
        strategies, bad = None, export_strategies
    else:
        bad = next((s for s in strategies if not isinstance(s, ExportStrategy)), None)
    if strategies is None or bad is not None:
        raise ValueError(f"`export_strategies` must be an ExportStrategy, an iterable of "
                         f"ExportStrategy, or `None`, found {bad}.")
    return strategies
