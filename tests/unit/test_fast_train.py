"""The fast training loop: the exact loop's batches, accuracy and weights, faster.

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_fast_train.py,
tests/commands/test_fast_train.py.
"""

import numpy
import pytest

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


# ------------------------------------------------------------ the session's threads


@pytest.mark.parametrize("argv, env, want", [
    ([], {}, {"inter_op_parallelism_threads": 1, "use_per_session_threads": True}),
    (["--fast"], {}, {"inter_op_parallelism_threads": 1, "use_per_session_threads": True}),
    (["--inter-op-threads", "4"], {}, {}),
    (["--inter-op-threads", "0"], {}, {}),  # TensorFlow's choice, asked for
    ([], {"TF1MEM_INTER_OP_THREADS": "2"}, {}),
    (["--intra-op-threads", "1"], {},  # another option leaves the loop's threads alone
     {"inter_op_parallelism_threads": 1, "use_per_session_threads": True}),
    (["--exact"], {}, {}),
])
def test_the_fast_loop_chooses_its_threads_unless_the_user_does(monkeypatch, argv, env, want):
    from tf1mem import train, training

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    opts = train.parse_args(argv)
    assert training.loop_session_fields(opts) == want
    if "--inter-op-threads" in argv:
        given = int(argv[argv.index("--inter-op-threads") + 1])
        assert opts.session.inter_op_parallelism_threads == given


def test_train_help_shows_the_inter_op_default():
    from tf1mem import train

    text = " ".join(train._parser().format_help().split())
    assert ("--inter-op-threads N inter-op thread pool size, 0 lets TensorFlow choose "
            "(default: 1, in a pool of the fast loop's session's own; TensorFlow's "
            "choice for --exact; env TF1MEM_INTER_OP_THREADS)") in text
