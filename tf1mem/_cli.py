"""What every ``python -m tf1mem.X`` command does around its work: exit codes.

:func:`run_command` runs a command's body and turns tf1mem's errors into the
documented exit codes of :mod:`tf1mem.errors`, with one ``PROG: error: ...`` line
on stderr instead of a traceback; Ctrl-C (and what a command treats as such) becomes
130 with one line. Only commands use this module; the library raises.
"""

import sys
from typing import Callable, Tuple, Type

from tf1mem import errors

__all__ = ["run_command"]


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
