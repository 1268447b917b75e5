"""``tf.estimator.RunConfig``: where and how an Estimator runs, with TF 1.15's defaults.

Owns the run settings (model_dir, seed, summary/checkpoint/log cadence, session config)
and reading the cluster from ``TF_CONFIG`` (``cluster_spec``, ``task_type``,
``task_id``, ``is_chief``, ``master``, replica counts) as TF 1.15 did. A bad value fails
when the RunConfig is built, naming the argument.
"""

import json
import os

__all__ = ["RunConfig", "TaskType"]


class TaskType:
    """The task types of a ``TF_CONFIG`` cluster."""

    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


_USE_DEFAULT = object()
_DEFAULT_CHECKPOINT_SECS = 600

_REPLACEABLE = ("model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
                "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute",
                "device_fn", "protocol", "eval_distribute", "experimental_distribute",
                "experimental_max_worker_delay_secs", "session_creation_timeout_secs")


def _check_int(name, value, minimum):
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"RunConfig: {name} must be an integer >= {minimum} or None, "
                         f"got {value!r}")


def _default_session_config(device_filters=()):
    from tf1mem._tf import v1

    from tensorflow.core.protobuf import rewriter_config_pb2

    config = v1().ConfigProto(allow_soft_placement=True, device_filters=list(device_filters))
    config.graph_options.rewrite_options.meta_optimizer_iterations = (
        rewriter_config_pb2.RewriterConfig.ONE)
    return config


def _parse_tf_config():
    raw = os.environ.get("TF_CONFIG", "")
    if not raw:
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"TF_CONFIG is not valid JSON ({exc}): {raw!r}") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"TF_CONFIG must be a JSON object, got {raw!r}")
    return parsed


