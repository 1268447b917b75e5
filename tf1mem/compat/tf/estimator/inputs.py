"""``tf.estimator.inputs``: ``numpy_input_fn`` and ``pandas_input_fn`` with TF 1.15's semantics.

Owns turning in-memory arrays into an ``input_fn``. What TF 1.15 did and this keeps:
the rows form one stream repeated ``num_epochs`` times (``None``: forever) and cut into
``batch_size`` batches, so a batch may span two epochs and the last one may be smaller;
the batch dimension is static (``batch_size``) only when ``num_epochs`` is None; the end
of the stream is ``OutOfRangeError``, which ends ``train``/``evaluate``/``predict``;
``x`` and ``y`` may be an array or a dict of arrays; ``shuffle`` must be given as a bool.

The graph is TF 1.15's, op for op (19 ops for one thread; a seeded model built after it
draws TF 1.15's initial weights): under ``enqueue_input``, a ``FIFOQueue`` (or, with
``shuffle=True``, a ``RandomShuffleQueue`` holding at least a quarter of
``queue_capacity`` after each dequeue, seeded from the graph as TF1 seeded it), one set of
placeholders (the row index, then the features and labels in key order) and one
``enqueue_many`` per thread, the runner's close and cancel ops, the queue-fullness summary;
then ``dequeue_many`` (``num_epochs=None``) or ``dequeue_up_to``. A queue runner thread
per ``num_threads`` feeds it from Python, each thread going through all ``num_epochs``
on its own, as TF 1.15's did (two threads give each row twice per epoch). With
``shuffle=True`` each thread starts at a random row, as in TF1 (drawn from the graph seed
when there is one; TF 1.15 drew it unseeded); the queue's draws are TF 1.15's kernel's, from
the same seeds, but depend, as in TF1, on how far the feeder had got when a batch was taken:
shuffled batches are one of TF 1.15's possible orders, not one fixed order.
Each call of the ``input_fn`` makes one feeder, which every session of that graph reads on
from where the previous one stopped, as TF 1.15's did.
"""

import threading

import numpy as np

__all__ = ["numpy_input_fn", "pandas_input_fn"]


def _as_dict(value, what):
    if isinstance(value, dict):
        return {k: np.asarray(v) for k, v in value.items()}, True
    return {"__" + what: np.asarray(value)}, False


class _Feeder:
    """One thread's feed: ``batch_size`` rows at a time from a start row, wrapping around,
    until ``num_epochs`` passes are fed (``None``: never ends)."""

    def __init__(self, placeholders, arrays, batch_size, num_epochs, start):
        self._placeholders = placeholders
        self._arrays = arrays
        self._rows = len(arrays[0])
        self._batch_size = batch_size
        self._left = None if num_epochs is None else num_epochs * self._rows
        self._next = start

    def __call__(self):
        take = self._batch_size if self._left is None else min(self._batch_size, self._left)
        if take == 0:
            raise StopIteration
        index = (self._next + np.arange(take)) % self._rows
        self._next = int(index[-1] + 1) % self._rows
        if self._left is not None:
            self._left -= take
        feed = {self._placeholders[0]: index.astype(np.int64)}
        feed.update(zip(self._placeholders[1:], (a[index] for a in self._arrays)))
        return feed


_RUNNER_CLASS = None


