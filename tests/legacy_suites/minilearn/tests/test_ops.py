import numpy as np
import tensorflow as tf


class GraphOpsTest(tf.test.TestCase):

    def testPlaceholderFeed(self):
        with self.test_session() as sess:
            x = tf.placeholder(tf.float32, shape=[None, 2])
            y = tf.reduce_sum(x * 2.0, axis=1)
            self.assertAllClose(sess.run(y, feed_dict={x: [[1., 2.], [3., 4.]]}),
                                [6., 14.])

    def testVariableAssign(self):
        with self.cached_session() as sess:
            v = tf.Variable(1.0, name="v")
            inc = tf.assign_add(v, 2.0)
            sess.run(tf.global_variables_initializer())
            sess.run(inc)
            self.assertAllEqual(v.eval(), 3.0)
            self.assertEqual(v.op.name, "v")

    def testGradients(self):
        with self.session():
            x = tf.constant([1.0, 2.0, 3.0])
            grad, = tf.gradients(tf.reduce_sum(tf.square(x)), [x])
            self.assertAllClose(grad.eval(), np.array([2.0, 4.0, 6.0]))

    def testSeededRandomShape(self):
        with self.test_session() as sess:
            sample = sess.run(tf.random_normal([2, 3]))
            print("seeded sample", sample.round(5).tolist())
            self.assertEqual(sample.shape, (2, 3))
            self.assertAllEqual(np.isfinite(sample), np.ones((2, 3), dtype=bool))


if __name__ == "__main__":
    tf.test.main()
