"""The 'Deep MNIST for experts' idiom: weight_variable/bias_variable helpers with tf.truncated_normal,
tf.nn.conv2d/max_pool with stride lists, tf.nn.dropout(keep_prob=...), tf.argmax accuracy."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(1234)
np.random.seed(0)


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')


def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')


x = tf.placeholder(tf.float32, [None, 64])
y_ = tf.placeholder(tf.float32, [None, 2])
keep_prob = tf.placeholder(tf.float32)
x_image = tf.reshape(x, [-1, 8, 8, 1])
W_conv1 = weight_variable([3, 3, 1, 4])
h_conv1 = tf.nn.relu(conv2d(x_image, W_conv1) + bias_variable([4]))
h_pool1 = max_pool_2x2(h_conv1)
h_flat = tf.reshape(h_pool1, [-1, 4 * 4 * 4])
h_drop = tf.nn.dropout(h_flat, keep_prob)
y_conv = tf.matmul(h_drop, weight_variable([64, 2])) + bias_variable([2])
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
train_step = tf.train.AdamOptimizer(1e-2).minimize(cross_entropy)
correct = tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

xs = np.random.rand(8, 64).astype(np.float32)
labels = (xs[:, :32].sum(1) > xs[:, 32:].sum(1)).astype(int)
ys = np.eye(2, dtype=np.float32)[labels]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    w0 = sess.run(W_conv1)
    print('truncated normal within 2 stddev: %s' % bool((np.abs(w0) <= 0.2).all()))
    first = sess.run(cross_entropy, {x: xs, y_: ys, keep_prob: 1.0})
    for i in range(20):
        sess.run(train_step, feed_dict={x: xs, y_: ys, keep_prob: 1.0})
    last, acc = sess.run([cross_entropy, accuracy], {x: xs, y_: ys, keep_prob: 1.0})
    print('loss decreased: %s' % (last < first))
    print('train accuracy >= 0.75: %s' % (acc >= 0.75))
    kept = sess.run(h_drop, {x: xs, keep_prob: 0.5})
    print('dropout zeroed some: %s' % bool((kept == 0).sum() > (sess.run(h_flat, {x: xs}) == 0).sum()))
