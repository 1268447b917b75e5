"""variable_scope / get_variable sharing: reuse=True, scope.reuse_variables(), AUTO_REUSE."""
import tensorflow as tf


def linear(x, out_dim):
    w = tf.get_variable('w', [x.get_shape()[1], out_dim],
                        initializer=tf.constant_initializer(0.5))
    b = tf.get_variable('b', [out_dim], initializer=tf.zeros_initializer())
    return tf.matmul(x, w) + b


x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('model'):
    y1 = linear(x, 2)
with tf.variable_scope('model', reuse=True):
    y2 = linear(x, 2)
with tf.variable_scope('other') as scope:
    z1 = linear(x, 1)
    scope.reuse_variables()
    z2 = linear(x, 1)
for _ in range(2):
    with tf.variable_scope('auto', reuse=tf.AUTO_REUSE):
        a = tf.get_variable('counter', [], initializer=tf.ones_initializer())

names = sorted(v.name for v in tf.global_variables())
print('variables: %s' % ' '.join(names))
print('num_variables: %d' % len(names))
try:
    with tf.variable_scope('model'):
        linear(x, 2)
except ValueError as e:
    print('reuse error: %s' % ('already exists' in str(e)))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: [[1., 2., 3.]]}
    r1, r2, s1, s2 = sess.run([y1, y2, z1, z2], feed_dict=feed)
    print('y1: %s' % ' '.join('%.4f' % v for v in r1[0]))
    print('shared: %s %s' % ((r1 == r2).all(), (s1 == s2).all()))
    print('scope name: %s' % tf.get_variable_scope().name)
