"""The fast training loop: the exact loop's batches, accuracy and weights, faster."""

import dataclasses

import numpy
import pytest

from tests import _mnist_fixtures, _subproc
from tf1mem import errors, training
from tf1mem.data import input_data


# ------------------------------------------------------------ the batch sequence


@pytest.mark.parametrize("batch_size, steps", [(10, 40), (137, 3), (50, 20), (1, 300)])
def test_batch_indices_name_the_rows_next_batch_returns(batch_size, steps):
    images = numpy.random.RandomState(0).randint(0, 255, (137, 4, 4, 1)).astype(numpy.uint8)
    labels = numpy.arange(137)
    plain = input_data.DataSet(images, labels, seed=3)
    batches = [plain.next_batch(batch_size) for _ in range(steps)]
    after_plain = plain.next_batch(7)
    rng_plain = numpy.random.get_state()[1].copy()

    indexed = input_data.DataSet(images, labels, seed=3)
    rows, row_labels = indexed.images.copy(), indexed.labels.copy()
    indices = indexed.batch_indices(batch_size, steps)
    assert indices.shape == (steps, batch_size)
    for (xs, ys), idx in zip(batches, indices):
        numpy.testing.assert_array_equal(xs, rows[idx])
        numpy.testing.assert_array_equal(ys, row_labels[idx])
    # The data set goes on exactly where the next_batch calls left it, and numpy's
    # global RNG has made the same draws.
    numpy.testing.assert_array_equal(indexed.next_batch(7)[1], after_plain[1])
    assert indexed.epochs_completed == plain.epochs_completed
    numpy.testing.assert_array_equal(indexed.images, plain.images)
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], rng_plain)


def test_batch_indices_refuse_a_batch_larger_than_the_set():
    data = input_data.DataSet(numpy.zeros((5, 2, 2, 1), numpy.uint8), numpy.zeros(5), seed=0)
    with pytest.raises(ValueError, match="batch_size 6 must be in 1..5"):
        data.batch_indices(6, 1)


# ------------------------------------------------------------ the fast loop's graph pieces


def test_pixels_scale_uint8_as_the_loader_does():
    import tensorflow as tf

    from tf1mem import models

    every = numpy.arange(256, dtype=numpy.uint8).reshape(1, 16, 16, 1)
    loader = input_data.DataSet(every, numpy.zeros(1), dtype=numpy.float32, seed=0).images
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        scaled = sess.run(models.pixels(tf.constant(every.reshape(1, 256))))
    assert scaled.dtype == numpy.float32
    numpy.testing.assert_array_equal(scaled, loader)  # bit for bit, all 256 values


@pytest.mark.parametrize("seed", [0, 1])
def test_sgd_step_is_gradient_descent_on_the_article_loss(seed):
    """The written-out gradient equals ``tf.gradients`` of :func:`models.loss`."""
    import tensorflow as tf

    from tf1mem import models

    rng = numpy.random.RandomState(seed)
    x = rng.rand(32, 784).astype(numpy.float32)
    y = numpy.eye(10, dtype=numpy.float32)[rng.randint(0, 10, 32)]
    W0 = (rng.randn(784, 10) * 0.05).astype(numpy.float32)
    b0 = (rng.randn(10) * 0.1).astype(numpy.float32)
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        W, b = tf.constant(W0), tf.constant(b0)
        article_loss = models.loss(models.softmax(x, W, b), y)
        grad_W, grad_b = tf.gradients(article_loss, [W, b])
        W_next, b_next, y_pred = models.sgd_step(tf.constant(x), tf.constant(y), W, b, 0.5)
        # A placeholder with no static batch (a feed_dict of any size) takes the
        # batch from the tensor's shape at run time: the same step.
        x_any = tf.compat.v1.placeholder(tf.float32, [None, 784])
        y_any = tf.compat.v1.placeholder(tf.float32, [None, 10])
        W_any, b_any, _ = models.sgd_step(x_any, y_any, W, b, 0.5)
        want = sess.run([W - 0.5 * grad_W, b - 0.5 * grad_b, article_loss])
        got = sess.run([W_next, b_next, models.loss(y_pred, y)])
        got_any = sess.run([W_any, b_any], {x_any: x, y_any: y})
    assert numpy.abs(got[0] - want[0]).max() <= 1e-6
    assert numpy.abs(got[1] - want[1]).max() <= 1e-6
    assert abs(got[2] - want[2]) <= 1e-6
    assert numpy.abs(got[0] - W0).max() > 1e-3  # it moved
    assert numpy.abs(got_any[0] - want[0]).max() <= 1e-6
    assert numpy.abs(got_any[1] - want[1]).max() <= 1e-6


