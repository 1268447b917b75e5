"""What every ``python -m tf1mem.X`` command does around its work: exit codes, help.

:func:`run_command` runs a command's body and turns tf1mem's errors into the
documented exit codes of :mod:`tf1mem.errors`, with one ``PROG: error: ...`` line
on stderr instead of a traceback; Ctrl-C (and what a command treats as such) becomes
130 with one line. :class:`HelpFormatter` and :func:`description` make every
command's ``--help`` alike (each default shown once, no reST markup);
:func:`process_seconds` is the process's age, for ``--profile``. Only commands use
this module; the library raises.
"""

import argparse
import os
import re
import sys
import time
from typing import Callable, Tuple, Type

from tf1mem import errors

__all__ = ["run_command", "HelpFormatter", "description", "process_seconds"]


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds ``(default: X)`` to an option's help unless the help names its default.

    Only where there is a default to show: not for ``None``, ``False``, an empty
    value, or an option that takes no value.
    """

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if ("default" in text or action.nargs == 0 or default is argparse.SUPPRESS
                or default is None or default is False or default in ((), "", [])):
            return text
        if isinstance(default, (tuple, list)):
            return text + " (default: " + ",".join(map(str, default)) + ")"
        return text + " (default: %(default)s)"


def description(doc: str) -> str:
    """A module docstring's first paragraph as help text: ``code`` without backticks."""
    first = doc.strip().split("\n\n")[0]
    return re.sub(r"``([^`]*)``", r"\1", " ".join(first.split()))


def process_seconds() -> float:
    """Seconds since this process started (Linux ``/proc/self/stat``; it survives
    ``exec``), measured against the same clock; elsewhere since tf1mem's ``_cli``
    was imported."""
    try:
        with open("/proc/self/stat") as f:
            # Field 22, after the command name in parentheses (which may hold spaces).
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        uptime = time.clock_gettime(time.CLOCK_BOOTTIME)  # the clock starttime counts in
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED


_IMPORTED = time.perf_counter()


def run_command(prog: str, body: Callable[[], int], *,
                interrupted: Tuple[Type[BaseException], ...] = (KeyboardInterrupt,),
                interrupted_note: str = "interrupted") -> int:
    """Runs ``body()`` and returns its exit code, or the code of what it raised.

    Args:
      prog: the command's name for messages, e.g. ``"tf1mem.train"``.
      body: does the work; returns an exit code.
      interrupted: exception types that mean "stopped by a signal".
      interrupted_note: what to print after ``PROG: `` when interrupted.

    Returns:
      ``body()``'s code; :attr:`tf1mem.Error.exit_code` for a tf1mem error;
      :data:`tf1mem.errors.EXIT_INTERRUPTED` when interrupted. Other exceptions
      propagate (a bug: the traceback is what a user should send).
    """
    try:
        return body()
    except errors.Error as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr, flush=True)
        return errors.exit_code_for(exc)
    except interrupted:
        print(f"{prog}: {interrupted_note}", file=sys.stderr, flush=True)
        return errors.EXIT_INTERRUPTED
