"""The observe wing's memory measurement against an analytic count of the same tensors.

Each figure is measured on a real traced training step (CPU) and compared with what the
graph's shapes say those tensors must take; within 10%, as the issue requires.

The tests here: TensorFlow in the test process; the rest: tests/commands/test_memory.py,
tests/unit/test_memory.py.
"""

import numpy as np
import pytest

from tf1mem import models
from tf1mem.observe import batch_model, step_memory, text

F32 = 4


def _measure(model, batch, hidden=256, dtype="float32", steps=2):
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        net = models.train_graph(model, hidden=hidden, dtype=dtype)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        np_dtype = net.x.dtype.as_numpy_dtype
        feed = {net.x: np.ones((batch, 784), np_dtype), net.y: np.ones((batch, 10), np_dtype)}
        result = step_memory.measure_step(sess, net.train_op, feed, steps=steps, batch_size=batch)
    (device,) = result.devices.values()
    return device


def _within(measured, analytic, tolerance=0.10):
    assert abs(measured - analytic) <= tolerance * analytic, (measured, analytic)


@pytest.mark.slow
@pytest.mark.parametrize("batch", [2000, 8000])
def test_softmax_parts_match_the_analytic_count(batch):
    dev = _measure("softmax", batch)
    # Variables: W [784, 10] and b [10]; no optimizer slots for gradient descent.
    assert dev.persistent_bytes == F32 * (784 * 10 + 10)
    # Both placeholders, fed, outside TF's allocator on CPU.
    assert dev.fed_bytes == F32 * batch * (784 + 10)
    # The softmax gradient needs y_pred, dL/dy_pred and their product live at once
    # (three [B, 10] tensors) and the row sum [B, 1]: 124 bytes per example.
    _within(dev.activation_bytes + dev.temporary_bytes, F32 * batch * (3 * 10 + 1))
    assert dev.peak_bytes == dev.persistent_bytes + dev.activation_bytes + dev.temporary_bytes


@pytest.mark.slow
@pytest.mark.parametrize("hidden,batch", [(256, 1000), (512, 4000)])
def test_mlp_parts_match_the_analytic_count(hidden, batch):
    dev = _measure("mlp", batch, hidden=hidden)
    assert dev.persistent_bytes == F32 * (784 * hidden + hidden + hidden * 10 + 10)
    assert dev.fed_bytes == F32 * batch * (784 + 10)
    # Backward through the ReLU: its output and the gradient reaching it, two
    # [B, hidden] tensors, dominate what is live at the peak.
    _within(dev.activation_bytes + dev.temporary_bytes, 2 * F32 * batch * hidden)
    # The hidden activation is among the largest live tensors. Whose buffer it is depends
    # on the CPU's kernels: oneDNN's ReLU writes its own output (node Relu), Eigen's reuses
    # its input's (node MatMul or add: measured on an AMD EPYC without AVX-512, 2026-12-06).
    assert any(t.shape == (batch, hidden) and t.op in ("Relu", "MatMul", "AddV2", "Add")
               for t in dev.top), dev.top


@pytest.mark.slow
@pytest.mark.parametrize("model", ["softmax", "mlp"])
def test_peak_grows_linearly_with_batch(model):
    batches = [1000, 2000, 4000, 8000]
    peaks = [_measure(model, b).peak_bytes for b in batches]
    intercept, slope = batch_model.fit_linear(zip(batches, peaks))
    for b, peak in zip(batches, peaks):
        _within(peak, intercept + slope * b, 0.05)
    per_example = {"softmax": F32 * 31, "mlp": 2 * F32 * 256}[model]
    _within(slope, per_example)


def _as_if_on_a_gpu(run_metadata):
    """A CPU trace rearranged as TF 2.21 records a GPU step (seen on an H200): the
    fed arrays' ``_arg_`` nodes stay on the host, every other node runs on GPU:0."""
    from tensorflow.core.framework import step_stats_pb2

    (host,) = run_metadata.step_stats.dev_stats
    gpu = step_stats_pb2.DeviceStepStats(device=host.device.replace("CPU:0", "GPU:0"))
    keep = [s for s in host.node_stats if s.node_name.startswith("_arg_")]
    gpu.node_stats.extend(s for s in host.node_stats if not s.node_name.startswith("_arg_"))
    del host.node_stats[:]
    host.node_stats.extend(keep)
    run_metadata.step_stats.dev_stats.append(gpu)
    return run_metadata


def test_a_gpu_peak_counts_the_fed_arrays_copied_into_it():
    # On an H200 the GPU's sweep peak of the MLP at batch 4096 equalled the CPU's to
    # the byte, while its allocator's peak was higher by the fed images: the
    # host-to-device copy of a feed is not in the trace. A device whose nodes read
    # a fed array must count its copy, once per array, or a fit on a GPU would pick
    # a batch that does not fit.
    import tensorflow as tf

    v1 = tf.compat.v1
    batch = 500
    graph = tf.Graph()
    with graph.as_default():
        net = models.train_graph("mlp", hidden=64)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        feed = {net.x: np.ones((batch, 784), np.float32), net.y: np.ones((batch, 10), np.float32)}
        metadata = v1.RunMetadata()
        sess.run(net.train_op, feed, options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE),
                 run_metadata=metadata)
    on_cpu = step_memory.step_memory(metadata, graph, batch)
    (cpu,) = on_cpu.devices.values()
    split = step_memory.step_memory(_as_if_on_a_gpu(metadata), graph, batch)
    host, gpu = (split.devices[name] for name in sorted(split.devices))
    assert "CPU:0" in host.device and "GPU:0" in gpu.device
    assert cpu.fed_copy_bytes == 0 and host.fed_copy_bytes == 0
    assert host.fed_bytes == F32 * batch * (784 + 10) and gpu.fed_bytes == 0
    assert gpu.fed_copy_bytes == F32 * batch * (784 + 10)
    assert gpu.peak_bytes == cpu.peak_bytes + gpu.fed_copy_bytes
    copies = {t.node: t for t in gpu.top if t.kind == "fed"}
    assert copies[net.x.op.name].bytes == F32 * batch * 784
    assert copies[net.x.op.name].device == gpu.device
    table = step_memory.format_table(split)
    assert f"GPU:0's peak includes {text.format_bytes(gpu.fed_copy_bytes)} of fed arrays" \
        in table
    # Without the graph nothing says which nodes read which feed: no copies counted.
    (bare_gpu,) = [d for d in step_memory.step_memory(metadata).devices.values()
                   if "GPU" in d.device]
    assert bare_gpu.fed_copy_bytes == 0
