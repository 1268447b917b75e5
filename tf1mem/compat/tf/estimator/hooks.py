"""``tf.estimator.experimental``'s training hooks: evaluation in memory, stop at a step.

What TF 1.13-1.15 did, and this keeps:

- ``InMemoryEvaluatorHook(estimator, input_fn, steps=None, hooks=None, name=None,
  every_n_iter=100)``: evaluates inside ``estimator.train`` from the training session's
  variables, with no checkpoint: once when the session starts, every ``every_n_iter``
  training steps and when training ends; each evaluation is logged and written to
  ``model_dir/eval`` (``eval_<name>``) as ``evaluate`` writes it. The evaluation graph
  is built once: an ``input_fn`` whose data is used up stays used up (a
  ``numpy_input_fn`` with ``num_epochs=1`` gives its rows to the first evaluation
  only; later ones then read no batch, which tf1mem warns of). Only one machine; no
  custom saver or init_fn; no saveables but variables;


- ``make_stop_at_checkpoint_step_hook(estimator, last_step)``: the chief stops at
  ``last_step`` (``StopAtStepHook``); another worker stops once the newest checkpoint in
  model_dir has reached it, reading it at most every ``wait_after_file_check_secs``.


The hook classes subclass TF's ``SessionRunHook``, so the module imports TensorFlow at its
top (it is loaded only after TensorFlow).
"""

import time

import tensorflow.compat.v1 as v1

__all__ = ["InMemoryEvaluatorHook", "make_stop_at_checkpoint_step_hook"]


def _log(msg, *args):
    v1.logging.info(msg, *args)


class InMemoryEvaluatorHook(v1.train.SessionRunHook):
    """Evaluates during training from the training session's variables.

    Args:
      estimator: the ``tf.estimator.Estimator`` being trained.
      input_fn, steps, hooks, name: as ``estimator.evaluate``'s.
      every_n_iter: evaluate after every that many training steps (> 0).

    Raises:
      ValueError: every_n_iter not positive; a cluster configuration (ps tasks or
        more than one worker).
    """

    def __init__(self, estimator, input_fn, steps=None, hooks=None, name=None,
                 every_n_iter=100):
        from tf1mem.compat.tf.estimator import estimator as estimator_lib

        if every_n_iter is None or every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(estimator, estimator_lib.Estimator):
            raise TypeError(f"InMemoryEvaluatorHook: estimator must be a "
                            f"tf.estimator.Estimator, got {estimator!r}")
        config = estimator.config
        if config.num_ps_replicas > 0 or config.num_worker_replicas > 1:
            raise ValueError("InMemoryEvaluator supports only single machine (aka "
                             "Local) setting.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        self._estimator = estimator
        self._input_fn = input_fn
        self._steps = steps
        self._hooks = list(hooks or ())
        for hook in self._hooks:
            if not isinstance(hook, v1.train.SessionRunHook):
                raise TypeError(f"hooks must be SessionRunHook instances, got {hook!r}")
        self._eval_dir = estimator.eval_dir(name)
        self._timer = v1.train.SecondOrStepTimer(every_steps=every_n_iter)
        self._graph = None
        self._eval = None
        self._iterations = 0

    def begin(self):
        self._timer.reset()
        self._iterations = 0
        self._graph = self._estimator._new_graph()
        with self._graph.as_default():
            self._eval = self._estimator._evaluate_build_graph(
                self._input_fn, self._hooks, self._steps)
            if self._eval.scaffold.saver is not None:
                raise ValueError("InMemoryEvaluator does not support custom saver")
            if self._eval.scaffold.init_fn is not None:
                raise ValueError("InMemoryEvaluator does not support custom init_fn")
            variables = v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES)
            self._eval_vars = {v.name: v for v in variables}
            self._placeholders = {v.name: v1.placeholder(v.dtype.base_dtype)
                                  for v in variables}

    def after_create_session(self, session, coord):
        if v1.get_collection(v1.GraphKeys.SAVEABLE_OBJECTS):
            raise ValueError("InMemoryEvaluator does not support saveables other than "
                             "global variables.")
        train_vars = {v.name: v for v in v1.get_collection(
            v1.GraphKeys.GLOBAL_VARIABLES)}
        names = sorted(set(train_vars) & set(self._eval_vars))
        self._train_vars = {name: train_vars[name] for name in names}
        with self._graph.as_default():
            self._feed_op = v1.group([
                v1.assign(self._eval_vars[name], self._placeholders[name])
                for name in names])
        self._evaluate(session)

    def _evaluate(self, train_session):
        values = train_session.run(self._train_vars)
        scaffold = v1.train.Scaffold(
            init_op=self._feed_op,
            init_feed_dict={self._placeholders[n]: value for n, value in values.items()},
            copy_from_scaffold=self._eval.scaffold)
        with self._graph.as_default():
            self._estimator._evaluate_run(self._eval, None, self._eval_dir,
                                          scaffold=scaffold)
        self._timer.update_last_triggered_step(self._iterations)

    def after_run(self, run_context, run_values):
        self._iterations += 1
        if self._timer.should_trigger_for_step(self._iterations):
            self._evaluate(run_context.session)

    def end(self, session):
        self._evaluate(session)


class _StopAtCheckpointStepHook(v1.train.SessionRunHook):
    """A worker's stop: once model_dir's newest checkpoint reached ``last_step``."""

    def __init__(self, model_dir, last_step, wait_after_file_check_secs=30):
        if last_step is None:
            raise ValueError("last_step must be specified.")
        if model_dir is None:
            raise ValueError("model_dir must be specified.")
        self._model_dir = model_dir
        self._last_step = last_step
        self._wait = wait_after_file_check_secs
        self._global_step = None

    def begin(self):
        self._global_step = v1.train.get_global_step()
        if self._global_step is None:
            raise RuntimeError("Global step should be created to use "
                               "StopAtCheckpointStepHook.")

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        if run_values.results + 1 < self._last_step:
            return
        checkpoint = v1.train.latest_checkpoint(self._model_dir)
        step = (int(v1.train.load_variable(checkpoint, "global_step"))
                if checkpoint else 0)
        if step >= self._last_step:
            run_context.request_stop()
        else:
            time.sleep(self._wait)


def make_stop_at_checkpoint_step_hook(estimator, last_step, wait_after_file_check_secs=30):
    """The chief's ``StopAtStepHook(last_step=...)``; a worker's checkpoint-reading stop."""
    if estimator.config.is_chief:
        return v1.train.StopAtStepHook(last_step=last_step)
    return _StopAtCheckpointStepHook(
        estimator.model_dir, last_step, wait_after_file_check_secs)
