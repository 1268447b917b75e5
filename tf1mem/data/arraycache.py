"""The per-user cache of decoded IDX arrays, so that a repeated run skips gunzip.

This module owns one folder, ``arrays/`` beside the per-user MNIST cache
(:func:`default_dir`), and what is in it. An entry holds what decoding a ``.gz``
data file produced: its decompressed IDX payload, i.e. the uint8 arrays that
:func:`tf1mem.data.idx.parse_images` and :func:`~tf1mem.data.idx.parse_labels` view
without copying, plus a one-line record. :class:`tf1mem.data.fetch.Fetcher` looks
an entry up by the ``.gz`` file's bytes: the entry is used only if its record names
their sha256, so any change to the file misses. A hit replaces gunzip and hashing
the payload, and every check still runs on it (the structural checks on the cached
payload, the data policy on the payload sha256 the record carries).

Why the uint8 payload and not the float32 arrays the loader ends with: for MNIST,
reading and checking 219 MB of float32 costs more than reading and checking 55 MB
of uint8 and scaling it (measured here: 0.13 s against 0.08 s); and one entry then
serves every ``dtype``, ``reshape`` and ``one_hot``, bit for bit as decoding the
file does, since the arrays come from the same bytes through the same code.

An entry is one file, ``<slot>.idx`` (:class:`Key`): a JSON record line (format,
the ``.gz`` sha256, the payload's name, size, sha256 and the CRC-32 of each 8 MiB
chunk, and the sha256 of the record itself), then the payload. It is written
atomically (:mod:`tf1mem._atomic`). Before use, the record's own sha256, the file's
size and every chunk's CRC-32 must match; an entry that fails (truncated, altered,
junk) is removed with one log line and the file is decoded again, never used.
CRC-32 is enough here: the folder is private (below), so what it guards against is
damage, and it is what gzip itself trusts for the ``.gz`` file.

The folder is made with mode 0700 and is used only if it is a real folder of this
user that no one else can write (checked with ``os.lstat``, as the loopback shim's
cache is), and each entry only if it is a regular file of this user that no one else
can write; otherwise arrays are decoded the slow way, with one log line saying what
to do. The least recently used entries beyond :data:`MAX_BYTES` are removed when one
is added. Nothing here runs at import time, and nothing is ever written outside the
folder (in particular not into a data folder).

Switched off by ``TF1MEM_ARRAY_CACHE=0`` (see :func:`enabled`) or
``read_data_sets(..., cache=False)``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple, Optional

import numpy

from tf1mem import _atomic
from tf1mem.data import idx
from tf1mem.errors import ConfigError

__all__ = ["ENV_VAR", "MAX_BYTES", "ArrayCache", "Hit", "Key", "default_dir", "enabled"]

ENV_VAR = "TF1MEM_ARRAY_CACHE"
# Entries kept (least recently used removed first); real MNIST takes 55 MB.
MAX_BYTES = 1 << 30

_FORMAT = 1
_SUFFIX = ".idx"
_CHUNK = 8 << 20  # CRC-32 per chunk, so that a big payload is checked on every core
_MAX_RECORD = 4096
_ALIGN = 64  # what TensorFlow needs of a fed array to use it in place (EIGEN_MAX_ALIGN_BYTES)
_STALE_PART_S = 3600  # a temp file this old is a killed write's leftover
_TRUE_WORDS = frozenset({"", "1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})
_HEX = frozenset("0123456789abcdef")

_log = logging.getLogger(__name__)


class Key(NamedTuple):
    """Where an entry lives and what it must be for.

    Attributes:
        slot: the entry's file name (without ``.idx``): the ``.gz`` file's last 8
            bytes (the gzip trailer: the payload's CRC-32 and size) in hex, and its
            length. Known without reading the file through, so the entry can be
            read while the file is hashed; it only finds the entry.
        gz_sha256: hex sha256 of the ``.gz`` file's bytes: the entry is used only
            if its record names this, so a changed file misses.
    """

    slot: str
    gz_sha256: str


class Hit(NamedTuple):
    """A cache entry that passed its checks.

    Attributes:
        payload: the decompressed IDX payload, a read-only ``memoryview`` of uint8.
        sha256: hex sha256 of ``payload``, as recorded when the entry was made from
            a verified file.
    """

    payload: memoryview
    sha256: str


def enabled(environ=None) -> bool:
    """Whether ``$TF1MEM_ARRAY_CACHE`` lets the cache be used (unset: yes).

    Raises:
        ConfigError: the variable is set to something other than
            1/0/true/false/yes/no/on/off.
    """
    text = (os.environ if environ is None else environ).get(ENV_VAR, "")
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ConfigError(f"environment variable {ENV_VAR} must be one of "
                      f"1/0/true/false/yes/no/on/off, got {text!r}")


def default_dir() -> Path:
    """Where the decoded arrays go: always inside the folder the user chose.

    ``$TF1MEM_CACHE_DIR/arrays`` when that variable is set (the folder named holds the
    MNIST files and, in ``arrays/``, their decoded payloads: nothing is written beside
    it); else ``arrays/`` beside the per-user MNIST cache, by default
    ``~/.cache/tf1mem/arrays`` (``$XDG_CACHE_HOME``, absolute values only, moves it).
    """
    from tf1mem.data import fetch  # fetch does not import this module: no cycle

    if os.environ.get(fetch.CACHE_ENV_VAR):
        return fetch.default_cache_dir() / "arrays"
    return fetch.default_cache_dir().parent / "arrays"


def _not_private(st: os.stat_result, kind: int, what: str) -> Optional[str]:
    """Why the file or folder ``st`` describes (``lstat``/``fstat``) is not to be
    trusted, or None."""
    if stat.S_IFMT(st.st_mode) != kind:
        return f"it is not a {what}" + (" (a symbolic link)" if stat.S_ISLNK(st.st_mode) else "")
    if st.st_uid != os.geteuid():
        return f"it belongs to uid {st.st_uid}, not to this user (uid {os.geteuid()})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"others can write it (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _crc32s(data, chunk: int, fill=None) -> list:
    """The CRC-32 of each ``chunk`` bytes of ``data``, computed on up to 4 threads.

    With ``fill``, each chunk is first filled by ``fill(chunk_view)``, and its CRC
    runs while the next one is being filled (zlib and file reads release the GIL).
    """
    view = memoryview(data)
    parts = [view[i:i + chunk] for i in range(0, len(view), chunk)] or [view]
    workers = min(len(parts), 4, os.cpu_count() or 1)
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        crcs = []
        for part in parts:
            if fill is not None:
                fill(part)
            crcs.append(pool.submit(zlib.crc32, part) if pool else zlib.crc32(part))
        return [crc.result() for crc in crcs] if pool else crcs
    finally:
        if pool is not None:
            pool.shutdown()


def _seal(fields: dict) -> str:
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_sha256(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


class _Damaged(Exception):
    """An entry that must not be used; the message says why."""


def _check_record(record) -> None:
    """Raises _Damaged unless ``record`` is an intact record of this format."""
    if not isinstance(record, dict) or "record_sha256" not in record:
        raise _Damaged("its record is not one tf1mem wrote")
    fields = {k: v for k, v in record.items() if k != "record_sha256"}
    if _seal(fields) != record["record_sha256"]:
        raise _Damaged("its record differs from the record's own sha256")
    if fields.get("format") != _FORMAT:
        raise _Damaged(f"its format is {fields.get('format')!r}, not {_FORMAT}")
    size, chunk, crcs = fields.get("payload_size"), fields.get("chunk"), fields.get("crc32")
    if not (_is_sha256(fields.get("gz_sha256")) and _is_sha256(fields.get("payload_sha256"))
            and isinstance(size, int) and size >= 0 and isinstance(chunk, int) and chunk > 0
            and isinstance(crcs, list) and len(crcs) == max(1, -(-size // chunk))):
        raise _Damaged("its record lacks a field or has one of the wrong type")


class ArrayCache:
    """The decoded-array cache in one trusted folder; make it with :meth:`open`.

    Args:
        root: the folder, already checked (see :meth:`open`).
    """

    def __init__(self, root: Path):
        self.root = Path(root)

    @classmethod
    def open(cls, root: Optional[os.PathLike | str] = None) -> Optional["ArrayCache"]:
        """The cache in ``root`` (default :func:`default_dir`), or None.

        Creates the folder (mode 0700) if needed. None, with one log line, when it
        cannot be created or is not a real folder of this user that no one else can
        write: the data is then decoded the slow way, and nothing is written.
        """
        root = Path(root) if root is not None else default_dir()
        try:
            root.parent.mkdir(parents=True, exist_ok=True)
            root.mkdir(mode=0o700)
        except FileExistsError:
            pass  # judged below, whatever it is
        except OSError as exc:
            _log.info("decoded-array cache not used: cannot create %s (%s)", root, exc)
            return None
        try:
            why = _not_private(os.lstat(root), stat.S_IFDIR, "folder")
        except OSError as exc:
            why = f"it cannot be examined ({exc})"
        if why:
            _log.warning(
                "decoded-array cache %s not used: %s; the data is decoded from the .gz "
                "files. Make it a folder of your own that no one else can write "
                "(chmod 700), remove it, or set %s=0.", root, why, ENV_VAR)
            return None
        return cls(root)

    def lookup(self, gz) -> tuple[Optional[Hit], Key]:
        """The checked entry for the ``.gz`` file whose bytes are ``gz``, and its key.

        The entry is found by the file's gzip trailer and size (:class:`Key`) and read
        and checked in another thread while ``gz`` is hashed; it is a hit only if its
        record names this sha256. An entry that fails a check is removed (one log
        line).

        Args:
            gz: the ``.gz`` file's bytes.

        Returns:
            ``(hit or None, key)``; ``key`` is for :meth:`put` on a miss.
        """
        slot = f"{bytes(gz[-8:]).hex()}-{len(gz)}"
        with ThreadPoolExecutor(1) as pool:
            loading = pool.submit(self._load, self.root / f"{slot}{_SUFFIX}")
            key = Key(slot, hashlib.sha256(gz).hexdigest())
            loaded = loading.result()
        if loaded is None:
            return None, key
        record, payload = loaded
        if record["gz_sha256"] != key.gz_sha256:
            # A changed file (or another with the same trailer and size): put()
            # replaces the entry once this one is accepted.
            _log.debug("decoded-array cache: %s.idx is for another .gz file", slot)
            return None, key
        try:
            os.utime(self.root / f"{slot}{_SUFFIX}")  # most recently used: pruned last
        except OSError:
            pass
        return Hit(payload, record["payload_sha256"]), key

    def _load(self, path: Path):
        """``(record, read-only payload view)`` of the entry ``path`` if it passes its
        checks; None if there is none; a failing one is removed."""
        try:
            # A link is not an entry (O_NOFOLLOW), and opening a FIFO must not wait for
            # a writer (O_NONBLOCK): only a regular file this user made is read.
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            return None
        except OSError as exc:  # a symbolic link (ELOOP), an unreadable file
            return self._discard(path, exc)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                os.close(fd)
                return self._discard(path, f"it is not a regular file (mode {st.st_mode:o})")
            f = open(fd, "rb", buffering=0)
        except OSError as exc:
            os.close(fd)
            return self._discard(path, exc)
        with f:
            try:
                return self._read(f)
            except (_Damaged, OSError) as exc:
                return self._discard(path, exc)

    def _discard(self, path: Path, why) -> None:
        _log.warning("decoded-array cache entry %s not used: %s; removed, the file is "
                     "decoded again", path, why)
        self._remove(path)
        return None

    def _read(self, f):
        st = os.fstat(f.fileno())
        why = _not_private(st, stat.S_IFREG, "regular file")
        if why:
            raise _Damaged(why)
        head = f.read(_MAX_RECORD)
        end = head.find(b"\n")
        if end < 0:
            raise _Damaged("it does not start with a record line")
        try:
            record = json.loads(head[:end])
        except ValueError as exc:
            raise _Damaged(f"its record is not JSON ({exc})") from None
        _check_record(record)
        size = record["payload_size"]
        if st.st_size != end + 1 + size:
            raise _Damaged(f"it has {st.st_size} bytes, its record says {end + 1 + size}")
        # A numpy buffer rather than bytes: numpy asks for huge pages, which makes
        # the first touch of 47 MB about twice as fast. Placed so that what follows
        # an images file's 16-byte header starts on a 64-byte boundary: TensorFlow
        # uses a fed array in place only when its data is so aligned, and copies it
        # otherwise (41 MiB of MNIST pixels, each time the fast loop starts).
        raw = numpy.empty(size + _ALIGN, dtype=numpy.uint8)
        start = -(raw.ctypes.data + idx.IMAGES_HEADER_BYTES) % _ALIGN
        payload = raw[start:start + size]
        f.seek(end + 1)

        def fill(part):
            done = 0
            while done < len(part):
                n = f.readinto(part[done:])
                if not n:
                    raise _Damaged("it ended while being read")
                done += n

        if _crc32s(payload, record["chunk"], fill) != record["crc32"]:
            raise _Damaged("its payload's CRC-32 differs from its record")
        payload.flags.writeable = False
        return record, memoryview(payload)

    def put(self, key: Key, name: str, payload, payload_sha256: str) -> None:
        """Adds the verified ``payload`` of the ``.gz`` file :meth:`lookup` gave ``key`` for.

        Args:
            key: from :meth:`lookup`.
            name: the payload's file name (for whoever looks at the record).
            payload: the decompressed bytes, already verified.
            payload_sha256: hex sha256 of ``payload``.

        A failure to write only logs a line: the cache is an optimization.
        """
        fields = {"format": _FORMAT, "gz_sha256": key.gz_sha256, "name": name,
                  "payload_size": len(payload), "payload_sha256": payload_sha256,
                  "chunk": _CHUNK, "crc32": _crc32s(payload, _CHUNK)}
        fields["record_sha256"] = _seal(fields)
        line = (json.dumps(fields, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")
        path = self.root / f"{key.slot}{_SUFFIX}"

        def write(f):
            f.write(line)
            f.write(payload)

        try:
            _atomic.atomic_write(path, write)
        except OSError as exc:
            _log.info("decoded-array cache: could not store %s (%s)", path, exc)
            return
        self._prune(keep=path)

    def _prune(self, keep: Path) -> None:
        """Removes least recently used entries beyond :data:`MAX_BYTES`, and the
        temp files of writes that were killed."""
        entries = []
        now = time.time()
        try:
            with os.scandir(self.root) as listing:
                for item in listing:
                    st = item.stat(follow_symlinks=False)
                    if item.name.endswith(_SUFFIX):
                        entries.append((st.st_mtime, st.st_size, Path(item.path)))
                    elif (item.name.startswith(".") and item.name.endswith(".part")
                          and now - st.st_mtime > _STALE_PART_S):
                        self._remove(Path(item.path))
        except OSError as exc:
            _log.info("decoded-array cache: cannot list %s (%s)", self.root, exc)
            return
        total = 0
        for _, size, path in sorted(entries, reverse=True):
            total += size
            if total > MAX_BYTES and path != keep:
                self._remove(path)

    @staticmethod
    def _remove(path: Path) -> None:
        """Removes an entry, whatever is there (a folder in an entry's place included:
        the cache folder is this user's own)."""
        try:
            if stat.S_ISDIR(os.lstat(path).st_mode):
                shutil.rmtree(path)
            else:
                path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            _log.info("decoded-array cache: could not remove %s (%s)", path, exc)
