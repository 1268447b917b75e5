"""tf.contrib.rnn: BasicLSTMCell, MultiRNNCell, static_rnn over tf.unstack'ed inputs; dynamic_rnn."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn

num_steps, batch, n_in, n_hidden = 4, 2, 3, 5
x = tf.placeholder(tf.float32, [batch, num_steps, n_in])
inputs = tf.unstack(x, num_steps, 1)

with tf.variable_scope('static', initializer=tf.constant_initializer(0.1)):
    cell = rnn.MultiRNNCell([rnn.BasicLSTMCell(n_hidden, forget_bias=1.0) for _ in range(2)])
    outputs, states = rnn.static_rnn(cell, inputs, dtype=tf.float32)

with tf.variable_scope('dynamic', initializer=tf.constant_initializer(0.1)):
    lstm = tf.contrib.rnn.BasicLSTMCell(n_hidden, state_is_tuple=True)
    d_out, d_state = tf.nn.dynamic_rnn(lstm, x, dtype=tf.float32)

print('static outputs: %d x %s' % (len(outputs), outputs[-1].get_shape().as_list()))
print('num layers: %d' % len(states))
print('state is LSTMStateTuple: %s' % isinstance(states[0], tf.contrib.rnn.LSTMStateTuple))
print('dynamic outputs shape: %s' % d_out.get_shape().as_list())
print('variables: %s' % ' '.join(v.op.name for v in tf.trainable_variables()))

data = np.linspace(-1, 1, batch * num_steps * n_in).reshape(batch, num_steps, n_in).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s, do, ds = sess.run([outputs[-1], states[-1], d_out, d_state], feed_dict={x: data})
    print('static last output: %s' % ' '.join('%.6f' % v for v in o[0]))
    print('static last c: %s' % ' '.join('%.6f' % v for v in s.c[1]))
    print('dynamic last output: %s' % ' '.join('%.6f' % v for v in do[1, -1]))
    print('dynamic h == last output: %s' % bool(np.allclose(ds.h, do[:, -1])))
