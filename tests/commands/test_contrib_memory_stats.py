"""tf.contrib.memory_stats under tf1mem (the corpus script ``contrib_memory_stats.py``
compares it with TF 1.15.5): the limits it reports, the GPU limits recorded from the
session that created the devices, and the clear error where the CPU allocator keeps no
statistics.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_contrib_memory_stats.py.
"""

import textwrap

import pytest

from tests import _subproc


_PROBE = textwrap.dedent("""
    import tensorflow as tf
    from tensorflow.contrib import memory_stats
    with tf.device("/job:localhost/replica:0/task:0/device:GPU:0"):
        on_gpu = memory_stats.MaxBytesInUse()
    print("device:", on_gpu.op.device)
    limit = memory_stats.BytesLimit()
    big = tf.random.normal([1000, 1000]) * 2.0
    with tf.control_dependencies([big]):
        peak = memory_stats.MaxBytesInUse()
    with tf.Session() as sess:
        print("limit:", sess.run(limit))
        print("peak >= 4 MB:", sess.run(peak) >= 4 * 10**6)
        try:
            sess.run(on_gpu)
        except tf.errors.InvalidArgumentError as e:
            print("gpu error:", "no allocator statistics for GPU:0" in e.message)
""")


@pytest.mark.slow
def test_ops_read_the_devices_they_were_built_for(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(_PROBE)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0,
                        env={"TF_CPU_ALLOCATOR_USE_BFC": "1",
                             "TF_CPU_BFC_MEM_LIMIT_IN_MB": "3000",
                             "CUDA_VISIBLE_DEVICES": ""})
    # the py_func runs on the CPU of the job and task the script named
    assert "device: /job:localhost/replica:0/task:0/device:CPU:0" in proc.stdout
    assert f"limit: {3000 * 2**20}" in proc.stdout
    assert "peak >= 4 MB: True" in proc.stdout
    assert "gpu error: True" in proc.stdout, _subproc.describe(proc)


@pytest.mark.slow
def test_without_cpu_allocator_statistics_the_run_fails_naming_the_fix(tmp_path):
    script = _subproc.REPO / "tests" / "legacy_corpus" / "contrib_memory_stats.py"
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0,
                        env={"TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPU_ALLOCATOR_USE_BFC": "0",
                             "TF_CPP_MIN_LOG_LEVEL": "0"})
    # the line TF 1.15.5 printed on a CPU: nothing wrong is reported as a figure
    assert "memory_stats unavailable: InvalidArgumentError" in proc.stdout
    assert "peak covers" not in proc.stdout
    assert "TF_CPU_ALLOCATOR_USE_BFC=1" in proc.stderr
