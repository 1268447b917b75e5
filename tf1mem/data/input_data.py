"""TF 1.15's MNIST tutorial loader (``tensorflow.examples.tutorials.mnist.input_data``).

This module owns turning the four MNIST files into :class:`DataSet` objects exactly
as TF 1.15 did: same arrays, same prints, same error messages, and the same use of
numpy's GLOBAL legacy RNG (each :class:`DataSet` reseeds it in its constructor and
shuffles lazily on the first :meth:`DataSet.next_batch`), so a given ``seed`` yields
the same batches as TF 1.15. Obtaining and verifying the files is
:mod:`tf1mem.data.fetch`'s job (sources, checksums, atomic writes); unlike TF1, every
file is verified before use. A repeated run takes the decoded arrays from the
per-user cache (:mod:`tf1mem.data.arraycache`) instead of decompressing the files
again; the arrays are the same, bit for bit.

TensorFlow is not imported here. ``dtype`` may be a TF dtype (anything with
``.base_dtype`` / ``.as_numpy_dtype``), a numpy dtype or a string. :func:`get_seed`
delegates to ``tf.compat.v1.get_seed`` only when TensorFlow is already imported.
"""

from __future__ import annotations

import collections
import sys
from typing import Optional

import numpy

from tf1mem.data import arraycache, fetch, idx
from tf1mem.errors import DataError

__all__ = [
    "DEFAULT_SOURCE_URL",
    "TRAIN_IMAGES",
    "TRAIN_LABELS",
    "TEST_IMAGES",
    "TEST_LABELS",
    "Datasets",
    "DataSet",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "get_seed",
    "load_mnist",
    "read_data_sets",
]

DEFAULT_SOURCE_URL = fetch.DEFAULT_SOURCE_URL
TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS = fetch.MNIST_FILES

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])

_MAXINT32 = 2**31 - 1
_DEFAULT_GRAPH_SEED = 87654321  # TF's seed when an op seed is set but no graph seed
_FAKE_EXAMPLES = 10000
_INV_255 = numpy.float32(1.0 / 255.0)


class _LengthMismatch(ValueError, AssertionError):
    """Images and labels differ in length (TF1 asserted this: AssertionError too)."""


def get_seed(op_seed: Optional[int]) -> tuple[Optional[int], Optional[int]]:
    """Returns ``(graph_seed, op_seed)`` as TF's random-seed rule derives them.

    When ``tensorflow`` is already imported, this is ``tf.compat.v1.get_seed``, so a
    graph-level seed (``tf.set_random_seed``) counts exactly as in TF1. Otherwise no
    graph seed can be set, and the rule is: ``(None, None)`` for ``None``, else
    ``(87654321, op_seed % 2147483647)``.

    Args:
        op_seed: int or None.

    Returns:
        A pair of ints, or ``(None, None)``.
    """
    tf = sys.modules.get("tensorflow")
    if tf is not None:
        tf_get_seed = _tf_get_seed(tf)
        if tf_get_seed is not None:
            return tf_get_seed(op_seed)
    if op_seed is None:
        return None, None
    return _DEFAULT_GRAPH_SEED, op_seed % _MAXINT32


def _tf_get_seed(tf):
    """Finds ``get_seed`` on a (real or shimmed, maybe half-imported) TF module."""
    for path in (("compat", "v1", "get_seed"), ("get_seed",), ("random", "get_seed")):
        obj = tf
        try:
            for attr in path:
                obj = getattr(obj, attr)
        except AttributeError:
            continue
        if callable(obj):
            return obj
    return None


