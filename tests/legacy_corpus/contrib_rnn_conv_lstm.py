"""tf.contrib.rnn.ConvLSTMCell as video / radar-nowcasting models used it: a 2-D
ConvLSTMCell(conv_ndims=2, input_shape, output_channels, kernel_shape) in dynamic_rnn
(state and output sizes, TF1's variable names and shapes, outputs, cell state, three SGD
steps), Conv1DLSTMCell without bias, with skip_connection and forget_bias (one step; in
dynamic_rnn TF 1.15 refused it), Conv3DLSTMCell with initializers (which TF 1.15 did not
use)."""
import numpy as np
import tensorflow as tf
x = tf.constant(np.linspace(-1, 1, 2 * 3 * 4 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 4, 2))
init = tf.random_uniform_initializer(-0.5, 0.5, seed=1)
with tf.variable_scope('c2', initializer=init):
    cell = tf.contrib.rnn.ConvLSTMCell(conv_ndims=2, input_shape=[4, 4, 2], output_channels=3, kernel_shape=[3, 3])
    print('sizes:', cell.state_size, cell.output_size)
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
x1 = tf.constant(np.linspace(-1, 1, 2 * 3 * 5 * 2, dtype=np.float32).reshape(2, 3, 5, 2))
with tf.variable_scope('c1', initializer=init):
    cell1 = tf.contrib.rnn.Conv1DLSTMCell(input_shape=[5, 2], output_channels=2, kernel_shape=[3], use_bias=False, skip_connection=True, forget_bias=0.5)
    print('sizes1:', cell1.state_size, cell1.output_size)
    out1, st1 = cell1(x1[:, 0], cell1.zero_state(2, tf.float32))
    try:
        tf.nn.dynamic_rnn(cell1, x1, dtype=tf.float32)
    except ValueError as e:
        print('skip connection in dynamic_rnn: ValueError')
for v in tf.global_variables():
    print('var:', v.name, v.shape.as_list())
loss = tf.reduce_mean(tf.square(out - 0.2))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s, o1 = sess.run([out, st, out1])
    for step in range(3):
        print('step %d loss: %.5f' % (step, sess.run([loss, train])[0]))
    print('out:', ' '.join('%.5f' % v for v in o[:, -1, 1, 2].ravel()))
    print('c:', ' '.join('%.5f' % v for v in s.c[1, 0].ravel()))
    print('out1:', ' '.join('%.5f' % v for v in o1[:, 2].ravel()))
with tf.variable_scope('c3', initializer=init):
    c3 = tf.contrib.rnn.Conv3DLSTMCell(input_shape=[2, 2, 2, 1], output_channels=1, kernel_shape=[2, 2, 2], initializers=tf.ones_initializer())
    o3, _ = c3(tf.ones([1, 2, 2, 2, 1]), c3.zero_state(1, tf.float32))
    print('c3 vars:', [(v.name, v.shape.as_list()) for v in tf.global_variables() if v.name.startswith('c3')])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print('out3:', ' '.join('%.5f' % v for v in sess.run(o3).ravel()))
