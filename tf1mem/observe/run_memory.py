"""Memory of each ``session.run`` label of a script we do not own (``--memory-report``).

A label is the run's fetch names (``"train_step"``, ``"Mean:0, accuracy:0"``) in one
session. The first :data:`TRACES_PER_SHAPE` runs of each label at each distinct
set of feed shapes are traced with ``FULL_TRACE`` (the values the script gets are
the same; only time is spent); their step stats are swept by
:func:`tf1mem.observe.step_memory.step_memory`, and each device keeps the largest peak
seen. The report is JSON or CSV, by the file's extension.

Public API: :class:`RunMemoryLog`, :func:`check_report_path`, :func:`fetch_label`,
:func:`feed_batch_size`, :data:`REPORT_EXTENSIONS`.
"""

import csv
import io
import json
import os
import threading
from typing import Dict, Optional

from tf1mem import _atomic
from tf1mem.errors import UsageError
from tf1mem.observe import step_memory
from tf1mem.observe.text import format_bytes, short_device

__all__ = ["RunMemoryLog", "check_report_path", "fetch_label", "feed_batch_size",
           "REPORT_EXTENSIONS", "TRACES_PER_SHAPE"]

REPORT_EXTENSIONS = (".json", ".csv")
# Traced runs per label and feed shapes: the first may hold one-time allocations.
TRACES_PER_SHAPE = 2
# Distinct feed shapes traced per label, to bound the cost of a varying batch.
_MAX_SHAPES = 16
_CSV_FIELDS = ("session", "label", "runs", "traced_runs", "batch_sizes", "device",
               "peak_bytes", "persistent_bytes", "activation_bytes", "temporary_bytes",
               "fed_bytes", "fed_copy_bytes", "rank", "node", "op", "shape", "dtype", "bytes",
               "kind")


def check_report_path(path, flag="--memory-report") -> None:
    """Raises UsageError unless ``path`` ends in .json/.csv in a writable folder."""
    if os.path.splitext(path)[1].lower() not in REPORT_EXTENSIONS:
        raise UsageError(f"{flag} {path!r}: the file name must end in .json or .csv "
                         f"(the format is chosen by the extension)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"{flag} {path!r}: folder {folder!r} does not exist or is not "
                         f"writable; create it or choose another path")
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path!r}: is a folder; give a file name in it (e.g. "
                         f"{os.path.join(path, 'memory.json')!r})")
    if os.path.lexists(path) and (not os.path.isfile(path) or not os.access(path, os.W_OK)):
        raise UsageError(f"{flag} {path!r}: exists and is not a writable regular file; "
                         f"choose another path")


def _name_of(item):
    return getattr(item, "name", None) or repr(item)


def fetch_label(fetches) -> str:
    """The fetches' names, joined (``"train_op, Mean:0"``)."""
    import tensorflow as tf

    try:
        names = [_name_of(f) for f in tf.nest.flatten(fetches)]
    except (TypeError, ValueError):
        names = [repr(fetches)]
    return ", ".join(names)[:200]


def _shape_of(value):
    shape = getattr(value, "shape", None)
    if shape is not None:
        return tuple(shape)
    try:
        return (len(value),)  # a list: its length is the batch, without a copy
    except TypeError:
        return ()


def feed_batch_size(feed_dict) -> Optional[int]:
    """The batch fed: the leading size shared by every feed whose placeholder has an
    unknown first dimension; None if there is none or they disagree."""
    sizes = set()
    for key, value in (feed_dict or {}).items():
        shape = getattr(key, "shape", None)
        # as_list: under TF1 behaviour shape[0] is a Dimension, never None itself.
        if shape is None or shape.rank is None or shape.rank == 0 \
                or shape.as_list()[0] is not None:
            continue
        fed = _shape_of(value)
        if fed:
            sizes.add(int(fed[0]))
    return sizes.pop() if len(sizes) == 1 else None


class _Entry:
    def __init__(self, session, label):
        self.session, self.label = session, label
        self.runs = 0
        self.traced = 0
        self.shapes: Dict[tuple, int] = {}  # feed shapes -> traced runs
        self.batch_sizes = set()
        self.devices: Dict[str, step_memory.DeviceMemory] = {}


