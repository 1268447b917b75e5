"""What a training step costs in memory, per device, read from TensorFlow's step stats.

This module owns the measurement of a graph-mode step's memory and the explanation of
an out-of-memory error. A step run with ``RunOptions(trace_level=FULL_TRACE)``
returns, for each node, every allocation it made and when it was freed
(``node_stats[].memory[].allocation_records``: ``+bytes`` at allocation, ``-bytes`` at
the free) and each output's allocated bytes and buffer address. The per-device peak is
found by **sweeping those events in time order** and keeping the largest sum of live
bytes (summing ``total_bytes`` would be wrong: it never subtracts a free). At the
peak the live allocations are split into:

- **activations and gradients**: outputs of nodes (forward activations kept for the
  backward pass, gradients not yet applied);
- **temporaries**: a kernel's scratch allocations that are not among its outputs.

Beside the sweep, per device:

- **persistent**: the variables (weights and optimizer slots) the step used, sized
  from the graph; they live across steps, so the sweep never sees them allocated.
- **fed inputs**: arrays passed through ``feed_dict``. They become tensors before
  the step starts (zero-copy when the NumPy buffer is suitably aligned, else a copy
  in TensorFlow's allocator), so step stats never show them allocated; on the host
  they are reported separately (``fed_bytes``), never added to the peak.
- **fed copies** (accelerators): a GPU whose nodes read a fed array gets its own
  copy in device memory for the step. The trace does not record that copy either
  (measured on an H200, TF 2.21: the GPU's sweep peak equalled the CPU's to the
  byte, while the GPU allocator's peak was higher by the fed images), so each fed
  array a device's nodes read is counted once as ``fed_copy_bytes`` and added to
  that device's peak as if live for the whole step: an upper bound, which is what
  a batch that must fit needs.

``peak_bytes`` of a device is ``persistent + (activations + temporaries at the
sweep's peak) + fed copies``. Where the allocator keeps statistics, :func:`measure_step` also
resets them before each traced step and reports ``get_memory_info``'s ``peak`` as
``allocator_peak_bytes``: the allocator's high-water mark of bytes in use since the
reset, in its rounded chunks, including the variables, any constants the runtime
keeps and fed arrays it had to copy. It is the cross-check, not the figure. Which
allocators keep statistics (TF 2.21, measured): every GPU's; on the CPU, oneDNN's
allocator (the default on x86, chunks rounded up to powers of two) and the BFC
allocator chosen by ``TF_CPU_ALLOCATOR_USE_BFC=1`` before TensorFlow loads (256-byte
chunks); with ``TF_ENABLE_ONEDNN_OPTS=0`` and no BFC the CPU has none
(``get_memory_info`` raises). See :func:`allocator_stats_available`.

Public API: :class:`TensorRecord`, :class:`DeviceMemory`, :class:`StepMemory`,
:func:`step_memory`, :func:`measure_step`, :func:`format_table`, :func:`parse_bytes`,
:func:`format_bytes`, :func:`fit_linear`, :func:`largest_batch`, :class:`OomReport`,
:func:`explain_oom`, :func:`format_oom`. Nothing here reads the command line;
TensorFlow is imported only inside functions.
"""

import dataclasses
import math
import os
import re
import time
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from tf1mem.errors import UsageError
from tf1mem.observe import placement

__all__ = ["TensorRecord", "DeviceMemory", "StepMemory", "step_memory", "measure_step",
           "format_table", "parse_bytes", "format_bytes", "format_budget", "fit_linear", "largest_batch",
           "allocator_stats_available", "device_memory_limit", "batch_upper_bound", "OomReport", "explain_oom", "format_oom",
           "oom_run_options", "short_device", "align_rows", "TOP_TENSORS", "describe_oom"]

# How many of the largest live tensors a report lists.
TOP_TENSORS = 8

# Devices the tracer adds that repeat the real device's nodes (GPU streams, copies).
_PSEUDO_DEVICE = re.compile(r"/(stream|memcpy)[:/]|/stream$|/memcpy$")
# Variable ops: their output is a handle or a ref; the buffer is persistent.
_VARIABLE_OPS = frozenset({"VarHandleOp", "VariableV2", "Variable"})


