"""TensorFlow's allocator limits: capping them for a process, checking, reading.

A measurement under a cap answers "does this batch run in that much memory?" as a
process given only that much would: :func:`cap_environment` caps the CPU's
allocator (the BFC allocator with a limit, set before TensorFlow loads),
:func:`capped_config` gives each GPU one virtual device of the cap, and
:func:`check_cap` fails closed unless TensorFlow itself refuses more than the cap.
:func:`device_memory_limit` reads the limit a device's allocator has, capped or not,
and :func:`cpu_bfc_requested` whether the CPU's allocator can be capped at all.
Nothing here reads the command line; TensorFlow is imported only inside functions.
"""

import os
import sys
from typing import Optional

from tf1mem import errors
from tf1mem.observe.text import format_bytes, short_device

__all__ = ["cap_environment", "capped_config", "check_cap", "device_memory_limit",
           "cpu_bfc_requested"]

_MIB = 2**20


def cpu_bfc_requested() -> bool:
    """Whether ``TF_CPU_ALLOCATOR_USE_BFC`` asks for the CPU's BFC allocator.

    Only that allocator takes a limit (``TF_CPU_BFC_MEM_LIMIT_IN_MB``) on the CPU,
    and only when set before TensorFlow loads; a GPU's allocator always can.
    """
    return os.environ.get("TF_CPU_ALLOCATOR_USE_BFC", "").lower() in ("1", "true")


def cap_environment(limit: int) -> None:
    """Caps the CPU allocator of this process at ``limit`` bytes (in whole MiB).

    Sets ``TF_CPU_ALLOCATOR_USE_BFC=1`` and ``TF_CPU_BFC_MEM_LIMIT_IN_MB`` in
    ``os.environ`` and leaves them: TensorFlow reads them once, when it loads, so
    this is for a process that measures capped steps and exits
    (``measure --memory-limit``, which each capped point of a fit runs).

    Raises:
      UsageError: TensorFlow is already loaded; the cap could not take effect.
    """
    if "tensorflow" in sys.modules:
        raise errors.UsageError(
            "--memory-limit must take effect before TensorFlow loads: run `python -m "
            "tf1mem.memory measure --memory-limit ...` in a new process")
    os.environ["TF_CPU_ALLOCATOR_USE_BFC"] = "1"
    os.environ["TF_CPU_BFC_MEM_LIMIT_IN_MB"] = str(limit // _MIB)


def capped_config(limit: int):
    """A ConfigProto giving each visible GPU one virtual device of ``limit`` (whole MiB)."""
    import tensorflow as tf

    config = tf.compat.v1.ConfigProto()
    for _ in tf.config.list_physical_devices("GPU"):
        config.gpu_options.experimental.virtual_devices.add().memory_limit_mb.append(
            float(limit // _MIB))
    return config


def check_cap(sess, graph, limit: int) -> None:
    """Fails closed unless the device the step runs on refuses more than ``limit``.

    Asks TensorFlow itself: a buffer of the cap plus 1 MiB, on the device that runs
    the model's ops, must raise ResourceExhaustedError; nothing is kept.
    """
    import tensorflow as tf

    device = "/GPU:0" if tf.config.list_physical_devices("GPU") else "/CPU:0"
    with graph.as_default(), tf.device(device):
        size = tf.compat.v1.placeholder(tf.int64, [1], name="tf1mem_cap_check_size")
        probe = tf.reduce_sum(tf.fill(size, 1.0))
    nbytes = limit // _MIB * _MIB + _MIB
    try:
        sess.run(probe, {size: [nbytes // 4]})
    except tf.errors.ResourceExhaustedError:
        return
    raise errors.Error(
        f"--memory-limit {format_bytes(limit)} did not take effect on {device}: "
        f"TensorFlow allocated {format_bytes(nbytes)} there. Its allocator is "
        f"capped only in a process whose first session creates the devices (and, on the "
        f"CPU, with TF_CPU_ALLOCATOR_USE_BFC=1 set before TensorFlow loads)")


def device_memory_limit(sess, device: str) -> Optional[int]:
    """The bytes the allocator of ``device`` may hand out, or ``None`` if unbounded.

    A GPU's limit is what the session's device reports (``memory_limit_bytes``, after
    ``per_process_gpu_memory_fraction`` / ``allow_growth``). TensorFlow reports a
    nominal 256 MiB for the CPU that it does not enforce, so the CPU's limit is
    known only from ``TF_CPU_BFC_MEM_LIMIT_IN_MB`` together with
    ``TF_CPU_ALLOCATOR_USE_BFC=1``.
    """
    if "GPU" in device.upper():
        if sess is None:
            return None
        for d in sess.list_devices():
            if d.name == device or d.name.endswith(short_device(device)):
                return int(d.memory_limit_bytes)
        return None
    if cpu_bfc_requested():
        limit = os.environ.get("TF_CPU_BFC_MEM_LIMIT_IN_MB", "")
        if limit.strip().isdigit():
            return int(limit) * 2**20
    return None