def _runner_class():
    """TF's ``QueueRunner``, each enqueue op fed by its own :class:`_Feeder` (built on
    first use: no TensorFlow at import)."""
    global _RUNNER_CLASS
    if _RUNNER_CLASS is not None:
        return _RUNNER_CLASS
    from tensorflow.python.platform import tf_logging as logging
    from tensorflow.python.training import queue_runner_impl

    class FeedingQueueRunner(queue_runner_impl.QueueRunner):
        def __init__(self, queue, enqueue_ops, feeders):
            super().__init__(queue=queue, enqueue_ops=enqueue_ops)
            self._feeders = dict(zip(enqueue_ops, feeders))
            self._feed_lock = threading.Lock()

        def _finish(self, sess):
            """One thread is done: the last one closes the queue (its rows stay readable)."""
            with self._lock:
                self._runs_per_session[sess] -= 1
                if self._runs_per_session[sess] == 0:
                    try:
                        sess.run(self._close_op)
                    except Exception as e:  # pylint: disable=broad-except
                        logging.vlog(1, "Ignored exception: %s", str(e))

        def _run(self, sess, enqueue_op, coord=None):
            finished = False
            feeder = self._feeders[enqueue_op]
            try:
                while not (coord and coord.should_stop()):
                    try:
                        with self._feed_lock:  # a feeder's position moves under its lock
                            feed = feeder()
                        sess.run(enqueue_op, feed_dict=feed)
                    except (StopIteration, *self._queue_closed_exception_types):
                        finished = True  # all epochs fed, or the queue closed
                        self._finish(sess)
                        return
            except Exception as e:  # pylint: disable=broad-except
                if coord:
                    coord.request_stop(e)
                else:
                    logging.error("Exception in numpy_input_fn's QueueRunner: %s", str(e))
                    with self._lock:
                        self._exceptions_raised.append(e)
                    raise
            finally:
                if not finished:
                    with self._lock:
                        self._runs_per_session[sess] -= 1

    _RUNNER_CLASS = FeedingQueueRunner
    return _RUNNER_CLASS


def _enqueue(arrays, batch_size, num_epochs, shuffle, capacity, num_threads):
    """TF 1.15's feeding graph for the ordered ``arrays``; returns the dequeued tensors
    (the row index first)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = v1.get_default_graph()
    dtypes = [tf.int64] + [tf.as_dtype(a.dtype) for a in arrays]
    shapes = [()] + [a.shape[1:] for a in arrays]
    with v1.name_scope("enqueue_input"):
        if shuffle:
            min_after = capacity // 4
            queue = v1.RandomShuffleQueue(capacity, min_after, dtypes, shapes=shapes)
        else:
            min_after = 0
            queue = v1.FIFOQueue(capacity, dtypes, shapes=shapes)
        rng = np.random.RandomState(graph.seed) if graph.seed is not None else \
            np.random.RandomState()
        rows = len(arrays[0])
        enqueue_ops, feeders = [], []
        for _ in range(num_threads):
            placeholders = [v1.placeholder(dtype) for dtype in dtypes]
            enqueue_ops.append(queue.enqueue_many(placeholders))
            start = int(rng.randint(rows)) if shuffle else 0
            feeders.append(_Feeder(placeholders, arrays, batch_size, num_epochs, start))
        v1.train.add_queue_runner(_runner_class()(queue, enqueue_ops, feeders))
        full = tf.cast(tf.maximum(0, queue.size() - min_after), tf.float32) * (
            1. / (capacity - min_after))
        v1.summary.scalar("queue/%sfraction_over_%d_of_%d_full"
                          % (queue.name, min_after, capacity - min_after), full)
    if num_epochs is None:
        return queue.dequeue_many(batch_size)
    return queue.dequeue_up_to(batch_size)


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None,
                   queue_capacity=1000, num_threads=1):
    """Returns an ``input_fn`` feeding dicts of numpy arrays (TF 1.15's signature).

    Args:
      x: a numpy array or a dict of them (features), all with the same length.
      y: labels: None, an array, or a dict of arrays (keys must not repeat x's).
      batch_size: rows per batch (the last batch may be smaller when num_epochs is set).
      num_epochs: passes over the data; None repeats forever.
      shuffle: True or False, required, as in TF1.
      queue_capacity: the queue's capacity (a shuffling queue keeps a quarter of it).
      num_threads: feeding threads, each through all epochs on its own (TF 1.15's).

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
    for name, value in (("queue_capacity", queue_capacity), ("num_threads", num_threads)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"numpy_input_fn: {name} must be a positive integer, got "
                             f"{value!r}")
    if shuffle and queue_capacity < 4:
        raise ValueError(f"numpy_input_fn: shuffle=True keeps a quarter of queue_capacity "
                         f"in the queue; queue_capacity={queue_capacity!r} is too small "
                         f"(give at least 4)")
    batch_size = int(batch_size)
    queue_capacity, num_threads = int(queue_capacity), int(num_threads)

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
        names = sorted(features) + sorted(labels)
        arrays = {**features, **labels}
        dequeued = _enqueue([arrays[k] for k in names], batch_size, num_epochs, shuffle,
                            queue_capacity, num_threads)
        batch = dict(zip(names, dequeued[1:]))  # the row index is not returned
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
