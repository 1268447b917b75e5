"""The ``tf.contrib.data`` transformations ``tf.data.experimental`` did not keep.

``batch_and_drop_remainder(n)`` and ``padded_batch_and_drop_remainder(n, shapes)``
are TF 1.15's ``dataset.apply`` forms of ``batch(n, drop_remainder=True)`` and
``padded_batch(..., drop_remainder=True)``; the rest of ``tf.contrib.data`` maps to
``tf.data.experimental`` and ``tf.compat.v1.data`` (see
:mod:`tf1mem.compat.contrib`).
"""

__all__ = ["batch_and_drop_remainder", "padded_batch_and_drop_remainder"]


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
