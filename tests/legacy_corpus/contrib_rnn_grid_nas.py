"""tf.contrib.rnn's NASCell (plain, with num_proj and use_bias), GridLSTMCell (one
frequency block and blocks from start/end index lists; peepholes, coupled input and
forget gates, time-frequency weights shared, a concatenated state, sharded weights,
cell_clip) and BidirectionalGridLSTMCell (with a backward slice offset) through
static_rnn and dynamic_rnn, a batch of unknown size among them: TF1's variable names and
shapes, output and state sizes, values from tf.set_random_seed alone, one training step,
and the argument errors."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
tf.set_random_seed(5)
B, T, D = 2, 3, 8
data = np.cos(0.3 * np.arange(B * T * D)).reshape(B, T, D).astype(np.float32)
x = tf.constant(data)
x_any = tf.placeholder(tf.float32, [None, T, D])
steps = tf.unstack(x, axis=1)
fetch = {}

nas = tf.contrib.rnn.NASCell(4)
nas_out, nas_state = tf.nn.dynamic_rnn(nas, x, dtype=tf.float32, scope='nas')
print('nas:', nas.state_size, nas.output_size, nas_out.shape.as_list(),
      type(nas_state).__name__)
fetch['nas out'] = nas_out[:, -1]
fetch['nas c'] = nas_state.c
nas_proj = tf.contrib.rnn.NASCell(5, num_proj=3, use_bias=True)
proj_outs, proj_state = tf.nn.static_rnn(nas_proj, steps, dtype=tf.float32,
                                         scope='nas_proj')
print('nas proj:', nas_proj.state_size, nas_proj.output_size, len(proj_outs),
      proj_outs[-1].shape.as_list(), proj_state.h.shape.as_list())
fetch['nas proj h'] = proj_state.h

# An unknown batch: the cell's zero frequency states are tf.zeros([batch, units]).
grid = tf.contrib.rnn.GridLSTMCell(3, use_peepholes=True, feature_size=4,
                                   frequency_skip=2, num_frequency_blocks=[3])
print('grid sizes:', grid.state_size, grid.output_size)
grid_out, grid_state = tf.nn.dynamic_rnn(grid, x_any, dtype=tf.float32, scope='grid')
print('grid:', grid_out.shape.as_list(), type(grid_state).__name__,
      [s.shape.as_list() for s in grid_state][:2], len(grid_state))
fetch['grid out'] = grid_out[:, -1]
fetch['grid state f02 m'] = grid_state.state_f02_b00_m

blocks = tf.contrib.rnn.GridLSTMCell(
    2, use_peepholes=True, share_time_frequency_weights=True, cell_clip=0.5,
    num_unit_shards=2, forget_bias=0.7, feature_size=3, frequency_skip=1,
    num_frequency_blocks=[2, 3], start_freqindex_list=[0, 3], end_freqindex_list=[4, 8],
    couple_input_forget_gates=True, state_is_tuple=False)
print('blocks sizes:', blocks.state_size, blocks.output_size, blocks.state_tuple_type)
blocks_outs, blocks_state = tf.nn.static_rnn(blocks, steps, dtype=tf.float32,
                                             scope='blocks')
print('blocks:', blocks_outs[-1].shape.as_list(), blocks_state.shape.as_list())
fetch['blocks state'] = blocks_state

plain = tf.contrib.rnn.GridLSTMCell(2, feature_size=4, frequency_skip=4,
                                    num_frequency_blocks=[2])
plain_out, _ = tf.nn.dynamic_rnn(plain, x_any, dtype=tf.float32, scope='plain')
fetch['plain out'] = plain_out[:, -1]

bigrid = tf.contrib.rnn.BidirectionalGridLSTMCell(
    3, use_peepholes=True, feature_size=4, frequency_skip=2, num_frequency_blocks=[3],
    backward_slice_offset=1)
print('bigrid sizes:', bigrid.output_size, len(bigrid.state_size),
      bigrid.state_tuple_type.__name__, bigrid.state_tuple_type._fields[:3],
      bigrid.state_tuple_type._fields[-1])
bigrid_out, bigrid_state = tf.nn.dynamic_rnn(bigrid, x_any, dtype=tf.float32,
                                             scope='bigrid')
print('bigrid:', bigrid_out.shape.as_list(), type(bigrid_state).__name__)
fetch['bigrid out'] = bigrid_out[:, -1]
fetch['bigrid bwd c'] = bigrid_state.bwd_state_f01_b00_c

with tf.variable_scope('init', initializer=tf.constant_initializer(0.1)):
    given = tf.contrib.rnn.GridLSTMCell(
        2, initializer=tf.constant_initializer(0.5), feature_size=8, frequency_skip=1,
        num_frequency_blocks=[1])
    given_out, _ = tf.nn.dynamic_rnn(given, x, dtype=tf.float32)
    fetch['scope initializer out'] = given_out[:, -1]

def error(label, make):
    try:
        make()
    except ValueError as e:
        print(label, [line for line in str(e).splitlines() if line.strip()][-1].strip())


error('no blocks:', lambda: tf.contrib.rnn.GridLSTMCell(2, feature_size=4, frequency_skip=2))
error('block count:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, feature_size=4, frequency_skip=2,
                                num_frequency_blocks=[2]), x, dtype=tf.float32, scope='e1'))
error('list count:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, feature_size=4, frequency_skip=2,
                                num_frequency_blocks=[3, 1]), x, dtype=tf.float32,
    scope='e2'))
error('index block count:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, feature_size=2, frequency_skip=1,
                                num_frequency_blocks=[2, 2], start_freqindex_list=[0, 4],
                                end_freqindex_list=[4, 8]), x, dtype=tf.float32,
    scope='e3'))
error('index lists:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, feature_size=2, frequency_skip=1,
                                num_frequency_blocks=[2], start_freqindex_list=[0],
                                end_freqindex_list=[4, 8]), x, dtype=tf.float32,
    scope='e5'))
error('index blocks:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, feature_size=2, frequency_skip=1,
                                num_frequency_blocks=[2], start_freqindex_list=[0, 4],
                                end_freqindex_list=[4, 8]), x, dtype=tf.float32,
    scope='e6'))
error('nas depth:', lambda: tf.contrib.rnn.NASCell(2)(
    tf.placeholder(tf.float32, [2, None]), nas.zero_state(2, tf.float32)))
error('shards:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GridLSTMCell(2, num_unit_shards=20, feature_size=8, frequency_skip=1,
                                num_frequency_blocks=[1]), x, dtype=tf.float32,
    scope='e4'))
for v in tf.global_variables():
    print('var', v.op.name, v.shape.as_list())
loss = (tf.reduce_mean(tf.square(nas_out)) + tf.reduce_mean(tf.square(proj_outs[-1]))
        + tf.reduce_mean(tf.square(grid_out)) + tf.reduce_mean(tf.square(blocks_outs[-1]))
        + tf.reduce_mean(tf.square(plain_out)) + tf.reduce_mean(tf.square(bigrid_out)))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
feed = {x_any: data}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for name, value in sorted(sess.run(fetch, feed).items()):
        print(name + ':', value.shape, value.ravel()[:12])
    print('loss before: %.6f' % sess.run(loss, feed))
    sess.run(train, feed)
    print('loss after: %.6f' % sess.run(loss, feed))
