"""Training loops for the article's models: example 1's loop, as a library.

:func:`train_softmax` trains the article's example 1: softmax regression on MNIST,
the hand-written cross-entropy, gradient descent, the batches TF1's ``next_batch``
gives for the seed. Two loops, chosen by :attr:`TrainOptions.loop`:

- ``"exact"``: the article's loop op for op: one ``next_batch`` per step, fed
  through ``feed_dict`` to placeholders, one ``session.run`` per step.
- ``"fast"`` (the default): the same model on the same batches in the same order,
  with the training set resident in the graph (two variables, fed once) and a
  ``tf.while_loop`` running :data:`FAST_CHUNK` steps per ``session.run``,
  :data:`UNROLL` of them per iteration. Each step gathers the rows
  :meth:`DataSet.batch_indices` says ``next_batch`` would have returned, computes
  the same forward pass and loss, and applies ``W - lr * grad``, which is what
  ``GradientDescentOptimizer`` computes, with the gradient written out
  (:func:`tf1mem.models.sgd_step`) rather than built by ``tf.gradients``. Only the
  order of floating-point operations differs: the test accuracy equals the exact
  loop's to 4 decimals and the weights agree within 1e-5
  (``tests/tf/test_fast_train.py`` checks both for two seeds). Its session runs
  the steps on one inter-op thread of its own (:data:`FAST_SESSION_THREADS`,
  :func:`loop_session_fields`) unless the user sets the inter-op thread count.

Each graph is built in a private ``tf.Graph`` run by a ``tf.compat.v1.Session``, so
training changes no process-wide TensorFlow mode. ``python -m tf1mem.train`` parses
its flags into :class:`TrainOptions` and calls this.
"""

import dataclasses
import math
import sys
import time
from typing import Optional, TextIO, Tuple

from tf1mem import _progress as _progress_bar
from tf1mem import errors, models

__all__ = ["MODES", "LOOPS", "FAST_CHUNK", "UNROLL", "FAST_SESSION_THREADS", "TrainOptions",
           "TrainResult", "train_softmax", "loop_session_fields", "ExactLoop", "FastLoop"]

MODES = ("softmax", "two-task")
LOOPS = ("fast", "exact")
# Steps per session.run of the fast loop: large enough that the per-run overhead
# (~0.1 ms) is noise, small enough that the progress bar moves and a NaN loss stops
# the run soon after it appears.
FAST_CHUNK = 250
# Steps per iteration of the fast loop's tf.while_loop (FAST_CHUNK is a multiple):
# each iteration costs the loop's own control ops, on top of the steps' ops.
# Measured on 2 cores, 1000 steps of batch 100, three runs each: 167-206 us a step
# with 1, 160-178 with 5, 144-166 with 10, 140-174 with 25.
UNROLL = 10
# The fast loop's session threading unless the user chooses (--inter-op-threads N,
# TF1MEM_INTER_OP_THREADS): one inter-op thread of the session's own, so that the
# steps' ops, which form one chain, run on one thread instead of being handed between
# threads on both cores. Measured: docs/PERFORMANCE.md ("The fast loop's threads").
FAST_SESSION_THREADS = {"inter_op_parallelism_threads": 1, "use_per_session_threads": True}


@dataclasses.dataclass(frozen=True)
class TrainOptions:
    """Everything one training run needs; built once from the command line."""

    mode: str = "softmax"
    loop: str = "fast"  # "fast" or "exact" (see the module docstring)
    profile: bool = False  # print the phases' wall times
    batch_size: int = models.BATCH_SIZE
    steps: int = models.STEPS
    learning_rate: float = models.LEARNING_RATE
    data_dir: str = models.DATA_DIR
    seed: Optional[int] = None
    json: bool = False
    progress: bool = True
    port_base: int = 2222
    allow_remote: bool = False
    session: object = None  # tf1mem.config.SessionOptions (flags + TF1MEM_* env), or None
    cpus: Optional[Tuple[int, ...]] = None  # pinned to (--cpus / TF1MEM_CPUS), or None
    verbose: bool = False  # TensorFlow's C++ log as it comes (the command's --verbose)


@dataclasses.dataclass(frozen=True)
class TrainResult:
    """What a softmax run measured."""

    test_accuracy: float
    final_loss: float
    steps: int
    batch_size: int
    learning_rate: float
    seed: Optional[int]
    train_seconds: float
    total_seconds: float
    examples_per_second: float
    loop: str = "exact"
    # Wall seconds of each phase: import, load, build, train, eval.
    phases: dict = dataclasses.field(default_factory=dict)