def _image_dtype(dtype) -> numpy.dtype:
    """Returns ``dtype`` as a numpy dtype; TypeError unless it is uint8 or float32."""
    if dtype is None:
        raise TypeError("Cannot convert value None to a TensorFlow DType; pass tf.float32 or tf.uint8.")
    base = getattr(dtype, "base_dtype", dtype)
    name = getattr(base, "name", None) if hasattr(base, "as_numpy_dtype") else None
    try:
        np_dtype = numpy.dtype(base.as_numpy_dtype if name is not None else base)
    except TypeError:
        np_dtype = None
    if name is None:
        if np_dtype is None:
            raise TypeError(
                f"Cannot convert value {dtype!r} to a TensorFlow DType; pass tf.float32 or tf.uint8."
            )
        name = np_dtype.name
    if np_dtype not in (numpy.dtype(numpy.uint8), numpy.dtype(numpy.float32)):
        raise TypeError("Invalid image dtype tf.%s, expected uint8 or float32" % name)
    return np_dtype


def _labels(payload: bytes, name: str, one_hot: bool, num_classes: int) -> numpy.ndarray:
    labels = idx.parse_labels(payload, name)
    if one_hot and labels.size and int(labels.max()) >= num_classes:
        at = int(numpy.argmax(labels >= num_classes))
        raise DataError(
            f"{name}: label {int(labels[at])} at position {at} is outside 0..{num_classes - 1} "
            f"for one-hot rows of {num_classes} classes; the file is damaged or holds "
            "another data set's labels: fetch it again, or load it with one_hot=False.")
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _same_count(images: numpy.ndarray, labels: numpy.ndarray, images_path, labels_path):
    """DataError naming both files unless they hold as many examples."""
    if len(images) != len(labels):
        raise DataError(
            f"{images_path} holds {len(images)} images but {labels_path} holds "
            f"{len(labels)} labels; the two files are not a pair: fetch them again.")


def extract_images(f) -> numpy.ndarray:
    """Extracts images from a gzip-compressed IDX file, printing ``Extracting NAME``.

    Args:
        f: a binary file object open on the ``.gz`` file (its ``name`` is printed).

    Returns:
        uint8 array of shape ``(N, rows, cols, 1)``.

    Raises:
        ValueError: the magic number is not 2051.
        DataError: the gzip stream or the IDX data is truncated.
    """
    print("Extracting", f.name)
    return idx.parse_images(idx.gunzip_fileobj(f), f.name)


def extract_labels(f, one_hot: bool = False, num_classes: int = 10) -> numpy.ndarray:
    """Extracts labels from a gzip-compressed IDX file, printing ``Extracting NAME``.

    Args:
        f: a binary file object open on the ``.gz`` file.
        one_hot: return one-hot rows instead of class indices.
        num_classes: width of the one-hot rows.

    Returns:
        uint8 array ``(N,)``, or float64 ``(N, num_classes)`` when ``one_hot``.

    Raises:
        ValueError: the magic number is not 2049.
        DataError: the gzip stream or the IDX data is truncated.
    """
    print("Extracting", f.name)
    return _labels(idx.gunzip_fileobj(f), f.name, one_hot, num_classes)


def dense_to_one_hot(labels_dense: numpy.ndarray, num_classes: int) -> numpy.ndarray:
    """Converts class indices to one-hot rows.

    Args:
        labels_dense: integer array ``(N,)``.
        num_classes: number of columns.

    Returns:
        float64 array ``(N, num_classes)`` with a single 1.0 per row.
    """
    num_labels = labels_dense.shape[0]
    one_hot = numpy.zeros((num_labels, num_classes))
    one_hot[numpy.arange(num_labels), labels_dense.ravel()] = 1
    return one_hot