@dataclasses.dataclass(frozen=True)
class TensorRecord:
    """One allocation live at a device's peak (or at an out-of-memory failure).

    Attributes:
      node: the node that allocated it.
      op: the op type (``MatMul``, ``Relu``...; empty where unknown).
      shape: the tensor's shape (empty for a scratch buffer or an unknown shape).
      dtype: dtype name (``float32``...), or ``""`` for scratch memory.
      bytes: bytes allocated.
      device: full device name.
      kind: ``"activation"`` (a node output), ``"temporary"`` (scratch),
        ``"persistent"`` (a variable) or ``"fed"`` (a feed_dict array).
    """

    node: str
    op: str
    shape: Tuple[int, ...]
    dtype: str
    bytes: int
    device: str
    kind: str


@dataclasses.dataclass(frozen=True)
class DeviceMemory:
    """One device's memory in one step (or the largest over several steps).

    Attributes:
      device: full device name.
      peak_bytes: persistent + activations + temporaries at the sweep's peak, plus
        ``fed_copy_bytes``.
      persistent_bytes: variables and optimizer slots the step used.
      activation_bytes: node outputs live at the peak (activations, gradients).
      temporary_bytes: scratch allocations live at the peak.
      fed_bytes: feed_dict arrays placed on this device (not in ``peak_bytes``).
      top: the largest tensors live at the peak, largest first (persistent ones
        and fed copies included), at most :data:`TOP_TENSORS`.
      allocator_peak_bytes: the allocator's own peak (``get_memory_info``) for the
        step, or ``None`` where the allocator keeps no statistics.
      fed_copy_bytes: fed arrays held elsewhere (the host) that this device's
        nodes read, so copied into its memory for the step (an accelerator only;
        in ``peak_bytes``, counted as live for the whole step).
    """

    device: str
    peak_bytes: int
    persistent_bytes: int
    activation_bytes: int
    temporary_bytes: int
    fed_bytes: int
    top: Tuple[TensorRecord, ...] = ()
    allocator_peak_bytes: Optional[int] = None
    fed_copy_bytes: int = 0

    @property
    def transient_bytes(self) -> int:
        """Bytes the step itself allocated at its peak (activations + temporaries)."""
        return self.activation_bytes + self.temporary_bytes


@dataclasses.dataclass(frozen=True)
class StepMemory:
    """Memory of a measured step, per device.

    Attributes:
      devices: device name -> :class:`DeviceMemory`, sorted by device name.
      batch_size: the batch size fed, or ``None`` if unknown.
      steps: how many traced steps the figures are the maximum of.
      step_seconds: mean wall time of an untraced step (``None`` if not timed).
    """

    devices: Mapping[str, DeviceMemory]
    batch_size: Optional[int] = None
    steps: int = 1
    step_seconds: Optional[float] = None

    @property
    def peak_bytes(self) -> int:
        """The largest device peak."""
        return max((d.peak_bytes for d in self.devices.values()), default=0)

    def to_dict(self) -> dict:
        """A JSON-ready dict (tensors as dicts, shapes as lists)."""
        return {
            "batch_size": self.batch_size, "steps": self.steps,
            "step_seconds": self.step_seconds, "peak_bytes": self.peak_bytes,
            "devices": {name: dataclasses.asdict(d) for name, d in self.devices.items()},
        }


# --------------------------------------------------------------------- parsing

def _dtype_info(enum_value) -> Tuple[str, int]:
    import tensorflow as tf

    try:
        dtype = tf.dtypes.as_dtype(enum_value)
    except TypeError:
        return "", 0
    try:
        return dtype.name, dtype.size
    except (TypeError, ValueError):  # resource, variant: no element size
        return dtype.name, 0


def _shape(tensor_description) -> Tuple[int, ...]:
    if tensor_description.shape.unknown_rank:
        return ()
    return tuple(int(d.size) for d in tensor_description.shape.dim)


def _is_host_allocator(name: str) -> bool:
    # Pinned host memory (cuda_host_bfc, gpu_host_bfc) is not the device's memory.
    return "host" in name.lower()


def _variable_bytes(op) -> Tuple[Tuple[int, ...], str, int]:
    import tensorflow as tf

    dtype = tf.dtypes.as_dtype(op.get_attr("dtype")).base_dtype
    shape = tf.TensorShape(op.get_attr("shape"))
    if shape.rank is None or not shape.is_fully_defined():
        return (), dtype.name, 0
    dims = tuple(int(d) for d in shape.as_list())
    return dims, dtype.name, int(math.prod(dims)) * dtype.size


