"""Non-fused batch norm, three ways TF1 code asked for it: tf.contrib.layers.batch_norm(
fused=False) on a 4-D input, tf-slim's batch_norm with a tensor is_training (its own
moments path), tf.layers.batch_normalization(fused=False); three SGD steps each with the
update ops, then the moving statistics, gamma/beta and the outputs in both modes."""
import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim


def show(name, values):
    print('%s: %s' % (name, ' '.join('%.6f' % v for v in np.ravel(values))))


def batches():
    base = np.arange(2 * 2 * 2 * 3, dtype=np.float32).reshape([2, 2, 2, 3])
    return [np.sin(base * (k + 1)) * (k + 2) + k for k in range(3)]


def run(name, build, feed_extra=None):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, 2, 2, 3])
        training = tf.placeholder_with_default(True, [])
        out, infer = build(x, training)
        weights = tf.constant(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape([2, 2, 3]))
        loss = tf.reduce_sum(out * weights)
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        names = sorted(v.op.name for v in tf.global_variables())
        print('%s variables: %s' % (name, ' '.join(names)))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            data = batches()
            for step, batch in enumerate(data):
                value, _ = sess.run([out, train], {x: batch})
                show('%s step %d train out' % (name, step), value[0, 0, 0])
            for var in sorted(tf.global_variables(), key=lambda v: v.op.name):
                show('%s %s' % (name, var.op.name), sess.run(var))
            show('%s train out' % name, sess.run(out, {x: data[0]})[1, 1, 1])
            show('%s infer out' % name, sess.run(infer, {x: data[0], training: False})[1, 1, 1])


def contrib_layers(x, training):
    out = tf.contrib.layers.batch_norm(x, decay=0.9, center=True, scale=True, fused=False,
                                       is_training=True, scope='bn')
    infer = tf.contrib.layers.batch_norm(x, decay=0.9, center=True, scale=True,
                                         fused=False, is_training=False, scope='bn',
                                         reuse=True)
    return out, infer


def slim_tensor_training(x, training):
    out = slim.batch_norm(x, decay=0.8, scale=True, fused=False, is_training=training,
                          epsilon=0.01, scope='slim_bn')
    return out, out


def tf_layers(x, training):
    out = tf.layers.batch_normalization(x, momentum=0.7, fused=False, training=training,
                                        name='layers_bn')
    return out, out


run('contrib', contrib_layers)
run('slim', slim_tensor_training)
run('layers', tf_layers)
