"""tf.contrib.seq2seq.CustomHelper (the user's own initialize / sample / next_inputs
functions) driving BasicDecoder + dynamic_decode: feeding back the embedding of the
argmax, a step-count end; batch_size before initialize (ValueError), sample_ids_shape and
dtype (default and given)."""
import numpy as np
import tensorflow as tf
BATCH, UNITS, VOCAB = 2, 3, 4
embedding = tf.constant(np.arange(VOCAB * 2, dtype=np.float32).reshape(VOCAB, 2) / 10)
cell = tf.nn.rnn_cell.BasicRNNCell(UNITS)
def initial_fn():
    return tf.tile([False], [BATCH]), tf.nn.embedding_lookup(embedding, tf.fill([BATCH], 1))
def sample_fn(time, outputs, state):
    return tf.argmax(outputs, axis=1, output_type=tf.int32)
def next_inputs_fn(time, outputs, state, sample_ids):
    return time >= 2, tf.nn.embedding_lookup(embedding, sample_ids), state
helper = tf.contrib.seq2seq.CustomHelper(initial_fn, sample_fn, next_inputs_fn)
try:
    helper.batch_size
except ValueError as e:
    print('before initialize:', e)
with tf.variable_scope('d', initializer=tf.constant_initializer(np.cos(np.arange(15.)).reshape(5, 3))):
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                              output_layer=tf.layers.Dense(VOCAB, kernel_initializer=tf.constant_initializer(np.sin(np.arange(12.)).reshape(3, 4))))
    out, _, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, maximum_iterations=4)
print('sample shape/dtype:', helper.sample_ids_shape, helper.sample_ids_dtype.name)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    ids, rnn, lens = sess.run([out.sample_id, out.rnn_output, lengths])
    print('ids:', ids.tolist(), 'lengths:', lens.tolist())
    print('rnn_output:', ' '.join('%.4f' % x for x in rnn.ravel()))
typed = tf.contrib.seq2seq.CustomHelper(initial_fn, sample_fn, next_inputs_fn,
                                        sample_ids_shape=[2], sample_ids_dtype=tf.int64)
print('given shape/dtype:', typed.sample_ids_shape, typed.sample_ids_dtype.name)
