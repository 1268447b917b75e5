"""tf.contrib.slim model: import tensorflow.contrib.slim as slim, arg_scope, conv2d/fully_connected."""
import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim


def net(inputs, is_training=True):
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        activation_fn=tf.nn.relu,
                        weights_initializer=tf.truncated_normal_initializer(stddev=0.1, seed=3),
                        weights_regularizer=slim.l2_regularizer(0.0005)):
        with slim.arg_scope([slim.conv2d], padding='SAME', stride=1):
            net = slim.conv2d(inputs, 4, [3, 3], scope='conv1')
            net = slim.max_pool2d(net, [2, 2], scope='pool1')
            net = slim.repeat(net, 2, slim.conv2d, 8, [3, 3], scope='conv2')
            net = slim.flatten(net)
            net = slim.fully_connected(net, 16, scope='fc3')
            net = slim.dropout(net, 0.5, is_training=is_training, scope='dropout3')
            net = slim.fully_connected(net, 2, activation_fn=None, scope='fc4')
    return net


tf.set_random_seed(0)
images = tf.placeholder(tf.float32, [4, 8, 8, 1])
labels = tf.placeholder(tf.int64, [4])
logits = net(images, is_training=False)
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
total_loss = tf.losses.get_total_loss()
train_op = slim.learning.create_train_op(total_loss, tf.train.GradientDescentOptimizer(0.1))

print('model variables: %s' % ' '.join(v.op.name for v in slim.get_model_variables()))
print('regularization losses: %d' % len(tf.losses.get_regularization_losses()))
print('logits shape: %s' % logits.get_shape().as_list())

rng = np.random.RandomState(0)
x = rng.rand(4, 8, 8, 1).astype(np.float32)
y = np.array([0, 1, 0, 1])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = [sess.run(train_op, feed_dict={images: x, labels: y}) for _ in range(5)]
    print('losses: %s' % ' '.join('%.4f' % l for l in losses))
    print('loss decreased: %s' % (losses[-1] < losses[0]))
