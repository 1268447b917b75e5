"""tf.nn.rnn_cell.* (LSTMCell, GRUCell, DropoutWrapper, MultiRNNCell) + tf.nn.dynamic_rnn with sequence_length."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 2])
seq_len = tf.placeholder(tf.int32, [None])
with tf.variable_scope('rnn', initializer=tf.constant_initializer(0.2)):
    cells = [tf.nn.rnn_cell.LSTMCell(3, use_peepholes=False),
             tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(4), output_keep_prob=1.0)]
    cell = tf.nn.rnn_cell.MultiRNNCell(cells)
    init = cell.zero_state(2, tf.float32)
    outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=seq_len, initial_state=init)
print('outputs shape: %s' % outputs.get_shape().as_list())
print('state sizes: %s' % str(cell.state_size))

data = np.ones((2, 5, 2), np.float32) * 0.5
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s = sess.run([outputs, state], feed_dict={x: data, seq_len: [5, 2]})
    print('padded steps zero: %s' % bool((o[1, 2:] == 0).all()))
    print('final gru state == last valid output: %s' % bool(np.allclose(s[1][1], o[1, 1])))
    print('output[0,-1]: %s' % ' '.join('%.6f' % v for v in o[0, -1]))
    print('output[1,1]: %s' % ' '.join('%.6f' % v for v in o[1, 1]))
