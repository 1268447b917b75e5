"""``tf.contrib.learn.monitors``: TF 1.15's training monitors, run as session hooks.

Owns the monitor protocol of ``fit(monitors=[...])`` and what TF 1.15.5 did with it
(checked against the oracle, 2026-12-06):

- ``BaseMonitor``: ``begin(max_steps)`` (``None`` under ``fit(steps=...)``), then for each
  training step ``step_begin(step)`` (the global step the run will reach: 1 for the first
  run of a fresh model) returning tensors or names to fetch, ``step_end(step, outputs)``
  with the fetched values of *every* monitor's requests keyed as requested (``True`` asks
  training to stop), ``post_step(step, session)``; ``end(session)``.
- ``EveryN(every_n_steps=100, first_n_steps=1)``: its ``every_n_*`` methods run for the
  steps up to ``first_n_steps`` and then whenever ``every_n_steps`` have passed since the
  last active step; that step is kept across ``fit`` calls, and ``end`` runs
  ``every_n_post_step`` once more for the last step if it was not active.
- ``ValidationMonitor``: on its active steps, at most once per ``check_interval_secs`` and
  only for a checkpoint it has not evaluated, calls the estimator's ``evaluate`` on ``x``/
  ``y`` or ``input_fn`` and logs ``Validation (step N): key = value, ...``; with
  ``early_stopping_rounds`` it keeps ``best_step`` / ``best_value`` / ``best_metrics`` of
  ``early_stopping_metric`` and stops training once ``step - best_step`` reaches the rounds
  (``early_stopped``), logging ``Stopping. Best step: ...``.
- ``replace_monitors_with_hooks``: monitors become one ``RunHookAdapterForMonitors`` (a
  ``SessionRunHook``), hooks pass through.

Not as in TF1: ``ValidationMonitor`` refuses ``x`` with ``input_fn`` when built (TF 1.15
did so at its first evaluation). The other TF1 monitors (``CaptureVariable``,
``PrintTensor``, ``SummarySaver``...) are not provided: their errors name the
``tf.train`` hook to use. Nothing here imports TensorFlow at import time.
"""

import time

from tf1mem.compat import errors

__all__ = ["BaseMonitor", "EveryN", "ValidationMonitor", "RunHookAdapterForMonitors",
           "replace_monitors_with_hooks"]


def _logging():
    import tensorflow as tf

    return tf.compat.v1.logging


class BaseMonitor:
    """A training monitor: override ``begin``/``step_begin``/``step_end``/``post_step``/
    ``end``; ``set_estimator`` gives it the estimator being trained."""

    def __init__(self):
        self._begun = False
        self._current_step = None
        self._max_steps = None
        self._estimator = None

    @property
    def run_on_all_workers(self):
        return False

    def set_estimator(self, estimator):
        if estimator is None:
            raise ValueError("Missing estimator: set_estimator needs the estimator the "
                             "monitor watches")
        self._estimator = estimator

    def begin(self, max_steps=None):
        if self._begun:
            raise ValueError("begin called twice without end: a monitor serves one fit "
                             "at a time")
        self._max_steps = max_steps
        self._begun = True

    def end(self, session=None):
        if not self._begun:
            raise ValueError("end called without begin")
        self._max_steps = None
        self._begun = False

    def epoch_begin(self, epoch):
        pass

    def epoch_end(self, epoch):
        pass

    def step_begin(self, step):
        if not self._begun:
            raise ValueError(f"step_begin({step}) called without begin")
        if self._current_step is not None:
            raise ValueError(f"step_begin({step}) called while step {self._current_step} "
                             f"had not ended")
        self._current_step = step
        return []

    def step_end(self, step, output):
        if step != self._current_step:
            raise ValueError(f"step_end({step}) does not match the step begun, "
                             f"{self._current_step}")
        self._current_step = None
        return False

    def post_step(self, step, session):
        pass


