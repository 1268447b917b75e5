import tensorflow as tf

from minilearn.layers import fully_connected


class FullyConnectedTest(tf.test.TestCase):

    def testShapeAndVariableNames(self):
        with self.test_session():
            x = tf.placeholder(tf.float32, [None, 3])
            y = fully_connected(x, 2, name="fc1")
            self.assertEqual(y.get_shape().as_list(), [None, 2])
            self.assertEqual([v.name for v in tf.global_variables()],
                             ["fc1/W:0", "fc1/b:0"])

    def testConstantInitialiser(self):
        with self.cached_session() as sess:
            x = tf.constant([[1., 2., 3.]])
            y = fully_connected(x, 2, weights_init=tf.constant_initializer(0.5))
            sess.run(tf.global_variables_initializer())
            self.assertAllClose(sess.run(y), [[3., 3.]])
            self.assertAllClose(y.eval(), [[3., 3.]])

    def testReluOnFedBatch(self):
        with self.session() as sess:
            x = tf.placeholder(tf.float32, [None, 2])
            y = fully_connected(x, 1, activation=tf.nn.relu,
                                weights_init=tf.constant_initializer(-1.0))
            sess.run(tf.global_variables_initializer())
            self.assertAllEqual(sess.run(y, {x: [[1., 1.], [-1., -2.]]}), [[0.], [3.]])

    def testSameScopeTwiceRaises(self):
        with self.test_session():
            x = tf.zeros([1, 2])
            fully_connected(x, 1, name="same")
            with self.assertRaisesRegex(ValueError, "already exists"):
                fully_connected(x, 1, name="same")

    def testEvaluate(self):
        v = tf.Variable([1.0, 2.0])
        self.evaluate(tf.global_variables_initializer())
        self.assertAllClose(self.evaluate(v * 2), [2.0, 4.0])
        self.assertFalse(tf.executing_eagerly())


if __name__ == "__main__":
    tf.test.main()
