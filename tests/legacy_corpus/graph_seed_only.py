"""tf.set_random_seed(N) and nothing else: every random op takes its op seed from the graph,
the way most TF1 scripts were made repeatable."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
tf.set_random_seed(1)
noise = tf.random_normal([3])
embedding = tf.Variable(tf.random_uniform([2, 2]))
scaled = tf.Variable(tf.random_uniform([2], -1.0, 1.0))
weights = tf.Variable(tf.truncated_normal([2, 3], stddev=0.1))
with tf.variable_scope("model"):
    w = tf.get_variable("w", [3, 2])  # glorot_uniform_initializer, no seed
    b = tf.get_variable("b", [2], initializer=tf.random_normal_initializer())
x = tf.placeholder(tf.float32, [None, 3])
hidden = tf.layers.dense(x, 4, activation=tf.nn.relu, name="dense")
dropped = tf.nn.dropout(hidden, keep_prob=0.5)
shuffled = tf.random_shuffle(tf.range(6))
drawn = tf.multinomial(tf.log([[0.2, 0.3, 0.5]]), 5)
print("seeds:", [op.get_attr("seed2") for op in tf.get_default_graph().get_operations()
                 if op.type in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal",
                                "RandomShuffle", "Multinomial")])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("noise:", sess.run(noise))
    print("embedding:", sess.run(embedding).ravel())
    print("scaled:", sess.run(scaled))
    print("weights:", sess.run(weights).ravel())
    print("w:", sess.run(w).ravel())
    print("b:", sess.run(b))
    kernel = [v for v in tf.global_variables() if v.name == "dense/kernel:0"][0]
    print("dense kernel:", sess.run(kernel).ravel())
    print("dropped:", sess.run(dropped, {x: np.ones([2, 3], np.float32)}).ravel())
    print("shuffled:", sess.run(shuffled))
    print("drawn:", sess.run(drawn))