class EveryN(BaseMonitor):
    """Runs ``every_n_step_begin`` / ``every_n_step_end`` / ``every_n_post_step`` on the
    first ``first_n_steps`` steps, then every ``every_n_steps`` steps."""

    def __init__(self, every_n_steps=100, first_n_steps=1):
        super().__init__()
        for name, value, least in (("every_n_steps", every_n_steps, 1),
                                   ("first_n_steps", first_n_steps, -1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"EveryN: {name} must be an integer >= {least}, got "
                                 f"{value!r}")
        self._every_n_steps = every_n_steps
        self._first_n_steps = first_n_steps
        self._last_active_step = 0
        self._last_post_step = None
        self._last_step = None
        self._active = False

    def every_n_step_begin(self, step):
        return []

    def every_n_step_end(self, step, outputs):
        return False

    def every_n_post_step(self, step, session):
        pass

    def step_begin(self, step):
        super().step_begin(step)
        self._last_step = step
        self._active = (step <= self._first_n_steps
                        or step >= self._last_active_step + self._every_n_steps)
        if not self._active:
            return []
        self._last_active_step = step
        return self.every_n_step_begin(step)

    def step_end(self, step, output):
        super().step_end(step, output)
        return bool(self.every_n_step_end(step, output)) if self._active else False

    def post_step(self, step, session):
        super().post_step(step, session)
        if self._active:
            self.every_n_post_step(step, session)
            self._last_post_step = step

    def end(self, session=None):
        super().end(session)
        if self._last_step is not None and self._last_post_step != self._last_step:
            self.every_n_post_step(self._last_step, session)
            self._last_post_step = self._last_step


class ValidationMonitor(EveryN):
    """Evaluates the newest checkpoint every ``every_n_steps`` steps; optionally stops
    training early when ``early_stopping_metric`` has not improved for
    ``early_stopping_rounds`` steps."""

    def __init__(self, x=None, y=None, input_fn=None, batch_size=None, eval_steps=None,
                 every_n_steps=100, metrics=None, hooks=None, early_stopping_rounds=None,
                 early_stopping_metric="loss", early_stopping_metric_minimize=True,
                 name=None, check_interval_secs=5):
        super().__init__(every_n_steps=every_n_steps, first_n_steps=-1)
        if x is None and input_fn is None:
            raise ValueError("Either x or input_fn should be provided.")
        if input_fn is not None and (x is not None or y is not None):
            raise ValueError("Can not provide both input_fn and x or y: give the "
                             "validation data as x=/y= or as input_fn")
        if early_stopping_rounds is not None and (
                isinstance(early_stopping_rounds, bool)
                or not isinstance(early_stopping_rounds, int) or early_stopping_rounds < 1):
            raise ValueError(f"ValidationMonitor: early_stopping_rounds must be a positive "
                             f"integer or None, got {early_stopping_rounds!r}")
        self.x, self.y, self.input_fn = x, y, input_fn
        self.batch_size, self.eval_steps = batch_size, eval_steps
        self.metrics, self.hooks, self.name = metrics, hooks, name
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_metric = early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self._check_interval_secs = check_interval_secs
        self._last_checked = None
        self._latest_path = None
        self._latest_path_step = None
        self._best_value_step = None
        self._best_value = None
        self._best_metrics = None
        self._early_stopped = False

    @property
    def early_stopped(self):
        return self._early_stopped

    @property
    def best_step(self):
        return self._best_value_step

    @property
    def best_value(self):
        return self._best_value

    @property
    def best_metrics(self):
        return self._best_metrics

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        logging = _logging()
        if self._estimator is None:
            raise ValueError("ValidationMonitor has no estimator: pass it in fit(monitors="
                             "[...]) or call set_estimator")
        now = time.time()
        if self._last_checked is not None and \
                now - self._last_checked < self._check_interval_secs:
            logging.debug("Skipping evaluation since less than %d seconds have passed "
                          "since last check for a new checkpoint.", self._check_interval_secs)
            return False
        self._last_checked = now
        import tensorflow as tf

        latest = tf.compat.v1.train.latest_checkpoint(self._estimator.model_dir)
        if latest is None:
            logging.debug("Skipping evaluation since model has not been saved yet at "
                          "step %d.", step)
            return False
        if latest == self._latest_path:
            logging.debug("Skipping evaluation due to same checkpoint %s for step %d as "
                          "for step %d.", latest, step, self._latest_path_step)
            return False
        self._latest_path, self._latest_path_step = latest, step
        results = self._estimator.evaluate(
            x=self.x, y=self.y, input_fn=self.input_fn, batch_size=self.batch_size,
            steps=self.eval_steps, metrics=self.metrics, hooks=self.hooks, name=self.name)
        logging.info("Validation (step %d): %s", step,
                     ", ".join("%s = %s" % (k, v) for k, v in results.items()))
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in results:
            raise ValueError("Metric %s missing from outputs %s." % (
                self.early_stopping_metric, set(results)))
        value = results[self.early_stopping_metric]
        if self._best_value is None or (
                value < self._best_value if self.early_stopping_metric_minimize
                else value > self._best_value):
            self._best_value = value
            self._best_metrics = dict(results)
            self._best_value_step = step
        if step - self._best_value_step >= self.early_stopping_rounds:
            logging.info("Stopping. Best step: %s with %s = %s.", self._best_value_step,
                         self.early_stopping_metric, float(self._best_value))
            self._early_stopped = True
            return True
        return False


_ADAPTER = None


def _adapter_class():
    """``RunHookAdapterForMonitors``, a ``SessionRunHook`` (built on first use)."""
    global _ADAPTER
    if _ADAPTER is not None:
        return _ADAPTER
    import tensorflow as tf

    v1 = tf.compat.v1

    class RunHookAdapterForMonitors(v1.train.SessionRunHook):
        """Runs TF 1.15's monitors as one session hook."""

        def __init__(self, monitors):
            self._monitors = list(monitors)
            self._next_step = None
            self._global_step = None

        def begin(self):
            self._next_step = None
            self._global_step = v1.train.get_global_step()
            if self._global_step is None:
                raise RuntimeError("tf.contrib.learn monitors need a global step: create "
                                   "one (tf.train.get_or_create_global_step())")
            for monitor in self._monitors:
                monitor.begin(max_steps=None)

        def before_run(self, run_context):
            if self._next_step is None:
                self._next_step = int(run_context.session.run(self._global_step)) + 1
            requests = []
            for monitor in self._monitors:
                requests.extend(monitor.step_begin(self._next_step) or [])
            graph = run_context.session.graph
            fetches = {r if isinstance(r, str) else r.name:
                       graph.as_graph_element(r) if isinstance(r, str) else r
                       for r in requests}
            return v1.train.SessionRunArgs({"global_step": self._global_step,
                                            "requests": fetches})

        def after_run(self, run_context, run_values):
            step = self._next_step
            outputs = run_values.results["requests"]
            stop = False
            for monitor in self._monitors:
                stop = bool(monitor.step_end(step, outputs)) or stop
            for monitor in self._monitors:
                monitor.post_step(step, run_context.session)
            self._next_step = int(run_values.results["global_step"]) + 1
            if stop:
                run_context.request_stop()

        def end(self, session):
            for monitor in self._monitors:
                monitor.end(session=session)

    _ADAPTER = RunHookAdapterForMonitors
    return _ADAPTER


def RunHookAdapterForMonitors(monitors):  # pylint: disable=invalid-name
    """TF 1.15's adapter: ``monitors`` run as one ``SessionRunHook``."""
    return _adapter_class()(monitors)


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
    """The hooks to train with: session hooks as given, monitors (given ``estimator``)
    wrapped in one :func:`RunHookAdapterForMonitors`, after the hooks."""
    import tensorflow as tf

    hooks, monitors = [], []
    for item in monitors_or_hooks or ():
        if isinstance(item, tf.compat.v1.train.SessionRunHook):
            hooks.append(item)
        elif isinstance(item, BaseMonitor):
            monitors.append(item)
        else:
            raise ValueError(f"monitors must be tf.contrib.learn.monitors (BaseMonitor) or "
                             f"tf.train.SessionRunHook instances, got {item!r}")
    for monitor in monitors:
        monitor.set_estimator(estimator)
    if monitors:
        hooks.append(RunHookAdapterForMonitors(monitors))
    return hooks


# TF 1.15's other monitors: the error names the tf.train hook to use.
__getattr__ = errors.removed_names("tf.contrib.learn.monitors", __name__)
