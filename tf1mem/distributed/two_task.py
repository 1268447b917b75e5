"""The article's example 2: one model split over two gRPC tasks, as a library.

This module owns ``python -m tf1mem.train --mode two-task`` (``tf1mem.train``
parses the flags and calls :func:`run_two_task`). It reproduces
``scripts/legacy/two_task_placement.py`` op for op on TF 2.21: two in-process
``tf.compat.v1.train.Server`` objects for job ``local`` tasks 0 and 1; the
input, ``W``, ``b`` and the softmax on ``/job:local/task:0``; the labels
placeholder, the cross-entropy and gradient descent on ``/job:local/task:1``; a
session on task 0's ``grpc://`` target; the 55 000 training examples taken as 55
partitions of 1 000 with ``next_batch``, one step each, printing
``Partition %d loss: %f`` exactly as the script. The first step is run through
:func:`tf1mem.observe.placement.run_with_placement`, and its placement table (nodes on
both tasks) is printed after the losses.

Security: the ClusterSpec names ``localhost``, which is what the two tasks dial;
TensorFlow's server itself listens on every interface unless the process runs
with tf1mem's loopback bind shim (:func:`tf1mem.distributed.loopback.loopback_active`;
``tf1mem.distributed.loopback.reexec_with_loopback`` starts a command under it). Each
server is then checked with the kernel; one that listens off loopback without
``allow_remote`` is shut down and the run fails (exit 4 from ``tf1mem.train``).
"""

import dataclasses
import sys
import time
from typing import Optional, TextIO, Tuple

from tf1mem import config, models
from tf1mem.distributed import servers
from tf1mem.observe import placement
from tf1mem.errors import ClusterError

__all__ = ["TwoTaskOptions", "TwoTaskResult", "run_two_task", "SplitMemory", "measure_split",
           "JOB_NAME"]

JOB_NAME = "local"


@dataclasses.dataclass(frozen=True)
class TwoTaskOptions:
    """Settings of the two-task run; the defaults are the article's.

    Attributes:
      data_dir: MNIST folder given to ``read_data_sets``.
      port_base: task 0 listens on this port and task 1 on the next; 0 picks two
        free ports.
      partition_size: examples per partition (and per step).
      learning_rate: gradient-descent step size.
      seed: passed to ``read_data_sets`` (which reseeds numpy), None as the article.
      log_device_placement: the session config's flag (True in the article; TF
        prints its log to file descriptor 2, the table below is what you can see
        everywhere).
      host: the host name in the ClusterSpec.
      out: stream for the loss lines and the table (default ``sys.stdout``).
      session_options: a :class:`tf1mem.config.SessionOptions` (e.g. from
        ``tf1mem.train``'s ``--allow-growth``, ``--gpu-memory-fraction``) applied over
        the article's config (``log_device_placement`` above); the options it
        sets win. It configures the two servers too, which own the devices.
      allow_remote: let the servers listen on every interface. Without it each is
        checked with the kernel once started, and one listening off loopback is
        shut down and a ClusterError raised (run under
        :func:`tf1mem.distributed.loopback.reexec_with_loopback`, as
        ``tf1mem.train`` does, to keep them on loopback).
      loss_every: print the loss of every this-many-th partition (and of the
        last); 1, the article's, prints all of them.
      placement_table: print the table of partition 0's placement after training.
    """

    data_dir: str = models.DATA_DIR
    port_base: int = 2222
    partition_size: int = 1000
    learning_rate: float = models.LEARNING_RATE
    seed: Optional[int] = None
    log_device_placement: bool = True
    host: str = "localhost"
    out: Optional[TextIO] = None
    session_options: Optional[config.SessionOptions] = None
    allow_remote: bool = False
    loss_every: int = 1
    placement_table: bool = True

    def __post_init__(self):
        if not 0 <= self.port_base <= 65534:
            raise ClusterError(f"port_base must be 0 or a port in 1..65534, got {self.port_base}")
        if self.partition_size <= 0:
            raise ClusterError(f"partition_size must be positive, got {self.partition_size}")
        if self.loss_every <= 0:
            raise ClusterError(f"loss_every must be positive, got {self.loss_every}")


