"""The IDX file format (MNIST's), gzip-compressed: decompress, check, parse.

The one place that knows the format: a big-endian magic number ``0x0000TTNN`` (type
``TT`` = 0x08 for unsigned bytes, ``NN`` dimensions), then ``NN`` big-endian uint32
sizes, then the data. MNIST's image files are ``0x00000803`` = 2051 (three
dimensions: count, rows, columns) and its label files ``0x00000801`` = 2049.

:func:`gunzip` and :func:`check_structure` are the structural checks every file
passes before it is used (:mod:`tf1mem.data.fetch`); :func:`parse_images` and
:func:`parse_labels` turn a payload into arrays with the errors TF 1.15's loader
raised (:mod:`tf1mem.data.input_data`).
"""

from __future__ import annotations

import gzip
import os
import zlib
from typing import Optional

import numpy

from tf1mem.errors import DataError

__all__ = [
    "IMAGES_MAGIC",
    "LABELS_MAGIC",
    "gunzip",
    "gunzip_fileobj",
    "check_structure",
    "parse_images",
    "parse_labels",
]

IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049
IMAGES_HEADER_BYTES = 16  # magic, count, rows, columns: the pixels follow
LABELS_HEADER_BYTES = 8  # magic, count

_GZIP_ERRORS = (EOFError, gzip.BadGzipFile, zlib.error)


# Decompression works in pieces of this many output bytes, so a file is never inflated
# further than the IDX header it carries says it holds (a zip bomb stops there).
_PIECE = 1 << 20
# The largest unsigned-byte IDX header: the magic number and four sizes.
_MAX_HEADER = 4 + 4 * 4
# What a header may claim at most (no IDX data set tf1mem reads comes near it).
MAX_PAYLOAD_BYTES = 1 << 33


def gunzip(data: bytes, where: str, limit: Optional[int] = None) -> bytes:
    """Decompresses a whole gzip stream of an IDX file, never past its claimed size.

    A complete stream ends with its CRC and length, which zlib checks. The output is
    bounded by what the decompressed IDX header says the file holds (and by ``limit``
    when given: the size recorded for a download), so a corrupt or hostile file that
    would expand further is stopped there, with a DataError naming ``where``; peak
    memory stays within about twice the claimed payload.

    Raises:
      DataError: an incomplete or damaged stream, or output past the claimed size.
    """
    view = memoryview(data)
    chunks = (view[i:i + _PIECE] for i in range(0, len(view), _PIECE))
    return _inflate(chunks, where, limit)


def gunzip_fileobj(f, limit: Optional[int] = None) -> bytes:
    """:func:`gunzip` of an open binary file (named by its ``name``)."""
    name = getattr(f, "name", f)
    return _inflate(iter(lambda: f.read(_PIECE), b""), str(name), limit)


def _claimed_size(head: bytes, where: str) -> Optional[int]:
    """The whole payload size an IDX header claims, None while ``head`` is too short.

    A magic number that is not an unsigned-byte IDX file claims the header's length
    only (:func:`check_structure` then names what is wrong).
    """
    if len(head) < 4:
        return None
    magic = int.from_bytes(head[:4], "big")
    if magic >> 16 != 0 or (magic >> 8) & 0xFF != 0x08 or not 1 <= magic & 0xFF <= 4:
        return _MAX_HEADER
    header = 4 + 4 * (magic & 0xFF)
    if len(head) < header:
        return None
    count = 1
    for i in range(magic & 0xFF):
        count *= int.from_bytes(head[4 + 4 * i:8 + 4 * i], "big")
    if header + count > MAX_PAYLOAD_BYTES:
        raise DataError(f"{where}: its IDX header claims {header + count} bytes, more than "
                        f"any data set tf1mem reads ({MAX_PAYLOAD_BYTES}); the file is "
                        "corrupt: fetch it again.")
    return header + count


def _inflate(chunks, where: str, limit: Optional[int]) -> bytes:
    """Inflates gzip members from ``chunks`` into one payload, bounded (see :func:`gunzip`)."""
    out = bytearray()
    stream = None  # the member being inflated; None between members
    claimed = None
    bound = _MAX_HEADER if limit is None else min(_MAX_HEADER, limit)
    pending = b""
    seen = False
    try:
        while True:
            if not pending:
                pending = next(chunks, b"")
                if not pending:
                    break
                seen = True
            if stream is None:
                stream = zlib.decompressobj(wbits=31)  # gzip framing: CRC, length checked
            out += stream.decompress(pending, bound + 1 - len(out))
            if stream.eof:
                pending, stream = stream.unused_data, None
            else:
                pending = stream.unconsumed_tail
            if claimed is None:
                claimed = _claimed_size(out, where)
                if claimed is not None:
                    bound = claimed if limit is None else min(claimed, limit)
            if len(out) > bound:
                _check_magic(os.path.basename(where), out, where)  # the clearer error first
                what = (f"the {claimed} bytes its IDX header claims"
                        if claimed is not None and bound == claimed
                        else f"the {bound} bytes expected for it")
                raise DataError(f"{where}: decompresses past {what}: the file is corrupt "
                                "(or a decompression bomb); fetch it again.")
        if not seen or stream is not None:
            raise EOFError("compressed file ended before the end-of-stream marker was reached")
    except _GZIP_ERRORS as exc:
        raise DataError(f"{where}: not a complete gzip file ({exc}); fetch it again.") from exc
    return bytes(out)


