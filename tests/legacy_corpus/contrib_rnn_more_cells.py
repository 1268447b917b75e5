"""tf.contrib.rnn's LSTMBlockFusedCell (a time-major bi-LSTM with sequence_length, as NER
taggers ran it, the backward half through TimeReversedFusedRNN; peepholes, cell_clip, a
given initial state), CoupledInputForgetGateLSTMCell (NeuroNER's form: use_peepholes,
forget_bias, initializer; also num_proj, proj_clip, sharded weights, a concatenated state,
layer_norm), HighwayWrapper (around CIFG, GRU and LSTM cells in a MultiRNNCell, under a
DropoutWrapper) and IndRNNCell, in dynamic_rnn: TF1's variable names and shapes, output
and state shapes, values from tf.set_random_seed, one training step."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
tf.set_random_seed(7)
T, B, D, H = 4, 3, 5, 6
x = tf.constant(np.sin(0.7 * np.arange(T * B * D)).reshape(T, B, D), tf.float32)
lengths = tf.constant([4, 2, 3])
fetch = {}

# A bi-LSTM tagger's fused layer: time-major, backward half on reversed sequences.
with tf.variable_scope('fused'):
    cell_fw = tf.contrib.rnn.LSTMBlockFusedCell(H)
    cell_bw = tf.contrib.rnn.LSTMBlockFusedCell(H)
    cell_bw = tf.contrib.rnn.TimeReversedFusedRNN(cell_bw)
    out_fw, state_fw = cell_fw(x, dtype=tf.float32, sequence_length=lengths)
    out_bw, state_bw = cell_bw(x, dtype=tf.float32, sequence_length=lengths)
    fused = tf.concat([out_fw, out_bw], axis=-1)
print('fused:', fused.shape.as_list(), type(state_fw).__name__, state_fw.c.shape.as_list(),
      cell_fw.num_units)
fetch['fused out'] = fused[:, :, ::3]
fetch['fused state h'] = tf.concat([state_fw.h, state_bw.h], 1)
peep = tf.contrib.rnn.LSTMBlockFusedCell(3, forget_bias=0.5, cell_clip=0.3,
                                         use_peephole=True)
start = (tf.fill([B, 3], 0.2), tf.fill([B, 3], -0.1))
peep_out, peep_state = peep(x, initial_state=start)
print('peephole:', peep_out.shape.as_list(), peep_state.h.shape.as_list())
fetch['peephole c'] = peep_state.c
reversed_out, _ = tf.contrib.rnn.TimeReversedFusedRNN(peep)(x, initial_state=start)
fetch['reversed, shared weights'] = reversed_out[0]

# The three step cells stacked in one dynamic_rnn, initialised from the graph seed.
stacked = tf.nn.rnn_cell.MultiRNNCell([
    tf.contrib.rnn.HighwayWrapper(tf.contrib.rnn.CoupledInputForgetGateLSTMCell(
        D, use_peepholes=True, forget_bias=0.8)),
    tf.contrib.rnn.IndRNNCell(H, activation=tf.nn.relu)])
stacked_out, stacked_state = tf.nn.dynamic_rnn(stacked, x, sequence_length=lengths,
                                               dtype=tf.float32, time_major=True)
print('stacked:', stacked_out.shape.as_list(), stacked.state_size,
      [s.shape.as_list() for s in tf.nest.flatten(stacked_state)])
fetch['stacked out'] = stacked_out[-2]
fetch['stacked cifg c'] = stacked_state[0].c

# From here on a seeded initializer, as many taggers passed one (implicit op seeds after a
# dynamic_rnn are checked by graph_seed_rnn.py).
with tf.variable_scope('tagger', initializer=tf.glorot_uniform_initializer(seed=3)):
    cells = [tf.contrib.rnn.CoupledInputForgetGateLSTMCell(
        H, use_peepholes=True, forget_bias=1.0,
        initializer=tf.contrib.layers.xavier_initializer(), state_is_tuple=True)
        for _ in range(2)]
    (cf, cb), _ = tf.nn.bidirectional_dynamic_rnn(
        cells[0], cells[1], x, sequence_length=lengths, dtype=tf.float32, time_major=True)
    print('cifg sizes:', cells[0].state_size, cells[0].output_size)
    fetch['cifg out'] = tf.concat([cf, cb], 2)[-1]
    proj = tf.contrib.rnn.CoupledInputForgetGateLSTMCell(
        4, num_proj=2, proj_clip=0.1, num_unit_shards=2, state_is_tuple=False)
    print('proj sizes:', proj.state_size, proj.output_size)
    proj_out, proj_state = tf.nn.dynamic_rnn(proj, x, dtype=tf.float32, time_major=True,
                                             scope='proj')
    fetch['proj state'] = proj_state
    norm = tf.contrib.rnn.CoupledInputForgetGateLSTMCell(3, layer_norm=True, norm_gain=0.9,
                                                         norm_shift=0.1)
    norm_out, _ = tf.nn.dynamic_rnn(norm, x, dtype=tf.float32, time_major=True,
                                    scope='norm')
    fetch['layer_norm out'] = norm_out[-1]
    highway = tf.nn.rnn_cell.MultiRNNCell([
        tf.nn.rnn_cell.DropoutWrapper(
            tf.contrib.rnn.HighwayWrapper(tf.nn.rnn_cell.GRUCell(D)), output_keep_prob=1.0),
        tf.contrib.rnn.HighwayWrapper(tf.nn.rnn_cell.LSTMCell(D),
                                      couple_carry_transform_gates=False,
                                      carry_bias_init=-0.5)])
    hw_out, hw_state = tf.nn.dynamic_rnn(highway, x, dtype=tf.float32, time_major=True,
                                         scope='highway')
    print('highway:', hw_out.shape.as_list(), highway.state_size)
    fetch['highway out'] = hw_out[-1]

def error(label, make):
    try:
        make()
    except ValueError as e:
        print(label, [line for line in str(e).splitlines() if line.strip()][-1].strip())


error('no dtype:', lambda: tf.contrib.rnn.LSTMBlockFusedCell(2)(x))
error('one state:', lambda: tf.contrib.rnn.LSTMBlockFusedCell(2)(x, initial_state=(start[0],)))
error('shards:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.CoupledInputForgetGateLSTMCell(2, num_unit_shards=9), x, dtype=tf.float32,
    scope='shards'))
error('highway sizes:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.HighwayWrapper(tf.nn.rnn_cell.GRUCell(3)), x, dtype=tf.float32,
    scope='sizes'))
for v in tf.global_variables():
    print('var', v.op.name, v.shape.as_list())
loss = (tf.reduce_mean(tf.square(fused)) + tf.reduce_mean(tf.square(peep_state.c))
        + tf.reduce_mean(tf.square(stacked_out)) + tf.reduce_mean(tf.square(cf - cb))
        + tf.reduce_mean(tf.square(proj_out)) + tf.reduce_mean(tf.square(norm_out))
        + tf.reduce_mean(tf.square(hw_out)))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for name, value in sorted(sess.run(fetch).items()):
        print(name + ':', value.shape, value.ravel()[:12])
    print('loss before: %.6f' % sess.run(loss))
    sess.run(train)
    print('loss after: %.6f' % sess.run(loss))
