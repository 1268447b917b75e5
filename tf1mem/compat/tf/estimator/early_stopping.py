"""``tf.estimator.experimental``'s early stopping: TF 1.15's hooks that end ``train``.

What TF 1.13-1.15 did, and this keeps:

- ``stop_if_no_decrease_hook`` / ``stop_if_no_increase_hook`` / ``stop_if_higher_hook`` /
  ``stop_if_lower_hook`` read the evaluation metrics an Estimator wrote as event files
  (``estimator.eval_dir()`` unless ``eval_dir`` is given), step by step from the
  oldest; steps below ``min_steps`` are skipped, and a missing folder means no
  metrics yet;


- the check runs after a training step once every ``run_every_steps`` steps or
  ``run_every_secs`` seconds (one of the two; 60 s by default);


- the chief's hook sets the boolean variable ``signal_early_stopping/STOP`` (a global
  variable, so it goes into checkpoints, and a checkpoint written without it cannot
  be restored into a graph with it) and ends training; other workers' hooks read that
  variable and stop when it is set;


- the INFO lines ``No decrease in metric "loss" for 4 steps, ...``, ``At step 3,
  metric "mae" has value ...`` and ``Requesting early stopping at global step 6``.


The hooks subclass TF's ``SessionRunHook``, so the module imports TensorFlow at its top
(it is loaded only after TensorFlow).
"""

import collections
import operator
import os

import tensorflow as tf
import tensorflow.compat.v1 as v1

__all__ = ["make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook",
           "stop_if_no_decrease_hook", "stop_if_no_increase_hook", "read_eval_metrics"]


_EVENT_FILES = "events.out.tfevents.*"
_STOP_SCOPE = "signal_early_stopping"


def _log(msg, *args):
    v1.logging.info(msg, *args)


def read_eval_metrics(eval_dir):
    """The scalar metrics the event files in ``eval_dir`` hold.

    Returns:
      An OrderedDict from global step (ascending) to ``{metric name: value}``;
      empty when the folder does not exist. A corrupt event file is read up to the
      damage, with a warning naming it.
    """
    by_step = collections.defaultdict(dict)
    eval_dir = os.fspath(eval_dir)
    if tf.io.gfile.exists(eval_dir):  # gfile: an eval_dir may be a gs:// or hdfs:// path
        for path in sorted(tf.io.gfile.glob(os.path.join(eval_dir, _EVENT_FILES))):
            try:
                for event in v1.train.summary_iterator(path):
                    if not event.HasField("summary"):
                        continue
                    values = {value.tag: value.simple_value for value in event.summary.value
                              if value.HasField("simple_value")}
                    if values:
                        by_step[event.step].update(values)
            except tf.errors.DataLossError as exc:
                v1.logging.warning("Skipping rest of the file due to encountering data "
                                   "corruption error; file path: %s; original error raised "
                                   "by `tf.train.summary_iterator`: %s", path, exc)
    return collections.OrderedDict(sorted(by_step.items()))


def _stop_variable():
    """The ``signal_early_stopping/STOP`` variable of the current graph (made once)."""
    with v1.variable_scope(_STOP_SCOPE, values=[], reuse=v1.AUTO_REUSE):
        return v1.get_variable("STOP", shape=[], dtype=v1.bool,
                               initializer=v1.constant_initializer(False),
                               collections=[v1.GraphKeys.GLOBAL_VARIABLES],
                               trainable=False)


class _StopOnPredicateHook(v1.train.SessionRunHook):
    """The chief's hook: asks ``should_stop_fn`` now and then; sets STOP and stops."""

    def __init__(self, should_stop_fn, run_every_secs, run_every_steps):
        self._should_stop_fn = should_stop_fn
        self._timer = v1.train.SecondOrStepTimer(every_secs=run_every_secs,
                                                 every_steps=run_every_steps)
        self._global_step = None
        self._stop_op = None

    def begin(self):
        self._global_step = v1.train.get_global_step()
        if self._global_step is None:
            raise RuntimeError("An early-stopping hook needs a global step in the "
                               "graph (tf.train.get_or_create_global_step()).")
        self._stop_op = v1.assign(_stop_variable(), True)

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        step = run_values.results
        if not self._timer.should_trigger_for_step(step):
            return
        self._timer.update_last_triggered_step(step)
        if self._should_stop_fn():
            _log("Requesting early stopping at global step %d", step)
            run_context.session.run(self._stop_op)
            run_context.request_stop()


class _CheckForStoppingHook(v1.train.SessionRunHook):
    """A worker's hook: stops once the chief has set STOP."""

    def __init__(self):
        self._stop = None

    def begin(self):
        self._stop = _stop_variable()

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._stop)

    def after_run(self, run_context, run_values):
        if run_values.results:
            _log("Early stopping requested, suspending run.")
            run_context.request_stop()