@dataclasses.dataclass(frozen=True)
class TwoTaskResult:
    """What the run did.

    Attributes:
      losses: the loss of each partition's step, in order.
      placement: rows of the first step's partition graphs.
      ports: (task 0 port, task 1 port).
      train_seconds: seconds spent in the training steps.
      test_accuracy: the trained model's accuracy on the MNIST test set.
    """

    losses: Tuple[float, ...]
    placement: Tuple[placement.PlacementRow, ...]
    ports: Tuple[int, int]
    train_seconds: float
    test_accuracy: float


def _check_port_free(port):
    if servers.held_here(port):
        return  # an earlier run in this process started it; start_server reuses it
    why = servers.port_busy(port)
    if why:
        raise ClusterError(f"the two-task run needs ports {port} and {port + 1}, but "
                           f"{servers.port_problem(port, why)}.")


def _session_config(opts: TwoTaskOptions):
    """The article's ConfigProto with ``opts.session_options`` applied over it."""
    # force: an option the caller sets (e.g. --no-log-device-placement) beats the
    # article's value, which is only the default here.
    return config.merge_config(
        config.session_config(log_device_placement=opts.log_device_placement),
        opts.session_options, force=True)


def _build_graph(task0, task1, learning_rate):
    """Example 2's graph in the default graph: forward pass on task0, loss and SGD on task1.

    ``None`` for both devices builds the same graph with no device scopes.
    Returns ``(x, y, cross_entropy, train_step, accuracy)``.
    """
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.device(task0):
        x = v1.placeholder(tf.float32, shape=[None, models.IMAGE_PIXELS])
        y_pred = models.inference(x)
    with tf.device(task1):
        y = v1.placeholder(tf.float32, shape=[None, models.NUM_CLASSES])
        cross_entropy = models.loss(y_pred, y)
        train_step = models.training(cross_entropy, learning_rate)
        accuracy = models.evaluation(y_pred, y)
    return x, y, cross_entropy, train_step, accuracy


@dataclasses.dataclass(frozen=True)
class SplitMemory:
    """Example 2's step measured split over its two tasks and on one device.

    Attributes:
      split: per-device figures of the step on the two tasks (device names keep
        their ``/job:local/.../task:N`` prefix).
      one_device: the same graph and batch in one local session.
      ports: the two tasks' ports.
    """

    split: object  # tf1mem.observe.step_memory.StepMemory
    one_device: object
    ports: Tuple[int, int]

    @property
    def largest_task_peak(self) -> int:
        return max(d.peak_bytes for d in self.split.devices.values())


def measure_split(partition_size: int = 1000, *, port_base: int = 0,
                  host: str = "localhost", allow_remote: bool = False,
                  steps: int = 2) -> SplitMemory:
    """Measures one training step of example 2's placement against one device.

    The remedy the article's example 2 stands for is splitting a model so that no
    one device holds all of it. This builds example 2's graph on two in-process
    gRPC tasks (as :func:`run_two_task`), measures its step with
    :func:`tf1mem.observe.step_memory.measure_step` (each task's peak, from the step
    stats the master gathers from both workers), then the same graph in one local
    session. Inputs are random: memory does not depend on the values.

    Args:
      partition_size: examples per step (the article's 1000).
      port_base: as :class:`TwoTaskOptions` (0 picks free ports).
      host: the host name in the ClusterSpec.
      allow_remote: let the servers listen on every interface.
      steps: traced steps per measurement (the largest is reported).

    Returns:
      A :class:`SplitMemory`.

    Raises:
      ClusterError: a port is in use, or a server listens off loopback without
        ``allow_remote``.
    """
    import numpy as np
    import tensorflow as tf

    from tf1mem.observe import step_memory

    if partition_size <= 0:
        raise ClusterError(f"partition_size must be positive, got {partition_size}")
    v1 = tf.compat.v1
    rng = np.random.default_rng(0)
    xs = rng.random((partition_size, models.IMAGE_PIXELS), dtype=np.float32)
    ys = np.eye(models.NUM_CLASSES, dtype=np.float32)[
        rng.integers(0, models.NUM_CLASSES, partition_size)]
    if port_base == 0:
        ports = servers.free_ports(2)
    else:
        ports = [port_base, port_base + 1]
        for port in ports:
            _check_port_free(port)
    cluster = {JOB_NAME: [f"{host}:{p}" for p in ports]}
    results = []
    for devices in ((f"/job:{JOB_NAME}/task:0", f"/job:{JOB_NAME}/task:1"), (None, None)):
        graph = tf.Graph()
        with graph.as_default():
            target = ""
            if devices[0] is not None:
                target = [servers.start_server(cluster, JOB_NAME, i, allow_remote=allow_remote)
                          for i in range(2)][0].target
            x, y, _, train_step, _ = _build_graph(*devices, models.LEARNING_RATE)
            with v1.Session(target) as sess:
                sess.run(v1.global_variables_initializer())
                results.append(step_memory.measure_step(sess, train_step, {x: xs, y: ys},
                                                   steps=steps, batch_size=partition_size))
    return SplitMemory(split=results[0], one_device=results[1], ports=(ports[0], ports[1]))


