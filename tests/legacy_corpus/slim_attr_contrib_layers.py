"""slim = tf.contrib.slim; tf.contrib.layers.xavier_initializer / l2_regularizer / batch_norm;
tf.contrib.framework.get_variables_to_restore."""
import numpy as np
import tensorflow as tf

slim = tf.contrib.slim

tf.set_random_seed(42)
x = tf.placeholder(tf.float32, [None, 6])
is_training = tf.placeholder(tf.bool, [])
w = tf.get_variable('w', [6, 4], initializer=tf.contrib.layers.xavier_initializer(),
                    regularizer=tf.contrib.layers.l2_regularizer(0.1))
h = tf.matmul(x, w)
h = tf.contrib.layers.batch_norm(h, is_training=is_training, updates_collections=None, scope='bn')
out = slim.fully_connected(h, 1, activation_fn=None,
                           weights_initializer=tf.constant_initializer(0.25), scope='out')
limit = np.sqrt(6.0 / (6 + 4))

restore = tf.contrib.framework.get_variables_to_restore(exclude=['out'])
print('to restore: %s' % ' '.join(sorted(v.op.name for v in restore)))
print('reg losses: %d' % len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    wv = sess.run(w)
    print('xavier within limit: %s' % bool((np.abs(wv) <= limit).all()))
    print('xavier nonconstant: %s' % bool(wv.std() > 0))
    feed = {x: np.arange(12, dtype=np.float32).reshape(2, 6), is_training: True}
    o = sess.run(out, feed_dict=feed)
    print('out (bn-normalized, sums to 0): %.4f' % float(o.sum()))
    mm = sess.run(tf.get_default_graph().get_tensor_by_name('bn/moving_mean:0'))
    print('moving_mean updated: %s' % bool(np.abs(mm).sum() > 0))
