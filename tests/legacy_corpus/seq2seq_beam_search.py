"""tf.contrib.seq2seq.BeamSearchDecoder as TF1 NMT code used it: the encoder's outputs,
final state and lengths tiled with tile_batch, an AttentionWrapper (alignment_history)
with zero_state(batch * beam_width).clone(cell_state=...), beam width 3 with a length
penalty, dynamic_decode with maximum_iterations; a plain LSTM beam search; a coverage
penalty; the predicted ids (best beam first), scores, parent ids, lengths and the
alignment history reordered to the chosen beams; the errors."""
import numpy as np
import tensorflow as tf


def init(shape, dtype=tf.float32, partition_info=None):
    n = int(np.prod(shape))
    return tf.constant(1.5 * np.sin(0.7 * np.arange(n) + 0.1 * len(shape)).reshape(shape),
                       dtype=dtype)


BATCH, SRC, VOCAB, EMB, UNITS, BEAM = 2, 4, 7, 3, 4, 3
source = tf.constant(np.cos(np.arange(BATCH * SRC * EMB)).reshape(BATCH, SRC, EMB),
                     tf.float32)
source_length = tf.constant([4, 2])

with tf.variable_scope('nmt', initializer=init):
    embedding = tf.get_variable('embedding', [VOCAB, EMB])
    memory, encoder_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(UNITS), source,
                                              source_length, dtype=tf.float32,
                                              scope='encoder')
    tiled_memory = tf.contrib.seq2seq.tile_batch(memory, multiplier=BEAM)
    tiled_state = tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=BEAM)
    tiled_length = tf.contrib.seq2seq.tile_batch(source_length, multiplier=BEAM)
    mechanism = tf.contrib.seq2seq.LuongAttention(UNITS, tiled_memory, tiled_length)
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicLSTMCell(UNITS), mechanism,
                                               attention_layer_size=UNITS,
                                               alignment_history=True)
    initial = cell.zero_state(BATCH * BEAM, tf.float32).clone(cell_state=tiled_state)
    projection = tf.layers.Dense(VOCAB, use_bias=False, name='projection')
    decoder = tf.contrib.seq2seq.BeamSearchDecoder(
        cell, embedding, tf.fill([BATCH], 1), 2, initial, BEAM, output_layer=projection,
        length_penalty_weight=0.6)
    outputs, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder,
                                                               maximum_iterations=6)
    history = state.cell_state.alignment_history
    print('history reordered:', not isinstance(history, tf.TensorArray))
    if isinstance(history, tf.TensorArray):
        history = history.stack()

with tf.variable_scope('plain', initializer=init):
    plain_cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
    plain = tf.contrib.seq2seq.BeamSearchDecoder(
        plain_cell, embedding, tf.constant([3, 5]), 0,
        tf.contrib.seq2seq.tile_batch(encoder_state, BEAM), BEAM,
        output_layer=tf.layers.Dense(VOCAB, name='out'))
    plain_out, plain_state, plain_lengths = tf.contrib.seq2seq.dynamic_decode(
        plain, maximum_iterations=5, output_time_major=True)

with tf.variable_scope('nmt', reuse=True):
    covered = tf.contrib.seq2seq.BeamSearchDecoder(
        cell, embedding, tf.fill([BATCH], 1), 2,
        cell.zero_state(BATCH * BEAM, tf.float32).clone(cell_state=tiled_state), BEAM,
        output_layer=projection, coverage_penalty_weight=0.4)
    covered_out, covered_state, _ = tf.contrib.seq2seq.dynamic_decode(
        covered, maximum_iterations=6)

print('output types:', type(outputs).__name__,
      type(outputs.beam_search_decoder_output).__name__, type(state).__name__)
print('state fields:', ' '.join(type(state)._fields))
print('static shapes:', outputs.predicted_ids.shape.as_list(),
      outputs.beam_search_decoder_output.scores.shape.as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    ids, bso, st, lens, hist = sess.run([outputs.predicted_ids,
                                         outputs.beam_search_decoder_output,
                                         state._replace(cell_state=()), lengths, history])
    print('predicted_ids:', ids.tolist())
    print('step ids:', bso.predicted_ids.tolist())
    print('parent_ids:', bso.parent_ids.tolist())
    print('scores:', ' '.join('%.4f' % x for x in bso.scores.ravel()))
    print('final lengths:', st.lengths.tolist(), 'finished:', st.finished.tolist())
    print('final log_probs:', ' '.join('%.4f' % x for x in st.log_probs.ravel()))
    print('decode lengths:', lens.tolist())
    print('alignment history:', list(hist.shape),
          ' '.join('%.4f' % x for x in hist[:, :, 0].ravel()))
    pids, pbso, plens = sess.run([plain_out.predicted_ids, plain_out.beam_search_decoder_output,
                                  plain_state.lengths])
    print('plain predicted_ids (time major):', pids.tolist())
    print('plain scores:', ' '.join('%.4f' % x for x in pbso.scores.ravel()))
    print('plain lengths:', plens.tolist())
    cids, cst = sess.run([covered_out.predicted_ids, covered_state._replace(cell_state=())])
    print('coverage predicted_ids:', cids.tolist())
    print('coverage accumulated attention:',
          ' '.join('%.4f' % x for x in cst.accumulated_attention_probs.ravel()))

try:
    tf.contrib.seq2seq.BeamSearchDecoder(cell, embedding, tf.fill([BATCH, 1], 1), 2,
                                         initial, BEAM)
except ValueError as e:
    print('start tokens:', type(e).__name__, e)
try:
    tf.contrib.seq2seq.BeamSearchDecoder(
        cell, embedding, tf.fill([BATCH], 1), 2,
        cell.zero_state(BATCH * BEAM, tf.float32), BEAM, output_layer=lambda x: x)
except TypeError as e:
    print('output layer:', type(e).__name__)
try:
    tf.contrib.seq2seq.BeamSearchDecoder(
        tf.nn.rnn_cell.BasicLSTMCell(UNITS), embedding, tf.fill([BATCH], 1), 2,
        tf.nn.rnn_cell.BasicLSTMCell(UNITS).zero_state(BATCH, tf.float32), BEAM)
except ValueError as e:
    print('untiled state:', type(e).__name__)
with tf.Session() as sess:
    tree = tf.contrib.seq2seq.gather_tree(
        step_ids=[[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]]],
        parent_ids=[[[0, 0, 0]], [[0, 1, 1]], [[2, 1, 2]]],
        max_sequence_lengths=[3], end_token=10)
    print('gather_tree:', sess.run(tree).tolist())
    tree = tf.contrib.seq2seq.gather_tree(
        step_ids=[[[1, 2, 3]], [[4, 10, 6]], [[7, 8, 9]], [[1, 1, 1]]],
        parent_ids=[[[0, 0, 0]], [[0, 1, 1]], [[2, 1, 2]], [[0, 0, 0]]],
        max_sequence_lengths=[3], end_token=10)
    print('gather_tree with end:', sess.run(tree).tolist())