def run_two_task(opts: TwoTaskOptions) -> TwoTaskResult:
    """Runs the article's example 2 and prints its losses and placement table.

    Args:
      opts: a :class:`TwoTaskOptions`.

    Returns:
      A :class:`TwoTaskResult`.

    Raises:
      ClusterError: a port is in use (naming it and ``--port-base 0``).
      tf1mem.ConfigError: ``session_options`` holds an invalid value.
      tf1mem.DataError: the MNIST files are missing or corrupt.
    """
    import tensorflow as tf  # imported on first use: tf1mem does no work at import
    from tf1mem.data import input_data

    out = sys.stdout if opts.out is None else opts.out
    v1 = tf.compat.v1
    if opts.port_base == 0:
        ports = servers.free_ports(2)
    else:
        ports = [opts.port_base, opts.port_base + 1]
        for port in ports:
            _check_port_free(port)
    cluster = {JOB_NAME: [f"{opts.host}:{p}" for p in ports]}
    session_config = _session_config(opts)
    task0, task1 = f"/job:{JOB_NAME}/task:0", f"/job:{JOB_NAME}/task:1"

    graph = tf.Graph()
    with graph.as_default():
        # Servers live in this process, as in the article; they stop when it ends
        # (TensorFlow cannot stop them), and a later run here on the same ports
        # gets the same servers back.
        task_servers = [servers.start_server(cluster, JOB_NAME, i, config=session_config,
                                             allow_remote=opts.allow_remote)
                        for i in range(2)]
        x, y, cross_entropy, train_step, accuracy = _build_graph(task0, task1,
                                                                  opts.learning_rate)
        with v1.Session(task_servers[0].target, config=session_config) as sess:
            sess.run(v1.global_variables_initializer())
            mnist = input_data.read_data_sets(opts.data_dir, one_hot=True, seed=opts.seed,
                                              folder_name="--data-dir")
            num_partitions = mnist.train.num_examples // opts.partition_size
            partitions = [mnist.train.next_batch(opts.partition_size)
                          for _ in range(num_partitions)]
            losses = []
            rows = ()
            start = time.perf_counter()
            for i in range(num_partitions):
                feed = {x: partitions[i][0], y: partitions[i][1]}
                if i == 0:
                    (_, loss_val), rows = placement.run_with_placement(
                        sess, [train_step, cross_entropy], feed)
                else:
                    _, loss_val = sess.run([train_step, cross_entropy], feed_dict=feed)
                losses.append(float(loss_val))
                if i % opts.loss_every == 0 or i == num_partitions - 1:
                    print("Partition %d loss: %f" % (i, loss_val), file=out, flush=True)
            seconds = time.perf_counter() - start
            test_accuracy = float(sess.run(accuracy, feed_dict={
                x: mnist.test.images, y: mnist.test.labels}))
    if opts.placement_table:
        print(f"\nPlacement of partition 0's step ({len(rows)} nodes):", file=out)
        print(placement.format_table(rows), file=out, flush=True)
    return TwoTaskResult(losses=tuple(losses), placement=tuple(rows),
                         ports=(ports[0], ports[1]), train_seconds=seconds,
                         test_accuracy=test_accuracy)
