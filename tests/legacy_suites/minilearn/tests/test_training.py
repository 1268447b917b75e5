import numpy as np
import tensorflow as tf

from minilearn import layers, objectives


def test_graph_fixture_is_the_default_graph(graph):
    assert tf.get_default_graph() is graph
    assert graph.seed == 1234


def test_placeholder_shape(graph):
    p = tf.placeholder(tf.float32, [None, 3])
    assert p.get_shape().as_list() == [None, 3]


def test_xor_loss_decreases(sess, xor_data):
    X, Y = xor_data
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    hidden = layers.fully_connected(x, 8, activation=tf.nn.tanh, name="hidden",
                                    weights_init=tf.random_normal_initializer(stddev=0.5))
    out = layers.fully_connected(hidden, 1, name="out",
                                 weights_init=tf.random_normal_initializer(stddev=0.5))
    loss = objectives.mean_square(out, y)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    sess.run(tf.global_variables_initializer())
    first = sess.run(loss, {x: X, y: Y})
    for _ in range(50):
        sess.run(train_op, {x: X, y: Y})
    last = sess.run(loss, {x: X, y: Y})
    assert last < first


def test_numpy_of_its_time(sess):
    total = sess.run(tf.reduce_sum(tf.constant([1.0, 2.0])))
    assert np.asscalar(np.array([total])) == 3.0
