"""The fast training loop: the exact loop's batches, accuracy and weights, faster.

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_fast_train.py, tests/unit/test_fast_train.py.
"""

import dataclasses
import io

import numpy
import pytest

from tests import _mnist_fixtures
from tf1mem import errors, training
from tf1mem.data import input_data


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


# ------------------------------------------------------------ the session's threads


@pytest.mark.parametrize("loop, session, want", [
    # The fast loop's own: one inter-op thread in a pool of the session's own.
    ("fast", None, (1, True)),
    # The user's --inter-op-threads (or TF1MEM_INTER_OP_THREADS) wins, 0 too.
    ("fast", {"inter_op_parallelism_threads": 3}, (3, False)),
    ("fast", {"inter_op_parallelism_threads": 0}, (0, False)),
    # The article's loop keeps the article's session: nothing added.
    ("exact", None, (0, False)),
    ("exact", {"inter_op_parallelism_threads": 2}, (2, False)),
])
def test_the_session_gets_the_loops_threading(tmp_path, monkeypatch, loop, session, want):
    import tensorflow as tf

    from tf1mem import config

    configs = []
    real_session = tf.compat.v1.Session

    class Recording(real_session):
        def __init__(self, *args, **kwargs):
            configs.append(kwargs.get("config"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tf.compat.v1, "Session", Recording)
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7, separable=True)
    opts = training.TrainOptions(
        data_dir=str(data), seed=0, steps=20, batch_size=50, progress=False, loop=loop,
        session=None if session is None else config.SessionOptions(**session))
    err = io.StringIO()
    training.train_softmax(opts, err=err)
    [used] = configs
    assert (used.inter_op_parallelism_threads, used.use_per_session_threads) == want
    # The loop's own threading is not reported as the user's choice (a user's 0 is
    # TensorFlow's default, not reported either).
    reported = err.getvalue()
    asked = bool(session and session["inter_op_parallelism_threads"])
    assert ("inter_op_parallelism_threads" in reported) == asked, reported
