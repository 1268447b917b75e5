"""Small generated MNIST-format data for tests (no network, no real MNIST).

:func:`write_fake_mnist` writes the four gzip-compressed IDX files that
``tf1mem.input_data.read_data_sets`` expects, plus a ``SHA256SUMS`` listing the
sha256 of each decompressed payload, so the loader's checksum policy accepts them:

    sums = write_fake_mnist(tmp_path, n_train=120, n_test=30)
    mnist = read_data_sets(tmp_path, validation_size=20)
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import numpy

__all__ = [
    "IMAGES_MAGIC",
    "LABELS_MAGIC",
    "FILE_NAMES",
    "idx_images",
    "idx_labels",
    "fake_mnist_payloads",
    "write_fake_mnist",
]

IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049
FILE_NAMES = (
    "train-images-idx3-ubyte.gz",
    "train-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
)


def idx_images(images: numpy.ndarray, magic: int = IMAGES_MAGIC) -> bytes:
    """Encodes uint8 images ``(N, rows, cols)`` as an IDX payload (uncompressed)."""
    n, rows, cols = images.shape
    header = b"".join(int(v).to_bytes(4, "big") for v in (magic, n, rows, cols))
    return header + numpy.ascontiguousarray(images, dtype=numpy.uint8).tobytes()


def idx_labels(labels: numpy.ndarray, magic: int = LABELS_MAGIC) -> bytes:
    """Encodes uint8 labels ``(N,)`` as an IDX payload (uncompressed)."""
    header = magic.to_bytes(4, "big") + len(labels).to_bytes(4, "big")
    return header + numpy.ascontiguousarray(labels, dtype=numpy.uint8).tobytes()


def fake_mnist_payloads(
    n_train: int = 120, n_test: int = 30, seed: int = 0, rows: int = 28, cols: int = 28,
    separable: bool = False,
) -> dict[str, bytes]:
    """Returns ``{decompressed file name: IDX payload}`` of random MNIST-like data.

    Pixels are uniform in [0, 255]; labels cycle through 0..9 in a shuffled order.
    With ``separable``, pixels are dim noise in [0, 60) except the two rows
    ``2*label`` and ``2*label + 1``, which are bright: a softmax model learns the
    labels in a few dozen steps, so a test can tell training from no training.
    """
    rng = numpy.random.RandomState(seed)
    out = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        labels = rng.permutation(numpy.arange(n) % 10).astype(numpy.uint8)
        if separable:
            images = rng.randint(0, 60, size=(n, rows, cols)).astype(numpy.uint8)
            for i, label in enumerate(labels):
                images[i, 2 * label:2 * label + 2, :] = 255
        else:
            images = rng.randint(0, 256, size=(n, rows, cols)).astype(numpy.uint8)
        out[f"{prefix}-images-idx3-ubyte"] = idx_images(images)
        out[f"{prefix}-labels-idx1-ubyte"] = idx_labels(labels)
    return out


def write_fake_mnist(
    dirpath: os.PathLike | str,
    n_train: int = 120,
    n_test: int = 30,
    seed: int = 0,
    rows: int = 28,
    cols: int = 28,
    sha256sums: bool = True,
    separable: bool = False,
) -> dict[str, str]:
    """Writes four small MNIST-format ``.gz`` files (and ``SHA256SUMS``) into ``dirpath``.

    Args:
        dirpath: destination folder (created if missing).
        n_train: training examples (the loader's ``validation_size`` must be <= this).
        n_test: test examples.
        seed: seed of the generated pixels and labels.
        rows, cols: image size.
        sha256sums: also write ``dirpath/SHA256SUMS``.
        separable: learnable data (see :func:`fake_mnist_payloads`).

    Returns:
        ``{decompressed file name: hex sha256 of the decompressed payload}``.
    """
    dirpath = Path(dirpath)
    dirpath.mkdir(parents=True, exist_ok=True)
    sums = {}
    for name, payload in fake_mnist_payloads(n_train, n_test, seed, rows, cols, separable).items():
        (dirpath / f"{name}.gz").write_bytes(gzip.compress(payload, mtime=0))
        sums[name] = hashlib.sha256(payload).hexdigest()
    if sha256sums:
        text = "".join(f"{digest}  {name}\n" for name, digest in sums.items())
        (dirpath / "SHA256SUMS").write_text(text, encoding="utf-8")
    return sums