class DataSet:
    """Images and labels with TF1's ``next_batch`` (shuffled via numpy's global RNG).

    Args:
        images: uint8 array ``(N, rows, cols, 1)`` (ignored when ``fake_data``).
        labels: array ``(N,)`` or ``(N, classes)``.
        fake_data: make a fake set of 10000 examples (see :meth:`next_batch`).
        one_hot: for fake data, whether fake labels are one-hot.
        dtype: ``uint8`` keeps pixels in [0, 255]; ``float32`` scales them to [0, 1]
            as ``float32(x) * float32(1/255)``.
        reshape: flatten images to ``(N, rows*cols)``.
        seed: op-level seed; numpy's global RNG is reseeded from it (see
            :func:`get_seed`) BEFORE anything else, as in TF1.

    Raises:
        TypeError: ``dtype`` is not uint8 or float32 (after the reseed).
        ValueError: images and labels differ in length (also an AssertionError, as
            TF1 asserted it), or images do not have one channel when ``reshape``.
    """

    def __init__(
        self,
        images,
        labels,
        fake_data: bool = False,
        one_hot: bool = False,
        dtype=numpy.float32,
        reshape: bool = True,
        seed: Optional[int] = None,
    ):
        seed1, seed2 = get_seed(seed)
        # Exactness with TF1 depends on this global reseed happening first.
        numpy.random.seed(seed1 if seed is None else seed2)
        np_dtype = _image_dtype(dtype)
        self.one_hot = one_hot
        if fake_data:
            self._num_examples = _FAKE_EXAMPLES
        else:
            if images.shape[0] != labels.shape[0]:
                raise _LengthMismatch("images.shape: %s labels.shape: %s" % (images.shape, labels.shape))
            self._num_examples = images.shape[0]
            if reshape:
                if images.ndim != 4 or images.shape[3] != 1:
                    raise ValueError(
                        f"images of shape {images.shape} cannot be flattened: expected "
                        "(N, rows, cols, 1); pass reshape=False for other shapes."
                    )
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if np_dtype == numpy.float32:
                # In float32, like TF1 (not x / 255.0, which differs in the last bit).
                # One pass: uint8 -> float32 -> * float32(1/255) per element, the
                # same two roundings as astype then multiply, at a third of the time.
                images = numpy.multiply(images, _INV_255, dtype=numpy.float32)
        self._images = images
        self._labels = labels
        self._pending_order = None  # see batch_indices
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self):
        """Images: ``(N, rows*cols)`` if reshaped, else ``(N, rows, cols, 1)``."""
        self._apply_pending_order()
        return self._images

    @property
    def labels(self):
        """Labels: uint8 ``(N,)`` or float64 one-hot ``(N, classes)``."""
        self._apply_pending_order()
        return self._labels

    @property
    def num_examples(self) -> int:
        """Number of examples, N."""
        return self._num_examples

    @property
    def epochs_completed(self) -> int:
        """How many times :meth:`next_batch` has run past the end."""
        return self._epochs_completed

    def next_batch(self, batch_size: int, fake_data: bool = False, shuffle: bool = True):
        """Returns the next ``batch_size`` examples, exactly as TF1 did.

        The first call shuffles (lazily, with ``numpy.random.shuffle``); a batch
        that runs past the end is the rest of this epoch followed by the start of
        the next, reshuffled, epoch.

        Args:
            batch_size: number of examples.
            fake_data: return Python lists of fake examples instead.
            shuffle: shuffle at the start of each epoch.

        Returns:
            ``(images, labels)``: arrays of ``batch_size`` rows; with ``fake_data``,
            lists of ``[1] * 784`` and of ``[1] + [0] * 9`` (one-hot) or ``0``.
        """
        if fake_data:
            fake_image = [1] * 784
            fake_label = [1] + [0] * 9 if self.one_hot else 0
            return [fake_image for _ in range(batch_size)], [fake_label for _ in range(batch_size)]
        self._apply_pending_order()
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._reorder()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            return self._images[start : self._index_in_epoch], self._labels[start : self._index_in_epoch]
        self._epochs_completed += 1
        images_rest = self._images[start : self._num_examples]
        labels_rest = self._labels[start : self._num_examples]
        if shuffle:
            self._reorder()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (
            numpy.concatenate((images_rest, self._images[:end]), axis=0),
            numpy.concatenate((labels_rest, self._labels[:end]), axis=0),
        )

    def batch_indices(self, batch_size: int, steps: int, shuffle: bool = True) -> numpy.ndarray:
        """The rows ``steps`` calls of :meth:`next_batch` would return, without copying them.

        Advances this data set exactly as those calls would (the same
        ``numpy.random.shuffle`` calls in the same order, the same epoch count and
        position; the arrays are put in the order the calls would leave them when
        they are next used, so a caller that only wanted the indices pays no copy), so
        a training loop can gather its batches in the graph and still see TF1's
        batch sequence, and :meth:`next_batch` afterwards goes on where they ended.

        Args:
            batch_size: examples per batch, at most :attr:`num_examples`.
            steps: number of batches.
            shuffle: as for :meth:`next_batch`.

        Returns:
            int64 array ``(steps, batch_size)``: row ``s`` holds the indices, into
            :attr:`images` and :attr:`labels` *as they were before this call*, of the
            examples batch ``s`` would have held.

        Raises:
            ValueError: ``batch_size`` exceeds the number of examples (TF1's
                ``next_batch`` then returned short batches), or this is fake data.
        """
        n = self._num_examples
        self._apply_pending_order()
        if not isinstance(self._images, numpy.ndarray):
            raise ValueError("batch_indices needs real data; fake data has no rows to index")
        if not 1 <= batch_size <= n:
            raise ValueError(f"batch_size {batch_size} must be in 1..{n} (the examples "
                             "in this data set) for batch_indices")
        order = numpy.arange(n)  # position in the would-be arrays -> row of the current ones
        out = numpy.empty((steps, batch_size), dtype=numpy.int64)

        def reorder(order):
            perm = numpy.arange(n)
            numpy.random.shuffle(perm)  # the call _reorder makes, consuming the same draws
            return order[perm]

        for s in range(steps):
            start = self._index_in_epoch
            if self._epochs_completed == 0 and start == 0 and shuffle:
                order = reorder(order)
            if start + batch_size <= n:
                self._index_in_epoch += batch_size
                out[s] = order[start:self._index_in_epoch]
                continue
            self._epochs_completed += 1
            rest = order[start:n]
            if shuffle:
                order = reorder(order)
            self._index_in_epoch = batch_size - (n - start)
            out[s, :n - start] = rest
            out[s, n - start:] = order[:self._index_in_epoch]
        if not numpy.array_equal(order, numpy.arange(n)):
            self._pending_order = order
        return out

    def _apply_pending_order(self) -> None:
        if self._pending_order is not None:
            order, self._pending_order = self._pending_order, None
            self._images = self._images[order]
            self._labels = self._labels[order]

    def _reorder(self) -> None:
        perm = numpy.arange(self._num_examples)
        numpy.random.shuffle(perm)
        self._images = self._images[perm]
        self._labels = self._labels[perm]


