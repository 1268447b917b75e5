"""How tf.contrib.learn's ``fit`` / ``evaluate`` / ``predict`` read numpy ``x`` and ``y``.

Owns TF 1.15's DataFeeder behaviour, written for tf1mem: placeholders ``input`` and
``output`` (``input_<key>`` / ``output_<key>`` for dicts) with the arrays' dtypes (float64
stays float64, as in TF 1.15) and the rows as first dimension, a batch of ``batch_size``
rows (all rows when None) fed before each run by a ``FeedFnHook``, rows in the order of
``numpy.random.RandomState(42).permutation`` (a new permutation each epoch) when
shuffling, in order otherwise, the last batch of an epoch short. With a number of epochs
the feed ends the session (StopIteration) once they are read. Nothing here imports
TensorFlow at import time.
"""

import numpy as np

__all__ = ["NumpyFeeder"]

_SHUFFLE_SEED = 42  # TF 1.15's DataFeeder: RandomState(42) unless one was given


def _as_array(value, what):
    if isinstance(value, dict):
        if not value:
            raise ValueError(f"{what} is an empty dict: give at least one feature array")
        return {key: _as_array(v, f"{what}[{key!r}]") for key, v in value.items()}
    if hasattr(value, "values") and not isinstance(value, np.ndarray) and hasattr(
            value, "columns"):
        value = value.values  # a pandas DataFrame, as TF 1.15 read it
    array = np.asarray(value)
    if array.dtype == object:
        raise ValueError(f"{what} must be a numeric numpy array (or a dict of them), got "
                         f"an array of objects from {type(value).__name__}")
    if array.ndim == 0:
        raise ValueError(f"{what} must have a first dimension of examples, got a scalar")
    return array


def _rows(value):
    if isinstance(value, dict):
        return next(iter(value.values())).shape[0]
    return value.shape[0]


class NumpyFeeder:
    """Feeds numpy ``x`` (and ``y``) batch by batch into placeholders.

    Args:
      x: an array ``[rows, ...]`` or a dict of them.
      y: an array ``[rows]`` / ``[rows, ...]``, a dict of them, or None.
      batch_size: rows per batch; None: all rows.
      shuffle: read rows in TF 1.15's shuffled order.
      epochs: stop after this many passes; None: never.

    Raises:
      ValueError: a bad batch_size, x and y with different numbers of rows.
    """

    def __init__(self, x, y, batch_size=None, shuffle=True, epochs=None):
        self._x = _as_array(x, "x")
        self._y = None if y is None else _as_array(y, "y")
        self._rows = _rows(self._x)
        if isinstance(self._x, dict) and len({a.shape[0] for a in self._x.values()}) > 1:
            raise ValueError(f"x's arrays have different numbers of rows: "
                             f"{ {k: a.shape[0] for k, a in self._x.items()} }")
        if self._y is not None and _rows(self._y) != self._rows:
            raise ValueError(f"x has {self._rows} rows but y has {_rows(self._y)}: give one "
                             f"label (row of y) per example (row of x)")
        if batch_size is None:
            batch_size = self._rows
        elif isinstance(batch_size, bool) or int(batch_size) != batch_size or batch_size <= 0:
            raise ValueError(f"Invalid batch_size {batch_size!r}: must be an integer >= 1")
        self._batch_size = int(batch_size)
        self._shuffle = shuffle
        self._epochs = epochs
        self._random = np.random.RandomState(_SHUFFLE_SEED)
        self._indices = self._order()
        self._offset = 0
        self._epoch = 0
        self._x_ph = self._y_ph = None

    def _order(self):
        return self._random.permutation(self._rows) if self._shuffle else np.arange(self._rows)

    @staticmethod
    def _placeholder(array, name):
        import tensorflow as tf

        shape = [None] + (list(array.shape[1:]) or [1]) if name.startswith("input") else (
            [None] + [d for i, d in enumerate(array.shape[1:]) if not (i == 0 and d == 1)])
        return tf.compat.v1.placeholder(tf.as_dtype(array.dtype), shape, name=name)

    def input_fn(self):
        """Builds the placeholders in the default graph; returns (features, labels)."""
        def build(value, prefix):
            if value is None:
                return None
            if isinstance(value, dict):
                return {key: self._placeholder(v, f"{prefix}_{key}")
                        for key, v in value.items()}
            return self._placeholder(value, prefix)

        self._x_ph = build(self._x, "input")
        self._y_ph = build(self._y, "output")
        return self._x_ph, self._y_ph

    def feed_fn(self):
        """The next batch as a feed dict (for a FeedFnHook)."""
        if self._epochs is not None and self._epoch + 1 > self._epochs:
            raise StopIteration
        batch = self._indices[self._offset:min(self._rows, self._offset + self._batch_size)]
        feed = {}

        def add(value, placeholder):
            if isinstance(value, dict):
                for key, v in value.items():
                    add(v, placeholder[key])
                return
            rows = value[batch]
            feed[placeholder] = rows.reshape([len(batch)] + placeholder.shape.as_list()[1:])

        add(self._x, self._x_ph)
        self._offset += self._batch_size
        if self._offset >= self._rows:
            self._indices = self._order()
            self._offset = 0
            self._epoch += 1
        if self._y is not None:
            add(self._y, self._y_ph)
        return feed

    def hook(self):
        """A ``FeedFnHook`` feeding :meth:`feed_fn` before every run."""
        import tensorflow as tf

        return tf.compat.v1.train.FeedFnHook(self.feed_fn)
