"""The fast training loop: the exact loop's batches, accuracy and weights, faster.

The tests here: the commands in subprocesses; the rest: tests/tf/test_fast_train.py,
tests/unit/test_fast_train.py.
"""

import pytest

from tests import _mnist_fixtures, _subproc
from tf1mem import errors


# ------------------------------------------------------------ both loops, same result


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
