"""tf.contrib.training.bucket_by_sequence_length as Tacotron-era input pipelines used it:
examples from slice_input_producer (num_epochs=1) cut to their lengths, bucketed by length
(boundaries [3, 6], batch 2, dynamic_pad, allow_smaller_final_batch) under
start_queue_runners until OutOfRangeError; the batches of each bucket in order (the
buckets' batches interleave as the threads run, in TF 1.15 as here), padding, lengths,
static shapes, the QUEUE_RUNNERS collection and queue summaries; a dict of tensors, a
per-bucket batch_size list, no padding, tf.contrib.training.bucket; the errors."""
import numpy as np
import tensorflow as tf

lengths = [3, 7, 2, 9, 4, 1, 8, 5, 6, 2, 3, 7]
data = np.zeros([len(lengths), 10], np.int32)
for i, n in enumerate(lengths):
    data[i, :n] = np.arange(1, n + 1) + 10 * i
seq, length, idx = tf.train.slice_input_producer(
    [data, lengths, list(range(len(lengths)))], shuffle=False, num_epochs=1)
seq = seq[:length]
out_len, (out_seq, out_idx) = tf.contrib.training.bucket_by_sequence_length(
    input_length=length, tensors=[seq, idx], batch_size=2, bucket_boundaries=[3, 6],
    dynamic_pad=True, allow_smaller_final_batch=True)
print('shapes:', out_len.shape, out_seq.shape, out_idx.shape, out_len.dtype.name,
      out_seq.dtype.name)
for runner in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS):
    print('runner:', runner.name, len(runner.enqueue_ops))
print('summaries:', ' '.join(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))

x = tf.constant([1, 2, 3])
n = tf.constant(3)
as_dict = tf.contrib.training.bucket_by_sequence_length(n, {'b': n, 'a': x}, 2, [2, 5],
                                                        dynamic_pad=True)
print('dict:', type(as_dict[1]).__name__, sorted(as_dict[1]), as_dict[1]['a'].shape)
per_bucket = tf.contrib.training.bucket_by_sequence_length(n, [x], [2, 3, 4], [2, 5],
                                                           dynamic_pad=True)
print('batch list:', type(per_bucket[1]).__name__, per_bucket[1][0].shape, per_bucket[0].shape)
print('no padding:', tf.contrib.training.bucket_by_sequence_length(n, [x], 4, [2, 5])[1][0].shape)
which, single = tf.contrib.training.bucket([x], tf.constant(1), 2, 3)
print('bucket:', isinstance(single, tf.Tensor), which.shape, single.shape)
which, pair = tf.contrib.training.bucket([x, n], tf.constant(1), 2, 3)
print('bucket pair:', type(pair).__name__, len(pair))


def bucket_of(n):
    return 0 if n < 3 else (1 if n < 6 else 2)


with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    per_bucket_batches = {0: [], 1: [], 2: []}
    try:
        while True:
            l, s, i = sess.run([out_len, out_seq, out_idx])
            buckets = set(bucket_of(v) for v in l)
            padded_ok = s.shape[1] == max(l) and all(
                (row[:k] == data[j, :k]).all() and not row[k:].any()
                for row, k, j in zip(s, l, i))
            per_bucket_batches[buckets.pop()].append((l.tolist(), i.tolist(), padded_ok,
                                                      len(buckets) == 0))
    except tf.errors.OutOfRangeError:
        print('end of input: OutOfRangeError')
    coord.request_stop()
    coord.join(threads)
    for b in range(3):
        print('bucket %d batches:' % b, per_bucket_batches[b])

for label, build in [
        ('unsorted', lambda: tf.contrib.training.bucket_by_sequence_length(n, [x], 2, [5, 2])),
        ('bad batch list', lambda: tf.contrib.training.bucket_by_sequence_length(
            n, [x], [2, 3], [2, 5])),
        ('unknown shape no pad', lambda: tf.contrib.training.bucket_by_sequence_length(
            n, [tf.placeholder(tf.int32, [None])], 2, [2, 5])),
        ('float length', lambda: tf.contrib.training.bucket_by_sequence_length(
            tf.constant(2.0), [x], 2, [2, 5])),
        ('empty boundaries', lambda: tf.contrib.training.bucket_by_sequence_length(
            n, [x], 2, []))]:
    try:
        build()
        print(label, ': no error')
    except ValueError as e:
        print(label, ': ValueError')
