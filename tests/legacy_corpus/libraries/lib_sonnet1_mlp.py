"""Sonnet 1's quick start: an MLP module connected to a placeholder, trained in a Session."""
import numpy as np
import sonnet as snt
import tensorflow as tf

tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 3])
init = {"w": tf.truncated_normal_initializer(stddev=0.5, seed=3),
        "b": tf.constant_initializer(0.1)}
mlp = snt.nets.MLP([8, 4], initializers=init, activate_final=False)
y = mlp(x)
linear = snt.Linear(2, initializers=init, name="head")
z = linear(y)
loss = tf.reduce_mean(tf.square(z))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
print("variables:", " ".join(v.name for v in tf.trainable_variables()))
print("connected:", mlp.is_connected, mlp.output_size, linear.output_size)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 6.0}
    for step in range(3):
        value, _ = sess.run([loss, train], feed)
        print("step %d loss %.6f" % (step, value))
    print("z:", " ".join("%.5f" % v for v in np.ravel(sess.run(z, feed))))