class RunConfig:
    """Run settings of an Estimator (``tf.estimator.RunConfig`` of TF 1.15).

    Only one of ``save_checkpoints_steps`` and ``save_checkpoints_secs`` may be set;
    with neither, checkpoints are saved every 600 seconds (and at the end of training).
    ``session_config`` defaults to TF1's (soft placement, one meta-optimizer pass);
    tf1mem's session options (``python -m tf1mem.run --...``) are merged into every
    session as usual.
    """

    def __init__(self, model_dir=None, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT, save_checkpoints_secs=_USE_DEFAULT,
                 session_config=None, keep_checkpoint_max=5,
                 keep_checkpoint_every_n_hours=10000, log_step_count_steps=100,
                 train_distribute=None, device_fn=None, protocol=None, eval_distribute=None,
                 experimental_distribute=None, experimental_max_worker_delay_secs=None,
                 session_creation_timeout_secs=7200):
        if (save_checkpoints_steps not in (_USE_DEFAULT, None)
                and save_checkpoints_secs not in (_USE_DEFAULT, None)):
            raise ValueError("RunConfig: save_checkpoints_steps and save_checkpoints_secs "
                             "cannot both be set; pass one of them")
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, _DEFAULT_CHECKPOINT_SECS
        elif save_checkpoints_steps is _USE_DEFAULT:
            save_checkpoints_steps = None
        elif save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_secs = None
        _check_int("save_checkpoints_steps", save_checkpoints_steps, 0)
        _check_int("save_checkpoints_secs", save_checkpoints_secs, 0)
        _check_int("save_summary_steps", save_summary_steps, 0)
        _check_int("keep_checkpoint_max", keep_checkpoint_max, 0)
        _check_int("log_step_count_steps", log_step_count_steps, 0)
        _check_int("tf_random_seed", tf_random_seed, 0)
        if model_dir is not None and not isinstance(model_dir, (str, os.PathLike)):
            raise ValueError(f"RunConfig: model_dir must be a path or None, got {model_dir!r}")
        for name, value in (("train_distribute", train_distribute),
                            ("eval_distribute", eval_distribute),
                            ("experimental_distribute", experimental_distribute)):
            if value is not None:
                raise NotImplementedError(
                    f"RunConfig({name}=...) is not provided by tf1mem's tf.estimator: "
                    f"distribution strategies with Estimators left with tf.estimator in "
                    f"TF 2.16. Use instead: a TF_CONFIG cluster with tf.train.replica_device_"
                    f"setter, or tf.keras with tf.distribute.")
        if session_config is not None:
            from tf1mem._tf import v1

            if not isinstance(session_config, v1().ConfigProto):
                raise ValueError(f"RunConfig: session_config must be a tf.ConfigProto, got "
                                 f"{session_config!r}")
        self._model_dir = os.fspath(model_dir) if model_dir is not None else None
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_steps = save_checkpoints_steps
        self._save_checkpoints_secs = save_checkpoints_secs
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._log_step_count_steps = log_step_count_steps
        self._train_distribute = train_distribute
        self._device_fn = device_fn
        self._protocol = protocol
        self._eval_distribute = eval_distribute
        self._experimental_distribute = experimental_distribute
        self._experimental_max_worker_delay_secs = experimental_max_worker_delay_secs
        self._session_creation_timeout_secs = session_creation_timeout_secs
        self._init_cluster(_parse_tf_config())
        if self._session_config is None:
            self._session_config = _default_session_config(self._device_filters())

    def _init_cluster(self, tf_config):
        from tf1mem._tf import v1

        cluster = tf_config.get("cluster") or {}
        task = tf_config.get("task") or {}
        if not isinstance(cluster, dict) or not isinstance(task, dict):
            raise ValueError(f"TF_CONFIG: 'cluster' and 'task' must be JSON objects, got "
                             f"{tf_config!r}")
        self._cluster_spec = v1().train.ClusterSpec(cluster)
        task_type = task.get("type")
        task_id = task.get("index", 0)
        if cluster:
            if task_type is None:
                raise ValueError(f"TF_CONFIG has a cluster but no task type: {tf_config!r} "
                                 f"(add \"task\": {{\"type\": ..., \"index\": ...}})")
            if task_type != TaskType.EVALUATOR and task_type not in cluster:
                raise ValueError(f"TF_CONFIG: task type {task_type!r} is not in the cluster "
                                 f"{sorted(cluster)}")
            if not isinstance(task_id, int) or task_id < 0:
                raise ValueError(f"TF_CONFIG: task index must be an integer >= 0, got "
                                 f"{task_id!r}")
            if task_type != TaskType.EVALUATOR:
                size = len(self._cluster_spec.job_tasks(task_type))
                if task_id >= size:
                    raise ValueError(f"TF_CONFIG: task index {task_id} is out of range: job "
                                     f"{task_type!r} has {size} task(s)")
            if TaskType.CHIEF in cluster and len(cluster[TaskType.CHIEF]) != 1:
                raise ValueError("TF_CONFIG: the cluster must have exactly one chief")
            self._task_type, self._task_id = task_type, task_id
            if task_type == TaskType.EVALUATOR:
                # TF 1.15: the evaluator is outside the training cluster, in a session
                # of its own.
                self._master, self._is_chief = "", False
                self._cluster_spec = v1().train.ClusterSpec({})
            else:
                address = self._cluster_spec.task_address(task_type, task_id)
                self._master = f"grpc://{address}"
                if TaskType.CHIEF in cluster or TaskType.MASTER in cluster:
                    self._is_chief = task_type in (TaskType.CHIEF, TaskType.MASTER)
                else:
                    self._is_chief = task_type == TaskType.WORKER and task_id == 0
            self._num_ps_replicas = len(cluster.get(TaskType.PS, ()))
            self._num_worker_replicas = (len(cluster.get(TaskType.WORKER, ()))
                                         + len(cluster.get(TaskType.CHIEF, ()))
                                         + len(cluster.get(TaskType.MASTER, ())))
            if task_type == TaskType.EVALUATOR:
                self._num_ps_replicas = self._num_worker_replicas = 0
            order = [TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER]
            if task_type in order:
                offset = sum(len(cluster.get(t, ())) for t in order[:order.index(task_type)])
                self._global_id_in_cluster = offset + task_id
            else:
                self._global_id_in_cluster = None
        else:
            self._task_type = task_type or TaskType.WORKER
            self._task_id = task_id
            self._master = ""
            self._is_chief = self._task_type != TaskType.EVALUATOR
            self._num_ps_replicas = 0
            self._num_worker_replicas = 1
            self._global_id_in_cluster = 0
        self._evaluation_master = ""

    def _device_filters(self):
        """TF 1.15's default device filters: a task's sessions see only the ps and itself.

        Without them a worker's session would wait for every other task of the cluster.
        """
        if not self._cluster_spec.as_dict():
            return ()
        return {TaskType.MASTER: ("/job:ps", "/job:master"),
                TaskType.CHIEF: ("/job:ps", "/job:chief"),
                TaskType.WORKER: ("/job:ps", f"/job:worker/task:{self._task_id}"),
                TaskType.PS: ("/job:ps", "/job:worker", "/job:chief", "/job:master"),
                }.get(self._task_type, ())

    # The settings, read-only as in TF1.
    model_dir = property(lambda self: self._model_dir)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_steps = property(lambda self: self._save_checkpoints_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    session_config = property(lambda self: self._session_config)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(lambda self: self._keep_checkpoint_every_n_hours)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    train_distribute = property(lambda self: self._train_distribute)
    eval_distribute = property(lambda self: self._eval_distribute)
    device_fn = property(lambda self: self._device_fn)
    protocol = property(lambda self: self._protocol)
    session_creation_timeout_secs = property(lambda self: self._session_creation_timeout_secs)
    cluster_spec = property(lambda self: self._cluster_spec)
    task_type = property(lambda self: self._task_type)
    task_id = property(lambda self: self._task_id)
    master = property(lambda self: self._master)
    evaluation_master = property(lambda self: self._evaluation_master)
    is_chief = property(lambda self: self._is_chief)
    num_ps_replicas = property(lambda self: self._num_ps_replicas)
    num_worker_replicas = property(lambda self: self._num_worker_replicas)
    global_id_in_cluster = property(lambda self: self._global_id_in_cluster)

    def replace(self, **kwargs):
        """A copy with the given settings changed (only the constructor's arguments)."""
        for key in kwargs:
            if key not in _REPLACEABLE:
                raise ValueError(f"RunConfig.replace: {key!r} cannot be replaced; one of "
                                 f"{_REPLACEABLE}")
        args = {key: getattr(self, "_" + key) for key in _REPLACEABLE}
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" not in kwargs:
            args["save_checkpoints_secs"] = None
        if "save_checkpoints_secs" in kwargs and "save_checkpoints_steps" not in kwargs:
            args["save_checkpoints_steps"] = None
        args.update(kwargs)
        return RunConfig(**args)

    def _as_dict(self):
        return {"_" + key: getattr(self, "_" + key) for key in (
            "model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
            "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
            "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute",
            "device_fn", "protocol", "eval_distribute", "experimental_distribute",
            "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
            "cluster_spec", "task_type", "task_id", "global_id_in_cluster", "master",
            "evaluation_master", "is_chief", "num_ps_replicas", "num_worker_replicas")}

    def __repr__(self):
        return f"RunConfig({self._as_dict()!r})"
