"""tf.contrib.seq2seq's attention (TF 1.2-1.15's NMT style): BahdanauAttention
(normalize) and LuongAttention (scale) over an encoder's outputs with
memory_sequence_length masking, AttentionWrapper around an LSTM decoder cell
(attention_layer_size, alignment_history, output_attention=False, two mechanisms at
once, the encoder state through zero_state(...).clone(cell_state=...)), trained with
TrainingHelper + BasicDecoder + dynamic_decode + sequence_loss, then greedy decoding
with the same variables; TF1's variable names, shapes and values from a fixed
initialiser."""
import numpy as np
import tensorflow as tf


def init(shape, dtype=tf.float32, partition_info=None):
    n = int(np.prod(shape))
    return tf.constant(1.5 * np.sin(0.7 * np.arange(n) + 0.1 * len(shape)).reshape(shape),
                       dtype=dtype)


BATCH, SRC, TGT, VOCAB, EMB, UNITS = 2, 4, 3, 6, 3, 4
source = tf.constant(np.cos(np.arange(BATCH * SRC * EMB)).reshape(BATCH, SRC, EMB),
                     tf.float32)
source_length = tf.constant([4, 2])
target_ids = tf.constant([[1, 2, 3], [4, 5, 0]])
target_length = tf.constant([3, 2])

with tf.variable_scope('s2s', initializer=init):
    embedding = tf.get_variable('embedding', [VOCAB, EMB])
    encoder_cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
    memory, encoder_state = tf.nn.dynamic_rnn(encoder_cell, source, source_length,
                                              dtype=tf.float32, scope='encoder')
    bahdanau = tf.contrib.seq2seq.BahdanauAttention(UNITS, memory, source_length,
                                                    normalize=True)
    decoder_cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.nn.rnn_cell.BasicLSTMCell(UNITS), bahdanau, attention_layer_size=5,
        alignment_history=True)
    initial = decoder_cell.zero_state(BATCH, tf.float32).clone(cell_state=encoder_state)
    projection = tf.layers.Dense(VOCAB, use_bias=False, name='projection')
    helper = tf.contrib.seq2seq.TrainingHelper(
        tf.nn.embedding_lookup(embedding, target_ids), target_length)
    decoder = tf.contrib.seq2seq.BasicDecoder(decoder_cell, helper, initial,
                                              output_layer=projection)
    outputs, final_state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    weights = tf.sequence_mask(target_length, TGT, dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(outputs.rnn_output, target_ids, weights)
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
    history = final_state.alignment_history.stack()

    greedy = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([BATCH], 1), 0)
    infer_decoder = tf.contrib.seq2seq.BasicDecoder(
        decoder_cell, greedy, decoder_cell.zero_state(BATCH, tf.float32).clone(
            cell_state=encoder_state), output_layer=projection)
    infer_outputs, _, infer_lengths = tf.contrib.seq2seq.dynamic_decode(
        infer_decoder, maximum_iterations=4)

with tf.variable_scope('luong', initializer=init):
    luong = tf.contrib.seq2seq.LuongAttention(UNITS, memory, source_length, scale=True)
    luong_cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.nn.rnn_cell.GRUCell(UNITS), luong, output_attention=False)
    luong_out, luong_state = tf.nn.dynamic_rnn(
        luong_cell, tf.nn.embedding_lookup(embedding, target_ids), target_length,
        dtype=tf.float32)

with tf.variable_scope('multi', initializer=init):
    mechanisms = [tf.contrib.seq2seq.BahdanauAttention(3, memory, source_length),
                  tf.contrib.seq2seq.LuongAttention(UNITS, memory)]
    multi_cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.nn.rnn_cell.BasicLSTMCell(UNITS), mechanisms, attention_layer_size=[3, 2])
    multi_out, multi_state = tf.nn.dynamic_rnn(
        multi_cell, tf.nn.embedding_lookup(embedding, target_ids), target_length,
        dtype=tf.float32)

with tf.variable_scope('options', initializer=init):
    hard = tf.contrib.seq2seq.LuongAttention(UNITS, memory, source_length,
                                             probability_fn=tf.contrib.seq2seq.hardmax)
    options_cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.nn.rnn_cell.BasicLSTMCell(UNITS), hard,
        attention_layer=tf.layers.Dense(3, name='my_attention'),
        cell_input_fn=lambda inputs, attention: inputs, initial_cell_state=encoder_state)
    options_out, options_state = tf.nn.dynamic_rnn(
        options_cell, tf.nn.embedding_lookup(embedding, target_ids), target_length,
        initial_state=options_cell.zero_state(BATCH, tf.float32), dtype=tf.float32)
print('options sizes:', options_cell.output_size, options_cell.state_size.attention,
      options_cell.state_size.alignments)
hardmax = tf.contrib.seq2seq.hardmax([[0.1, 0.7, 0.2], [3., -1., 2.]])

print('output_size:', decoder_cell.output_size, luong_cell.output_size,
      multi_cell.output_size)
print('state fields:', ' '.join(type(initial)._fields))
print('alignments_size:', bahdanau.alignments_size, 'values:', bahdanau.values.shape)
for v in tf.global_variables():
    if 'Adam' not in v.name and 'power' not in v.name:
        print('var:', v.name, v.shape.as_list())


def show(name, value):
    flat = np.asarray(value, np.float64).ravel()
    print(name, list(np.asarray(value).shape), ' '.join('%.5f' % x for x in flat))


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out, hist, lens = sess.run([outputs.rnn_output, history, lengths])
    show('rnn_output:', out)
    show('alignment history:', hist)
    print('lengths:', lens.tolist())
    for step in range(3):
        print('loss %d: %.5f' % (step, sess.run([loss, train_op])[0]))
    ids, ilens = sess.run([infer_outputs.sample_id, infer_lengths])
    print('greedy ids:', ids.tolist(), 'lengths:', ilens.tolist())
    lo, ls = sess.run([luong_out, luong_state.alignments])
    show('luong output:', lo)
    show('luong alignments:', ls)
    mo, ma = sess.run([multi_out, multi_state.alignments])
    show('multi output:', mo)
    show('multi alignments 0:', ma[0])
    show('multi alignments 1:', ma[1])
    oo, oa = sess.run([options_out, options_state.alignments])
    show('options output:', oo)
    show('options alignments:', oa)
    print('hardmax:', sess.run(hardmax).tolist())

try:
    tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicLSTMCell(2), mechanisms,
                                        attention_layer_size=[3])
except ValueError as e:
    print('sizes:', type(e).__name__, e)
try:
    decoder_cell(tf.zeros([BATCH, EMB]), encoder_state)
except TypeError as e:
    print('state type:', type(e).__name__)
