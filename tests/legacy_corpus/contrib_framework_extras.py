"""tf.contrib.framework's re-exports of TF core that TF1 code called through contrib:
smart_cond / smart_case / smart_constant_value with Python and tensor predicates,
get_name_scope, prepend_name_scope / strip_name_scope, assert_scalar /
assert_same_float_dtype, TensorSpec, the deprecated decorator, the convolutional
orthogonal initializers (shape and orthogonality)."""
import numpy as np
import tensorflow as tf

fw = tf.contrib.framework
x = tf.constant(3.0)
flag = tf.placeholder(tf.bool, [])
static = fw.smart_cond(True, lambda: x * 2, lambda: x * 3)
dynamic = fw.smart_cond(flag, lambda: x * 2, lambda: x * 3)
case = fw.smart_case([(tf.constant(False), lambda: x), (True, lambda: x + 1)],
                     default=lambda: x - 1)
print('smart_constant_value:', fw.smart_constant_value(True), fw.smart_constant_value(flag))
with tf.name_scope('outer'):
    with tf.name_scope('inner'):
        print('get_name_scope:', fw.get_name_scope())
print('prepend:', fw.prepend_name_scope('a/b:0', 'import'),
      'strip:', fw.strip_name_scope('import/a/b:0', 'import'))
print('assert_scalar:', fw.assert_scalar(x).name == x.name)
print('same float dtype:', fw.assert_same_float_dtype([x, tf.constant([1.0])]).name)
try:
    fw.assert_same_float_dtype([x, tf.constant([1], tf.float64)])
except ValueError as e:
    print('mixed dtypes:', type(e).__name__)
spec = fw.TensorSpec([None, 2], tf.float32, 'inputs')
print('spec:', spec.shape.as_list(), spec.dtype.name, spec.name)


@fw.deprecated('2018-01-01', 'Use new_fn instead.')
def old_fn(a):
    return a + 1


print('deprecated fn:', old_fn(1), 'DEPRECATED' in old_fn.__doc__)
kernel = tf.get_variable('k', [3, 3, 4, 4], initializer=fw.convolutional_orthogonal_2d(seed=1))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print('smart_cond:', sess.run(static), sess.run(dynamic, {flag: False}),
          sess.run(case))
    k = sess.run(kernel)
    # The 2-D FFT of an orthogonal convolution kernel is unitary at every frequency.
    spectra = np.fft.fft2(k, axes=(0, 1))
    unitary = all(np.allclose(spectra[i, j].conj().T @ spectra[i, j], np.eye(4), atol=1e-4)
                  for i in range(3) for j in range(3))
    print('orthogonal kernel:', list(k.shape), unitary)
