"""How the observe wing writes sizes and devices as text, and reads sizes back.

Sizes: :func:`parse_bytes` reads what a user types (``512MiB``, ``1.5GB``),
:func:`format_bytes` writes a size for a table (``1.50 KiB``) and
:func:`format_budget` writes one :func:`parse_bytes` reads back exactly. Devices:
:func:`short_device` (``CPU:0``) and :func:`device_labels` (task-qualified where
several tasks appear). :func:`align_rows` lays rows of cells out as aligned text.
Pure Python: no TensorFlow, nothing read from the command line.
"""

import re
from typing import Dict, Iterable, List, Optional

from tf1mem.errors import UsageError

__all__ = ["parse_bytes", "format_bytes", "format_budget", "short_device", "device_labels",
           "align_rows"]


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


def format_budget(n: int) -> str:
    """Bytes as a ``--budget`` value :func:`parse_bytes` reads back exactly."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def short_device(device: str) -> str:
    """``"/job:localhost/replica:0/task:0/device:CPU:0"`` -> ``"CPU:0"``."""
    # "/job:localhost/replica:0/task:0/device:CPU:0" -> "CPU:0"
    match = re.search(r"device:([A-Za-z_]+:\d+)$", device)
    return match.group(1) if match else device


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


def align_rows(rows) -> List[str]:
    """Rows of cells as left-aligned text lines, a rule under the first."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    out = ["  ".join(f"{str(c):<{w}}" for c, w in zip(row, widths)).rstrip() for row in rows]
    out.insert(1, "-" * len(out[0]))
    return out