# ------------------------------------------------------------ both loops, same result


def _train(loop, data_dir, seed, steps=1000, pixels="float32"):
    """``(final loss, test accuracy, W, b)`` of one loop, in its own graph."""
    import tensorflow as tf

    opts = training.TrainOptions(data_dir=data_dir, seed=seed, steps=steps, progress=False,
                                 loop=loop)
    mnist = input_data.read_data_sets(data_dir, one_hot=True, seed=seed, dtype=pixels)
    cls = training.FastLoop if loop == "fast" else training.ExactLoop
    graph = tf.Graph()
    with graph.as_default():
        run = cls(opts, mnist)
    with tf.compat.v1.Session(graph=graph) as sess:
        run.initialize(sess)
        loss = run.train(sess, _NoBar())
        accuracy = run.test_accuracy(sess)
        W, b = run.weights(sess)
    return loss, accuracy, W, b


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_fast_and_exact_loops_give_the_same_model(real_mnist_dir, seed):
    exact_loss, exact_acc, exact_W, exact_b = _train("exact", real_mnist_dir, seed)
    # uint8 pixels (what tf1mem.train loads for the fast loop) and float32 ones.
    fast_loss, fast_acc, fast_W, fast_b = _train("fast", real_mnist_dir, seed, pixels="uint8")
    assert f"{fast_acc:.4f}" == f"{exact_acc:.4f}"
    assert abs(fast_loss - exact_loss) <= 1e-5
    # The same arithmetic on the same batches; only the order of floating-point
    # operations differs (measured here: at most 5.4e-7 after 1000 steps).
    assert numpy.abs(fast_W - exact_W).max() <= 1e-5
    assert numpy.abs(fast_b - exact_b).max() <= 1e-5
    assert numpy.abs(exact_W).max() > 0.01  # it did train
    # Scaled in the graph, the uint8 pixels are the loader's float32 ones.
    as_float = _train("fast", real_mnist_dir, seed, pixels="float32")
    numpy.testing.assert_array_equal(as_float[2], fast_W)
    numpy.testing.assert_array_equal(as_float[3], fast_b)


@pytest.mark.slow
@pytest.mark.parametrize("steps", [7, 263])
def test_steps_not_a_multiple_of_the_unroll(real_mnist_dir, steps):
    """Steps left over after whole blocks of ``UNROLL`` run one at a time, in order."""
    assert steps % training.UNROLL
    exact = _train("exact", real_mnist_dir, 3, steps=steps)
    fast = _train("fast", real_mnist_dir, 3, steps=steps, pixels="uint8")
    assert abs(fast[0] - exact[0]) <= 1e-5
    assert numpy.abs(fast[2] - exact[2]).max() <= 1e-5
    assert numpy.abs(fast[3] - exact[3]).max() <= 1e-5


@pytest.mark.slow
def test_both_loops_stop_at_the_same_nan_step(tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)
    steps = {}
    for loop in training.LOOPS:
        opts = training.TrainOptions(data_dir=str(data), seed=0, steps=40, progress=False,
                                     learning_rate=1e30, loop=loop)
        with pytest.raises(errors.TrainingError, match="the loss became") as info:
            training.train_softmax(opts)
        steps[loop] = str(info.value).split(" at step ")[1].split(" of ")[0]
    assert steps["fast"] == steps["exact"], steps


def test_the_leftover_loop_is_built_only_for_steps_left_over(tmp_path):
    # Building the one-step loop (and preparing its executor) took 60 ms of the
    # default run's 0.3 s build here; 1000 steps never use it.
    import tensorflow as tf

    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)
    mnist = input_data.read_data_sets(str(data), one_hot=True, dtype="uint8")
    loops = {}
    for steps in (20, 23):
        graph = tf.Graph()
        with graph.as_default():
            training.FastLoop(training.TrainOptions(steps=steps, progress=False), mnist)
        loops[steps] = sum(op.type in ("While", "StatelessWhile", "LoopCond")
                           for op in graph.get_operations())
    assert loops == {20: 1, 23: 2}


