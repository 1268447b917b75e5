"""A seeded RNN tagger as 2017 scripts built one: tf.set_random_seed alone, an LSTM and a
GRU through dynamic_rnn, BasicLSTMCell in static_rnn, a dense layer after them; every
initial weight and one training step's loss come from the graph's implicit op seeds."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
tf.set_random_seed(42)
x = tf.placeholder(tf.float32, [None, 4, 3])
lengths = tf.placeholder(tf.int32, [None])
with tf.variable_scope("lstm"):
    lstm_out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(5), x, sequence_length=lengths,
                                    dtype=tf.float32)
with tf.variable_scope("gru"):
    gru_out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), lstm_out,
                                   sequence_length=lengths, dtype=tf.float32)
with tf.variable_scope("static"):
    steps = tf.unstack(x, axis=1)
    static_out, _ = tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(2), steps, dtype=tf.float32)
logits = tf.layers.dense(tf.concat([gru_out[:, -1], static_out[-1]], 1), 2)
loss = tf.reduce_mean(tf.square(logits - 1.0))
train = tf.train.AdamOptimizer(0.1).minimize(loss)
feed = {x: np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 4, 3), lengths: [4, 2]}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tf.trainable_variables():
        print(v.op.name, sess.run(v).ravel()[:3])
    print("loss: %.5f" % sess.run(loss, feed))
    sess.run(train, feed)
    print("after a step: %.5f" % sess.run(loss, feed))
