"""``tf.estimator.inputs``: ``numpy_input_fn`` and ``pandas_input_fn`` with TF 1.15's semantics.

Owns turning in-memory arrays into an ``input_fn``. What TF 1.15 did and this keeps:
the rows form one stream repeated ``num_epochs`` times (``None``: forever) and cut into
``batch_size`` batches, so a batch may span two epochs and the last one may be smaller;
the batch dimension is static (``batch_size``) only when ``num_epochs`` is None; the end
of the stream is ``OutOfRangeError``, which ends ``train``/``evaluate``/``predict``;
``x`` and ``y`` may be an array or a dict of arrays; ``shuffle`` must be given as a bool.
Batches come from a ``tf.data`` generator (no queue runners needed); with
``shuffle=True`` each epoch is a fresh permutation drawn from the graph seed, so the
order differs from TF 1.15's RandomShuffleQueue (which no seed reproduced across versions).
Each call of the ``input_fn`` makes one stream, which every session of that graph reads
on from where the previous one stopped, as TF 1.15's queue feeder did.
"""

import numpy as np

__all__ = ["numpy_input_fn", "pandas_input_fn"]


def _as_dict(value, what):
    if isinstance(value, dict):
        return {k: np.asarray(v) for k, v in value.items()}, True
    return {"__" + what: np.asarray(value)}, False


def _batches(arrays, n_rows, batch_size, num_epochs, shuffle, seed):
    """Yields dicts of batches: the (shuffled) epochs as one stream, cut into batches."""
    rng = np.random.RandomState(seed)
    epoch = 0
    pending = []
    have = 0
    while num_epochs is None or epoch < num_epochs:
        order = rng.permutation(n_rows) if shuffle else np.arange(n_rows)
        epoch += 1
        start = 0
        while start < n_rows:
            take = min(batch_size - have, n_rows - start)
            pending.append(order[start:start + take])
            have += take
            start += take
            if have == batch_size:
                index = np.concatenate(pending)
                yield {k: v[index] for k, v in arrays.items()}
                pending, have = [], 0
    if have:
        index = np.concatenate(pending)
        yield {k: v[index] for k, v in arrays.items()}


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None,
                   queue_capacity=1000, num_threads=1):
    """Returns an ``input_fn`` feeding dicts of numpy arrays (TF 1.15's signature).

    Args:
      x: a numpy array or a dict of them (features), all with the same length.
      y: labels: None, an array, or a dict of arrays (keys must not repeat x's).
      batch_size: rows per batch (the last batch may be smaller when num_epochs is set).
      num_epochs: passes over the data; None repeats forever.
      shuffle: True or False, required, as in TF1.
      queue_capacity, num_threads: accepted for TF1 compatibility; batches are
        produced in order by one generator (num_threads > 1 no longer reorders them).

    Returns:
      A function of no arguments returning ``features`` (an array input gives a
      Tensor, a dict a dict of Tensors), or ``(features, labels)`` when ``y`` is given.

    Raises:
      ValueError: shuffle is not a bool, lengths differ, keys collide, or a bad
        batch_size / num_epochs.
    """
    if not isinstance(shuffle, bool):
        raise ValueError(f"shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) \
            or batch_size < 1:
        raise ValueError(f"numpy_input_fn: batch_size must be a positive integer, got "
                         f"{batch_size!r}")
    if num_epochs is not None and (isinstance(num_epochs, bool) or not isinstance(
            num_epochs, (int, np.integer)) or num_epochs < 1):
        raise ValueError(f"numpy_input_fn: num_epochs must be a positive integer or None "
                         f"(repeat forever), got {num_epochs!r}")
    batch_size = int(batch_size)

    def input_fn():
        import tensorflow as tf

        features, x_is_dict = _as_dict(x, "x")
        if y is not None:
            labels, y_is_dict = _as_dict(y, "y")
        else:
            labels, y_is_dict = {}, False
        if y_is_dict and x_is_dict:
            dup = set(features) & set(labels)
            if dup:
                raise ValueError(f"{len(dup)} duplicate keys are found in both x and y: "
                                 f"{dup}")
        lengths = {k: (v.shape[0] if v.ndim else None) for k, v in {**features, **labels}.items()}
        if None in lengths.values() or len(set(lengths.values())) > 1:
            shapes_x = {k: v.shape for k, v in features.items()} if x_is_dict else \
                features["__x"].shape
            shapes_y = ({k: v.shape for k, v in labels.items()} if y_is_dict else
                        labels["__y"].shape) if y is not None else None
            raise ValueError(
                f"Length of tensors in x and y is mismatched. All elements in x and y must "
                f"have the same length.\nShapes in x: {shapes_x}\nShapes in y: {shapes_y}")
        n_rows = next(iter(lengths.values()))
        if n_rows == 0:
            raise ValueError("numpy_input_fn: x has no rows; give at least one example")
        arrays = {**features, **labels}
        names = sorted(arrays)
        seed = tf.compat.v1.get_default_graph().seed if shuffle else None
        dim0 = batch_size if num_epochs is None else None
        signature = {k: tf.TensorSpec((dim0,) + arrays[k].shape[1:],
                                      tf.as_dtype(arrays[k].dtype)) for k in names}

        # One stream per call, as TF 1.15's feeding queue kept its position in Python:
        # a graph run in several sessions (InMemoryEvaluatorHook's evaluation graph)
        # goes on where the last session stopped, and data once used up stays so.
        stream = _batches(arrays, n_rows, batch_size, num_epochs, shuffle, seed)

        def generator():
            return stream

        dataset = tf.data.Dataset.from_generator(generator, output_signature=signature)
        batch = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
        out_x = {k: batch[k] for k in features} if x_is_dict else batch["__x"]
        if y is None:
            return out_x
        out_y = {k: batch[k] for k in labels} if y_is_dict else batch["__y"]
        return out_x, out_y

    return input_fn


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None,
                    queue_capacity=1000, num_threads=1, target_column="target"):
    """``numpy_input_fn`` over a pandas DataFrame (columns become features).

    Raises:
      ImportError: pandas is not installed (``pip install pandas``).
      ValueError: as numpy_input_fn, or ``target_column`` already names a column of x.
    """
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("tf.estimator.inputs.pandas_input_fn needs pandas, which is not "
                          "installed: pip install pandas") from None
    if not isinstance(x, pd.DataFrame):
        raise TypeError(f"pandas_input_fn: x must be a pandas DataFrame, got {type(x)}")
    features = {str(c): x[c].values for c in x.columns}
    labels = None
    if y is not None:
        if target_column in features:
            raise ValueError(f"pandas_input_fn: target_column {target_column!r} is already "
                             f"a column of x; pass another target_column")
        if not x.index.equals(y.index):
            raise ValueError("pandas_input_fn: the indexes of x and y differ; align them "
                             "(e.g. y = y.reindex(x.index))")
        labels = y.values if isinstance(y, pd.Series) else {
            str(c): y[c].values for c in y.columns}
    return numpy_input_fn(features, labels, batch_size=batch_size, num_epochs=num_epochs,
                          shuffle=shuffle, queue_capacity=queue_capacity,
                          num_threads=num_threads)
