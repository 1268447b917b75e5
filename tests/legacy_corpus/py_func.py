"""tf.py_func wrapping numpy code (with set_shape), stateful=False, and a py_func returning two outputs."""
import numpy as np
import tensorflow as tf


def np_softsign_sum(a):
    return (a / (1.0 + np.abs(a))).astype(np.float32)


def split_even_odd(a):
    return a[::2].astype(np.int64), a[1::2].astype(np.int64)


x = tf.placeholder(tf.float32, [None])
y = tf.py_func(np_softsign_sum, [x], tf.float32, stateful=False)
y.set_shape(x.get_shape())
total = tf.reduce_sum(y) * 2.0
ints = tf.constant(np.arange(7), dtype=tf.int64)
even, odd = tf.py_func(split_even_odd, [ints], [tf.int64, tf.int64])
calls = []
def record(v):
    calls.append(int(v))
    return np.int32(len(calls))
counter = tf.py_func(record, [tf.constant(5)], tf.int32)

with tf.Session() as sess:
    print('y: %s' % ' '.join('%.4f' % v for v in sess.run(y, {x: [-3.0, 0.0, 1.0]})))
    print('total: %.4f' % sess.run(total, {x: [1.0, 1.0]}))
    e, o = sess.run([even, odd])
    print('even: %s odd: %s' % (' '.join(str(v) for v in e), ' '.join(str(v) for v in o)))
    print('counter: %d %d' % (sess.run(counter), sess.run(counter)))
    print('calls: %s' % calls)