def test_the_loops_never_sparse_read_the_training_set(tmp_path):
    # A gather through the variable (ResourceGather) copies the whole variable first
    # while its buffer is shared with the fed array, which an aligned array is: the
    # default run's allocator peak was 94.46 MiB with a freshly decoded MNIST against
    # 32.57 MiB reading the variable's value (CPU BFC allocator, seed 1).
    import tensorflow as tf

    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)
    mnist = input_data.read_data_sets(str(data), one_hot=True, dtype="uint8")
    graph = tf.Graph()
    with graph.as_default():
        training.FastLoop(training.TrainOptions(steps=23, progress=False), mnist)
    library = graph.as_graph_def().library.function
    ops = [node.op for f in library for node in f.node_def]
    # Each iteration gathers its rows' indices, then each step its pixels and labels.
    assert ops.count("GatherV2") == (1 + 2 * training.UNROLL) + (1 + 2)
    assert "ResourceGather" not in ops and "ResourceGather" not in {
        op.type for op in graph.get_operations()}


def test_fast_loop_refuses_a_batch_larger_than_the_training_set(tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)
    opts = training.TrainOptions(data_dir=str(data), seed=0, steps=2, progress=False,
                                 batch_size=301)  # 5300 - 5000 validation = 300 left
    with pytest.raises(errors.UsageError, match="pass --exact or a smaller --batch-size"):
        training.train_softmax(opts)
    result = training.train_softmax(dataclasses.replace(opts, loop="exact"))
    assert result.loop == "exact" and result.steps == 2


_PEAK_PROBE = """
import sys
import tensorflow as tf
from tf1mem import training
from tf1mem.data import input_data
from tests.tf.test_fast_train import _NoBar
for batch in (1000, 5000):
    opts = training.TrainOptions(data_dir=sys.argv[1], seed=0, steps=30, progress=False,
                                 batch_size=batch)
    mnist = input_data.read_data_sets(opts.data_dir, one_hot=True, seed=0, dtype=sys.argv[2])
    graph = tf.Graph()
    with graph.as_default():
        run = training.FastLoop(opts, mnist)
    peaks = []
    with tf.compat.v1.Session(graph=graph) as sess:
        run.initialize(sess)
        for _ in range(3):
            before = tf.config.experimental.get_memory_info("CPU:0")["current"]
            tf.config.experimental.reset_memory_stats("CPU:0")
            run.train(sess, _NoBar())
            peaks.append(tf.config.experimental.get_memory_info("CPU:0")["peak"] - before)
    print("peak", batch, min(peaks))
"""


@pytest.mark.slow
@pytest.mark.parametrize("pixels, pixel_bytes", [("uint8", 1), ("float32", 4)])
def test_fast_loop_holds_one_batch_at_a_time(real_mnist_dir, tmp_path, pixels, pixel_bytes):
    """The in-graph loop's training peak grows by one gathered batch per batch.

    Its training set is resident in the graph and each step gathers its batch there
    (on the allocator, unlike a fed batch); were steps to run ahead, as
    ``tf.while_loop`` lets ten iterations do by default and as the steps unrolled in
    one iteration could, the peak would hold several batches (measured on real
    MNIST: 164.4 MiB against 17.5 MiB at batch 5000). The slope between two batch
    sizes leaves out what does not depend on the batch; the peak is taken over the
    training alone (after the data set is resident), the least of three runs (the
    BFC allocator may hand out a chunk up to twice the size asked for, and counts
    all of it).
    """
    proc = _subproc.run(["-c", _PEAK_PROBE, real_mnist_dir, pixels], cwd=tmp_path,
                        check_rc=0, env={"TF_CPU_ALLOCATOR_USE_BFC": "1"})
    peaks = {int(line.split()[1]): int(line.split()[2])
             for line in proc.stdout.splitlines() if line.startswith("peak ")}
    per_row = (peaks[5000] - peaks[1000]) / 4000
    # One gathered image and label as float32; uint8 pixels add their gathered
    # uint8 row while it is scaled.
    row = (784 + 10) * 4 + (784 if pixel_bytes == 1 else 0)
    assert 0.9 * row <= per_row < 1.5 * row, (peaks, per_row, row)


# ------------------------------------------------------------ the command


def test_exact_and_fast_flags_exclude_each_other(tmp_path):
    proc = _subproc.run(["-m", "tf1mem.train", "--fast", "--exact"], cwd=tmp_path,
                        check_rc=errors.EXIT_USAGE)
    assert "not allowed with argument" in proc.stderr


@pytest.mark.slow
def test_profile_prints_each_phase(tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7, separable=True)
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "30", "--batch-size", "50", "--seed", "0", "--profile"],
                        cwd=tmp_path, check_rc=0)
    line = next(line for line in proc.stderr.splitlines() if "profile (s):" in line)
    for phase in ("import", "load", "build", "train", "eval", "total"):
        assert f" {phase} " in line, line
    assert "(fast loop)" in line
    assert proc.stdout.strip().splitlines()[-1].startswith("test accuracy: ")
