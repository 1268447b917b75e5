"""TensorFlow's C++ log lines held back while one of tf1mem's own commands runs.

``import tensorflow`` on a CPU-only machine writes 6-9 lines to file descriptor 2
before any of the command's output (the absl notice "All log messages before
absl::InitializeLog() ...", twice; oneDNN and CUDA-stub notices; the CPU feature
guard; "failed call to cuInit ... (303)"), and an out-of-memory error writes the
allocator's whole dump (a hundred lines or more) before the command can say what
happened. ``TF_CPP_MIN_LOG_LEVEL`` does not reach the lines written before absl is
initialised, so :class:`QuietTensorFlow` works on the descriptor itself: while it is
installed, fd 2 is a file in tf1mem's report folder (:mod:`tf1mem._places`), a
thread forwards every line of it to the real stderr except

- TensorFlow's start-up notices (:func:`is_startup_line`) and its INFO lines,
  which are dropped;
- the messages of an out-of-memory failure (the allocator's dump from
  ``bfc_allocator.cc``, a kernel's ``RESOURCE_EXHAUSTED``), with their continuation
  lines, which are held for the out-of-memory report
  (:meth:`QuietTensorFlow.allocator_lines`);

and Python's ``sys.stderr`` writes to the real stderr directly (progress bars,
messages). Everything else (warnings, errors, Python tracebacks written to fd 2)
goes through at once. Should the process die inside, the file stays in the report
folder with everything TensorFlow wrote; on a normal exit it is removed.

Only tf1mem's commands install it (``train``, ``memory``, ``cluster``, the
two-task mode), and only without ``--verbose``. Never under ``tf1mem.run``: a
user's script gets TensorFlow's stderr untouched, as TF 1.15 gave it. Installing
changes fd 2 and ``sys.stderr`` of this process only; :meth:`QuietTensorFlow.close`
(or leaving the ``with`` block) restores both. A second install while one is
active does nothing.
"""

import io
import os
import re
import sys
import threading
from typing import List, Optional

from tf1mem import _places
from tf1mem.errors import ConfigError

__all__ = ["QuietTensorFlow", "is_startup_line", "is_allocator_line", "quiet_tensorflow"]

_GLOG = re.compile(r"^([IWEF])\d{4} \d\d:\d\d:[\d.]+\s+\d+ ([\w.+-]+):\d+\] ?(.*)$")
# The notices TensorFlow prints as it loads on a machine it was not built for.
_STARTUP_FILES = ("port.cc", "cudart_stub.cc", "cpu_feature_guard.cc")
_STARTUP_TEXT = ("All log messages before absl::InitializeLog() is called",
                 "To enable the following instructions:",
                 "TF-TRT Warning: Could not find TensorRT",
                 "failed call to cuInit",
                 "Unable to register cu",
                 "when one has already been registered",
                 # After each step of a two-task (gRPC) session: the step's own
                 # rendezvous torn down, nothing failed (seen twice per run of
                 # train --mode two-task on TF 2.21).
                 "Local rendezvous is aborting with status: ABORTED: Cleanup")
_ALLOCATOR_FILES = ("bfc_allocator.cc", "allocator_retry.cc")
_OOM_TEXT = ("RESOURCE_EXHAUSTED", "OOM when allocating")
_POLL_S = 0.02

_active: Optional["QuietTensorFlow"] = None


def is_startup_line(line: str) -> bool:
    """Whether ``line`` is one of TensorFlow's start-up notices, a known harmless
    notice, or an INFO line."""
    if any(text in line for text in _STARTUP_TEXT):
        return True
    match = _GLOG.match(line)
    return bool(match) and (match.group(1) == "I" or match.group(2) in _STARTUP_FILES)


