"""``tf.contrib.memory_stats``: ``BytesInUse``, ``MaxBytesInUse`` and ``BytesLimit``.

TF 1.15's three ops read the allocator statistics of the GPU they ran on; they had GPU
kernels only, so on a machine without a GPU every ``session.run`` of a graph holding
one failed (``No OpKernel was registered to support Op 'BytesInUse'``). TF 2.21 has no
such ops. Here each is a stateful ``py_func`` named as TF1 named the op (the tensor
prints as ``Tensor("MaxBytesInUse:0", shape=(), dtype=int64)``) that asks, when it
runs, ``tf.config.experimental.get_memory_info`` for the device the op was built for:

- the device in the op's ``tf.device`` scope (``/gpu:1`` reads GPU 1); with no device
  given, GPU 0 where the process has a GPU, as TF1's placer chose, otherwise the CPU;
  the op itself runs on the CPU of the same job and task (a ``py_func`` has no GPU
  kernel), so a script's ``with tf.device("/gpu:0")`` still places;
- ``BytesInUse``: the allocator's bytes in use now; ``MaxBytesInUse``: its peak since
  the process started or since ``tf.config.experimental.reset_memory_stats`` (TF1
  could not reset it); both int64 scalars, as in TF1;
- ``BytesLimit``: on a GPU the bytes its allocator may hand out, as the device that
  created it reports them (the first session's ``memory_limit_bytes``, after
  ``per_process_gpu_memory_fraction``; where an eager op created the devices first,
  the eager runtime's); on the CPU (TF1 had no value there) the
  ``TF_CPU_BFC_MEM_LIMIT_IN_MB`` limit with ``TF_CPU_ALLOCATOR_USE_BFC=1``, otherwise
  the machine's memory as the kernel reports it, capped by the process's cgroup limit.

A ``py_func`` runs in the Python process that built it: placed on a remote worker
(``/job:worker/task:1`` served by another process) the run fails there with TF's
"Could not find callback" error, where TF1's op read that worker's GPU. Read such a
worker's memory in its own process, or with ``python -m tf1mem.memory``.

Unlike TF1, the ops also work on the CPU, wherever TensorFlow's CPU allocator keeps
statistics (the x86 default, oneDNN's, does; so does the BFC allocator). Where the
allocator keeps none, running the op raises ``InvalidArgumentError`` (the class TF1
raised on a CPU) with a message saying what to set. Checked against TF 1.15.5 by the
corpus script ``contrib_memory_stats.py``. TensorFlow is imported when a function runs.
"""

__all__ = ["BytesInUse", "MaxBytesInUse", "BytesLimit"]


def BytesInUse():  # pylint: disable=invalid-name
    """The bytes the device's allocator has in use when the op runs (int64 scalar)."""
    return _stat_op("current", "BytesInUse")


def MaxBytesInUse():  # pylint: disable=invalid-name
    """The device allocator's peak bytes in use (int64 scalar)."""
    return _stat_op("peak", "MaxBytesInUse")


def BytesLimit():  # pylint: disable=invalid-name
    """The bytes the device's allocator may hand out (int64 scalar)."""
    return _stat_op("limit", "BytesLimit")


def _stat_op(kind, name):
    import numpy as np
    import tensorflow as tf

    target = {}

    def read():
        return np.int64(_read(kind, target["device"]))

    out = tf.compat.v1.py_func(read, [], tf.int64, stateful=True, name=name)
    out.set_shape([])
    op = out.op
    spec = tf.DeviceSpec.from_string(op.device or "")
    target["device"] = (spec.device_type, spec.device_index)
    if spec.device_type is not None and spec.device_type.upper() != "CPU":
        op._set_device_from_string(  # pylint: disable=protected-access
            spec.replace(device_type="CPU", device_index=0).to_string())
    return out


def _short_device(device):
    """``(device_type or None, index or None)`` -> ``"GPU:0"``, chosen as TF1's placer
    chose when the script named no device: GPU 0 where there is one."""
    import tensorflow as tf

    device_type, index = device
    if device_type is None:
        device_type = "GPU" if tf.config.list_physical_devices("GPU") else "CPU"
    return f"{device_type.upper()}:{index or 0}"


def _read(kind, device):
    import tensorflow as tf

    short = _short_device(device)
    if kind == "limit":
        return _limit(short)
    try:
        info = tf.config.experimental.get_memory_info(short)
    except (ValueError, RuntimeError, tf.errors.OpError) as exc:
        hint = ("set TF_CPU_ALLOCATOR_USE_BFC=1 in the environment before TensorFlow "
                "loads (TF_ENABLE_ONEDNN_OPTS=0 turns off the x86 default allocator "
                "that keeps them)" if short.startswith("CPU") else
                "check that the device exists (tf.config.list_logical_devices())")
        raise ValueError(
            f"tf.contrib.memory_stats: TensorFlow keeps no allocator statistics for "
            f"{short} in this process ({exc}); {hint}.") from exc
    return info[kind]


def _limit(short):
    if short.startswith("CPU"):
        return _cpu_limit()
    from tf1mem.config import registry

    limit = registry.gpu_memory_limit(short)
    if limit is None:
        raise ValueError(
            f"tf.contrib.memory_stats.BytesLimit: the memory limit of {short} is not known: "
            f"its devices were not created by a session tf1mem saw nor by TensorFlow's "
            f"eager runtime. Run the script with python -m tf1mem.run, or read the limit "
            f"from session.list_devices() (memory_limit_bytes).")
    return limit


def _cpu_limit():
    """The CPU allocator's limit: the BFC limit where set, else RAM capped by cgroup."""
    import os

    if os.environ.get("TF_CPU_ALLOCATOR_USE_BFC", "").lower() in ("1", "true"):
        megabytes = os.environ.get("TF_CPU_BFC_MEM_LIMIT_IN_MB", "").strip()
        if megabytes.isdigit():
            return int(megabytes) * 2**20
    limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit():
            limit = min(limit, int(text))
        break
    return limit