def step_memory(run_metadata, graph=None, batch_size=None) -> StepMemory:
    """Sweeps a traced step's allocation events into per-device memory.

    Args:
      run_metadata: a ``RunMetadata`` filled by a run with ``FULL_TRACE``.
      graph: the client's ``tf.Graph``; gives op types and the variables' sizes.
        Without it, persistent bytes are 0 and op types come from timeline labels.
      batch_size: recorded in the result as given.

    Returns:
      A :class:`StepMemory` with one :class:`DeviceMemory` per real device that
      ran nodes (GPU stream and memcpy pseudo-devices are skipped).
    """
    devices = {}
    node_names = {}
    fed: Dict[str, TensorRecord] = {}  # fed tensor's op name -> its record
    for dev_stats in run_metadata.step_stats.dev_stats:
        device = dev_stats.device
        if _PSEUDO_DEVICE.search(device):
            continue
        devices[device], fed_here = _device_memory(device, dev_stats.node_stats, graph)
        fed.update((r.node, r) for r in fed_here)
        node_names[device] = {s.node_name.split(":")[0] for s in dev_stats.node_stats}
    if graph is not None and fed:
        executed = set().union(*node_names.values())
        for device, dev in devices.items():
            if not _is_host_device(device):
                devices[device] = _with_fed_copies(dev, node_names[device], fed, graph,
                                                   executed)
    return StepMemory(devices=dict(sorted(devices.items())), batch_size=batch_size)


def _is_host_device(device: str) -> bool:
    return short_device(device).upper().startswith("CPU")


def _with_fed_copies(dev: DeviceMemory, nodes, fed: Mapping[str, TensorRecord],
                     graph, executed) -> DeviceMemory:
    """Adds the fed arrays that ``nodes`` (run on ``dev``) read to its peak, once each.

    The client graph's edges are followed back from each node through ops that never
    ran (``executed`` holds every traced node): grappler folds identities such as
    StopGradient away and fuses MatMul+BiasAdd+Relu into a node named after the Relu,
    so the node that really reads a feed may reach it only through such ops.
    """
    read = set()
    expanded = set()
    for name in nodes:
        try:
            stack = [t.op for t in graph.get_operation_by_name(name).inputs]
        except (KeyError, ValueError):
            continue  # a node the runtime added (_Recv, _SOURCE...)
        while stack:
            op = stack.pop()
            if op.name in fed:
                read.add(op.name)
            elif op.name not in executed and op.name not in expanded:
                expanded.add(op.name)
                stack.extend(t.op for t in op.inputs)
    if not read:
        return dev
    copies = tuple(dataclasses.replace(fed[name], device=dev.device) for name in sorted(read))
    extra = sum(r.bytes for r in copies)
    top = tuple(sorted(dev.top + copies, key=lambda r: (-r.bytes, r.node))[:TOP_TENSORS])
    return dataclasses.replace(dev, peak_bytes=dev.peak_bytes + extra, fed_copy_bytes=extra,
                               top=top)


def _device_memory(device, node_stats, graph) -> Tuple[DeviceMemory, List[TensorRecord]]:
    # Each allocation becomes an interval [start, end) with a kind; the sweep then
    # finds the instant with the most bytes live.
    intervals = []  # (start, end or None, bytes, record)
    fed = []
    variables = []
    for stats in node_stats:
        name = stats.node_name.split(":")[0]
        op = placement.op_type(graph, name, stats)
        if name.startswith("_arg_") or op in ("_Arg", "Placeholder"):
            for out in stats.output:
                desc = out.tensor_description
                dtype, size = _dtype_info(desc.dtype)
                shape = _shape(desc)
                fed.append(TensorRecord(_fed_name(name), "Placeholder", shape, dtype,
                                        int(math.prod(shape)) * size, device, "fed"))
            continue
        if op in _VARIABLE_OPS and graph is not None:
            try:
                var_op = graph.get_operation_by_name(name)
            except (KeyError, ValueError):
                var_op = None
            if var_op is not None:
                shape, dtype, nbytes = _variable_bytes(var_op)
                variables.append(TensorRecord(name, op, shape, dtype, nbytes, device,
                                              "persistent"))
        for mem in stats.memory:
            if _is_host_allocator(mem.allocator_name):
                continue
            pending = []  # open allocations of this node, in time order
            for rec in sorted(mem.allocation_records, key=lambda r: r.alloc_micros):
                nbytes = int(rec.alloc_bytes)
                if nbytes > 0:
                    pending.append([rec.alloc_micros, nbytes])
                elif nbytes < 0:
                    for i, (start, size) in enumerate(pending):
                        if size == -nbytes:
                            intervals.append((start, rec.alloc_micros, size, name, op))
                            del pending[i]
                            break
            intervals.extend((start, None, size, name, op) for start, size in pending)
    labelled = _label(intervals, node_stats, device)
    live, _ = _sweep(labelled)
    activation = sum(r.bytes for r in live if r.kind == "activation")
    temporary = sum(r.bytes for r in live if r.kind == "temporary")
    persistent = sum(v.bytes for v in variables)
    top = sorted(live + variables, key=lambda r: (-r.bytes, r.node))[:TOP_TENSORS]
    return DeviceMemory(device=device, peak_bytes=persistent + activation + temporary,
                        persistent_bytes=persistent, activation_bytes=activation,
                        temporary_bytes=temporary, fed_bytes=sum(f.bytes for f in fed),
                        top=tuple(top)), fed


