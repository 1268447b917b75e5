"""Scheduled sampling as TF1 seq2seq code wrote it: `tf.contrib.seq2seq.
ScheduledEmbeddingTrainingHelper(inputs, sequence_length, embedding, sampling_probability,
seed=, scheduling_seed=)` in a BasicDecoder + dynamic_decode trained a few Adam steps (a
probability that grows with the global step), sample ids (-1 where the input was read),
ScheduledOutputTrainingHelper with next_inputs_fn and auxiliary_inputs, probabilities 0
and 1 (pure teacher forcing / pure feedback); the errors of a per-entry probability vector
(TF 1.15's helper failed on it) and a matrix of probabilities."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(3)
vocab, dim, units, batch, steps = 6, 3, 4, 3, 5
ids = tf.constant([[1, 2, 3, 4, 5], [2, 3, 1, 0, 0], [5, 4, 3, 2, 1]])
lengths = tf.constant([5, 3, 4])
init = tf.random_uniform_initializer(-0.5, 0.5, seed=1)
with tf.variable_scope('s2s', initializer=init):
    embedding = tf.get_variable('embedding', [vocab, dim])
    inputs = tf.nn.embedding_lookup(embedding, ids)
    global_step = tf.train.get_or_create_global_step()
    prob = tf.minimum(1.0, tf.cast(global_step, tf.float32) * 0.3)
    helper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(
        inputs=inputs, sequence_length=lengths, embedding=embedding,
        sampling_probability=prob, seed=5, scheduling_seed=7)
    cell = tf.nn.rnn_cell.GRUCell(units)
    projection = tf.layers.Dense(vocab, use_bias=False, name='projection')
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(batch, tf.float32),
                                              output_layer=projection)
    outputs, _, out_lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    mask = tf.sequence_mask(lengths, steps, dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(outputs.rnn_output, ids, mask)
    train = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=global_step)

print('sample_id dtype:', outputs.sample_id.dtype.name)
print('variables:', ' '.join(v.name for v in tf.global_variables()))


def scheduled(p, name, **kwargs):
    with tf.variable_scope('s2s', reuse=True):
        h = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(
            inputs=inputs, sequence_length=lengths, embedding=embedding,
            sampling_probability=p, seed=5, scheduling_seed=7, **kwargs)
        d = tf.contrib.seq2seq.BasicDecoder(cell, h, cell.zero_state(batch, tf.float32),
                                            output_layer=projection)
        return tf.contrib.seq2seq.dynamic_decode(d)[0]


never = scheduled(0.0, 'never')
always = scheduled(1.0, 'always')
try:  # TF 1.15's helper drew [batch] coins per entry here: a shape error
    scheduled([1.0, 0.0, 1.0], 'per_entry')
except ValueError:
    print('per-entry probability vector: ValueError')
with tf.variable_scope('s2s', reuse=True):
    teacher = tf.contrib.seq2seq.TrainingHelper(inputs, lengths)
    forced = tf.contrib.seq2seq.dynamic_decode(tf.contrib.seq2seq.BasicDecoder(
        cell, teacher, cell.zero_state(batch, tf.float32), output_layer=projection))[0]

aux = tf.constant(np.arange(batch * steps * 2, dtype=np.float32).reshape(batch, steps, 2) / 10.)
with tf.variable_scope('out', initializer=init):
    out_helper = tf.contrib.seq2seq.ScheduledOutputTrainingHelper(
        inputs=tf.ones([batch, steps, 3]), sequence_length=lengths, sampling_probability=0.5,
        seed=11, next_inputs_fn=lambda o: tf.tanh(o[:, :3]), auxiliary_inputs=aux)
    out_cell = tf.nn.rnn_cell.BasicRNNCell(5)
    out_decoder = tf.contrib.seq2seq.BasicDecoder(out_cell, out_helper,
                                                  out_cell.zero_state(batch, tf.float32))
    out_outputs = tf.contrib.seq2seq.dynamic_decode(out_decoder)[0]
    plain_helper = tf.contrib.seq2seq.ScheduledOutputTrainingHelper(
        inputs=tf.ones([batch, steps, 5]), sequence_length=lengths, sampling_probability=1.0)
    plain = tf.contrib.seq2seq.dynamic_decode(tf.contrib.seq2seq.BasicDecoder(
        out_cell, plain_helper, out_cell.zero_state(batch, tf.float32)))[0]
print('output helper sample dtype:', out_outputs.sample_id.dtype.name)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        l, ids_now, _ = sess.run([loss, outputs.sample_id, train])
        print('step %d loss: %.5f' % (step, l))
        print('step %d sample ids: %s' % (step, ids_now.tolist()))
    n, f = sess.run([never.rnn_output, forced.rnn_output])
    print('p=0 equals teacher forcing:', np.allclose(n, f, atol=1e-6))
    print('p=0 sample ids:', sess.run(never.sample_id).tolist())
    print('p=1 sample ids:', sess.run(always.sample_id).tolist())
    print('lengths:', sess.run(out_lengths).tolist())
    o, s = sess.run([out_outputs.rnn_output, out_outputs.sample_id])
    print('output helper samples:', s.tolist())
    print('output helper last outputs: %s' % ' '.join('%.5f' % v for v in o[:, -1].ravel()))
    print('feedback only: %s' % ' '.join('%.5f' % v for v in sess.run(plain.rnn_output)[0, -1]))

try:
    tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(
        inputs=inputs, sequence_length=lengths, embedding=embedding,
        sampling_probability=[[0.5]])
except ValueError as e:
    print('matrix probability: ValueError')
