"""The ``tf.contrib.data`` transformations ``tf.data.experimental`` did not keep.

``batch_and_drop_remainder(n)`` and ``padded_batch_and_drop_remainder(n, shapes)``
are TF 1.15's ``dataset.apply`` forms of ``batch(n, drop_remainder=True)`` and
``padded_batch(..., drop_remainder=True)``; ``sliding_window_batch`` is TF 1.15's
sliding windows on ``Dataset.window``; the rest of ``tf.contrib.data`` maps to
``tf.data.experimental`` and ``tf.compat.v1.data`` (see
tf1mem's table (:mod:`tf1mem.compat.table`)).
"""

__all__ = ["batch_and_drop_remainder", "padded_batch_and_drop_remainder",
           "sliding_window_batch"]


def batch_and_drop_remainder(batch_size):
    """A ``Dataset.apply`` transformation: batches of ``batch_size``, the last partial
    one dropped, so the batch dimension is static."""

    def _apply(dataset):
        return dataset.batch(batch_size, drop_remainder=True)

    return _apply


def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
    """As :func:`batch_and_drop_remainder`, padding each batch to ``padded_shapes``."""

    def _apply(dataset):
        return dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                    drop_remainder=True)

    return _apply


def sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1):
    """TF 1.15's sliding windows: each ``window_size`` consecutive elements (taking
    every ``window_stride``-th), the window moving by ``window_shift`` (``stride`` is
    its deprecated name; 1 by default), batched; windows not filled are dropped.

    A ``Dataset.apply`` transformation, on ``Dataset.window(...).flat_map`` (as TF
    1.15's deprecation notice advised); the batch dimension is unknown, as in TF 1.15.
    """
    if stride is not None and window_shift is not None:
        raise ValueError("sliding_window_batch: give window_shift or stride (its "
                         "deprecated name), not both")
    shift = window_shift if window_shift is not None else stride if stride is not None else 1
    for name, value in (("window_size", window_size), ("window_shift", shift),
                        ("window_stride", window_stride)):
        if isinstance(value, int) and value < 1:
            raise ValueError(f"sliding_window_batch: {name} must be a positive int; "
                             f"got {value}")

    def _apply(dataset):
        import tensorflow as tf

        windows = dataset.window(window_size, shift=shift, stride=window_stride,
                                 drop_remainder=True)
        return windows.flat_map(
            lambda *parts: tf.data.Dataset.zip(parts[0] if len(parts) == 1 else parts)
            .batch(window_size))

    return _apply