def _label(intervals, node_stats, device):
    """Gives each interval a TensorRecord: a node output if sizes match, else scratch."""
    outputs_by_node: Dict[str, List[Tuple[int, Tuple[int, ...], str]]] = {}
    seen = set()
    for stats in node_stats:
        name = stats.node_name.split(":")[0]
        for out in stats.output:
            alloc = out.tensor_description.allocation_description
            if alloc.allocated_bytes <= 0 or alloc.ptr in seen:
                continue
            seen.add(alloc.ptr)
            dtype, _ = _dtype_info(out.tensor_description.dtype)
            sizes = {int(alloc.allocated_bytes), int(alloc.requested_bytes)}
            outputs_by_node.setdefault(name, []).append(
                (sizes, _shape(out.tensor_description), dtype))
    labelled = []
    for start, end, size, name, op in sorted(intervals, key=lambda i: (i[3], i[0])):
        outs = outputs_by_node.get(name, [])
        for i, (sizes, shape, dtype) in enumerate(outs):
            if size in sizes:
                del outs[i]
                labelled.append((start, end, TensorRecord(name, op, shape, dtype, size,
                                                          device, "activation")))
                break
        else:
            labelled.append((start, end, TensorRecord(name, op, (), "", size, device,
                                                      "temporary")))
    return labelled


def _sweep(labelled) -> Tuple[List[TensorRecord], int]:
    """The allocations live at the instant of the most bytes live, and that sum.

    At one microsecond, frees are applied before allocations: the tracer's clock is
    coarser than the allocator, and a buffer freed and another allocated in the same
    microsecond did not coexist in the common case of a kernel replacing its input.
    """
    events = []
    for idx, (start, end, rec) in enumerate(labelled):
        events.append((start, 1, idx))
        if end is not None:
            events.append((end, 0, idx))
    events.sort()
    live = set()
    current = best = 0
    best_live: List[int] = []
    for _, kind, idx in events:
        nbytes = labelled[idx][2].bytes
        if kind == 1:
            live.add(idx)
            current += nbytes
            if current > best:
                best = current
                best_live = list(live)
        elif idx in live:
            live.discard(idx)
            current -= nbytes
    return [labelled[i][2] for i in best_live], best


def _fed_name(arg_name: str) -> str:
    # "_arg_Placeholder_1_0_1" -> "Placeholder_1": TF appends "_<output>_<index>".
    core = arg_name[len("_arg_"):] if arg_name.startswith("_arg_") else arg_name
    parts = core.split("_")
    if len(parts) > 2 and parts[-1].isdigit() and parts[-2].isdigit():
        parts = parts[:-2]
    return "_".join(parts)


# ------------------------------------------------------------------ measuring

def allocator_stats_available(device: str) -> bool:
    """Whether ``get_memory_info`` answers for ``device`` in this process.

    True for every GPU. For the CPU it depends on the allocator TensorFlow chose when
    it loaded: oneDNN's (the x86 default) and the BFC allocator
    (``TF_CPU_ALLOCATOR_USE_BFC=1`` in the environment before TensorFlow loads; set
    later it has no effect) keep statistics; the plain one
    (``TF_ENABLE_ONEDNN_OPTS=0``) does not.
    """
    import tensorflow as tf

    try:
        tf.config.experimental.get_memory_info(short_device(device))
    except (ValueError, RuntimeError, tf.errors.OpError):
        return False
    return True


def short_device(device: str) -> str:
    """``"/job:localhost/replica:0/task:0/device:CPU:0"`` -> ``"CPU:0"``."""
    # "/job:localhost/replica:0/task:0/device:CPU:0" -> "CPU:0"
    match = re.search(r"device:([A-Za-z_]+:\d+)$", device)
    return match.group(1) if match else device


