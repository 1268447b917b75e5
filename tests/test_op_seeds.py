"""TF 1.15's implicit op seeds (tf1mem.compat.op_seeds); the corpus script
``graph_seed_only.py`` compares the values drawn with TF 1.15.5's."""

import numpy as np
import pytest

from tf1mem.compat import op_seeds


@pytest.fixture
def installed():
    undo = op_seeds.install()
    yield
    undo()


def _graph(seed=5):
    import tensorflow as tf

    graph = tf.Graph()
    graph.seed = seed
    return graph


@pytest.mark.slow
def test_the_op_seed_is_the_graphs_op_count_only_where_tf1_used_it(installed):
    import tensorflow as tf
    from tensorflow.python.framework import random_seed

    with _graph().as_default():
        tf.constant(1.0)
        tf.constant(2.0)
        assert random_seed.get_seed(None) == (5, 2)  # TF 1.15: ops created so far
        assert tf.compat.v1.get_seed(None) == (5, 2)
        assert random_seed.get_seed(7) == (5, 7)  # an explicit op seed wins
    with tf.Graph().as_default():
        assert random_seed.get_seed(None) == (None, None)  # no graph seed: unseeded


@pytest.mark.slow
def test_default_bounds_build_tf1s_ops_and_draw_the_same_values(installed):
    import tensorflow as tf

    with _graph().as_default() as graph:
        drawn = tf.compat.v1.random_uniform([4], seed=3)
        types = [op.type for op in graph.get_operations()]
        with tf.compat.v1.Session() as sess:
            ours = sess.run(drawn)
    assert drawn.op.name == "random_uniform" and types == [
        "Const", "Const", "Const", "RandomUniform", "Sub", "Mul", "AddV2"]
    with _graph().as_default():
        plain = tf.random.uniform([4], seed=3)  # TF 2's own short cut (not the v1 name)
        with tf.compat.v1.Session() as sess:
            assert np.array_equal(sess.run(plain), ours)


@pytest.mark.slow
def test_dropout_is_tf1s_and_names_bad_arguments(installed):
    import tensorflow as tf

    dropout = tf.compat.v1.nn.dropout
    with _graph().as_default():
        x = tf.ones([2, 3])
        with pytest.raises(ValueError, match="keep_prob or rate, not both"):
            dropout(x, keep_prob=0.5, rate=0.5)
        with pytest.raises(ValueError, match=r"got -0.5 \(keep_prob 1.5"):
            dropout(x, keep_prob=1.5)
        with pytest.raises(ValueError, match="floating point.*int32"):
            dropout(tf.ones([2], tf.int32), keep_prob=0.5)
        assert dropout(x, keep_prob=1.0) is not None
        kept = dropout(x, keep_prob=0.5, seed=1)
        with tf.compat.v1.Session() as sess:
            values = sess.run(kept)
    assert set(np.unique(values)) <= {0.0, 2.0}  # kept units scaled by 1 / keep_prob


@pytest.mark.slow
def test_undo_puts_tfs_functions_back():
    import tensorflow as tf
    from tensorflow.python.framework import random_seed
    from tensorflow.python.ops import random_ops

    before = (random_seed.get_seed, random_ops.random_uniform, tf.compat.v1.nn.dropout,
              tf.compat.v1.random_uniform)
    undo = op_seeds.install()
    assert random_seed.get_seed is not before[0]
    undo()
    assert (random_seed.get_seed, random_ops.random_uniform, tf.compat.v1.nn.dropout,
            tf.compat.v1.random_uniform) == before
