"""Where tf1mem's commands put the files a run leaves: reports and run folders.

One documented place, chosen by the user: ``$TF1MEM_REPORT_DIR`` when set; else
``reports/`` inside ``$TF1MEM_CACHE_DIR`` when that is set (the folder the user named
for tf1mem's files); else ``$XDG_CACHE_HOME/tf1mem/reports`` (an absolute
``XDG_CACHE_HOME`` only), else ``~/.cache/tf1mem/reports``. What goes there: the
out-of-memory reports (TensorFlow's whole message and its allocator's log), the
per-run folders of ``memory sweep`` / ``memory fit`` trials and of the ``cluster``
launcher (task logs, results, checkpoints), and the held-back stderr of a command
while it runs (:mod:`tf1mem._tflog`). A command removes a run's folder when the
run succeeds, unless asked to keep it (``--keep-reports``, ``--keep-run-dir``);
a failed run's files stay, and the command names them.

Nothing here runs at import time; the folder is created on first use, private to
the user (mode 0700).
"""

import contextlib
import dataclasses
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator, Mapping, Optional

from tf1mem.errors import ConfigError

__all__ = ["REPORT_DIR_ENV_VAR", "report_dir", "make_report_dir", "new_report_file",
           "RunFolder", "run_folder"]

REPORT_DIR_ENV_VAR = "TF1MEM_REPORT_DIR"
_CACHE_ENV_VAR = "TF1MEM_CACHE_DIR"  # tf1mem.data.fetch.CACHE_ENV_VAR: the same variable


def report_dir(environ: Optional[Mapping[str, str]] = None) -> Path:
    """The folder for reports and run folders (it may not exist yet); see the module doc."""
    environ = os.environ if environ is None else environ
    explicit = environ.get(REPORT_DIR_ENV_VAR)
    if explicit:
        return Path(explicit).expanduser()
    cache = environ.get(_CACHE_ENV_VAR)
    if cache:
        return Path(cache).expanduser() / "reports"
    xdg = environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "tf1mem" / "reports"


def make_report_dir(folder: Optional[os.PathLike] = None) -> Path:
    """Creates ``folder`` (default :func:`report_dir`) if missing; returns it.

    Raises:
      ConfigError: it cannot be created; the message names the folder and the
        variable that moves it.
    """
    folder = report_dir() if folder is None else Path(folder)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot create tf1mem's report folder {str(folder)!r}: {exc}; set "
            f"{REPORT_DIR_ENV_VAR} to a writable folder") from exc
    return folder


def new_report_file(prefix: str, suffix: str = ".txt",
                    folder: Optional[os.PathLike] = None) -> Path:
    """A new, empty file ``PREFIX*SUFFIX`` in ``folder`` (default :func:`report_dir`)."""
    fd, path = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=make_report_dir(folder))
    os.close(fd)
    return Path(path)


@dataclasses.dataclass
class RunFolder:
    """One run's folder; set ``keep`` to leave it in place when the run ends."""

    path: Path
    keep: bool = False


@contextlib.contextmanager
def run_folder(prefix: str, keep: bool = False) -> Iterator[RunFolder]:
    """A new folder ``PREFIX*`` in :func:`report_dir` for one run's files.

    Inside the block ``$TF1MEM_REPORT_DIR`` names it, so the command's child
    processes (tf1mem commands themselves) write their reports there too; the
    variable is restored on exit. The folder is removed when the block ends without
    an exception and ``keep`` is false; otherwise it stays (the caller names it).
    The block keeps it by setting ``keep`` on what it is given (a run that failed
    without raising), the caller by passing ``keep=True``.

    Yields:
      A :class:`RunFolder`.
    """
    run = RunFolder(Path(tempfile.mkdtemp(prefix=prefix, dir=make_report_dir())), keep)
    folder = run.path
    previous = os.environ.get(REPORT_DIR_ENV_VAR)
    os.environ[REPORT_DIR_ENV_VAR] = str(folder)
    try:
        yield run
    except BaseException:
        run.keep = True
        raise
    finally:
        if previous is None:
            os.environ.pop(REPORT_DIR_ENV_VAR, None)
        else:
            os.environ[REPORT_DIR_ENV_VAR] = previous
        if not run.keep:
            shutil.rmtree(folder, ignore_errors=True)
