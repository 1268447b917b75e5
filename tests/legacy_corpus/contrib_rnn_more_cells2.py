"""tf.contrib.rnn's IndyLSTMCell, IndyGRUCell, UGRNNCell, IntersectionRNNCell, SRUCell,
PhasedLSTMCell and GLSTMCell, each in tf.nn.dynamic_rnn in a graph seeded only with
tf.set_random_seed, and TimeFreqLSTMCell (one frequency window in dynamic_rnn; three, with
peepholes, cell_clip and two weight shards, in static_rnn from a state of their width):
TF1's variable names and shapes, state sizes, output and final-state values, TF1's
refusals, one SGD step."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=4, suppress=True)
tf.set_random_seed(5)
B, T, D = 3, 4, 5
x = tf.constant(np.cos(0.3 * np.arange(B * T * D)).reshape(B, T, D), tf.float32)
times = tf.constant(np.cumsum(np.full([B, T, 1], 1.5), axis=1), tf.float32)
fetch = {}


def run(label, cell, inputs=x, **kwargs):
    out, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32, scope=label, **kwargs)
    kind = 'tensor' if isinstance(state, tf.Tensor) else type(state).__name__
    print(label + ':', cell.state_size, cell.output_size, out.shape.as_list(), kind)
    fetch[label + ' out'] = out[:, -1]
    for i, part in enumerate(tf.nest.flatten(state)):
        fetch['%s state %d' % (label, i)] = part


run('indy_lstm', tf.contrib.rnn.IndyLSTMCell(4, forget_bias=0.5))
run('indy_gru', tf.contrib.rnn.IndyGRUCell(4))
run('ugrnn', tf.contrib.rnn.UGRNNCell(3, forget_bias=0.8))
run('intersection', tf.contrib.rnn.IntersectionRNNCell(5))
run('intersection_proj', tf.contrib.rnn.IntersectionRNNCell(3, num_in_proj=3))
run('sru', tf.contrib.rnn.SRUCell(4))
run('phased', tf.contrib.rnn.PhasedLSTMCell(4), inputs=(times, x))
run('phased_peep', tf.contrib.rnn.PhasedLSTMCell(3, use_peepholes=True, ratio_on=0.3,
                                                 trainable_ratio_on=False,
                                                 period_init_max=5.0),
    inputs=(times, x))
x6 = tf.concat([x, x[:, :, :1]], 2)
run('glstm', tf.contrib.rnn.GLSTMCell(6, number_of_groups=2), inputs=x6)
run('glstm_proj', tf.contrib.rnn.GLSTMCell(4, num_proj=2, number_of_groups=2), inputs=x6)
run('timefreq', tf.contrib.rnn.TimeFreqLSTMCell(3, feature_size=D, forget_bias=0.5))
windows = tf.contrib.rnn.TimeFreqLSTMCell(2, use_peepholes=True, cell_clip=0.2,
                                          num_unit_shards=2, feature_size=3)
wide_out, wide_state = tf.nn.static_rnn(windows, tf.unstack(x, axis=1),
                                        initial_state=tf.zeros([B, 2 * 2 * 3]),
                                        scope='timefreq_windows')
print('timefreq windows:', windows.state_size, windows.output_size,
      wide_out[-1].shape.as_list(), wide_state.shape.as_list())
fetch['timefreq windows out'] = wide_out[-1]
fetch['timefreq windows state'] = wide_state


def error(label, make):
    try:
        make()
        print(label, 'no error')
    except ValueError as e:
        # TF 1.15's autograph re-raised an error from a cell's call inside a report of
        # its own: the message is its last line, after the error's name
        message = str(e).strip().splitlines()[-1].strip()
        print(label, 'ValueError:', message.replace('ValueError: ', '', 1))


error('intersection size:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.IntersectionRNNCell(4), x, dtype=tf.float32, scope='bad1'))
error('glstm groups:', lambda: tf.contrib.rnn.GLSTMCell(5, number_of_groups=2))
error('glstm proj:', lambda: tf.contrib.rnn.GLSTMCell(4, num_proj=3, number_of_groups=2))
error('glstm input:', lambda: tf.nn.dynamic_rnn(
    tf.contrib.rnn.GLSTMCell(4, number_of_groups=2), x, dtype=tf.float32, scope='bad2'))
error('timefreq depth:', lambda: tf.contrib.rnn.TimeFreqLSTMCell(2, feature_size=2)(
    tf.placeholder(tf.float32, [3, None]), tf.zeros([3, 4])))
error('sru depth:', lambda: tf.contrib.rnn.SRUCell(2)(
    tf.placeholder(tf.float32, [3, None]), tf.zeros([3, 2])))
for v in tf.global_variables():
    print('var', v.op.name, v.shape.as_list(), v in tf.trainable_variables())
loss = tf.add_n([tf.reduce_mean(tf.square(v)) for k, v in sorted(fetch.items())])
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for name, value in sorted(sess.run(fetch).items()):
        print(name + ':', value.shape, value.ravel()[:8])
    print('loss before: %.6f' % sess.run(loss))
    sess.run(train)
    print('loss after: %.6f' % sess.run(loss))
