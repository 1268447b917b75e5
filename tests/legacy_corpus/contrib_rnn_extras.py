"""tf.contrib.rnn's stacked bidirectional RNNs and layer-normalised LSTM, as 2017-2018 text
models used them: stack_bidirectional_dynamic_rnn over two layers (LSTM and GRU cells,
sequence_length, a given initial state), stack_bidirectional_rnn over a list of steps,
LayerNormBasicLSTMCell in dynamic_rnn (with and without layer_norm, norm_gain) and in a
MultiRNNCell, the fused-kernel cells LSTMBlockCell (peepholes, cell_clip), GRUBlockCell and
GRUBlockCellV2, OutputProjectionWrapper (the Hands-On Machine Learning time-series
form), InputProjectionWrapper and EmbeddingWrapper, and gradient steps through them; TF1's variable names, shapes and values from a fixed initialiser; the
argument errors."""
import numpy as np
import tensorflow as tf


def init(shape, dtype=tf.float32, partition_info=None):
    n = int(np.prod(shape))
    return tf.constant(0.8 * np.sin(0.9 * np.arange(n) + 0.2 * len(shape)).reshape(shape),
                       dtype=dtype)


def show(name, value):
    flat = np.asarray(value, np.float64).ravel()
    print(name, list(np.asarray(value).shape), ' '.join('%.5f' % x for x in flat))


BATCH, STEPS, DEPTH = 2, 3, 2
inputs = tf.constant(np.cos(np.arange(BATCH * STEPS * DEPTH)).reshape(BATCH, STEPS, DEPTH),
                     tf.float32)
