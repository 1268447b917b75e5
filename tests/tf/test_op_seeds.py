"""TF 1.15's implicit op seeds (tf1mem.compat.runtime.op_seeds); the corpus script
``graph_seed_only.py`` compares the values drawn with TF 1.15.5's."""

import numpy as np
import pytest

from tf1mem.compat.runtime import op_seeds


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

    from tensorflow.python.ops import array_ops, tensor_array_ops

    def current():
        from tensorflow.python.data.ops import dataset_ops

        return (random_seed.get_seed, random_ops.random_uniform, tf.compat.v1.nn.dropout,
                tf.compat.v1.random_uniform, array_ops.split, tf.split, tf.compat.v1.split,
                tensor_array_ops._GraphTensorArray.size, tf.compat.v2.nn.dropout, tf.nn.dropout,
                dataset_ops.DatasetV1._make_initializable_iterator, array_ops.zeros, tf.zeros,
                tf.compat.v1.zeros, array_ops.ones, tf.ones, tf.compat.v1.ones)

    before = current()
    undo = op_seeds.install()
    assert all(a is not b for a, b in zip(current(), before))
    undo()
    assert current() == before


@pytest.mark.slow
def test_split_and_tensor_array_size_build_tf1s_ops(installed):
    import tensorflow as tf

    with _graph().as_default() as graph:
        parts = tf.split(tf.ones([2, 4]), 2, axis=1)
        assert [op.type for op in graph.get_operations()][-3:] == ["Const", "Const", "Split"]
        sizes = tf.split(tf.ones([2, 4]), [1, 3], axis=1)  # a list: TF's own ops, unchanged
        from tensorflow.python.ops import control_flow_util

        v2 = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False  # TF1's TensorArray, as in the shim
        try:
            array = tf.compat.v1.TensorArray(tf.float32, size=3)
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = v2
        count = array.size()
        assert count.op.type == "TensorArraySizeV3"
        with tf.compat.v1.Session() as sess:
            assert sess.run(count) == 3
            assert [p.shape.as_list() for p in parts + sizes] == [[2, 2], [2, 2], [2, 1],
                                                                  [2, 3]]


@pytest.mark.slow
def test_initializable_iterator_builds_tf1s_option_ops_and_yields_the_same(installed):
    import tensorflow as tf

    with _graph().as_default() as graph:
        data = tf.compat.v1.data.Dataset.range(5).map(lambda x: x * 2).batch(5)
        before = len(graph.get_operations())
        iterator = tf.compat.v1.data.make_initializable_iterator(data)
        types = [op.type for op in graph.get_operations()[before:]]
        one_shot = tf.compat.v1.data.make_one_shot_iterator(data)  # TF1 built none there
        after = [op.type for op in graph.get_operations()][-3:]
        with tf.compat.v1.Session() as sess:
            sess.run(iterator.initializer)
            got = sess.run(iterator.get_next())
            assert sess.run(one_shot.get_next()).tolist() == got.tolist()
    assert types == ["Const", "OptimizeDataset", "ModelDataset", "IteratorV2", "MakeIterator",
                     "IteratorToStringHandle"]
    assert "OptimizeDataset" not in after
    assert got.tolist() == [0, 2, 4, 6, 8]


@pytest.mark.slow
def test_v2_dropout_in_a_graph_builds_tf1s_ops_and_keeps_the_same_units(installed):
    import tensorflow as tf

    with _graph().as_default() as graph:
        x = tf.ones([4, 8])
        v1 = tf.compat.v1.nn.dropout(x, rate=0.5)
        start = len(graph.get_operations())
        v2 = tf.compat.v2.nn.dropout(x, rate=0.5)
        types = [op.type for op in graph.get_operations()[start:]]
        with pytest.raises(ValueError, match=r"range \[0, 1\), got 1.5"):
            tf.nn.dropout(x, rate=1.5)
    with _graph().as_default():
        x = tf.ones([4, 8])
        tf.compat.v1.nn.dropout(x, rate=0.5)  # the same op count before the v2 draw
        again = tf.nn.dropout(x, rate=0.5)
        with tf.compat.v1.Session() as sess:
            a = sess.run(again)
    with tf.compat.v1.Session(graph=v2.graph) as sess:
        b = sess.run(v2)
    assert types[:2] == ["Const", "Const"] and "RandomUniform" in types  # rate, noise shape
    assert "SelectV2" not in types  # TF 2.21's own graph
    assert np.array_equal(a, b) and set(np.unique(b)) <= {0.0, 2.0}


# What TF 1.15.5 built for each call, read from its graph (a placeholder's dynamic batch
# ``b``): the unused size test first, then TF's own pack and fill.
_TF1_SIZE_TEST = [
    ("zeros", lambda tf, b: tf.zeros([b, 5]),
     ["Const zeros/mul/y", "Mul zeros/mul", "Const zeros/Less/y", "Less zeros/Less",
      "Const zeros/packed/1", "Pack zeros/packed", "Const zeros/Const", "Fill zeros"]),
    ("ones, batch last", lambda tf, b: tf.ones([2, b], name="o"),
     ["Const o/mul/x", "Mul o/mul", "Const o/Less/y", "Less o/Less", "Const o/packed/0",
      "Pack o/packed", "Const o/Const", "Fill o"]),
    ("one dimension", lambda tf, b: tf.zeros([b]),
     ["Const zeros/Less/y", "Less zeros/Less", "Pack zeros/packed", "Const zeros/Const",
      "Fill zeros"]),
    ("tuple, int32", lambda tf, b: tf.zeros((b, 2, 3), tf.int32),
     ["Const zeros/mul/y", "Mul zeros/mul", "Const zeros/mul_1/y", "Mul zeros/mul_1",
      "Const zeros/Less/y", "Less zeros/Less", "Const zeros/packed/1",
      "Const zeros/packed/2", "Pack zeros/packed", "Const zeros/Const", "Fill zeros"]),
    ("ints only: TF's constant", lambda tf, b: tf.zeros([2, 5]), ["Const zeros"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("make, expected", [case[1:] for case in _TF1_SIZE_TEST],
                         ids=[case[0] for case in _TF1_SIZE_TEST])
def test_zeros_and_ones_of_a_list_holding_a_tensor_build_tf1s_size_test(installed, make,
                                                                       expected):
    import tensorflow as tf

    v1 = tf.compat.v1
    with _graph().as_default() as graph:
        batch = tf.shape(v1.placeholder(tf.float32, [None, 3]))[0]
        first = len(graph.get_operations())
        out = make(v1, batch)
        built = [f"{op.type} {op.name}" for op in graph.get_operations()[first:]]
        with v1.Session() as sess:
            value = sess.run(out, {"Placeholder:0": np.zeros([4, 3])})
    assert built == expected
    assert value.shape[0] in (2, 4) and set(np.unique(value)) <= {0, 1}
