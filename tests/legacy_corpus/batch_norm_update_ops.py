"""tf.layers.batch_normalization(training=...) with tf.get_collection(tf.GraphKeys.UPDATE_OPS)
as control dependencies of the train op (the classic batch-norm idiom)."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
training = tf.placeholder(tf.bool, [])
h = tf.layers.dense(x, 3, kernel_initializer=tf.constant_initializer(np.eye(3) * 1.0),
                    use_bias=False)
bn = tf.layers.batch_normalization(h, training=training, momentum=0.5)
loss = tf.reduce_mean(tf.square(bn - 1.0))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
print('update ops: %d' % len(update_ops))
moving_mean = [v for v in tf.global_variables() if 'moving_mean' in v.name][0]

data = np.array([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        sess.run(train_op, feed_dict={x: data, training: True})
    print('moving_mean: %s' % ' '.join('%.4f' % v for v in sess.run(moving_mean)))
    out = sess.run(bn, feed_dict={x: data, training: False})
    print('inference output shape: %s' % list(out.shape))
