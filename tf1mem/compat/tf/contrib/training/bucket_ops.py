"""``tf.contrib.training.bucket`` and ``bucket_by_sequence_length``: TF1's queue-based
batching of examples into buckets (by length), as Tacotron-era input pipelines used it.

The examples arrive one at a time (from a reader queue); each goes into the queue of its
bucket (a ``PaddingFIFOQueue`` with ``dynamic_pad``, else a ``FIFOQueue``); a thread per
bucket takes ``batch_size`` examples from it as soon as there are that many and puts the
batch, with its bucket's index, into one top queue, which the returned tensors dequeue.
Built on TF's own v1 queues and ``QueueRunner`` (started by
``tf.train.start_queue_runners`` or a ``MonitoredSession``), with TF 1.15's signatures,
return structures, queue summaries, end of input (``allow_smaller_final_batch``: each
bucket's remainder, then ``OutOfRangeError``) and argument errors. Checked against TF 1.15.5
by the corpus script ``contrib_bucket_by_sequence_length.py``. As in TF 1.15, the order in
which the buckets' batches arrive follows the threads (batches of one bucket keep their
order); TensorFlow is imported when a function runs.
"""

__all__ = ["bucket", "bucket_by_sequence_length"]


def _flatten(tensors, who):
    """(list of tensors, how to give the structure back) for a list or dict."""
    if isinstance(tensors, dict):
        keys = sorted(tensors)
        return [tensors[k] for k in keys], lambda values: dict(zip(keys, values))
    if isinstance(tensors, list):
        return list(tensors), (lambda values: values[0] if len(values) == 1 else list(values))
    raise TypeError(f"{who}: tensors must be a list or a dict of tensors (as in TF 1.15); got "
                    f"{type(tensors).__name__}")


def _batch_sizes(batch_size, num_buckets):
    if isinstance(batch_size, (list, tuple)):
        if len(batch_size) != num_buckets:
            raise ValueError("If batch_size is a list it must have num_buckets elements")
        sizes = list(batch_size)
    else:
        sizes = [batch_size] * num_buckets
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError(f"batch_size must be a positive int (or a list of them, one per "
                             f"bucket); got {batch_size!r}")
    return sizes


def bucket(tensors, which_bucket, batch_size, num_buckets, num_threads=1, capacity=32,
           bucket_capacities=None, shapes=None, dynamic_pad=False,
           allow_smaller_final_batch=False, keep_input=True, shared_name=None, name=None):
    """Batches single examples ``tensors`` into the bucket ``which_bucket`` names.

    Args:
      tensors: a list or dict of tensors: one example.
      which_bucket: scalar int32 in ``[0, num_buckets)``.
      batch_size: an int, or a list of one per bucket.
      num_buckets: how many buckets.
      num_threads: threads putting examples into the buckets.
      capacity: the top queue's capacity, and each bucket's unless ``bucket_capacities``.
      shapes: the examples' shapes (default: the tensors' static shapes).
      dynamic_pad: pad each batch's variable dimensions to its longest example.
      allow_smaller_final_batch: at the end, each bucket's remainder as a smaller batch.
      keep_input: scalar bool: False drops the example.

    Returns:
      ``(bucket index of the batch, batched tensors)``: the tensors in the given structure
      (a list of one tensor comes back as that tensor, as in TF 1.15).
    """
    flat, restore = _flatten(tensors, "bucket")
    sizes = _batch_sizes(batch_size, num_buckets)
    if bucket_capacities is None:
        bucket_capacities = [capacity] * num_buckets
    if len(bucket_capacities) != num_buckets:
        raise ValueError(f"The list bucket_capacities ({bucket_capacities}) must have exactly "
                         f"num_buckets ({num_buckets}) elements.")
    import tensorflow as tf

    v1 = tf.compat.v1
    with v1.name_scope(name, "bucket", flat):
        flat = [tf.convert_to_tensor(t) for t in flat]
        if any(isinstance(t, tf.SparseTensor) for t in flat):
            raise TypeError("bucket: SparseTensor examples are not supported by tf1mem; "
                            "densify them (tf.sparse.to_dense) first")
        which_bucket = tf.convert_to_tensor(which_bucket, dtype=tf.int32, name="which_bucket")
        always = keep_input is True  # the default: no cond in the graph
        keep_input = tf.convert_to_tensor(keep_input, dtype=tf.bool, name="keep_input")
        if keep_input.shape.ndims not in (0, None):
            raise ValueError(f"bucket: keep_input must be a scalar bool (one example at a "
                             f"time); got shape {keep_input.shape}")
        dtypes = [t.dtype for t in flat]
        shapes = [tf.TensorShape(s) for s in shapes] if shapes is not None \
            else [t.shape for t in flat]
        if not dynamic_pad and not all(s.is_fully_defined() for s in shapes):
            raise ValueError(f"All shapes must be fully defined: {shapes}")
        queue_cls = v1.PaddingFIFOQueue if dynamic_pad else v1.FIFOQueue
        buckets = []
        for i in range(num_buckets):
            queue_name = f"bucket_queue_{i}"
            buckets.append(queue_cls(
                capacity=bucket_capacities[i], dtypes=dtypes, shapes=shapes,
                shared_name=f"{shared_name}_{queue_name}" if shared_name else None,
                name=queue_name))
        top = v1.PaddingFIFOQueue(
            capacity=capacity, dtypes=[tf.int32] + dtypes,
            shapes=[tf.TensorShape([])] + [tf.TensorShape([None]).concatenate(s)
                                           for s in shapes],
            shared_name=shared_name, name="top_queue")

        selected = v1.QueueBase.from_list(which_bucket, buckets)
        enqueue = selected.enqueue(flat) if always else \
            tf.cond(keep_input, lambda: selected.enqueue(flat), tf.no_op)
        close_buckets = tf.group(*[q.close() for q in buckets])
        cancel_buckets = tf.group(*[q.close(cancel_pending_enqueues=True) for q in buckets])
        # As TF 1.15: the batches' runner first, filed under bucket 0, then the examples'
        # runner, filed under the top queue (the QUEUE_RUNNERS collection shows them so;
        # the threads start in that order); each closes the right queues by close_op.
        to_top = []
        for i, q in enumerate(buckets):
            batch = q.dequeue_up_to(sizes[i]) if allow_smaller_final_batch \
                else q.dequeue_many(sizes[i])
            batch = batch if isinstance(batch, list) else [batch]
            to_top.append(top.enqueue([tf.constant(i, tf.int32)] + batch))
        v1.train.add_queue_runner(v1.train.QueueRunner(
            buckets[0], to_top, close_op=top.close(),
            cancel_op=top.close(cancel_pending_enqueues=True)))

        v1.train.add_queue_runner(v1.train.QueueRunner(
            top, [enqueue] * num_threads, close_op=close_buckets, cancel_op=cancel_buckets))

        for q in buckets:
            v1.summary.scalar(f"bucket/{q.name}/size", tf.cast(q.size(), tf.float32))
        v1.summary.scalar(f"bucket/{top.name}/fraction_of_{capacity}_full",
                          tf.cast(top.size(), tf.float32) * (1. / capacity))

        out = top.dequeue(name="dequeue_top")
        out = out if isinstance(out, list) else [out]
        index, batched = out[0], out[1:]
        known = sizes[0] if (len(set(sizes)) == 1 and not allow_smaller_final_batch) else None
        for tensor, shape in zip(batched, shapes):
            tensor.set_shape(tf.TensorShape([known]).concatenate(shape))
        return index, restore(batched)


