"""Control flow: tf.cond, tf.while_loop (with shape_invariants), tf.case, gradient through while_loop."""
import tensorflow as tf

x = tf.placeholder(tf.float32, [])
y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 100.0)
pred_fn = tf.case([(tf.less(x, 0.0), lambda: tf.constant(-1)),
                   (tf.equal(x, 0.0), lambda: tf.constant(0))], default=lambda: tf.constant(1))

i0 = tf.constant(0)
acc0 = tf.constant(1.0)
i_final, acc_final = tf.while_loop(lambda i, a: i < 5, lambda i, a: (i + 1, a * 2.0), [i0, acc0])

def body(i, v):
    return i + 1, tf.concat([v, tf.expand_dims(tf.cast(i, tf.float32), 0)], 0)
_, grown = tf.while_loop(lambda i, v: i < 4, body, [tf.constant(0), tf.zeros([0])],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])

w = tf.Variable(1.5)
_, powered = tf.while_loop(lambda i, p: i < 3, lambda i, p: (i + 1, p * w), [0, tf.constant(1.0)])
grad = tf.gradients(powered, w)[0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print('cond(3): %g' % sess.run(y, {x: 3.0}))
    print('cond(-1): %g' % sess.run(y, {x: -1.0}))
    print('case: %s' % ' '.join(str(sess.run(pred_fn, {x: v})) for v in (-2.0, 0.0, 5.0)))
    print('while: %d %g' % tuple(sess.run([i_final, acc_final])))
    print('grown: %s' % ' '.join('%g' % v for v in sess.run(grown)))
    print('w^3: %.4f d/dw: %.4f' % tuple(sess.run([powered, grad])))
