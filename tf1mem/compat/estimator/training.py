"""``tf.estimator.train_and_evaluate`` with ``TrainSpec`` / ``EvalSpec``, in one process.

Owns TF 1.15's local schedule: train until ``TrainSpec.max_steps`` (or the input ends),
evaluating after a checkpoint is saved once ``EvalSpec.throttle_secs`` have passed since
the last evaluation, and once more at the end. A ``TF_CONFIG`` naming a cluster of more
than one task is refused with a clear error (the distributed schedule is not provided
yet); exporters are refused likewise (SavedModel export is not provided).
"""

import time

__all__ = ["TrainSpec", "EvalSpec", "train_and_evaluate"]


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
    """What to evaluate on and how often (``throttle_secs``, ``start_delay_secs``)."""

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
        if exporters:
            from tf1mem.compat import contrib

            raise contrib.RemovedAttributeError(contrib.removed_message(
                "tf.estimator.EvalSpec(exporters=...)",
                "tf.compat.v1.saved_model.simple_save after training"))
        self.input_fn = input_fn
        self.steps = steps
        self.name = name
        self.hooks = tuple(hooks or ())
        self.exporters = ()
        self.start_delay_secs = start_delay_secs
        self.throttle_secs = throttle_secs


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Trains and evaluates ``estimator`` locally, as TF 1.15 did without a cluster.

    Returns:
      ``(eval_result, export_results)``: the last evaluation's dict and ``[]``.

    Raises:
      TypeError: wrong argument types. NotImplementedError: a multi-task TF_CONFIG.
    """
    from tf1mem._tf import v1 as _v1

    from tf1mem.compat.estimator.estimator import Estimator

    v1 = _v1()
    if not isinstance(estimator, Estimator):
        raise TypeError(f"estimator must be a tf.estimator.Estimator, got {estimator!r}")
    if not isinstance(train_spec, TrainSpec) or not isinstance(eval_spec, EvalSpec):
        raise TypeError("train_spec must be a tf.estimator.TrainSpec and eval_spec a "
                        "tf.estimator.EvalSpec")
    config = estimator.config
    if config.cluster_spec.as_dict():
        raise NotImplementedError(
            "tf.estimator.train_and_evaluate over a TF_CONFIG cluster is not provided by "
            "tf1mem yet; unset TF_CONFIG to train and evaluate in one process, or run the "
            "cluster with python -m tf1mem.cluster")
    v1.logging.info("Running training and evaluation locally (non-distributed).")
    state = {"last": None, "result": None}

    def evaluate():
        state["result"] = estimator.evaluate(eval_spec.input_fn, steps=eval_spec.steps,
                                             hooks=eval_spec.hooks, name=eval_spec.name)
        state["last"] = time.monotonic()

    class _EvalListener(v1.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            if state["last"] is not None and \
                    time.monotonic() - state["last"] < eval_spec.throttle_secs:
                return
            if global_step_value == 0:
                return
            evaluate()

    state["last"] = time.monotonic() - eval_spec.throttle_secs
    listeners = list(train_spec.saving_listeners) + [_EvalListener()]
    estimator.train(train_spec.input_fn, hooks=train_spec.hooks,
                    max_steps=train_spec.max_steps, saving_listeners=listeners)
    latest = estimator.latest_checkpoint()
    if state["result"] is None or (latest and int(state["result"]["global_step"]) != int(
            v1.train.load_variable(latest, "global_step"))):
        evaluate()
    return state["result"], []
