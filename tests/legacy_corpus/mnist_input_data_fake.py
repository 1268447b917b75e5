"""input_data.read_data_sets(dir, one_hot=True, fake_data=True) + softmax regression (the
'MNIST for ML beginners' idiom), with next_batch(batch, fake_data=True)."""
import sys

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

data_dir = sys.argv[1] if len(sys.argv) > 1 else 'MNIST_data/'
mnist = input_data.read_data_sets(data_dir, one_hot=True, fake_data=True)
print('num train examples: %d' % mnist.train.num_examples)
bx, by = mnist.train.next_batch(3, fake_data=True)
print('batch: %d x %d labels %s' % (len(bx), len(bx[0]), by[0]))

x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
y = tf.nn.softmax(tf.matmul(x, W) + b)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(0.001).minimize(cross_entropy)
sess = tf.InteractiveSession()
tf.global_variables_initializer().run()
for _ in range(3):
    batch_xs, batch_ys = mnist.train.next_batch(10, fake_data=True)
    print('loss: %.6f' % sess.run(cross_entropy, feed_dict={x: batch_xs, y_: batch_ys}))
    sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
tx, ty = mnist.test.next_batch(5, fake_data=True)
print('accuracy: %g' % sess.run(accuracy, feed_dict={x: tx, y_: ty}))