def make_early_stopping_hook(estimator, should_stop_fn, run_every_secs=60,
                             run_every_steps=None):
    """A hook that ends training once ``should_stop_fn()`` returns True.

    Args:
      estimator: the ``tf.estimator.Estimator`` being trained (its config says whether
        this task is the chief, which asks the function, or a worker, which waits for
        the chief's signal).
      should_stop_fn: a function of no arguments returning a bool.
      run_every_secs / run_every_steps: how often to ask; exactly one may be set.

    Raises:
      TypeError: ``estimator`` is no Estimator, or ``should_stop_fn`` is not callable.
      ValueError: both intervals are set.
    """
    from tf1mem.compat.tf.estimator.estimator import Estimator

    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of `run_every_secs` and `run_every_steps` must be set.")
    if not estimator.config.is_chief:
        return _CheckForStoppingHook()
    if not callable(should_stop_fn):
        raise TypeError("`should_stop_fn` must be callable.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


def _eval_dir_of(estimator, eval_dir):
    if eval_dir is not None:
        return eval_dir
    if not hasattr(estimator, "eval_dir"):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    return estimator.eval_dir()


def _threshold_hook(estimator, metric_name, threshold, higher, eval_dir, min_steps,
                    run_every_secs, run_every_steps):
    eval_dir = _eval_dir_of(estimator, eval_dir)
    crossed = operator.gt if higher else operator.lt
    words = "greater than" if higher else "less than"

    def should_stop():
        for step, value in _values(eval_dir, metric_name, min_steps):
            if crossed(value, threshold):
                _log('At step %s, metric "%s" has value %s which is %s the configured '
                     'threshold (%s) for early stopping.', step, metric_name, value, words,
                     threshold)
                return True
        return False

    return make_early_stopping_hook(estimator, should_stop, run_every_secs, run_every_steps)


def _no_improvement_hook(estimator, metric_name, max_steps, higher, eval_dir, min_steps,
                         run_every_secs, run_every_steps):
    eval_dir = _eval_dir_of(estimator, eval_dir)
    better = operator.gt if higher else operator.lt
    word = "increase" if higher else "decrease"

    def should_stop():
        best = best_step = None
        for step, value in _values(eval_dir, metric_name, min_steps):
            if best is None or better(value, best):
                best, best_step = value, step
            if step - best_step >= max_steps:
                _log('No %s in metric "%s" for %s steps, which is greater than or equal to '
                     'max steps (%s) configured for early stopping.', word, metric_name,
                     step - best_step, max_steps)
                return True
        return False

    return make_early_stopping_hook(estimator, should_stop, run_every_secs, run_every_steps)


def _values(eval_dir, name, min_steps):
    """Yields (step, value of metric ``name``) of the evaluations from ``min_steps`` on.

    Raises:
      KeyError: an evaluation without that metric, naming those it has.
    """
    for step, metrics in read_eval_metrics(eval_dir).items():
        if step < min_steps:
            continue
        if name not in metrics:
            raise KeyError(f"early stopping: the evaluation at step {step} in {eval_dir} has "
                           f"no metric {name!r} (it has {sorted(metrics)}); name one of "
                           f"those, or add the metric to the model_fn's eval_metric_ops")
        yield step, metrics[name]


def stop_if_higher_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                        run_every_secs=60, run_every_steps=None):
    """Stops training once an evaluation's ``metric_name`` is above ``threshold``."""
    return _threshold_hook(estimator, metric_name, threshold, True, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                       run_every_secs=60, run_every_steps=None):
    """Stops training once an evaluation's ``metric_name`` is below ``threshold``."""
    return _threshold_hook(estimator, metric_name, threshold, False, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator, metric_name, max_steps_without_increase,
                             eval_dir=None, min_steps=0, run_every_secs=60,
                             run_every_steps=None):
    """Stops training once ``metric_name`` has not risen for that many global steps."""
    return _no_improvement_hook(estimator, metric_name, max_steps_without_increase, True,
                                eval_dir, min_steps, run_every_secs, run_every_steps)


def stop_if_no_decrease_hook(estimator, metric_name, max_steps_without_decrease,
                             eval_dir=None, min_steps=0, run_every_secs=60,
                             run_every_steps=None):
    """Stops training once ``metric_name`` has not fallen for that many global steps."""
    return _no_improvement_hook(estimator, metric_name, max_steps_without_decrease, False,
                                eval_dir, min_steps, run_every_secs, run_every_steps)
