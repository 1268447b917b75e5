"""tf.contrib.memory_stats under tf1mem (the corpus script ``contrib_memory_stats.py``
compares it with TF 1.15.5): the limits it reports, the GPU limits recorded from the
session that created the devices, and the clear error where the CPU allocator keeps no
statistics.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_memory_stats.py.
"""

import os
import types

import pytest

from tf1mem.compat import table
from tf1mem.compat.tf.contrib import memory_stats
from tf1mem.config import registry


def test_memory_stats_is_provided_not_removed():
    assert "memory_stats" in table.CONTRIB_MODULES
    assert "memory_stats" not in table.REMOVED_CONTRIB


def test_cpu_limit_is_the_bfc_limit_where_set(monkeypatch):
    monkeypatch.setenv("TF_CPU_ALLOCATOR_USE_BFC", "1")
    monkeypatch.setenv("TF_CPU_BFC_MEM_LIMIT_IN_MB", "3000")
    assert memory_stats._cpu_limit() == 3000 * 2**20


def test_cpu_limit_is_at_most_the_machines_memory(monkeypatch):
    monkeypatch.delenv("TF_CPU_ALLOCATOR_USE_BFC", raising=False)
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    limit = memory_stats._cpu_limit()
    assert 0 < limit <= ram


def _session(devices, target=b""):
    fake = types.SimpleNamespace(sess_str=target)
    fake.list_devices = lambda: [types.SimpleNamespace(name=f"/job:localhost/replica:0/task:0/device:{d}",
                                                       device_type=d.split(":")[0],
                                                       memory_limit_bytes=b)
                                 for d, b in devices]
    return fake


@pytest.fixture
def fresh_registry(monkeypatch):
    registry.reset_registry()
    monkeypatch.setattr(registry, "eager_devices_initialized", lambda: False)
    yield
    registry.reset_registry()


def test_gpu_limits_come_from_the_first_local_session(fresh_registry):
    registry.note_session_devices(_session([("GPU:0", 7 * 2**30)], target=b"grpc://h:1"))
    assert registry.gpu_memory_limit("GPU:0") is None  # a remote session's devices
    registry.note_session_devices(_session([("CPU:0", 2**28), ("GPU:0", 30 * 2**30),
                                            ("GPU:1", 31 * 2**30)]))
    # a later session reports limits computed afresh; the allocators are the first's
    registry.note_session_devices(_session([("GPU:0", 2**20)]))
    assert registry.gpu_memory_limit("GPU:0") == 30 * 2**30
    assert registry.gpu_memory_limit("GPU:1") == 31 * 2**30
    assert registry.gpu_memory_limit("GPU:2") is None


def test_a_session_that_cannot_list_devices_records_nothing(fresh_registry):
    broken = _session([])

    def fail():
        raise RuntimeError("no devices")

    broken.list_devices = fail
    registry.note_session_devices(broken)  # the session still works
    assert registry.gpu_memory_limit("GPU:0") is None


def test_unknown_gpu_limit_is_a_clear_error(fresh_registry):
    with pytest.raises(ValueError, match=r"GPU:0 is not known.*tf1mem.run.*list_devices"):
        memory_stats._limit("GPU:0")