def _oom_options():
    """RunOptions asking TF to list the live tensors should a step run out of memory.

    ``python -m tf1mem.train`` turns that list into a short table
    (:func:`tf1mem.observe.oom.explain_oom`). The exact loop asks on every run (no
    cost measured there); the fast loop only when it runs a chunk again after one ran
    out, since the tracking slows its in-graph loop by half or more.
    """
    from tf1mem._tf import v1

    return v1().RunOptions(report_tensor_allocations_upon_oom=True)


def train_softmax(opts: TrainOptions, err: Optional[TextIO] = None) -> TrainResult:
    """Trains the article's example 1 with ``opts`` and returns what it measured.

    Args:
      opts: the run's options; ``opts.session`` becomes the session's ConfigProto,
        ``opts.loop`` chooses the loop (see the module docstring).
      err: where the config report and the progress bar go (default stderr).

    Returns:
      A :class:`TrainResult`.

    Raises:
      TrainingError: the loss became NaN or infinite.
      DataError: MNIST cannot be had intact.
      UsageError: ``opts.loop`` is not one of :data:`LOOPS`.
    """
    if opts.loop not in LOOPS:
        raise errors.UsageError(f"loop {opts.loop!r} is not one of {', '.join(LOOPS)}")
    start = time.perf_counter()
    err = sys.stderr if err is None else err
    phases = {}
    import tensorflow as tf

    from tf1mem import config
    from tf1mem.data import input_data

    phases["import"] = time.perf_counter() - start
    mark = time.perf_counter()
    # The fast loop keeps the pixels as uint8 (the same batches and shuffles: only
    # the scaling to float32 moves into the graph).
    pixels = "uint8" if opts.loop == "fast" else "float32"
    mnist = input_data.read_data_sets(opts.data_dir, one_hot=True, seed=opts.seed,
                                      dtype=pixels, folder_name="--data-dir")
    session_config = (opts.session or config.SessionOptions()).to_config()
    config.note_session_config(session_config)
    for line in config.describe_config(session_config):
        if "(default" not in line:  # only what the user asked for, and its effect
            print(f"tf1mem: {line}", file=err)
    for field, value in loop_session_fields(opts).items():  # the loop's own, not reported
        setattr(session_config, field, value)
    phases["load"] = time.perf_counter() - mark

    loop = FastLoop if opts.loop == "fast" else ExactLoop
    mark = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
        run = loop(opts, mnist)
    graph.finalize()
    with tf.compat.v1.Session(graph=graph, config=session_config) as sess:
        run.initialize(sess)
        phases["build"] = time.perf_counter() - mark
        mark = time.perf_counter()
        loss_val = run.train(sess, _progress(opts, err))
        train_seconds = time.perf_counter() - mark
        phases["train"] = train_seconds
        mark = time.perf_counter()
        test_accuracy = run.test_accuracy(sess)
        phases["eval"] = time.perf_counter() - mark
    return TrainResult(
        test_accuracy=float(test_accuracy), final_loss=float(loss_val),
        steps=opts.steps, batch_size=opts.batch_size,
        learning_rate=opts.learning_rate, seed=opts.seed,
        train_seconds=train_seconds, total_seconds=time.perf_counter() - start,
        examples_per_second=opts.steps * opts.batch_size / train_seconds,
        loop=opts.loop, phases=phases)


def loop_session_fields(opts: TrainOptions) -> dict:
    """The ``ConfigProto`` fields the loop sets on top of the user's session options.

    The fast loop gets :data:`FAST_SESSION_THREADS` unless the user set the inter-op
    thread count (``opts.session.inter_op_parallelism_threads``, from
    ``--inter-op-threads`` or ``TF1MEM_INTER_OP_THREADS``; 0, TensorFlow's choice,
    counts as set); the exact loop, the article's, gets nothing (its session is the
    article's, with the user's options only).

    Returns:
      A dict of ``ConfigProto`` field name to value, empty when there is none.
    """
    if opts.loop != "fast":
        return {}
    if getattr(opts.session, "inter_op_parallelism_threads", None) is not None:
        return {}
    return dict(FAST_SESSION_THREADS)


def _progress(opts: TrainOptions, err: TextIO):
    return _progress_bar.bar(opts.steps, "train", "step", opts.progress, err)


def _check_finite(loss_val: float, step: int, opts: TrainOptions) -> None:
    if not math.isfinite(loss_val):
        # Every later step would train on NaN weights: stop and say why.
        raise errors.TrainingError(
            f"the loss became {loss_val} at step {step} of {opts.steps} "
            f"(learning rate {opts.learning_rate:g}, batch {opts.batch_size}); "
            f"the weights are no longer numbers. Lower --learning-rate (the "
            f"article uses {models.LEARNING_RATE}).")