def measure_step(sess, fetches, feed_dict=None, *, steps=3, timed_steps=0,
                 batch_size=None) -> StepMemory:
    """Runs ``fetches`` traced ``steps`` times and returns each device's largest figures.

    One untraced warm-up run comes first (kernels pick their algorithms, constants
    are cached), then ``steps`` runs with ``FULL_TRACE``; where the allocator keeps
    statistics its peak is reset before each traced run and read after it. Then
    ``timed_steps`` untraced runs are timed for :attr:`StepMemory.step_seconds`.
    A training op is applied ``1 + steps + timed_steps`` times.

    Args:
      sess: a ``tf.compat.v1.Session``.
      fetches: what to run, e.g. the training op.
      feed_dict: the feeds, as for ``sess.run``.
      steps: traced runs, >= 1.
      timed_steps: untraced runs to time, >= 0.
      batch_size: recorded in the result.

    Returns:
      A :class:`StepMemory`: per device, the figures of the traced run with the
      highest peak, with the highest allocator peak seen.
    """
    import tensorflow as tf

    v1 = tf.compat.v1
    if steps < 1:
        raise ValueError(f"steps must be >= 1, got {steps}")
    # Every run asks for TF's live-tensor list should it run out of memory, so a
    # caller can explain the failure (explain_oom); it costs nothing otherwise.
    sess.run(fetches, feed_dict=feed_dict, options=oom_run_options())
    options = oom_run_options(v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE))
    best: Dict[str, DeviceMemory] = {}
    allocator_peaks: Dict[str, int] = {}
    for _ in range(steps):
        metadata = v1.RunMetadata()
        stat_devices = [d for d in best] or _session_devices(sess)
        for device in stat_devices:
            if allocator_stats_available(device):
                tf.config.experimental.reset_memory_stats(short_device(device))
        sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=metadata)
        step = step_memory(metadata, sess.graph, batch_size)
        for name, dev in step.devices.items():
            if allocator_stats_available(name):
                peak = tf.config.experimental.get_memory_info(short_device(name))["peak"]
                allocator_peaks[name] = max(allocator_peaks.get(name, 0), int(peak))
            if name not in best or dev.peak_bytes > best[name].peak_bytes:
                best[name] = dev
    seconds = None
    if timed_steps:
        start = time.perf_counter()
        plain = oom_run_options()
        for _ in range(timed_steps):
            sess.run(fetches, feed_dict=feed_dict, options=plain)
        seconds = (time.perf_counter() - start) / timed_steps
    devices = {name: dataclasses.replace(dev, allocator_peak_bytes=allocator_peaks.get(name))
               for name, dev in sorted(best.items())}
    return StepMemory(devices=devices, batch_size=batch_size, steps=steps,
                      step_seconds=seconds)


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
    if os.environ.get("TF_CPU_ALLOCATOR_USE_BFC", "").lower() in ("1", "true"):
        limit = os.environ.get("TF_CPU_BFC_MEM_LIMIT_IN_MB", "")
        if limit.strip().isdigit():
            return int(limit) * 2**20
    return None


def _session_devices(sess) -> List[str]:
    try:
        return [d.name for d in sess.list_devices()]
    except Exception:  # a remote session that cannot list: no allocator stats then
        return []


# ----------------------------------------------------------------- formatting

_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6,
          "g": 10**9, "gb": 10**9, "t": 10**12, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_bytes(text: str, what: str = "--budget") -> int:
    """Parses a size such as ``512MiB``, ``1.5GB``, ``2e9`` or ``300000`` into bytes.

    Binary units (KiB, MiB, GiB, TiB) are powers of 1024; decimal ones (KB, MB,
    GB, TB, and K/M/G/T) powers of 1000; case is ignored.

    Raises:
      UsageError: naming ``what`` and the value, when it is not a positive size.
    """
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*",
                         str(text))
    unit = match.group(2).lower() if match else None
    if not match or unit not in _UNITS:
        raise UsageError(f"{what} must be a size such as 512MiB, 2GiB or 1.5GB, "
                         f"got {text!r}")
    value = float(match.group(1)) * _UNITS[unit]
    if not 0 < value < float("inf"):
        raise UsageError(f"{what} must be a size > 0, got {text!r}")
    return int(value)


