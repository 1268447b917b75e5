"""tf.contrib.framework.zero_initializer: sets a variable that has no value yet (ref and
resource variables) to zeros of its shape and dtype and returns the variable's value (a
resource variable's handle); a second run (the variable has a value now) fails, as does
a ref that is not a variable."""
import numpy as np
import tensorflow as tf

a = tf.Variable(tf.ones([2, 3]), name='a')
b = tf.get_variable('b', [4], dtype=tf.int32, initializer=tf.ones_initializer())
c = tf.get_variable('c', [2, 2], dtype=tf.float64, use_resource=True)
init_a = tf.contrib.framework.zero_initializer(a)
init_b = tf.contrib.framework.zero_initializer(b, name='zero_b')
print('names:', init_a.op.name, init_b.op.name)
print('outputs:', init_a.dtype.name, init_a.shape.as_list(), init_b.dtype.name,
      init_b.shape.as_list())
try:
    init_c = tf.contrib.framework.zero_initializer(c)
    print('resource:', init_c.dtype.name, init_c.shape.as_list(), init_c.op.name)
except Exception as e:
    print('resource error:', type(e).__name__)
try:
    tf.contrib.framework.zero_initializer(tf.constant([1.0]))
except Exception as e:
    print('constant:', type(e).__name__)
with tf.Session() as sess:
    print('initialized before:', sess.run(tf.is_variable_initialized(a)))
    value = sess.run(init_a)
    print('returned:', value.tolist())
    print('a now:', sess.run(a).tolist())
    print('b now:', sess.run(init_b).tolist(), sess.run(b).dtype)
    print('initialized after:', sess.run(tf.is_variable_initialized(a)))
    sess.run(init_c.op)
    print('resource now:', sess.run(c).tolist(), sess.run(c).dtype)
    try:
        sess.run(init_c.op)
    except tf.errors.OpError as e:
        print('resource again:', type(e).__name__)
    sess.run(a.assign([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    try:
        sess.run(init_a)
        print('second run: no error', sess.run(a).tolist())
    except tf.errors.OpError as e:
        print('second run:', type(e).__name__)
    sess.run(a.initializer)
    print('after initializer:', sess.run(a).tolist())
