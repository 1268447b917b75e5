"""What a training step costs in memory, per device, read from TensorFlow's step stats.

This module owns the measurement of a graph-mode step's memory: the records of the
result, the sweep of a traced step's allocation events, the traced runs, and the
result as a table. A step run with ``RunOptions(trace_level=FULL_TRACE)``
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
:func:`step_memory`, :func:`measure_step`, :func:`allocator_stats_available`,
:func:`oom_run_options`, :func:`format_table`, :func:`tensor_lines`. The
out-of-memory explanation is :mod:`tf1mem.observe.oom`'s, the allocator's limit
:mod:`tf1mem.observe.caps`'s. Nothing here reads the command line; TensorFlow is
imported only inside functions.
"""

import dataclasses
import math
import re
import time
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from tf1mem.observe import placement
from tf1mem.observe.text import align_rows, device_labels, format_bytes, short_device

__all__ = ["TensorRecord", "DeviceMemory", "StepMemory", "step_memory", "measure_step",
           "allocator_stats_available", "oom_run_options", "format_table", "tensor_lines",
           "TOP_TENSORS", "VARIABLE_OPS"]

# How many of the largest live tensors a report lists.
TOP_TENSORS = 8

# Devices the tracer adds that repeat the real device's nodes (GPU streams, copies).
_PSEUDO_DEVICE = re.compile(r"/(stream|memcpy)[:/]|/stream$|/memcpy$")
# Variable ops: their output is a handle or a ref; the buffer is persistent.
VARIABLE_OPS = frozenset({"VarHandleOp", "VariableV2", "Variable"})


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
        if op in VARIABLE_OPS and graph is not None:
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


def _session_devices(sess) -> List[str]:
    try:
        return [d.name for d in sess.list_devices()]
    except Exception:  # a remote session that cannot list: no allocator stats then
        return []


def oom_run_options(options=None):
    """``RunOptions`` with ``report_tensor_allocations_upon_oom`` on (a copy)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    merged = v1.RunOptions()
    if options is not None:
        merged.CopyFrom(options)
    merged.report_tensor_allocations_upon_oom = True
    return merged


# ----------------------------------------------------------------- formatting

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
            lines.extend(tensor_lines(d.top))
    return "\n".join(lines)


def tensor_lines(records: Sequence[TensorRecord]) -> List[str]:
    """The records as an indented table: node, op, shape, dtype, bytes, kind."""
    rows = [("node", "op", "shape", "dtype", "bytes", "kind")]
    for r in records:
        node = r.node if len(r.node) <= 60 else "..." + r.node[-57:]
        rows.append((node, r.op, "x".join(map(str, r.shape)) if r.shape else "-",
                     r.dtype or "-", format_bytes(r.bytes), r.kind))
    return ["  " + line for line in align_rows(rows)]