def is_allocator_line(line: str) -> bool:
    """Whether ``line`` starts a message of an out-of-memory failure: the allocator's
    log (its dump), or a kernel or rendezvous reporting ``RESOURCE_EXHAUSTED``."""
    match = _GLOG.match(line)
    return bool(match) and (match.group(2) in _ALLOCATOR_FILES
                            or any(text in line for text in _OOM_TEXT))


class QuietTensorFlow:
    """Holds back TensorFlow's start-up lines and allocator dump; see the module doc.

    Use as a context manager, or :meth:`install` then :meth:`close`.
    """

    def __init__(self):
        self._saved_fd = None
        self._saved_stderr = None
        self._path = None
        self._reader = None
        self._thread = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._partial = b""
        self._allocator: List[str] = []
        self._holding = False  # the last log message is an out-of-memory one
        self._installed = False

    def install(self) -> "QuietTensorFlow":
        """Points fd 2 at the held file and ``sys.stderr`` at the real stderr.

        Where the report folder cannot be created, installs nothing (TensorFlow's
        lines then come through, as with ``--verbose``).
        """
        global _active
        if _active is not None:
            return self
        try:
            path = _places.new_report_file(f"tf1mem-stderr-{os.getpid()}-", ".log")
        except ConfigError:
            # No report folder to hold the lines in: TensorFlow's stderr stays as it
            # is (as with --verbose) rather than the command failing for it.
            return self
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            try:
                os.dup2(fd, 2)
            finally:
                os.close(fd)
            self._reader = open(path, "rb")
        except BaseException:
            os.dup2(saved, 2)
            os.close(saved)
            os.unlink(path)
            raise
        self._saved_fd, self._path = saved, path
        self._saved_stderr = sys.stderr
        sys.stderr = io.TextIOWrapper(io.FileIO(os.dup(saved), "w"), write_through=True,
                                      encoding=getattr(sys.stderr, "encoding", None)
                                      or "utf-8", errors="backslashreplace")
        self._thread = threading.Thread(target=self._follow, name="tf1mem-stderr",
                                        daemon=True)
        self._thread.start()
        self._installed = True
        _active = self
        return self

    def _follow(self):
        while not self._stop.wait(_POLL_S):
            self.drain()

    def drain(self) -> None:
        """Forwards what TensorFlow has written since the last call (any thread)."""
        with self._lock:
            if self._reader is None:
                return
            data = self._partial + self._reader.read()
            *lines, self._partial = data.split(b"\n")
            out = []
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                if _GLOG.match(line):
                    self._holding = is_allocator_line(line)
                # A held message's lines without a log prefix are its continuation
                # (the dump's chunk table, the "Current usage" list).
                if self._holding:
                    self._allocator.append(line)
                elif not is_startup_line(line):
                    out.append(raw + b"\n")
            if out:
                os.write(self._saved_fd, b"".join(out))

    def allocator_lines(self) -> List[str]:
        """The allocator's lines held so far (its out-of-memory dump), oldest first."""
        self.drain()
        with self._lock:
            return list(self._allocator)

    def close(self) -> None:
        """Restores fd 2 and ``sys.stderr``; forwards what is left; removes the file."""
        global _active
        if not self._installed:
            return
        self._stop.set()
        self._thread.join()
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os.dup2(self._saved_fd, 2)
        self.drain()
        with self._lock:
            if self._partial:
                os.write(self._saved_fd, self._partial)
            self._reader.close()
            self._reader = None
        held, sys.stderr = sys.stderr, self._saved_stderr
        try:
            held.close()
        except OSError:
            pass
        os.close(self._saved_fd)
        try:
            os.unlink(self._path)
        except OSError:
            pass
        self._installed = False
        _active = None

    def __enter__(self):
        return self.install()

    def __exit__(self, *exc):
        self.close()
        return False


def quiet_tensorflow(verbose: bool):
    """A :class:`QuietTensorFlow` to use as a context, or a no-op one for ``--verbose``."""
    import contextlib

    return contextlib.nullcontext(None) if verbose else QuietTensorFlow()
