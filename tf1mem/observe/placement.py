"""Where each graph node ran: placement read back from a real step, not from logs.

TensorFlow's ``log_device_placement`` is printed by C++ to the process's file
descriptor 2, which notebooks and captured ``sys.stdout`` never see. This module
owns the alternative: run one step with
``RunOptions(output_partition_graphs=True)`` and read the device of every node in
the partition graphs the runtime returns. That works on a local session and over
``grpc://`` (the master returns one partition graph per task and device, including
the ``_Send``/``_Recv`` pairs it inserted between them). If a runtime returns no
partition graphs, the step is rerun with ``FULL_TRACE`` and placement is read from
its ``step_stats`` (op types then come from the client's graph).

Public API: :class:`PlacementRow`, :func:`run_with_placement`,
:func:`format_table`, :func:`write_report`. Nothing here reads the command line.
"""

import csv
import dataclasses
import io
import json
import os
from typing import Iterable, List, Mapping, Sequence, Tuple

from tf1mem import _atomic
from tf1mem.errors import UsageError

__all__ = ["PlacementRow", "run_with_placement", "rows_from_run_metadata",
           "format_table", "write_report", "REPORT_FIELDS"]

REPORT_FIELDS = ("node", "op", "device")

# Nodes the tracer reports that are not graph nodes.
_TRACE_PSEUDO_NODES = frozenset({"_SOURCE", "_SINK", "RecvTensor"})


@dataclasses.dataclass(frozen=True, order=True)
class PlacementRow:
    """One node of a step and the device it ran on.

    Attributes:
      node: the node's name in the partition graph (graph name, or a name the
        runtime made up for inserted nodes such as ``_Send``/``_Recv``).
      op: the op type, e.g. ``MatMul`` or ``_Recv`` (kernels may show a rewritten
        type such as ``_MklMatMul``).
      device: full device name, e.g. ``/job:local/replica:0/task:1/device:CPU:0``.
    """

    node: str
    op: str
    device: str


def rows_from_run_metadata(run_metadata, graph=None) -> List[PlacementRow]:
    """Placement rows from a ``RunMetadata`` filled by a step.

    Args:
      run_metadata: a ``tf.compat.v1.RunMetadata`` from a run with
        ``output_partition_graphs=True`` (preferred) or ``FULL_TRACE``.
      graph: the client's ``tf.Graph``, used to look up op types for rows that
        come from step stats; optional.

    Returns:
      Rows, de-duplicated and sorted by device then node.
    """
    rows = set()
    for partition in run_metadata.partition_graphs:
        for node in partition.node:
            rows.add(PlacementRow(node.name, node.op, node.device))
    if not rows:
        for dev_stats in run_metadata.step_stats.dev_stats:
            for stats in dev_stats.node_stats:
                name = stats.node_name.split(":")[0]
                if name in _TRACE_PSEUDO_NODES:
                    continue
                rows.add(PlacementRow(name, op_type(graph, name, stats), dev_stats.device))
    return sorted(rows, key=lambda r: (r.device, r.node, r.op))


def op_type(graph, name, stats):
    """The op type of node ``name``: from ``graph`` if it has it, else from the step
    stats' ``timeline_label`` (the other observers of RunMetadata use it too)."""
    if graph is not None:
        try:
            return graph.get_operation_by_name(name).type
        except (KeyError, ValueError):
            pass
    # timeline_label reads "name = Op(inputs)" for ordinary kernels.
    label = stats.timeline_label
    if " = " in label:
        return label.split(" = ", 1)[1].split("(", 1)[0]
    return ""


def run_with_placement(sess, fetches, feed_dict=None) -> Tuple[object, List[PlacementRow]]:
    """Runs ``fetches`` once and returns the results with the step's placement.

    Args:
      sess: a ``tf.compat.v1.Session`` (local or ``grpc://``), or anything with the
        same ``run(fetches, feed_dict, options, run_metadata)`` signature.
      fetches: what ``sess.run`` should fetch.
      feed_dict: optional feeds.

    Returns:
      ``(results, rows)``: what ``sess.run`` returned, and a sorted list of
      :class:`PlacementRow`. If the runtime returned no partition graphs, the
      step is run a second time with ``FULL_TRACE`` to read step stats, so a
      step with side effects (a training op) is then applied twice.
    """
    import tensorflow as tf  # imported on first use: tf1mem does no work at import

    v1 = tf.compat.v1
    metadata = v1.RunMetadata()
    results = sess.run(fetches, feed_dict=feed_dict,
                       options=v1.RunOptions(output_partition_graphs=True),
                       run_metadata=metadata)
    graph = getattr(sess, "graph", None)
    rows = rows_from_run_metadata(metadata, graph)
    if not rows:
        metadata = v1.RunMetadata()
        sess.run(fetches, feed_dict=feed_dict,
                 options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE),
                 run_metadata=metadata)
        rows = rows_from_run_metadata(metadata, graph)
    return results, rows


def format_table(rows: Iterable[PlacementRow]) -> str:
    """An aligned text table of rows, sorted by device then node.

    Args:
      rows: :class:`PlacementRow` items.

    Returns:
      The table with a header line, columns ``device``, ``node``, ``op``; no
      trailing newline. An empty input gives just the header.
    """
    rows = sorted(rows, key=lambda r: (r.device, r.node, r.op))
    header = ("device", "node", "op")
    cells = [header] + [(r.device, r.node, r.op) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(2)]
    lines = [f"{c[0]:<{widths[0]}}  {c[1]:<{widths[1]}}  {c[2]}".rstrip() for c in cells]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def write_report(path, runs) -> None:
    """Writes placement rows to ``path`` as CSV or JSON, chosen by its extension.

    CSV has columns ``run,node,op,device``; JSON is an object mapping each run's
    label to a list of ``{"node", "op", "device"}`` objects. The file is written
    atomically (:func:`tf1mem._atomic.atomic_write`), with the usual permissions.

    Args:
      path: a path ending in ``.csv`` or ``.json`` (any case).
      runs: ``(run label, rows)`` pairs in order, or a mapping of label to rows.
        Labels must be unique: two runs under one label would merge in JSON.

    Raises:
      UsageError: the extension is neither ``.csv`` nor ``.json``.
      ValueError: two runs share a label.
    """
    pairs = list(runs.items()) if isinstance(runs, Mapping) else list(runs)
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        twice = sorted({label for label in labels if labels.count(label) > 1})
        raise ValueError(f"placement report {path!r}: run label(s) {twice} used twice")
    rows_by_run = dict(pairs)
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(("run",) + REPORT_FIELDS)
        for run, rows in rows_by_run.items():
            for r in rows:
                writer.writerow((run, r.node, r.op, r.device))
        text = buf.getvalue()
    elif ext == ".json":
        text = json.dumps({run: [dataclasses.asdict(r) for r in rows]
                           for run, rows in rows_by_run.items()}, indent=2) + "\n"
    else:
        raise UsageError(f"placement report {path!r}: the file name must end in "
                         ".csv or .json (the format is chosen by the extension)")
    _atomic.write_text(path, text)
