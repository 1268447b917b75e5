"""Gradient clipping: compute_gradients / clip_by_global_norm / apply_gradients(global_step=...)."""
import tensorflow as tf

w = tf.Variable([3.0, 4.0], name='w')
b = tf.Variable(12.0, name='b')
loss = 0.5 * tf.reduce_sum(tf.square(w)) + 0.5 * tf.square(b)  # grads: w, b -> norm 13
global_step = tf.Variable(0, trainable=False, name='global_step')
opt = tf.train.GradientDescentOptimizer(learning_rate=1.0)
grads_and_vars = opt.compute_gradients(loss)
grads, variables = zip(*grads_and_vars)
clipped, global_norm = tf.clip_by_global_norm(grads, clip_norm=1.3)
train_op = opt.apply_gradients(zip(clipped, variables), global_step=global_step)
capped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in grads_and_vars]
by_norm = tf.clip_by_norm(grads[0], 2.5)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print('global norm: %.4f' % sess.run(global_norm))
    print('clipped: %s' % ' '.join('%.4f' % float(v) for g in sess.run(list(clipped)) for v in (g.ravel() if hasattr(g, 'ravel') else [g])))
    print('capped w grad: %s' % sess.run(capped[0][0]).tolist())
    print('clip_by_norm: %s' % ' '.join('%.4f' % v for v in sess.run(by_norm)))
    sess.run(train_op)
    print('after step w: %s b: %.4f step: %d' % (' '.join('%.4f' % v for v in sess.run(w)),
                                                 sess.run(b), sess.run(global_step)))