def format_budget(n: int) -> str:
    """Bytes as a ``--budget`` value :func:`parse_bytes` reads back exactly."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def device_labels(names: Iterable[str]) -> Dict[str, str]:
    """Short display names: ``"CPU:0"``, or ``"task:1/CPU:0"`` where several tasks appear.

    Step stats of a ``grpc://`` session name each task's devices in full
    (``/job:local/replica:0/task:1/device:CPU:0``); shortening them all to ``CPU:0``
    would print two tasks' devices under one name.
    """
    names = list(names)
    tasks = {re.sub(r"/device:.*$", "", n) for n in names}
    if len(tasks) <= 1:
        return {n: short_device(n) for n in names}
    labels = {}
    for n in names:
        job = re.search(r"/job:([^/]+)", n)
        task = re.search(r"/task:(\d+)", n)
        prefix = (f"{job.group(1)}:" if job else "") + (f"task{task.group(1)}/" if task else "")
        labels[n] = prefix + short_device(n)
    return labels


def format_bytes(n: Optional[float]) -> str:
    """``1536 -> '1.50 KiB'``; ``None -> '-'``."""
    if n is None:
        return "-"
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} B" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} GiB"


def format_table(result: StepMemory) -> str:
    """Per-device parts of the peak and its largest live tensors, as aligned text."""
    lines = []
    header = ("device", "peak", "persistent", "activations", "temporaries", "fed (apart)",
              "allocator peak")
    rows = [header]
    labels = device_labels(result.devices)
    for name, d in result.devices.items():
        rows.append((labels[name], format_bytes(d.peak_bytes),
                     format_bytes(d.persistent_bytes), format_bytes(d.activation_bytes),
                     format_bytes(d.temporary_bytes), format_bytes(d.fed_bytes),
                     format_bytes(d.allocator_peak_bytes)))
    lines.extend(align_rows(rows))
    for name, d in result.devices.items():
        if d.fed_copy_bytes:
            lines.append(f"{labels[name]}'s peak includes {format_bytes(d.fed_copy_bytes)} of "
                         f"fed arrays copied into it for the step (counted as live throughout)")
    for name, d in result.devices.items():
        if d.top:
            lines.append("")
            lines.append(f"largest tensors live at the peak on {labels[name]}:")
            lines.extend(_tensor_lines(d.top))
    return "\n".join(lines)


def _tensor_lines(records: Sequence[TensorRecord]) -> List[str]:
    rows = [("node", "op", "shape", "dtype", "bytes", "kind")]
    for r in records:
        node = r.node if len(r.node) <= 60 else "..." + r.node[-57:]
        rows.append((node, r.op, "x".join(map(str, r.shape)) if r.shape else "-",
                     r.dtype or "-", format_bytes(r.bytes), r.kind))
    return ["  " + line for line in align_rows(rows)]


def align_rows(rows) -> List[str]:
    """Rows of cells as left-aligned text lines, a rule under the first."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    out = ["  ".join(f"{str(c):<{w}}" for c, w in zip(row, widths)).rstrip() for row in rows]
    out.insert(1, "-" * len(out[0]))
    return out


# -------------------------------------------------------------------- fitting

def fit_linear(points: Iterable[Tuple[float, float]]) -> Tuple[float, float]:
    """Least-squares ``bytes = intercept + slope * batch`` through (batch, bytes) points.

    Raises:
      ValueError: fewer than two distinct batch sizes.
    """
    pts = [(float(b), float(m)) for b, m in points]
    if len({b for b, _ in pts}) < 2:
        raise ValueError(f"a linear fit needs two distinct batch sizes, got {pts}")
    n = len(pts)
    mean_b = sum(b for b, _ in pts) / n
    mean_m = sum(m for _, m in pts) / n
    slope = (sum((b - mean_b) * (m - mean_m) for b, m in pts)
             / sum((b - mean_b) ** 2 for b, _ in pts))
    return mean_m - slope * mean_b, slope


def largest_batch(intercept: float, slope: float, budget: float) -> int:
    """The largest integer batch whose predicted bytes stay within ``budget``.

    Returns 0 when even a batch of 1 is predicted over budget; raises ValueError if
    memory does not grow with the batch (``slope <= 0``: no finite answer).
    """
    if slope <= 0:
        raise ValueError(f"memory does not grow with the batch size (slope {slope:.3g} "
                         "bytes per example): no largest batch to predict")
    return max(0, int(math.floor((budget - intercept) / slope)))


# --------------------------------------------------------------- out of memory

