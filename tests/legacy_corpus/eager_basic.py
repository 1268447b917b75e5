"""Eager execution: tf.enable_eager_execution() at the top, eager ops, .numpy(), GradientTape."""
import numpy as np
import tensorflow as tf

tf.enable_eager_execution()

print('executing eagerly: %s' % tf.executing_eagerly())
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.matmul(a, a)
print('matmul: %s' % b.numpy().tolist())
print('reduce_sum: %g' % tf.reduce_sum(a, reduction_indices=[0, 1]).numpy())
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = v * v * v
print('dy/dv: %g' % tape.gradient(y, v).numpy())
ds = tf.data.Dataset.from_tensor_slices(np.arange(4)).map(lambda t: t * t)
print('dataset: %s' % [int(t.numpy()) for t in ds])
opt = tf.train.GradientDescentOptimizer(0.1)
w = tf.Variable(5.0)
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.square(w)
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
print('w after 3 steps: %.4f' % w.numpy())
print('python value: %s' % (int(tf.add(1, 2)) == 3))
