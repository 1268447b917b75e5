"""tf1mem.placement: placement read back from partition graphs (in-process, fast).

The tests here: TensorFlow in the test process; the rest: tests/unit/test_placement.py.
"""

from tf1mem.observe import placement


def test_local_session_rows_name_every_fetched_node():
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        w = v1.Variable(tf.ones([2, 1]), name="w")
        y = tf.matmul(x, w, name="y")
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            result, rows = placement.run_with_placement(sess, y, {x: [[1.0, 2.0]]})
    assert result.tolist() == [[3.0]]
    names = {r.node for r in rows}
    assert {"w", "y"} <= names, rows
    assert all(r.device.endswith("CPU:0") for r in rows)
    assert rows == sorted(rows, key=lambda r: (r.device, r.node, r.op))
