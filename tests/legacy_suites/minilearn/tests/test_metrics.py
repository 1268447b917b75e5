import unittest

import numpy as np
import tensorflow as tf

import minilearn


class TestMetrics(unittest.TestCase):
    """Metric ops in their own graph and session, the way tflearn's tests were written."""

    def test_binary_accuracy(self):
        with tf.Graph().as_default():
            input_data = tf.placeholder(shape=[None, 1], dtype=tf.float32)
            y_true = tf.placeholder(shape=[None, 1], dtype=tf.float32)
            acc_op = minilearn.metrics.binary_accuracy(input_data, y_true)

            X = np.array([1, -1, 1, 1, -1, -1]).reshape([-1, 1])
            Y = np.array([1, 0, 1, 0, 0, 1]).reshape([-1, 1])
            with tf.Session() as sess:
                binary_accuracy = sess.run(acc_op, feed_dict={input_data: X, y_true: Y})
                print("binary_accuracy = %s" % binary_accuracy)
            self.assertTrue(acc_op.op.name.startswith("binary_acc/"))
            self.assertLess(abs(binary_accuracy - 4.0 / 6), 0.0001)

    def test_categorical_accuracy(self):
        with tf.Graph().as_default():
            input_data = tf.placeholder(shape=[None, 2], dtype=tf.float32)
            y_true = tf.placeholder(shape=[None, 2], dtype=tf.float32)
            acc_op = minilearn.metrics.categorical_accuracy(input_data, y_true)

            X = np.array([1, -1, -1, 1, 0.5, 0]).reshape([-1, 2])
            Y = np.array([1, 0, 0, 1, 0, 1]).reshape([-1, 2])
            with tf.Session() as sess:
                accuracy = sess.run(acc_op, feed_dict={input_data: X, y_true: Y})
            self.assertEqual(acc_op.op.name, "acc")
            self.assertLess(abs(accuracy - 2.0 / 3), 0.0001)

    def test_crossentropy_is_positive(self):
        with tf.Graph().as_default():
            logits = tf.constant([[2.0, 1.0], [0.5, 1.5]])
            labels = tf.constant([[1.0, 0.0], [0.0, 1.0]])
            loss = minilearn.objectives.softmax_categorical_crossentropy(logits, labels)
            with tf.Session() as sess:
                res = sess.run(loss)
        self.assertGreater(res, 0.)
        self.assertLess(res, 1.)


if __name__ == "__main__":
    unittest.main()
