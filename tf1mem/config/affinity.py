"""The CPUs a command's process (and what it starts) may run on: ``--cpus LIST``.

A TF1 training loop hands every step from the Python thread to TensorFlow's thread
pools and back. On a small machine those hand-offs across cores cost more than the
step's arithmetic: on a 2-core VM the article's example 1 took 0.28-0.30 s for its
steps 100-999 pinned to one core (``taskset -c 0``) against 0.45-0.9 s unpinned, and
TF 1.15.5 0.34-0.35 s pinned. ``python -m tf1mem.run --cpus 0 SCRIPT`` (or
``TF1MEM_CPUS=0``) pins the runner, the script and every process they start, as
``taskset`` would, and checks with the kernel that it took effect.

This module owns parsing a CPU list (``"0"``, ``"0,2"``, ``"0-3,6"``) against the
CPUs this process may use, and applying it. Linux only (``os.sched_setaffinity``).
"""

import os
from typing import Optional, Tuple

from tf1mem import errors

__all__ = ["ENV_VAR", "parse_cpus", "cpus_from_env", "requested", "pin"]

ENV_VAR = "TF1MEM_CPUS"


def _available():
    if not hasattr(os, "sched_getaffinity"):
        raise errors.UsageError(
            "--cpus needs os.sched_setaffinity, which this platform lacks (Linux has it); "
            "leave --cpus / TF1MEM_CPUS out")
    return os.sched_getaffinity(0)


def parse_cpus(text: str, what: str = "--cpus") -> Tuple[int, ...]:
    """Parses a CPU list such as ``"0"``, ``"0,2"`` or ``"0-3,6"``.

    Args:
      text: the list, as taskset's ``-c`` takes it.
      what: how to name the value's source in errors.

    Returns:
      The CPU numbers, sorted, without repeats.

    Raises:
      UsageError: not a list of numbers and ranges, an empty or reversed range, or a
        CPU this process may not use (the message lists the ones it may).
    """
    available = _available()
    cpus = set()
    for part in str(text).split(","):
        part = part.strip()
        low, sep, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if sep else first
        except ValueError:
            raise errors.UsageError(
                f"{what} {text!r}: {part!r} is not a CPU number or a range such as 0-3; "
                f"give a list like 0 or 0,2 or 0-3,6") from None
        if first < 0 or last < first:
            raise errors.UsageError(
                f"{what} {text!r}: {part!r} is not a range of CPU numbers (low-high, "
                f"low <= high, from 0)")
        cpus.update(range(first, last + 1))
    missing = sorted(cpus - available)
    if missing:
        raise errors.UsageError(
            f"{what} {text!r}: CPU {', '.join(map(str, missing))} is not one this process "
            f"may use; it may use {_format(available)}")
    return tuple(sorted(cpus))


def cpus_from_env(environ=None) -> Optional[Tuple[int, ...]]:
    """The CPUs :data:`ENV_VAR` names, or None when it is unset or empty."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "")
    return parse_cpus(value, ENV_VAR) if value.strip() else None


def requested(flag: Optional[str], environ=None) -> Optional[Tuple[int, ...]]:
    """The CPUs a command was asked to run on: its ``--cpus`` value, else
    :data:`ENV_VAR`, else None (all it may use)."""
    return parse_cpus(flag) if flag else cpus_from_env(environ)


def pin(cpus) -> None:
    """Restricts this process (and the processes it starts later) to ``cpus``.

    Asks the kernel afterwards which CPUs the process may use, and fails if that is
    not ``cpus``: a pin that did not take is not left to pass for one that did.

    Raises:
      UsageError: the kernel refused, or reports another set.
    """
    _available()
    wanted = set(cpus)
    try:
        os.sched_setaffinity(0, wanted)
    except OSError as exc:
        raise errors.UsageError(
            f"pinning to CPUs {_format(wanted)}: the kernel refused: {exc}") from None
    got = os.sched_getaffinity(0)
    if got != wanted:
        raise errors.UsageError(
            f"pinning to CPUs {_format(wanted)}: the kernel reports CPUs {_format(got)} after; "
            f"not running with a pin that did not take")


def _format(cpus) -> str:
    return ",".join(map(str, sorted(cpus)))