def oom_run_options(options=None):
    """``RunOptions`` with ``report_tensor_allocations_upon_oom`` on (a copy)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    merged = v1.RunOptions()
    if options is not None:
        merged.CopyFrom(options)
    merged.report_tensor_allocations_upon_oom = True
    return merged


@dataclasses.dataclass(frozen=True)
class OomReport:
    """What an out-of-memory error says, parsed.

    Attributes:
      node: the node whose allocation failed.
      shape: the shape it asked for.
      dtype: its dtype name as TensorFlow printed it (``float``...).
      device: where.
      allocator: which allocator refused.
      requested_bytes: the failed allocation's size (from shape and dtype; 0 if
        unknown).
      live: the largest tensors in use at the failure, largest first (shape and
        dtype looked up in the graph; batch dimension filled with the batch fed).
      remaining: how many more live nodes TF summarised, and their bytes.
      batch_size: the batch size fed, if known.
      predicted_batch: the largest batch predicted to fit, if predicted.
      raw: TensorFlow's own message, whole.
    """

    node: str
    shape: Tuple[int, ...]
    dtype: str
    device: str
    allocator: str
    requested_bytes: int
    live: Tuple[TensorRecord, ...]
    remaining: Tuple[int, int]
    batch_size: Optional[int]
    predicted_batch: Optional[int]
    raw: str


_OOM_LINE = re.compile(r"OOM when allocating tensor with shape\[([0-9, ]*)\] and type "
                       r"(\w+) on (\S+) by allocator (\S+)")
_USAGE_HEADER = re.compile(r"Current usage from device: ([^,]+), allocator: (\S+)")
_USAGE_LINE = re.compile(r"^\s+([0-9.]+)([KMGT]i?B|B) from (\S+)\s*$")
_REMAINING = re.compile(r"Remaining (\d+) nodes with ([0-9.]+)([KMGT]i?B|B)")
_TF_SIZES = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
_TF_DTYPE_NAMES = {"float": "float32", "double": "float64", "half": "float16"}


def explain_oom(exc, graph=None, batch_size=None, predicted_batch=None) -> OomReport:
    """Parses a ``ResourceExhaustedError`` into an :class:`OomReport`.

    The live-tensor list is there only if the run had
    ``report_tensor_allocations_upon_oom`` (see :func:`oom_run_options`).

    Args:
      exc: the ``tf.errors.ResourceExhaustedError``.
      graph: the ``tf.Graph`` run, to look up each live node's op, shape, dtype.
      batch_size: the batch size fed, to fill the unknown batch dimension.
      predicted_batch: the largest batch predicted to fit, if the caller has one.
    """
    raw = getattr(exc, "message", None) or str(exc)
    match = _OOM_LINE.search(raw)
    if match:
        shape = tuple(int(s) for s in match.group(1).replace(" ", "").split(",") if s)
        dtype = _TF_DTYPE_NAMES.get(match.group(2), match.group(2))
        device, allocator = match.group(3), match.group(4)
    else:
        shape, dtype, device, allocator = (), "", "", ""
    node = getattr(getattr(exc, "node_def", None), "name", "") or ""
    if not node:
        named = re.search(r"\{\{node ([^}]+)\}\}", raw)
        node = named.group(1) if named else ""
    requested = int(math.prod(shape)) * _itemsize(dtype) if shape else 0
    live = []
    remaining = (0, 0)
    current_device = device
    for line in raw.splitlines():
        header = _USAGE_HEADER.search(line)
        if header:
            current_device = header.group(1).strip()
            continue
        usage = _USAGE_LINE.match(line)
        if usage:
            nbytes = int(float(usage.group(1)) * _TF_SIZES[usage.group(2)])
            live.append(_live_record(graph, usage.group(3), nbytes, current_device,
                                     batch_size))
            continue
        rest = _REMAINING.search(line)
        if rest:
            remaining = (int(rest.group(1)),
                         int(float(rest.group(2)) * _TF_SIZES[rest.group(3)]))
    live.sort(key=lambda r: (-r.bytes, r.node))
    return OomReport(node=node, shape=shape, dtype=dtype, device=device,
                     allocator=allocator, requested_bytes=requested,
                     live=tuple(live[:TOP_TENSORS]), remaining=remaining,
                     batch_size=batch_size, predicted_batch=predicted_batch, raw=raw)


def _itemsize(dtype: str) -> int:
    import tensorflow as tf

    try:
        return tf.dtypes.as_dtype(dtype).size
    except (TypeError, ValueError):
        return 0


def _live_record(graph, node, nbytes, device, batch_size) -> TensorRecord:
    op, shape, dtype = "", (), ""
    if graph is not None:
        try:
            operation = graph.get_operation_by_name(node)
        except (KeyError, ValueError):
            operation = None
        if operation is not None:
            op = operation.type
            if operation.outputs:
                out = operation.outputs[0]
                dtype = out.dtype.base_dtype.name
                if out.shape.rank is not None:
                    dims = out.shape.as_list()
                    if None in dims and batch_size is not None and dims[0] is None:
                        dims[0] = batch_size
                    if None not in dims:
                        shape = tuple(dims)
    return TensorRecord(node, op, shape, dtype, nbytes, device, "activation")


_VARIABLE_OPS = frozenset({"VarHandleOp", "VariableV2", "Variable"})


def graph_variable_bytes(graph) -> int:
    """Bytes of the graph's global and local variables whose shapes are fully known."""
    if graph is None:
        return 0
    import tensorflow as tf

    keys = (tf.compat.v1.GraphKeys.GLOBAL_VARIABLES, tf.compat.v1.GraphKeys.LOCAL_VARIABLES)
    seen, total = set(), 0
    for key in keys:
        for var in graph.get_collection(key):
            name = getattr(var, "name", None)
            shape = getattr(var, "shape", None)
            if name in seen or shape is None or not shape.is_fully_defined():
                continue
            seen.add(name)
            total += shape.num_elements() * var.dtype.base_dtype.size
    return total


