"""tf.InteractiveSession: Tensor.eval(), Operation.run(), Variable.initializer.run()."""
import tensorflow as tf

sess = tf.InteractiveSession()
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable(tf.ones([2, 2]), name='b')
c = tf.matmul(a, b)
tf.global_variables_initializer().run()
print('c: %s' % c.eval().tolist())
print('sum: %g' % tf.reduce_sum(c).eval())
b.assign(b * 3.0).op.run()
print('b after assign: %s' % b.eval().tolist())
x = tf.placeholder(tf.float32)
print('feed eval: %g' % (x * 10.0).eval(feed_dict={x: 4.2}))
print('default session is sess: %s' % (tf.get_default_session() is sess))
sess.close()
