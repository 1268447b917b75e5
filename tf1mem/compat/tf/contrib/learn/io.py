"""``tf.contrib.learn.io``: ``numpy_input_fn`` and ``pandas_input_fn``.

TF 1.15's contrib versions were tf.estimator's (here tf1mem's
:mod:`tf1mem.compat.tf.estimator.inputs`) with one difference: ``shuffle`` defaults to
True, where the core functions require it. The queue readers (``read_batch_examples``,
``read_batch_features`` ...) and ``generator_input_fn`` are not provided: the error
names the ``tf.data`` replacement.
"""

from tf1mem.compat import errors

__all__ = ["numpy_input_fn", "pandas_input_fn"]


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=True,
                   queue_capacity=1000, num_threads=1):
    """tf.estimator's ``numpy_input_fn``, shuffling unless told not to (TF 1.15's contrib)."""
    from tf1mem.compat.tf.estimator import inputs

    return inputs.numpy_input_fn(x=x, y=y, batch_size=batch_size, num_epochs=num_epochs,
                                 shuffle=shuffle, queue_capacity=queue_capacity,
                                 num_threads=num_threads)


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=True,
                    queue_capacity=1000, num_threads=1, target_column="target"):
    """tf.estimator's ``pandas_input_fn``, shuffling unless told not to (TF 1.15's contrib)."""
    from tf1mem.compat.tf.estimator import inputs

    return inputs.pandas_input_fn(x=x, y=y, batch_size=batch_size, num_epochs=num_epochs,
                                  shuffle=shuffle, queue_capacity=queue_capacity,
                                  num_threads=num_threads, target_column=target_column)


# The queue readers, generator_input_fn, the pandas/dask extractors: the table's
# replacements.
__getattr__ = errors.removed_names("tf.contrib.learn.io", __name__)