class RunMemoryLog:
    """Collects per-label device peaks from traced runs; thread-safe.

    Args:
      path: where the report goes as it grows, or None. After each traced run the whole
        report is rewritten there atomically, so the file is valid JSON or CSV at every
        moment and holds everything traced so far even when the program ends by SIGTERM
        or ``os._exit``.
    """

    def __init__(self, path=None):
        self._lock = threading.Lock()
        self._entries: Dict[tuple, _Entry] = {}
        self._path = path
        self._write_lock = threading.Lock()  # a later snapshot is never overwritten

    def should_trace(self, session_number, label, feed_dict, can_trace=True) -> bool:
        """Counts one run of ``label``; whether this run is to be traced (never where
        ``can_trace`` is false: another run is being traced, and this one's turn waits)."""
        shapes = tuple(sorted((_name_of(k), _shape_of(v))
                              for k, v in (feed_dict or {}).items()))
        with self._lock:
            entry = self._entries.setdefault((session_number, label),
                                             _Entry(session_number, label))
            entry.runs += 1
            done = entry.shapes.get(shapes)
            if not can_trace:
                return False
            if done is None and len(entry.shapes) >= _MAX_SHAPES:
                return False
            if (done or 0) >= TRACES_PER_SHAPE:
                return False
            entry.shapes[shapes] = (done or 0) + 1
            return True

    def record(self, session_number, label, run_metadata, graph, feed_dict) -> None:
        """Sweeps one traced run's step stats into the label's per-device peaks."""
        batch = feed_batch_size(feed_dict)
        step = step_memory.step_memory(run_metadata, graph, batch)
        with self._lock:
            entry = self._entries[(session_number, label)]
            entry.traced += 1
            if batch is not None:
                entry.batch_sizes.add(batch)
            for name, dev in step.devices.items():
                if name not in entry.devices or dev.peak_bytes > entry.devices[name].peak_bytes:
                    entry.devices[name] = dev
        if self._path is not None:
            self.write(self._path)

    def to_list(self):
        """One dict per label, in first-run order (JSON-ready)."""
        with self._lock:
            entries = list(self._entries.values())
        out = []
        for e in entries:
            out.append({
                "session": e.session, "label": e.label, "runs": e.runs,
                "traced_runs": e.traced, "batch_sizes": sorted(e.batch_sizes),
                "peak_bytes": max((d.peak_bytes for d in e.devices.values()), default=0),
                "devices": {name: _device_dict(d) for name, d in sorted(e.devices.items())},
            })
        return out

    def write(self, path, extra=None) -> None:
        """Writes the report to ``path``: JSON or CSV by its extension.

        ``extra``: more top-level fields for JSON (the runner's ``tf1_packages``), or
        None; CSV has one row per tensor and leaves them out.
        """
        with self._write_lock:
            self._write(path, extra)

    def _write(self, path, extra=None) -> None:
        check_report_path(path)
        labels = self.to_list()
        if os.path.splitext(path)[1].lower() == ".json":
            text = json.dumps({"labels": labels, **(extra or {})}, indent=1) + "\n"
        else:
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(_CSV_FIELDS)
            for lab in labels:
                head = [lab["session"], lab["label"], lab["runs"], lab["traced_runs"],
                        " ".join(map(str, lab["batch_sizes"]))]
                for name, d in lab["devices"].items():
                    dev = head + [name, d["peak_bytes"], d["persistent_bytes"],
                                  d["activation_bytes"], d["temporary_bytes"], d["fed_bytes"],
                                  d["fed_copy_bytes"]]
                    for rank, t in enumerate(d["top"], 1):
                        writer.writerow(dev + [rank, t["node"], t["op"],
                                               "x".join(map(str, t["shape"])), t["dtype"],
                                               t["bytes"], t["kind"]])
                    if not d["top"]:
                        writer.writerow(dev + [""] * 7)
            text = buf.getvalue()
        _atomic.write_text(path, text)

    def summary(self) -> str:
        """One line: labels recorded, the largest peak and its label and device."""
        labels = self.to_list()
        best = None
        for lab in labels:
            for name, d in lab["devices"].items():
                if best is None or d["peak_bytes"] > best[0]:
                    best = (d["peak_bytes"], name, lab)
        if best is None:
            return f"{len(labels)} session.run labels, none traced"
        peak, device, lab = best
        return (f"{len(labels)} session.run labels; largest peak "
                f"{format_bytes(peak)} on {short_device(device)} in "
                f"session {lab['session']} run {lab['label']!r}")


def _device_dict(d: step_memory.DeviceMemory) -> dict:
    return {"peak_bytes": d.peak_bytes, "persistent_bytes": d.persistent_bytes,
            "activation_bytes": d.activation_bytes, "temporary_bytes": d.temporary_bytes,
            "fed_bytes": d.fed_bytes, "fed_copy_bytes": d.fed_copy_bytes,
            "top": [{"node": t.node, "op": t.op, "shape": list(t.shape), "dtype": t.dtype,
                     "bytes": t.bytes, "kind": t.kind} for t in d.top]}