def batch_upper_bound(report: OomReport, limit: Optional[int],
                      persistent_bytes: int = 0) -> Optional[int]:
    """An upper bound on the batch that fits, from a failed step alone.

    At the failure the step needed at least the variables (``persistent_bytes``,
    which TensorFlow's live-tensor list leaves out), the other bytes in use and the
    bytes it asked for; if all but the variables grow in proportion to the batch,
    no batch above ``batch * (limit - persistent) / (needed - persistent)`` can fit.
    Returns ``None`` without a limit, a batch size or a live-tensor list, or when
    what the failure shows does not exceed the limit.
    """
    if not limit or not report.batch_size or not report.live:
        return None
    scaled = (sum(t.bytes for t in report.live if t.op not in _VARIABLE_OPS)
              + report.remaining[1] + report.requested_bytes)
    if persistent_bytes + scaled <= limit or scaled <= 0:
        return None
    room = max(0, limit - persistent_bytes)
    return max(0, min(report.batch_size - 1, int(report.batch_size * room / scaled)))


def format_oom(report: OomReport, raw_path=None) -> str:
    """The short explanation printed instead of TensorFlow's wall of lines."""
    lines = [f"out of memory on {short_device(report.device) or '?'} "
             f"(allocator {report.allocator or '?'}): node {report.node or '?'} asked for "
             f"{format_bytes(report.requested_bytes)} "
             f"(shape [{','.join(map(str, report.shape))}], {report.dtype or '?'})"]
    if report.live:
        lines.append("largest tensors in use at the failure:")
        lines.extend(_tensor_lines(report.live))
        if report.remaining[0]:
            lines.append(f"  ... and {report.remaining[0]} more nodes with "
                         f"{format_bytes(report.remaining[1])}")
    else:
        lines.append("(no live-tensor list: the run lacked "
                     "report_tensor_allocations_upon_oom; under tf1mem.run, "
                     "--oom-tensors asks for it)")
    if report.batch_size is not None:
        lines.append(f"batch size fed: {report.batch_size}")
    if report.predicted_batch is not None:
        lines.append(f"predicted largest batch that fits: {report.predicted_batch}")
    if raw_path is not None:
        lines.append(f"TensorFlow's full report: {os.fspath(raw_path)}")
    return "\n".join(lines)


def describe_oom(exc, graph=None, batch_size=None, limit=None, raw_path=None) -> str:
    """The short explanation of an out-of-memory error; TF's raw report to a file.

    What ``tf1mem.train`` and ``tf1mem.run`` print: :func:`format_oom` of
    :func:`explain_oom`, then the upper bound of :func:`batch_upper_bound` when the
    device's ``limit`` and the batch are known.

    Args:
      exc: the ``ResourceExhaustedError``.
      graph: the graph run (op, shape, dtype of the live tensors), or None.
      batch_size: the batch fed, or None.
      limit: the device's byte limit (:func:`device_memory_limit`), or None.
      raw_path: where TensorFlow's whole message goes; None: a new temporary file.

    Returns:
      The text to print (it names the raw report's file).
    """
    import tempfile

    from tf1mem import _atomic

    report = explain_oom(exc, graph, batch_size)
    if raw_path is None:
        fd, raw_path = tempfile.mkstemp(prefix="tf1mem-oom-", suffix=".txt")
        os.close(fd)
    _atomic.write_text(raw_path, report.raw + "\n")
    text = format_oom(report, raw_path)
    bound = batch_upper_bound(report, limit, graph_variable_bytes(graph))
    if bound is not None:
        text += (f"\npredicted largest batch that fits: at most {bound} (the failed step "
                 f"needed at least its variables, what else it held and what it asked "
                 f"for; "
                 f"python -m tf1mem.memory fit --budget {format_budget(limit)} measures it)")
    return text
