"""``tf.contrib.learn.RunConfig``: TF 1.15's contrib signature over tf1mem's RunConfig.

Owns what the contrib class accepted beyond ``tf.estimator.RunConfig`` (``master``,
``num_cores``, ``log_device_placement``, ``gpu_memory_fraction``, ``evaluation_master``,
positional ``master`` first) and its reading of ``TF_CONFIG``: without a task type the
task type is None (core says ``"worker"``), as :func:`learn_runner.run` expects when it
picks a schedule, and a cluster without a task is accepted. ``environment`` is
``TF_CONFIG``'s ``"environment"`` or ``"local"``. It is a ``tf.estimator.RunConfig``, so
tf1mem's Estimator takes it. Nothing here imports TensorFlow at import time.
"""

from tf1mem.compat.tf.estimator import run_config as core

__all__ = ["RunConfig"]

_USE_DEFAULT = core._USE_DEFAULT


class RunConfig(core.RunConfig):
    """TF 1.15's ``tf.contrib.learn.RunConfig`` (a ``tf.estimator.RunConfig``).

    Args:
      master: the session target (TF1's in-graph replication); None: from TF_CONFIG.
      num_cores: threads of each session's pools (0: TensorFlow chooses).
      log_device_placement: log where each op runs.
      gpu_memory_fraction: ``per_process_gpu_memory_fraction`` of the sessions.
      evaluation_master: the session target of evaluations.
      session_config: a ``tf.ConfigProto``; when given, the three options above are
        not applied (as TF 1.15).
      The other arguments are ``tf.estimator.RunConfig``'s.
    """

    def __init__(self, master=None, num_cores=0, log_device_placement=False,
                 gpu_memory_fraction=1, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_secs=_USE_DEFAULT, save_checkpoints_steps=None,
                 keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, protocol=None, evaluation_master="",
                 model_dir=None, session_config=None, session_creation_timeout_secs=7200):
        if save_checkpoints_secs is _USE_DEFAULT:
            # TF 1.15: 600 s unless checkpoints are saved by steps.
            save_checkpoints_secs = (None if save_checkpoints_steps is not None
                                     else core._DEFAULT_CHECKPOINT_SECS)
        if session_config is None and (num_cores or log_device_placement
                                       or gpu_memory_fraction != 1):
            session_config = self._session_config_from(
                num_cores, log_device_placement, gpu_memory_fraction)
        self._contrib_master = master
        super().__init__(
            model_dir=model_dir, tf_random_seed=tf_random_seed,
            save_summary_steps=save_summary_steps,
            save_checkpoints_steps=save_checkpoints_steps,
            save_checkpoints_secs=save_checkpoints_secs, session_config=session_config,
            keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            log_step_count_steps=log_step_count_steps, protocol=protocol,
            session_creation_timeout_secs=session_creation_timeout_secs)
        self._num_cores = num_cores
        self._log_device_placement = log_device_placement
        self._gpu_memory_fraction = gpu_memory_fraction
        self._evaluation_master = evaluation_master or ""
        if master is not None:
            self._master = master

    @staticmethod
    def _session_config_from(num_cores, log_device_placement, gpu_memory_fraction):
        from tf1mem._tf import v1

        config = core._default_session_config()
        config.log_device_placement = bool(log_device_placement)
        config.intra_op_parallelism_threads = int(num_cores)
        config.inter_op_parallelism_threads = int(num_cores)
        config.gpu_options.CopyFrom(v1().GPUOptions(
            per_process_gpu_memory_fraction=gpu_memory_fraction))
        return config

    def _init_cluster(self, tf_config):
        task = tf_config.get("task") or {}
        self._environment = tf_config.get("environment", "local")
        cluster = tf_config.get("cluster") or {}
        if cluster and isinstance(task, dict) and task.get("type") is None:
            # TF 1.15's contrib RunConfig accepted a cluster without a task; the runner
            # then asks for a schedule.
            from tf1mem._tf import v1

            self._cluster_spec = v1().train.ClusterSpec(cluster)
            self._task_type, self._task_id = None, 0
            self._master, self._is_chief = "", True
            self._num_ps_replicas = len(cluster.get(core.TaskType.PS, ()))
            self._num_worker_replicas = len(cluster.get(core.TaskType.WORKER, ()))
            self._global_id_in_cluster = None
            self._evaluation_master = ""
            return
        super()._init_cluster(tf_config)
        if not isinstance(task, dict) or task.get("type") is None:
            self._task_type = None
        if not cluster:
            self._num_worker_replicas = 0  # TF 1.15.5's contrib value on one machine

    environment = property(lambda self: self._environment)
    num_cores = property(lambda self: self._num_cores)
    log_device_placement = property(lambda self: self._log_device_placement)
    gpu_memory_fraction = property(lambda self: self._gpu_memory_fraction)

    def replace(self, **kwargs):
        """A copy with the given settings changed (``tf.estimator.RunConfig``'s names)."""
        new = super().replace(**kwargs)
        copy = RunConfig.__new__(RunConfig)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update({key: value for key, value in new.__dict__.items()
                              if key.lstrip("_") in core._REPLACEABLE})
        return copy