def read_data_sets(
    train_dir,
    fake_data: bool = False,
    one_hot: bool = False,
    dtype=numpy.float32,
    reshape: bool = True,
    validation_size: int = 5000,
    seed: Optional[int] = None,
    source_url: str = DEFAULT_SOURCE_URL,
    *,
    checksums=None,
    progress: Optional[bool] = None,
    cache: Optional[bool] = None,
    folder_name: str = "train_dir",
) -> Datasets:
    """Loads MNIST into ``Datasets(train, validation, test)``, fetching what is missing.

    Each file is taken from ``train_dir`` (created if missing) or fetched and
    verified by :mod:`tf1mem.data.fetch`; as in TF1 it prints
    ``Successfully downloaded NAME SIZE bytes.`` for a file it downloaded and
    ``Extracting PATH`` for each file. A file copied from the local cache was not
    downloaded: one line on stderr says where it came from instead.

    Args:
        train_dir: folder of the four ``.gz`` files.
        fake_data: return three fake DataSets; nothing is read or fetched.
        one_hot: labels as float64 ``(N, 10)`` one-hot rows.
        dtype: ``float32`` (pixels in [0, 1]) or ``uint8``; TF, numpy or string.
        reshape: images as ``(N, 784)`` rather than ``(N, 28, 28, 1)``.
        validation_size: the first this-many training examples form ``validation``.
        seed: op-level seed for the shuffles (see :class:`DataSet`).
        source_url: mirror URL prefix; empty means :data:`DEFAULT_SOURCE_URL`.
        checksums: keyword-only; ``{file name: sha256 of the decompressed payload}``
            overriding the checksum policy of :mod:`tf1mem.data.fetch`.
        progress: keyword-only; True/False forces the download bar on/off; None
            shows it when stderr is a terminal.
        cache: keyword-only; whether to use the per-user cache of decoded arrays
            (:mod:`tf1mem.data.arraycache`: a file decoded before, with the same
            sha256, is not decompressed again; every check still applies and the
            arrays are the same). True/False forces it on/off; None (the default)
            uses it unless the environment variable ``TF1MEM_ARRAY_CACHE`` is ``0``
            (or false/no/off).
        folder_name: keyword-only; what messages call ``train_dir`` (a command
            passes the flag its user typed, e.g. ``--data-dir``).

    Returns:
        ``Datasets``; by default 55000 / 5000 / 10000 examples.

    Raises:
        ValueError: ``validation_size`` is not within ``[0, len(train)]``.
        FetchError: a file could not be obtained intact from any source.
        DataError: a file is malformed.
        ConfigError: ``cache`` is None and ``TF1MEM_ARRAY_CACHE`` is neither a
            yes nor a no.
    """
    if cache is not None and not isinstance(cache, bool):
        raise TypeError(f"cache must be True, False or None, got {cache!r}")
    if fake_data:

        def fake():
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)

        return Datasets(train=fake(), validation=fake(), test=fake())

    use_cache = arraycache.enabled() if cache is None else cache
    with fetch.Fetcher(train_dir, source_url or DEFAULT_SOURCE_URL, checksums=checksums,
                       progress=progress, folder_name=folder_name,
                       array_cache=arraycache.ArrayCache.open() if use_cache else None) as fetcher:

        def load(filename):
            got = fetcher.fetch(filename)
            if got.downloaded:
                print("Successfully downloaded", filename, got.size, "bytes.")
            if got.placed:
                # stdout stays TF1's; where it came from goes to stderr.
                print(f"tf1mem: {filename} verified (sha256 {got.sha256[:12]}...) "
                      f"from {got.source}"
                      + ("" if got.downloaded else f", copied ({got.size} bytes; no download)"),
                      file=sys.stderr)
            if got.note:  # the user's own data set under MNIST's names
                print(got.note, file=sys.stderr)
            print("Extracting", got.path)
            return got.payload, got.path

        train_images_at = load(TRAIN_IMAGES)
        train_images = idx.parse_images(*train_images_at)
        train_labels_at = load(TRAIN_LABELS)
        train_labels = _labels(*train_labels_at, one_hot, 10)
        test_images_at = load(TEST_IMAGES)
        test_images = idx.parse_images(*test_images_at)
        test_labels_at = load(TEST_LABELS)
        test_labels = _labels(*test_labels_at, one_hot, 10)
    _same_count(train_images, train_labels, train_images_at[1], train_labels_at[1])
    _same_count(test_images, test_labels, test_images_at[1], test_labels_at[1])

    if not 0 <= validation_size <= len(train_images):
        raise ValueError(
            "Validation size should be between 0 and {}. Received: {}.".format(
                len(train_images), validation_size
            )
        )
    validation_images = train_images[:validation_size]
    validation_labels = train_labels[:validation_size]
    train_images = train_images[validation_size:]
    train_labels = train_labels[validation_size:]

    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images, train_labels, **options)
    validation = DataSet(validation_images, validation_labels, **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    """TF1's shorthand: ``read_data_sets(train_dir)``."""
    return read_data_sets(train_dir)
