"""The progress bar every tf1mem command shows, with one rule for all of them.

:func:`bar` is a ``tqdm`` bar on the given stream (stderr by default) when the
command asked for progress and that stream is a terminal; otherwise a disabled bar
that writes nothing, so a log file or a pipe never gets ``\\r`` frames. ``train``,
``memory sweep`` / ``fit`` and the ``cluster`` launcher all use it. tqdm is imported
on first use.
"""

import sys
from typing import Optional, TextIO

__all__ = ["shows", "bar"]


def shows(enabled: bool, stream: Optional[TextIO] = None) -> bool:
    """Whether a bar asked for (``enabled``) is drawn on ``stream`` (default stderr)."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(enabled) and stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def bar(total: Optional[int], desc: str, unit: str, enabled: bool = True,
        stream: Optional[TextIO] = None):
    """A tqdm bar of ``total`` ``unit``; drawn only where :func:`shows` says so.

    Args:
      total: the count the bar runs to (None: unknown).
      desc: the label before the bar (``"train"``, ``"sweep"``).
      unit: what one count is (``"step"``, ``"run"``).
      enabled: the command's ``--no-progress`` turned around.
      stream: where it is drawn (default ``sys.stderr`` at the call).

    Returns:
      A ``tqdm`` object (a context manager); left nowhere on the screen when done.
    """
    from tqdm import tqdm  # imported on use: keeps the commands' import cheap

    stream = sys.stderr if stream is None else stream
    return tqdm(total=total, desc=desc, unit=unit, file=stream,
                disable=not shows(enabled, stream), leave=False)