def _expected_magic(name: str):
    if "idx3" in name:
        return IMAGES_MAGIC, "image"
    if "idx1" in name:
        return LABELS_MAGIC, "label"
    return None, "IDX"


def _check_magic(name: str, payload, where: str) -> None:
    """DataError when the magic number does not fit the file's name (idx3/idx1)."""
    if len(payload) < 4:
        return
    magic = int.from_bytes(payload[:4], "big")
    expected, kind = _expected_magic(name)
    if expected is not None and magic != expected:
        raise DataError(
            f"Invalid magic number {magic} in MNIST {kind} file: {where} (expected {expected}).")


def check_structure(name: str, payload: bytes, where: str) -> tuple:
    """Checks that ``payload`` is one complete unsigned-byte IDX file fitting ``name``.

    Args:
      name: the file's name; ``idx3``/``idx1`` in it fix the magic number expected.
      payload: the decompressed bytes.
      where: the file's location, for messages.

    Returns:
      The dimensions from the header, a tuple of int.

    Raises:
      DataError: too short, a magic number that is not unsigned-byte IDX or does
        not fit the name, or a length that differs from what the header says.
    """
    if len(payload) < 4:
        raise DataError(f"{where}: only {len(payload)} bytes, too short for an IDX header.")
    magic = int.from_bytes(payload[:4], "big")
    _check_magic(name, payload, where)
    if magic >> 16 != 0 or (magic >> 8) & 0xFF != 0x08 or not 1 <= magic & 0xFF <= 4:
        raise DataError(
            f"{where}: magic number {magic} is not that of an unsigned-byte IDX file "
            "(0x0801..0x0804).")
    ndim = magic & 0xFF
    header = 4 + 4 * ndim
    if len(payload) < header:
        raise DataError(f"{where}: {len(payload)} bytes, shorter than its {header}-byte header.")
    dims = tuple(int.from_bytes(payload[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    count = 1
    for d in dims:
        count *= d
    if len(payload) != header + count:
        raise DataError(
            f"{where}: header says {dims[0]} items of shape {dims[1:]}, i.e. "
            f"{header + count} bytes, but the decompressed payload has {len(payload)} bytes.")
    return dims


def _read_u32(payload, offset: int, name: str) -> int:
    if len(payload) < offset + 4:
        raise DataError(f"{name}: ends inside its IDX header ({len(payload)} bytes); fetch it again.")
    return int.from_bytes(payload[offset:offset + 4], "big")


def parse_images(payload: bytes, name: str) -> numpy.ndarray:
    """Parses a decompressed IDX image payload, as TF 1.15's ``extract_images``.

    Returns:
      uint8 array of shape ``(N, rows, cols, 1)`` (read-only, sharing ``payload``).

    Raises:
      ValueError: the magic number is not 2051 (TF1's message).
      DataError: the payload is shorter than its header says.
    """
    magic = _read_u32(payload, 0, name)
    if magic != IMAGES_MAGIC:
        raise ValueError("Invalid magic number %d in MNIST image file: %s" % (magic, name))
    num, rows, cols = (_read_u32(payload, offset, name) for offset in (4, 8, 12))
    size = num * rows * cols
    if len(payload) < IMAGES_HEADER_BYTES + size:
        raise DataError(
            f"{name}: header says {num} images of {rows}x{cols}, "
            f"{IMAGES_HEADER_BYTES + size} bytes, but it has {len(payload)}; fetch it again.")
    data = numpy.frombuffer(payload, dtype=numpy.uint8, count=size, offset=IMAGES_HEADER_BYTES)
    return data.reshape(num, rows, cols, 1)


def parse_labels(payload: bytes, name: str) -> numpy.ndarray:
    """Parses a decompressed IDX label payload, as TF 1.15's ``extract_labels``.

    Returns:
      uint8 array ``(N,)`` (read-only, sharing ``payload``).

    Raises:
      ValueError: the magic number is not 2049 (TF1's message).
      DataError: the payload is shorter than its header says.
    """
    magic = _read_u32(payload, 0, name)
    if magic != LABELS_MAGIC:
        raise ValueError("Invalid magic number %d in MNIST label file: %s" % (magic, name))
    num = _read_u32(payload, 4, name)
    if len(payload) < 8 + num:
        raise DataError(
            f"{name}: header says {num} labels, {8 + num} bytes, but it has {len(payload)}; "
            "fetch it again.")
    return numpy.frombuffer(payload, dtype=numpy.uint8, count=num, offset=LABELS_HEADER_BYTES)
