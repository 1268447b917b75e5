"""``tf.contrib.learn.learn_runner``: ``run(experiment_fn, ...)`` as TF 1.15.5 did.

Owns building the :class:`~tf1mem.compat.tf.contrib.learn.experiment.Experiment` from
``experiment_fn`` and calling its schedule. ``experiment_fn(run_config, hparams)`` with a
``tf.contrib.learn.RunConfig`` that names a ``model_dir`` (the recommended form), or
``experiment_fn(output_dir)`` (the older one; ``hparams`` must then be None). Without a
schedule, TF 1.15's rule: on one machine (a ``TF_CONFIG`` cluster of at most one task, or
none) ``train_and_evaluate``; in a cluster, by the task type: ``master`` ->
``train_and_evaluate``, ``ps`` -> ``run_std_server``, ``worker`` -> ``train``. The
errors are TF 1.15's, naming the value. Nothing here imports TensorFlow at import time.
"""

__all__ = ["run", "tune"]


def _log_error(msg, *args):
    from tf1mem._tf import v1

    v1().logging.error(msg, *args)


def _is_distributed(config):
    """More than one task in the config's cluster (TF 1.15's test)."""
    jobs = config.cluster_spec.as_dict() if config.cluster_spec else {}
    return sum(len(tasks) for tasks in jobs.values()) > 1


def _default_schedule(config):
    from tf1mem.compat.tf.estimator.run_config import TaskType

    if not config or not _is_distributed(config):
        return "train_and_evaluate"
    if not config.task_type:
        raise ValueError("Must specify a schedule (the TF_CONFIG cluster has several tasks "
                         "but no task type): pass learn_runner.run(..., schedule=...) or "
                         "set TF_CONFIG's task")
    defaults = {TaskType.MASTER: "train_and_evaluate", TaskType.PS: "run_std_server",
                TaskType.WORKER: "train"}
    if config.task_type in defaults:
        return defaults[config.task_type]
    raise ValueError(f"No default schedule for task type: {config.task_type} (one of "
                     f"{sorted(defaults)} has one; pass schedule=...)")


def _allowed_schedules(experiment):
    return [name for name in dir(experiment)
            if not name.startswith("_") and callable(getattr(experiment, name, None))]


def _execute_schedule(experiment, schedule):
    if not isinstance(schedule, str):
        raise TypeError(f"schedule must be the name of an Experiment method (a str), got "
                        f"{schedule!r}")
    allowed = _allowed_schedules(experiment)
    if schedule.startswith("_") or not hasattr(experiment, schedule):
        _log_error("Schedule references non-existent task %s", schedule)
        _log_error("Allowed values for this experiment are: %s", allowed)
        raise ValueError(f"Schedule references non-existent task {schedule}; allowed "
                         f"values for this experiment are: {allowed}")
    task = getattr(experiment, schedule)
    if not callable(task):
        _log_error("Schedule references non-callable member %s", schedule)
        _log_error("Allowed values for this experiment are: %s", allowed)
        raise TypeError(f"Schedule references non-callable member {schedule}; allowed "
                        f"values for this experiment are: {allowed}")
    return task()


def run(experiment_fn, output_dir=None, schedule=None, run_config=None, hparams=None):
    """Makes an Experiment with ``experiment_fn`` and runs its ``schedule``.

    Args:
      experiment_fn: ``experiment_fn(run_config, hparams)`` (with ``run_config``) or
        ``experiment_fn(output_dir)`` (with ``output_dir``), returning an Experiment.
      output_dir: the model folder of the older form; excludes ``run_config``.
      schedule: the name of the Experiment method to call; None: TF 1.15's default
        for the run config's task (see the module docstring).
      run_config: a ``tf.contrib.learn.RunConfig`` with a ``model_dir``.
      hparams: a ``tf.contrib.training.HParams`` or None (only with ``run_config``).

    Returns:
      What the schedule returned (``train_and_evaluate``: ``(eval_result, [])``).

    Raises:
      TypeError: ``experiment_fn`` not callable, not returning an Experiment, a
        schedule that is no method name or names a property.
      ValueError: both or neither of ``output_dir`` and ``run_config``, a RunConfig
        that is no ``tf.contrib.learn.RunConfig`` or has no ``model_dir``, ``hparams``
        that are no ``HParams``, an unknown schedule, no default schedule.
    """
    from tf1mem.compat.tf.contrib.training.hparams import HParams
    from tf1mem.compat.tf.contrib.learn.experiment import Experiment
    from tf1mem.compat.tf.contrib.learn.run_config import RunConfig

    if not callable(experiment_fn):
        raise TypeError(f'Experiment builder "{experiment_fn}" is not callable.')
    if output_dir is not None and run_config is not None:
        raise ValueError("Cannot provide both `output_dir` and `run_config`")
    if output_dir is None and run_config is None:
        raise ValueError("Must set value for `output_dir` or `run_config`")
    if output_dir is not None:
        if hparams is not None:
            raise ValueError(f"Must set `hparams` as None for `experiment_fn` with "
                             f"`output_dir` (got hparams={hparams!r}); pass run_config=tf."
                             f"contrib.learn.RunConfig(model_dir=...) to use hparams")
        experiment = experiment_fn(output_dir)
    else:
        if not isinstance(run_config, RunConfig):
            raise ValueError(f"`run_config` must be `tf.contrib.learn.RunConfig` instance, "
                             f"got {run_config!r}")
        if not run_config.model_dir:
            raise ValueError("Must specify a model directory `model_dir` in `run_config`.")
        if hparams is not None and not isinstance(hparams, HParams):
            raise ValueError(f"`hparams` must be `HParams` instance, got {hparams!r}")
        experiment = experiment_fn(run_config, hparams)
    if not isinstance(experiment, Experiment):
        raise TypeError(f"Experiment builder did not return an Experiment instance, got "
                        f"{type(experiment)} instead.")
    if schedule is None:
        schedule = _default_schedule(experiment.estimator.config)
    return _execute_schedule(experiment, schedule)


def tune(experiment_fn, tuner):
    """TF 1.15's ``learn_runner.tune``: not provided (its tuners were Google-internal)."""
    from tf1mem.compat import errors as removed

    raise removed.RemovedAttributeError(removed.removed_message(
        "tf.contrib.learn.learn_runner.tune", "a loop over hyperparameters calling "
        "learn_runner.run(experiment_fn, run_config=..., hparams=...)"))