class ExactLoop:
    """The article's loop: placeholders, ``next_batch`` and one run per step."""

    def __init__(self, opts: TrainOptions, mnist):
        from tf1mem._tf import v1

        self.opts, self.mnist = opts, mnist
        self.x, self.y = models.placeholders()
        y_pred = models.inference(self.x)
        self.cross_entropy = models.loss(y_pred, self.y)
        self.train_step = models.training(self.cross_entropy, opts.learning_rate)
        self.accuracy = models.evaluation(y_pred, self.y)
        self.init = v1().global_variables_initializer()
        self.W, self.b = v1().trainable_variables()

    def initialize(self, sess) -> None:
        sess.run(self.init, options=_oom_options())

    def train(self, sess, bar) -> float:
        loss_val = float("nan")
        with bar:
            for step in range(self.opts.steps):
                batch_xs, batch_ys = self.mnist.train.next_batch(self.opts.batch_size)
                _, loss_val = sess.run([self.train_step, self.cross_entropy],
                                       feed_dict={self.x: batch_xs, self.y: batch_ys},
                                       options=_oom_options())
                _check_finite(loss_val, step + 1, self.opts)
                bar.update(1)
        return loss_val

    def test_accuracy(self, sess) -> float:
        return sess.run(self.accuracy, feed_dict={self.x: self.mnist.test.images,
                                                  self.y: self.mnist.test.labels},
                        options=_oom_options())

    def weights(self, sess):
        """``(W, b)`` as numpy arrays (for tests and comparisons)."""
        return sess.run([self.W, self.b])


