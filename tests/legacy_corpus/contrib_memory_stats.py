"""tf.contrib.memory_stats: peak memory of a training step, as StyleGAN and tensorpack read it."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.memory_stats import BytesInUse, MaxBytesInUse

peak = tf.contrib.memory_stats.MaxBytesInUse()
in_use = BytesInUse()
limit = tf.contrib.memory_stats.BytesLimit()
print(peak)
print(in_use)
print(limit)
print("names:", sorted(n for n in dir(tf.contrib.memory_stats) if not n.startswith("_")))

x = tf.placeholder(tf.float32, [None, 512])
w = tf.Variable(tf.ones([512, 512]) * 0.01)
h = tf.nn.relu(tf.matmul(x, w))
loss = tf.reduce_mean(tf.square(h))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.control_dependencies([train]):
    peak_after = MaxBytesInUse()
print(peak_after.op.name, peak_after.dtype.name, peak_after.shape)

batch = np.ones([256, 512], np.float32)
with tf.Session() as sess:
    try:  # TF 1.15 had GPU kernels only: on a CPU every run of this graph failed
        sess.run(tf.global_variables_initializer())
        got_peak = sess.run(peak_after, {x: batch})
        now, cap = sess.run([in_use, limit])
        activations = batch.nbytes  # h and its gradient are this large each
        print("peak covers one activation:", got_peak >= activations)
        print("in use within peak:", 0 <= now <= sess.run(peak))
        print("limit above peak:", cap > got_peak)
        print("types:", type(got_peak).__name__, type(cap).__name__)
    except tf.errors.InvalidArgumentError as e:
        print("memory_stats unavailable:", type(e).__name__)
