"""One task of a data-parallel cluster: what a ps or worker process does.

This module owns everything that happens inside ONE task process of
``python -m tf1mem.cluster`` (:mod:`tf1mem.distributed.launcher` owns starting,
watching and restarting them; :mod:`tf1mem.distributed.servers` starting the gRPC
server and waiting for peers):

- :func:`die_with_launcher`: a task started by the launcher ends when it does,
  even when the launcher is SIGKILLed.
- :func:`run_ps` and :func:`run_worker`: between-graph replication of the
  softmax model from :mod:`tf1mem.models` (variables on ps through
  ``replica_device_setter``, each worker on its own shard of the training set,
  the chief checkpointing through ``MonitoredTrainingSession`` and evaluating).
"""

import ctypes
import dataclasses
import json
import os
import signal
import sys
import time
from typing import Mapping, Optional, Sequence

import numpy as np

from tf1mem import _atomic
from tf1mem.distributed.servers import wait_for_peers
from tf1mem.errors import ClusterError

__all__ = [
    "PROGRESS_SECONDS",
    "progress_path",
    "LAUNCHER_PID_ENV_VAR",
    "TaskSpec",
    "TrainSpec",
    "WorkerResult",
    "die_with_launcher",
    "run_ps",
    "run_worker",
]

# The launcher puts its pid here; a task that sees it dies with the launcher.
LAUNCHER_PID_ENV_VAR = "TF1MEM_LAUNCHER_PID"
# How often a worker writes its global step for the launcher's progress bar.
PROGRESS_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_launcher(launcher_pid: int) -> None:
    """Makes this task end when the launcher that started it does.

    On Linux the kernel sends this process SIGTERM when its parent dies
    (``prctl(PR_SET_PDEATHSIG)``), so a SIGKILLed launcher leaves no task behind.
    The parent may have died before that call took effect, so this process exits
    at once if its parent is no longer ``launcher_pid``. Elsewhere a ps polls
    for the same (:func:`run_ps`).

    Args:
      launcher_pid: the launcher's pid (``TF1MEM_LAUNCHER_PID``).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: not Linux
        pass
    if os.getppid() != launcher_pid:
        os._exit(128 + int(signal.SIGTERM))  # as if the signal had arrived


# --------------------------------------------------------------------------------
# What a task does


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """Which task this process is, in which cluster.

    Attributes:
      cluster: job name (``"ps"``, ``"worker"``) -> tuple of ``host:port``.
      job_name: ``"ps"`` or ``"worker"``.
      task_index: index within the job.
    """

    cluster: Mapping[str, Sequence[str]]
    job_name: str
    task_index: int

    @property
    def num_workers(self) -> int:
        return len(self.cluster.get("worker", ()))

    @property
    def is_chief(self) -> bool:
        return self.job_name == "worker" and self.task_index == 0


@dataclasses.dataclass(frozen=True)
class TrainSpec:
    """How the workers train (the same in every task of a run).

    Attributes:
      steps: global steps to train in all (StopAtStepHook's last_step).
      batch_size: examples per worker step.
      learning_rate: gradient-descent step size.
      data_dir: MNIST folder for :func:`tf1mem.data.input_data.read_data_sets`.
      checkpoint_dir: the chief's checkpoint folder (it restores from it); None on
        the other workers, which do not use it.
      sync: SyncReplicasOptimizer (aggregating one gradient per worker) if True.
      seed: numpy/TF seed; each worker offsets it by its index.
      save_checkpoint_steps: the chief checkpoints every this many global steps.
      startup_timeout: seconds to wait for peers and for the model to be ready.
      session_config: a ``ConfigProto`` (or None) to start from.
      result_file: where to write this task's :class:`WorkerResult` as JSON, or "".
    """

    steps: int
    batch_size: int
    learning_rate: float
    data_dir: str
    checkpoint_dir: Optional[str]
    sync: bool = False
    seed: Optional[int] = None
    save_checkpoint_steps: int = 100
    startup_timeout: float = 60.0
    session_config: object = None
    result_file: str = ""


@dataclasses.dataclass(frozen=True)
class WorkerResult:
    """What one worker did.

    Attributes:
      task: e.g. ``/job:worker/task:1``.
      local_steps: steps this worker ran in this process's life.
      examples_per_second: local_steps * batch_size / training seconds.
      train_seconds: seconds from the first to the last step.
      final_global_step: the global step when it stopped.
      test_accuracy: the chief's test accuracy (None on other workers).
      start_global_step: global step found at start (> 0 after a restore).
    """

    task: str
    local_steps: int
    examples_per_second: float
    train_seconds: float
    final_global_step: int
    test_accuracy: Optional[float]
    start_global_step: int


def run_ps(server, launcher_pid: Optional[int] = None) -> None:
    """A ps task serves variables until its process is killed.

    Args:
      server: this task's started server.
      launcher_pid: if set, also return once this process's parent is no longer
        that pid (the launcher died; a fallback where ``PR_SET_PDEATHSIG`` is not
        available, see :func:`die_with_launcher`).
    """
    if launcher_pid is None:
        server.join()
        return
    while os.getppid() == launcher_pid:
        time.sleep(0.5)


class _Shard:
    """Batches from one worker's slice of the training set, reshuffled per epoch."""

    def __init__(self, images, labels, seed):
        self._images, self._labels = images, labels
        self._rng = np.random.RandomState(seed)
        self._order = self._rng.permutation(len(images))
        self._pos = 0

    def next_batch(self, batch_size):
        if self._pos + batch_size > len(self._order):
            self._order = self._rng.permutation(len(self._images))
            self._pos = 0
        idx = self._order[self._pos:self._pos + batch_size]
        self._pos += batch_size
        return self._images[idx], self._labels[idx]


def _worker_config(base, task: TaskSpec, timeout_ms: int):
    import tensorflow as tf  # imported on first use

    config = tf.compat.v1.ConfigProto()
    if base is not None:
        config.CopyFrom(base)
    # A worker talks only to the ps tasks and itself: it neither waits for nor
    # breaks when another worker is down or restarting.
    del config.device_filters[:]
    config.device_filters.extend(["/job:ps", f"/job:worker/task:{task.task_index}"])
    if not config.operation_timeout_in_ms:
        config.operation_timeout_in_ms = timeout_ms
    return config


def run_worker(server, task: TaskSpec, train: TrainSpec, out=None) -> WorkerResult:
    """Trains the softmax model as one replica; the chief also evaluates.

    Args:
      server: this task's started server.
      task: the cluster and this task's place in it.
      train: the run's settings.
      out: text stream for progress lines (default ``sys.stdout``).

    Returns:
      A :class:`WorkerResult` (also written to ``train.result_file`` if set).

    Raises:
      ClusterError: a peer or the chief did not come up within the startup timeout.
    """
    import tensorflow as tf  # imported on first use
    from tf1mem import models
    from tf1mem.data import input_data

    out = sys.stdout if out is None else out
    v1 = tf.compat.v1
    name = f"/job:worker/task:{task.task_index}"
    peers = {f"/job:ps/task:{i}": a for i, a in enumerate(task.cluster["ps"])}
    wait_for_peers(peers, train.startup_timeout)

    seed = None if train.seed is None else train.seed + task.task_index
    mnist = input_data.read_data_sets(train.data_dir, one_hot=True, seed=train.seed,
                                      folder_name="--data-dir")
    shard_idx = np.array_split(np.arange(mnist.train.num_examples),
                               task.num_workers)[task.task_index]
    shard = _Shard(mnist.train.images[shard_idx], mnist.train.labels[shard_idx], seed)

    graph = tf.Graph()
    with graph.as_default():
        if seed is not None:
            v1.set_random_seed(seed)
        setter = v1.train.replica_device_setter(
            cluster=tf.train.ClusterSpec(dict(task.cluster)), worker_device=name)
        with v1.device(setter):
            global_step = v1.train.get_or_create_global_step()
            x, y = models.placeholders()
            y_pred = models.inference(x)
            loss_op = models.loss(y_pred, y)
            accuracy = models.evaluation(y_pred, y)
            hooks = [v1.train.StopAtStepHook(last_step=train.steps)]
            if train.sync:
                opt = v1.train.SyncReplicasOptimizer(
                    v1.train.GradientDescentOptimizer(train.learning_rate),
                    replicas_to_aggregate=task.num_workers,
                    total_num_replicas=task.num_workers)
                train_op = opt.minimize(loss_op, global_step=global_step)
                hooks.append(opt.make_session_run_hook(task.is_chief))
            else:
                train_op = models.training(loss_op, train.learning_rate, global_step)
        config = _worker_config(train.session_config, task,
                                int(max(train.startup_timeout, 30) * 1000))
        if not task.is_chief:
            _wait_until_ready(server.target, config, train.startup_timeout)
        local_steps = 0
        restored = 0
        step = 0
        started = None
        with v1.train.MonitoredTrainingSession(
                master=server.target, is_chief=task.is_chief,
                checkpoint_dir=train.checkpoint_dir, hooks=hooks, config=config,
                save_checkpoint_steps=train.save_checkpoint_steps,
                save_checkpoint_secs=None, save_summaries_steps=None,
                save_summaries_secs=None, log_step_count_steps=0,
                stop_grace_period_secs=5, max_wait_secs=train.startup_timeout) as sess:
            restored = step = int(sess.run(global_step))
            print(f"{name}: starting at global step {step}", file=out, flush=True)
            started = time.perf_counter()
            reported = 0.0
            while not sess.should_stop():
                batch_x, batch_y = shard.next_batch(train.batch_size)
                _, step = sess.run([train_op, global_step], feed_dict={x: batch_x, y: batch_y})
                local_steps += 1
                if train.result_file and time.monotonic() - reported >= PROGRESS_SECONDS:
                    # The launcher's progress bar reads it (a few bytes, atomically).
                    _write_json(progress_path(train.result_file), {"global_step": int(step)})
                    reported = time.monotonic()
        seconds = time.perf_counter() - (started or time.perf_counter())
        test_accuracy = None
        if task.is_chief:
            # The variables live on the ps tasks, so a plain session on this
            # task's server still sees the trained values after the monitored one
            # (and its checkpoint at the last step) has closed.
            with v1.Session(server.target, config=config) as plain:
                test_accuracy = float(plain.run(accuracy, feed_dict={
                    x: mnist.test.images, y: mnist.test.labels}))
    result = WorkerResult(
        task=name, local_steps=local_steps,
        examples_per_second=local_steps * train.batch_size / seconds if seconds > 0 else 0.0,
        train_seconds=seconds, final_global_step=int(step),
        test_accuracy=test_accuracy, start_global_step=restored)
    if train.result_file:
        _write_json(train.result_file, dataclasses.asdict(result))
    return result


def progress_path(result_file: str) -> str:
    """The file beside ``result_file`` where a worker reports its global step."""
    return os.path.splitext(result_file)[0] + ".progress"


def _wait_until_ready(target, config, timeout):
    """Non-chief: poll until the chief has initialised (or restored) the model.

    ``MonitoredTrainingSession`` would poll too, but only every 30 seconds.
    """
    import tensorflow as tf  # imported on first use

    v1 = tf.compat.v1
    deadline = time.monotonic() + timeout
    # Global variables only: local ones (SyncReplicasOptimizer's local_step) are
    # this worker's own, initialised by its monitored session.
    check = v1.report_uninitialized_variables(v1.global_variables())
    with v1.Session(target, config=config) as sess:
        while True:
            try:
                if len(sess.run(check)) == 0:
                    return
            except tf.errors.OpError:
                pass
            if time.monotonic() >= deadline:
                raise ClusterError(
                    f"the chief (/job:worker/task:0) did not initialise the model within "
                    f"--startup-timeout {timeout:g} s; is it running?")
            time.sleep(0.25)


def _write_json(path, data):
    _atomic.write_text(path, json.dumps(data))
