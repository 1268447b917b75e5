"""tf1mem.run --memory-report and the out-of-memory explanation under tf1mem.run.

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_run_memory.py.
"""

import numpy as np


def test_memory_log_peak_agrees_with_measure_step_and_the_analytic_count():
    """The hooks' recorded peak equals tf1mem.memory's measure for one graph."""
    import tensorflow as tf

    from tf1mem.compat.runtime import session_hooks
    from tf1mem.observe import run_memory, step_memory

    v1 = tf.compat.v1
    batch, k, n = 256, 784, 1000
    log = run_memory.RunMemoryLog()
    hooks = session_hooks.SessionHooks(memory_log=log)
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, k])
        w = v1.Variable(tf.ones([k, n]), use_resource=False)
        total = tf.reduce_sum(tf.matmul(x, w))
        init = v1.global_variables_initializer()
    feed = {x: np.ones((batch, k), np.float32)}
    hooks.install()
    try:
        with v1.Session(graph=graph) as sess:
            sess.run(init)
            values = [sess.run(total, feed_dict=feed) for _ in range(3)]
            measured = step_memory.measure_step(sess, total, feed, steps=2)
    finally:
        hooks.uninstall()
    assert values[0] == values[2] == batch * k * n
    labels = {lab["label"]: lab for lab in log.to_list()}
    entry = labels[total.name]
    # measure_step's own runs went through the hooks too: 3 + 1 warm-up + 2 traced.
    assert entry["runs"] == 6 and entry["traced_runs"] == 2
    assert entry["batch_sizes"] == [batch]
    (device, dev), = entry["devices"].items()
    assert dev["peak_bytes"] == measured.devices[device].peak_bytes
    # Analytic: the weights, plus the [batch, n] float32 product, plus < 4 KiB.
    assert dev["persistent_bytes"] == k * n * 4
    assert batch * n * 4 <= dev["activation_bytes"] + dev["temporary_bytes"] \
        < batch * n * 4 + 4096
    top = dev["top"][:2]
    assert {(t["op"], tuple(t["shape"]), t["dtype"]) for t in top} == {
        ("VariableV2", (k, n), "float32"), ("MatMul", (batch, n), "float32")}
