"""Atomic file writes: tf1mem's one way to replace a file so readers never see half of it.

A temporary file is created next to the target (same folder, so ``os.replace`` is
an atomic rename), filled, flushed to disk, then renamed over the target. On any
failure the temporary file is removed and the target is left as it was. Unlike
``tempfile.mkstemp`` (mode 0600, which ``os.replace`` keeps), the file gets the
usual umask-based permissions.

Used by :mod:`tf1mem.fetch` (downloads, checksums), :mod:`tf1mem.placement`
(reports) and the cluster launcher and tasks (``tasks.json``, results).
"""

import logging
import os
import time
from pathlib import Path
from typing import Callable, Optional, Tuple

from tf1mem.errors import DataError

__all__ = ["atomic_write", "write_text", "create_temp", "move_aside"]

_log = logging.getLogger("tf1mem.fetch")  # the module whose users see these warnings


def atomic_write(dest, write: Callable, check: Optional[Callable] = None) -> None:
    """Writes ``dest`` via a temp file in its folder and ``os.replace``.

    ``write(fileobj)`` fills the temp file (opened ``w+b``); ``check(temp_path)``,
    if given, may raise to reject it. On any failure the temp file is removed and
    ``dest`` is left as it was; a temp file that ``check`` rejects with a
    :class:`DataError` is instead kept for inspection (see :func:`move_aside`).
    """
    dest = Path(dest)
    fd, tmp = create_temp(dest)
    try:
        with os.fdopen(fd, "w+b") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if check is not None:
            try:
                check(Path(tmp))
            except DataError as exc:
                # A complete but bad download is kept for inspection, never used.
                raise DataError(f"{exc} {move_aside(Path(tmp), dest.name, exc)}") from exc
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(dest, text: str) -> None:
    """:func:`atomic_write` of ``text`` as UTF-8 (no newline translation)."""
    atomic_write(dest, lambda f: f.write(text.encode("utf-8")))


def create_temp(dest: Path) -> Tuple[int, str]:
    """Creates ``.NAME.<random>.part`` next to ``dest``, with umask-based permissions.

    (``tempfile.mkstemp`` would make it 0600, and ``os.replace`` keeps that mode.)
    """
    dest = Path(dest)
    while True:
        tmp = str(dest.parent / f".{dest.name}.{os.urandom(6).hex()}.part")
        try:
            return os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue


def move_aside(path: Path, name: Optional[str] = None, reason: object = "") -> str:
    """Renames a rejected file ``NAME.corrupt-<UTC time>``; returns a note saying so.

    ``name`` is NAME when it differs from ``path``'s own (a rejected temp file).
    """
    name = name or path.name
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{name}.corrupt-{stamp}-{n}")
        n += 1
    try:
        os.rename(path, target)
    except OSError as exc:
        return f"(could not move it aside: {exc})"
    _log.warning("%s rejected (%s); moved aside to %s", path, reason, target.name)
    return f"(moved aside to {target.name})"
