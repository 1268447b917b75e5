"""Atomic file writes: tf1mem's one way to replace a file so readers never see half of it.

A temporary file is created next to the target (same folder, so ``os.replace`` is
an atomic rename), filled, flushed to disk, then renamed over the target. On any
failure the temporary file is removed and the target is left as it was. Unlike
``tempfile.mkstemp`` (mode 0600, which ``os.replace`` keeps), the file gets the
usual umask-based permissions.

Generic: it knows nothing of what is written. Used by :mod:`tf1mem.data.fetch`
(downloads, checksums), :mod:`tf1mem.observe.placement` (reports) and the cluster
launcher and tasks (``tasks.json``, results).
"""

import os
from pathlib import Path
from typing import Callable, Optional, Tuple

__all__ = ["atomic_write", "write_text", "create_temp"]


def atomic_write(dest, write: Callable, check: Optional[Callable] = None) -> None:
    """Writes ``dest`` via a temp file in its folder and ``os.replace``.

    ``write(fileobj)`` fills the temp file (opened ``w+b``); ``check(temp_path)``,
    if given, may raise to reject it (it may also move the temp file elsewhere to
    keep it). On any failure the temp file is removed, if still there, and ``dest``
    is left as it was.
    """
    dest = Path(dest)
    fd, tmp = create_temp(dest)
    try:
        with os.fdopen(fd, "w+b") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if check is not None:
            check(Path(tmp))
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(dest, text: str) -> None:
    """:func:`atomic_write` of ``text`` as UTF-8 (no newline translation)."""
    data = text.encode("utf-8")
    atomic_write(dest, lambda f: f.write(data))


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