class FastLoop:
    """The same model on the same batches, many steps per run (module docstring)."""

    def __init__(self, opts: TrainOptions, mnist):
        from tf1mem._tf import v1

        tf = v1()
        self.opts, self.mnist = opts, mnist
        train = mnist.train
        if opts.batch_size > train.num_examples:
            raise errors.UsageError(
                f"--batch-size {opts.batch_size} is larger than the {train.num_examples} "
                "training examples; TF1's next_batch then returned short batches, which "
                "only the exact loop reproduces: pass --exact or a smaller --batch-size")
        self._images = train.images  # the rows batch_indices' indices refer to
        self._labels = train.labels.astype("float32")  # what feeding float32 does
        # uint8 pixels (read_data_sets(dtype=uint8)) stay uint8 in the graph, a
        # quarter of float32's memory, and each gathered batch is scaled as the
        # loader scales (models.pixels): the same float32 values.
        self._pixels = tf.as_dtype(self._images.dtype)
        if self._pixels not in (tf.uint8, tf.float32):
            raise errors.UsageError(
                f"the fast loop takes uint8 or float32 images, got {self._pixels.name}: "
                "load them with read_data_sets(dtype=tf.uint8 or tf.float32)")
        self.images_in = tf.placeholder(self._pixels, self._images.shape)
        self.labels_in = tf.placeholder(tf.float32, self._labels.shape)
        # The loops read the data as plain tensors (GatherV2 on the variable's value),
        # never through the variable's sparse read: that gather copies the whole
        # variable first while its buffer is shared, and a 64-byte-aligned fed array
        # (as the loader gives) is shared, not copied: 41 MiB more for MNIST at the
        # first step.
        images = tf.Variable(self.images_in, trainable=False).read_value()
        labels = tf.Variable(self.labels_in, trainable=False).read_value()
        self.W, self.b = models.weights()
        # Two loops over the same weights: UNROLL steps per iteration for whole
        # blocks of a chunk, one per iteration for the steps left over (built only
        # when there are some: FAST_CHUNK is a multiple of UNROLL, so only the last
        # chunk can leave steps over).
        self.blocks = tf.placeholder(tf.int64, [None, UNROLL, opts.batch_size])
        self.block_losses = self._loop(tf, images, labels, self.blocks, UNROLL)
        self.singles = self.single_losses = None
        if opts.steps % UNROLL:
            self.singles = tf.placeholder(tf.int64, [None, 1, opts.batch_size])
            self.single_losses = self._loop(tf, images, labels, self.singles, 1)
        self.x = tf.placeholder(self._pixels, [None, models.IMAGE_PIXELS])
        self.y = tf.placeholder(tf.float32, [None, models.NUM_CLASSES])
        self.accuracy = models.evaluation(
            models.softmax(self._float(self.x), self.W, self.b), self.y)
        self.init = tf.global_variables_initializer()
        self._oom_error = tf.errors.ResourceExhaustedError

    def _float(self, images):
        from tf1mem._tf import v1

        return models.pixels(images) if self._pixels == v1().uint8 else images

    def _loop(self, tf, images, labels, indices, unroll):
        """A while_loop of ``unroll`` steps an iteration; returns the losses [steps]."""
        def body(i, W, b, losses):
            rows = tf.gather(indices, i)
            step_losses = []
            for k in range(unroll):
                # A step's batch is gathered only once the previous step's weights
                # exist, i.e. after that step's last use of its own batch: one
                # gathered batch is alive at a time, not ``unroll`` of them.
                with tf.control_dependencies([W, b]):
                    pixels = tf.gather(images, rows[k])
                # Labels after images, always: an out-of-memory then names the larger
                # of the two (the batch's images), whatever the threads' timing, and
                # tf1mem.train's prediction of the batch that fits has it to go on.
                with tf.control_dependencies([pixels]):
                    y = tf.gather(labels, rows[k])
                x = self._float(pixels)
                W, b, y_pred = models.sgd_step(x, y, W, b, self.opts.learning_rate)
                step_losses.append(models.loss(y_pred, y))
            return i + 1, W, b, losses.write(i, tf.stack(step_losses))

        n = tf.shape(indices)[0]
        losses = tf.TensorArray(tf.float32, size=n)
        # One iteration at a time. With TF's default (10), the gathers of later steps
        # run ahead of the weights they wait for: at batch 5000 the loop's peak on the
        # CPU BFC allocator was 164.4 MiB against 17.5 MiB (one gathered batch), and a
        # run out of memory took 228 s to raise instead of 28 s, since TF's allocator
        # waits for other ops to free memory before failing each allocation and ten
        # iterations had allocations waiting.
        _, W_end, b_end, losses = tf.while_loop(
            lambda i, *_: i < n, body, [tf.constant(0), self.W.read_value(),
                                        self.b.read_value(), losses],
            parallel_iterations=1)
        with tf.control_dependencies([self.W.assign(W_end), self.b.assign(b_end)]):
            return tf.reshape(losses.stack(), [-1])

    def initialize(self, sess) -> None:
        sess.run(self.init, feed_dict={self.images_in: self._images,
                                       self.labels_in: self._labels},
                 options=_oom_options())
        del self._images, self._labels  # resident in the session now
        import numpy

        # A run of zero steps prepares each loop's executor (pruning, graph
        # optimisation, kernels: about 0.1 s here) before training starts, so that
        # the train phase measures training; it changes no variable.
        batch = self.opts.batch_size
        sess.run(self.block_losses, {self.blocks: numpy.zeros((0, UNROLL, batch), "int64")})
        if self.single_losses is not None:
            sess.run(self.single_losses, {self.singles: numpy.zeros((0, 1, batch), "int64")})

    def train(self, sess, bar) -> float:
        # The whole batch sequence of next_batch, without copying a row.
        indices = self.mnist.train.batch_indices(self.opts.batch_size, self.opts.steps)
        loss_val = float("nan")
        with bar:
            for first in range(0, self.opts.steps, FAST_CHUNK):
                chunk = indices[first:first + FAST_CHUNK]
                whole = len(chunk) - len(chunk) % UNROLL
                parts = ((self.block_losses, self.blocks, chunk[:whole], UNROLL),
                         (self.single_losses, self.singles, chunk[whole:], 1))
                done = first
                for fetch, placeholder, rows, unroll in parts:
                    if not len(rows):
                        continue
                    losses = self._run(sess, fetch,
                                       {placeholder: rows.reshape(-1, unroll, rows.shape[1])})
                    for k, value in enumerate(losses):
                        _check_finite(float(value), done + k + 1, self.opts)
                    done += len(losses)
                    loss_val = float(losses[-1])
                bar.update(len(chunk))
        return loss_val

    def _run(self, sess, fetch, feed):
        try:
            return sess.run(fetch, feed_dict=feed)
        except self._oom_error:
            # Asked on every run, TF's allocation tracking costs the in-graph loop
            # more than half again (measured: 163-175 ms against 251-307 ms for 1000
            # steps), so the chunk that ran out is run once more with the report on (W and b are
            # assigned only after the loop, so the failed run changed nothing); its
            # error carries the live tensors.
            return sess.run(fetch, feed_dict=feed, options=_oom_options())

    def test_accuracy(self, sess) -> float:
        return sess.run(self.accuracy, feed_dict={self.x: self.mnist.test.images,
                                                  self.y: self.mnist.test.labels},
                        options=_oom_options())

    def weights(self, sess):
        """``(W, b)`` as numpy arrays (for tests and comparisons)."""
        return sess.run([self.W, self.b])
