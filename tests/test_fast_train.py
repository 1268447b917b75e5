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


# ------------------------------------------------------------ both loops, same result


def _train(loop, data_dir, seed, steps=1000):
    """``(final loss, test accuracy, W, b)`` of one loop, in its own graph."""
    import tensorflow as tf

    opts = training.TrainOptions(data_dir=data_dir, seed=seed, steps=steps, progress=False,
                                 loop=loop)
    mnist = input_data.read_data_sets(data_dir, one_hot=True, seed=seed)
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
    fast_loss, fast_acc, fast_W, fast_b = _train("fast", real_mnist_dir, seed)
    assert f"{fast_acc:.4f}" == f"{exact_acc:.4f}"
    assert abs(fast_loss - exact_loss) <= 1e-5
    # The same arithmetic on the same batches; only the order of floating-point
    # operations may differ (measured here: identical).
    assert numpy.abs(fast_W - exact_W).max() <= 1e-5
    assert numpy.abs(fast_b - exact_b).max() <= 1e-5
    assert numpy.abs(exact_W).max() > 0.01  # it did train


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
training.train_softmax(training.TrainOptions(
    data_dir=sys.argv[1], seed=0, steps=30, progress=False,
    batch_size=int(sys.argv[2])))
print("peak", tf.config.experimental.get_memory_info("CPU:0")["peak"])
"""


@pytest.mark.slow
def test_fast_loop_holds_one_batch_at_a_time(real_mnist_dir, tmp_path):
    """The in-graph loop's peak grows by one gathered batch per batch, not by several.

    Its training set is resident in the graph and each step gathers its batch there
    (on the allocator, unlike a fed batch); were iterations to run ahead, as
    ``tf.while_loop`` lets ten do by default, the peak would hold several batches
    (measured on real MNIST: 164.4 MiB against 17.5 MiB at batch 5000). The slope
    between two batch sizes leaves out what does not depend on the batch.
    """
    peaks = {}
    for batch in (1000, 5000):  # a process each: the allocator's peak is per process
        proc = _subproc.run(["-c", _PEAK_PROBE, real_mnist_dir, batch], cwd=tmp_path,
                            check_rc=0, env={"TF_CPU_ALLOCATOR_USE_BFC": "1"})
        peaks[batch] = int(proc.stdout.split("peak ")[-1])
    per_row = (peaks[5000] - peaks[1000]) / 4000
    row = (784 + 10) * 4  # one gathered image and label, float32
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
