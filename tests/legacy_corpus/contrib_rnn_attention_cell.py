"""tf.contrib.rnn.AttentionCellWrapper as TF1 sequence models used it:
`AttentionCellWrapper(LSTMCell(5), attn_length=3, state_is_tuple=True)` in dynamic_rnn
(state sizes, TF1's variable names and shapes, outputs and the attention read), a GRU with
attn_size / attn_vec_size and a concatenated state, in a MultiRNNCell, three SGD steps on
a regression loss; the errors of attn_length 0 and a tuple state without state_is_tuple."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.linspace(-1, 1, 2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3))
init = tf.random_uniform_initializer(-0.5, 0.5, seed=1)
with tf.variable_scope('m', initializer=init):
    cell = tf.contrib.rnn.AttentionCellWrapper(tf.nn.rnn_cell.LSTMCell(5), attn_length=3,
                                               state_is_tuple=True)
    print('sizes:', cell.state_size, cell.output_size)
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.variable_scope('g', initializer=init):
    cell2 = tf.contrib.rnn.AttentionCellWrapper(tf.nn.rnn_cell.GRUCell(4), attn_length=2,
                                                attn_size=3, attn_vec_size=6,
                                                state_is_tuple=False)
    print('sizes2:', cell2.state_size, cell2.output_size)
    out2, st2 = tf.nn.dynamic_rnn(cell2, x, dtype=tf.float32)
with tf.variable_scope('stack', initializer=init):
    layers = [tf.contrib.rnn.AttentionCellWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), 2)
              for _ in range(2)]
    out3, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(layers), x, dtype=tf.float32)
loss = tf.reduce_mean(tf.square(out[:, -1] - 0.5)) + tf.reduce_mean(tf.square(out3 - 0.1))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
for v in tf.global_variables():
    print('var:', v.name, v.shape.as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s, o2, s2 = sess.run([out, st, out2, st2])
    print('out: %s' % ' '.join('%.5f' % v for v in o[:, -1].ravel()))
    print('state attns: %s' % ' '.join('%.5f' % v for v in s[1].ravel()))
    print('state window shape:', s[2].shape)
    print('out2: %s' % ' '.join('%.5f' % v for v in o2[:, -1].ravel()))
    print('state2 shape:', s2.shape)
    for step in range(3):
        l, _ = sess.run([loss, train])
        print('step %d loss: %.5f' % (step, l))

for label, build in [
        ('attn_length 0', lambda: tf.contrib.rnn.AttentionCellWrapper(
            tf.nn.rnn_cell.GRUCell(2), 0)),
        ('tuple state not as tuple', lambda: tf.contrib.rnn.AttentionCellWrapper(
            tf.nn.rnn_cell.LSTMCell(2), 2, state_is_tuple=False))]:
    try:
        build()
        print(label, ': no error')
    except ValueError as e:
        print(label, ': ValueError', e)