lengths = tf.constant([3, 2])
fetch = {}
with tf.variable_scope('model', initializer=init):
    cells_fw = [tf.nn.rnn_cell.LSTMCell(3), tf.nn.rnn_cell.GRUCell(2)]
    cells_bw = [tf.nn.rnn_cell.LSTMCell(3), tf.nn.rnn_cell.GRUCell(2)]
    outputs, states_fw, states_bw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
        cells_fw, cells_bw, inputs, sequence_length=lengths, dtype=tf.float32)
    fetch['stack outputs:'] = outputs
    fetch['stack fw layer 0 h:'] = states_fw[0].h
    fetch['stack bw layer 1:'] = states_bw[1]
    print('stack states:', len(states_fw), type(states_fw[0]).__name__,
          isinstance(states_bw[1], tf.Tensor))
    initial_fw = [tf.nn.rnn_cell.GRUCell(2).zero_state(BATCH, tf.float32) + 0.5]
    given, _, _ = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
        [tf.nn.rnn_cell.GRUCell(2)], [tf.nn.rnn_cell.GRUCell(2)], inputs,
        initial_states_fw=initial_fw, dtype=tf.float32, scope='given')
    fetch['given initial:'] = given
    static_out, static_fw, static_bw = tf.contrib.rnn.stack_bidirectional_rnn(
        [tf.nn.rnn_cell.BasicRNNCell(2)], [tf.nn.rnn_cell.BasicRNNCell(2)],
        tf.unstack(inputs, axis=1), dtype=tf.float32, scope='static')
    print('static outputs:', len(static_out), static_out[0].shape.as_list())
    fetch['static last:'] = static_out[-1]
    ln_cell = tf.contrib.rnn.LayerNormBasicLSTMCell(3)
    ln_out, ln_state = tf.nn.dynamic_rnn(ln_cell, inputs, lengths, dtype=tf.float32,
                                         scope='ln')
    fetch['ln outputs:'] = ln_out
    fetch['ln state c:'] = ln_state.c
    plain_cell = tf.contrib.rnn.LayerNormBasicLSTMCell(2, layer_norm=False, forget_bias=0.5)
    plain_out, _ = tf.nn.dynamic_rnn(plain_cell, inputs, dtype=tf.float32, scope='plain')
    fetch['no layer_norm:'] = plain_out
    stacked = tf.nn.rnn_cell.MultiRNNCell([
        tf.contrib.rnn.LayerNormBasicLSTMCell(2, norm_gain=0.5, norm_shift=0.1),
        tf.contrib.rnn.LayerNormBasicLSTMCell(2, activation=tf.nn.relu)])
    multi_out, _ = tf.nn.dynamic_rnn(stacked, inputs, dtype=tf.float32, scope='multi')
    fetch['multi:'] = multi_out
    print('ln sizes:', ln_cell.output_size, ln_cell.state_size)
    block_out, block_state = tf.nn.dynamic_rnn(tf.contrib.rnn.LSTMBlockCell(3), inputs,
                                               lengths, dtype=tf.float32, scope='block')
    fetch['lstm block:'] = block_out
    peep_out, _ = tf.nn.dynamic_rnn(
        tf.contrib.rnn.LSTMBlockCell(3, forget_bias=0.0, cell_clip=0.3, use_peephole=True),
        inputs, dtype=tf.float32, scope='peephole')
    fetch['lstm block peephole clip:'] = peep_out
    gru_out, gru_state = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUBlockCell(2), inputs, lengths,
                                           dtype=tf.float32, scope='gru_block')
    fetch['gru block:'] = gru_out
    gru2_out, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUBlockCellV2(cell_size=2), inputs,
                                    dtype=tf.float32, scope='gru_block_v2')
    fetch['gru block v2:'] = gru2_out
    projected = tf.contrib.rnn.OutputProjectionWrapper(tf.contrib.rnn.BasicRNNCell(4),
                                                       output_size=1)
    projected_out, _ = tf.nn.dynamic_rnn(projected, inputs, dtype=tf.float32,
                                         scope='projected')
    fetch['output projection:'] = projected_out
    fed = tf.contrib.rnn.InputProjectionWrapper(tf.nn.rnn_cell.GRUCell(2), num_proj=3,
                                                activation=tf.tanh)
    fed_out, _ = tf.nn.dynamic_rnn(fed, inputs, dtype=tf.float32, scope='input_projected')
    fetch['input projection:'] = fed_out
    words = tf.constant([[1, 4, 2], [3, 0, 0]])
    embedded_cell = tf.contrib.rnn.EmbeddingWrapper(tf.nn.rnn_cell.BasicLSTMCell(2),
                                                    embedding_classes=5, embedding_size=3)
    embedded_out, _ = tf.nn.static_rnn(embedded_cell, tf.unstack(words, axis=1),
                                       dtype=tf.float32, scope='embedded')
    fetch['embedding wrapper last:'] = embedded_out[-1]
    print('wrapper sizes:', projected.output_size, projected.state_size, fed.output_size,
          embedded_cell.output_size)
    loss = (tf.reduce_sum(tf.square(projected_out)) + tf.reduce_sum(tf.square(block_out)) + tf.reduce_sum(tf.square(gru_out))
            + tf.reduce_sum(tf.square(ln_out)))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

for v in tf.global_variables():
    print('var:', v.name, v.shape.as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    values = sess.run(fetch)
    for name in fetch:
        show(name, values[name])
    for step in range(3):
        print('loss %d: %.5f' % (step, sess.run([loss, train])[0]))

for args in (([], [tf.nn.rnn_cell.GRUCell(2)]),
             ([tf.nn.rnn_cell.GRUCell(2)], [tf.nn.rnn_cell.GRUCell(2)] * 2),
             (tf.nn.rnn_cell.GRUCell(2), [tf.nn.rnn_cell.GRUCell(2)])):
    try:
        tf.contrib.rnn.stack_bidirectional_dynamic_rnn(args[0], args[1], inputs,
                                                       dtype=tf.float32)
    except ValueError as e:
        print('error:', e)
for make in (lambda: tf.contrib.rnn.OutputProjectionWrapper(tf.nn.rnn_cell.GRUCell(2), 0),
             lambda: tf.contrib.rnn.EmbeddingWrapper(tf.nn.rnn_cell.GRUCell(2), 0, 3)):
    try:
        make()
    except ValueError as e:
        print('error:', e)
try:
    tf.contrib.rnn.GRUBlockCell(2, cell_size=2)
except ValueError as e:
    print('error:', e)
try:
    tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
        [tf.nn.rnn_cell.GRUCell(2)], [tf.nn.rnn_cell.GRUCell(2)], inputs,
        initial_states_bw=initial_fw * 2, dtype=tf.float32)
except ValueError as e:
    print('error:', e)