def bucket_by_sequence_length(input_length, tensors, batch_size, bucket_boundaries,
                              num_threads=1, capacity=32, bucket_capacities=None,
                              shapes=None, dynamic_pad=False,
                              allow_smaller_final_batch=False, keep_input=True,
                              shared_name=None, name=None):
    """Batches examples with others of similar ``input_length``.

    Bucket ``i`` holds lengths in ``[bucket_boundaries[i - 1], bucket_boundaries[i])``
    (the first from minus infinity, the last to plus infinity): ``len(bucket_boundaries) +
    1`` buckets. The other arguments are :func:`bucket`'s.

    Returns:
      ``(lengths of the batch, batched tensors)``, the tensors as a list or dict as given.

    Raises:
      ValueError: empty or not strictly increasing boundaries, a batch_size list of the
        wrong length, unknown shapes without ``dynamic_pad``.
    """
    flat, restore = _flatten(tensors, "bucket_by_sequence_length")
    if not isinstance(tensors, dict):
        restore = list  # a list, even of one tensor (unlike bucket's)
    if not bucket_boundaries:
        raise ValueError("bucket_boundaries must not be empty")
    boundaries = list(bucket_boundaries)
    for low, high in zip(boundaries[:-1], boundaries[1:]):
        if not low < high:
            raise ValueError(f"Buckets must contain sequential increasing lengths, but saw: "
                             f"{low} before {high}")
    for value in boundaries:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"bucket_boundaries must be ints; got {value!r}")
    num_buckets = len(boundaries) + 1
    _batch_sizes(batch_size, num_buckets)
    import tensorflow as tf

    v1 = tf.compat.v1
    with v1.name_scope(name, "bucket_by_sequence_length", [input_length] + flat):
        input_length = tf.convert_to_tensor(input_length, dtype=tf.int32,
                                            name="input_length")
        which_bucket = tf.reduce_sum(tf.cast(
            tf.less_equal(tf.constant(boundaries, tf.int32), input_length), tf.int32))
        if shapes is not None:
            shapes = [tf.TensorShape([])] + list(shapes)
        _, batched = bucket(
            tensors=[input_length] + flat, which_bucket=which_bucket, batch_size=batch_size,
            num_buckets=num_buckets, num_threads=num_threads, capacity=capacity,
            bucket_capacities=bucket_capacities, shapes=shapes, dynamic_pad=dynamic_pad,
            allow_smaller_final_batch=allow_smaller_final_batch, keep_input=keep_input,
            shared_name=shared_name, name="bucket")
        return batched[0], restore(batched[1:])
