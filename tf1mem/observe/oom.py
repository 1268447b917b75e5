"""Out-of-memory errors explained: what ran out, what was live, what batch would fit.

TensorFlow's ``ResourceExhaustedError`` is a wall of lines (and, where the run asked
with ``report_tensor_allocations_upon_oom``, see
:func:`tf1mem.observe.step_memory.oom_run_options`, the live tensors of the failing
device). :func:`explain_oom` parses it into an :class:`OomReport`; :func:`format_oom`
prints the short table tf1mem shows instead, its raw text going to a file;
:func:`describe_oom` is what ``tf1mem.train`` and ``tf1mem.run`` print, with the
upper bound of :func:`batch_upper_bound`; :func:`predict_after_oom` measures two
smaller batches in the same session and predicts the largest that fits, and
:func:`out_of_memory_error` is the error a measurement raises. Nothing here reads
the command line; TensorFlow is imported only inside functions.
"""

import dataclasses
import math
import os
import re
from typing import Optional, Tuple

from tf1mem import _atomic, _places, errors
from tf1mem.observe.batch_model import fit_linear, largest_batch
from tf1mem.observe.caps import device_memory_limit
from tf1mem.observe.step_memory import (TOP_TENSORS, VARIABLE_OPS, TensorRecord, measure_step,
                                        tensor_lines)
from tf1mem.observe.text import format_budget, format_bytes, short_device

__all__ = ["OomReport", "explain_oom", "format_oom", "describe_oom", "batch_upper_bound",
           "graph_variable_bytes", "predict_after_oom", "out_of_memory_error"]

# Batches measured after an out-of-memory error to predict what would fit.
_OOM_PROBE_DIVISORS = (16, 8)


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
    scaled = (sum(t.bytes for t in report.live if t.op not in VARIABLE_OPS)
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
        lines.extend(tensor_lines(report.live))
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


def describe_oom(exc, graph=None, batch_size=None, limit=None, raw_path=None,
                 tf_log=()) -> str:
    """The short explanation of an out-of-memory error; TF's raw report to a file.

    What ``tf1mem.train`` and ``tf1mem.run`` print: :func:`format_oom` of
    :func:`explain_oom`, then the upper bound of :func:`batch_upper_bound` when the
    device's ``limit`` and the batch are known.

    Args:
      exc: the ``ResourceExhaustedError``.
      graph: the graph run (op, shape, dtype of the live tensors), or None.
      batch_size: the batch fed, or None.
      limit: the device's byte limit (:func:`device_memory_limit`), or None.
      raw_path: where TensorFlow's whole message goes; None: a new file in tf1mem's
        report folder (:func:`tf1mem._places.report_dir`).
      tf_log: TensorFlow's log lines of the failure (the allocator's dump, held
        back from the console by :class:`tf1mem._tflog.QuietTensorFlow`); written
        to the same file after the message.

    Returns:
      The text to print (it names the raw report's file).
    """
    report = explain_oom(exc, graph, batch_size)
    raw_path = _write_raw(report, raw_path, tf_log)
    text = format_oom(report, raw_path)
    bound = batch_upper_bound(report, limit, graph_variable_bytes(graph))
    if bound is not None:
        text += (f"\npredicted largest batch that fits: at most {bound} (the failed step "
                 f"needed at least its variables, what else it held and what it asked "
                 f"for; "
                 f"python -m tf1mem.memory fit --budget {format_budget(limit)} measures it)")
    return text


def _write_raw(report: OomReport, path=None, tf_log=()):
    """Writes TensorFlow's whole message, then its log lines ``tf_log``, to ``path``.

    None: a new ``tf1mem-oom-*.txt`` in tf1mem's report folder
    (:func:`tf1mem._places.report_dir`).

    Returns:
      The path written.
    """
    if path is None:
        path = _places.new_report_file("tf1mem-oom-", ".txt")
    text = report.raw + "\n"
    if tf_log:
        text += "\nTensorFlow's log at the failure:\n" + "\n".join(tf_log) + "\n"
    _atomic.write_text(path, text)
    return path


def out_of_memory_error(report: OomReport, raw_path=None, tf_log=()) -> errors.Error:
    """The error a measurement that ran out of memory raises.

    Its message is ``out of memory`` and :func:`format_oom`'s table; TensorFlow's
    whole message and its log lines ``tf_log`` are written to ``raw_path`` (None: a
    new file in tf1mem's report folder), which the table names.
    """
    raw_path = _write_raw(report, raw_path, tf_log)
    return errors.Error("out of memory\n" + format_oom(report, raw_path))


def predict_after_oom(sess, fetches, feed, batch_size: int, exc) -> Optional[int]:
    """Measures two much smaller batches and predicts the largest that fits the limit.

    Args:
      sess: the session whose step ran out of memory.
      fetches: the step run (a training op).
      feed: ``feed(batch) -> feed_dict`` for a batch of ``batch`` examples.
      batch_size: the batch that ran out.
      exc: its ``ResourceExhaustedError``.

    Returns:
      The largest batch below ``batch_size`` that the linear model through the
      smaller batches (its slope at least what the failure itself shows) predicts
      to fit the device's limit; ``None`` where the limit is unknown
      (:func:`tf1mem.observe.caps.device_memory_limit`), a smaller batch runs out
      too, or the model has no answer.
    """
    import tensorflow as tf

    report = explain_oom(exc)
    limit = device_memory_limit(sess, report.device) if report.device else None
    if limit is None:
        return None
    points = []
    for divisor in _OOM_PROBE_DIVISORS:
        batch = max(1, batch_size // divisor)
        try:
            result = measure_step(sess, fetches, feed(batch), steps=1)
        except tf.errors.ResourceExhaustedError:
            return None
        dev = result.devices.get(report.device) or max(
            result.devices.values(), key=lambda d: d.peak_bytes)
        points.append((batch, dev.peak_bytes))
    if len({b for b, _ in points}) < 2:
        return None
    intercept, slope = fit_linear(points)
    # The failure itself bounds the cost per example from below: at the fed batch
    # the step needed at least what was in use plus what it asked for (in the
    # allocator's rounded chunks, which small probes under-state).
    needed = sum(t.bytes for t in report.live) + report.remaining[1] + report.requested_bytes
    if report.live:
        slope = max(slope, (needed - intercept) / batch_size)
    try:
        return min(largest_batch(intercept, slope, limit), batch_size - 1)
    except ValueError:
        return None
