"""tf.contrib.layers.optimize_loss (learning-rate decay, gradient clipping, summaries) and
tf.contrib.layers.embed_sequence, as 2017-2019 text models used them."""
from __future__ import print_function

import numpy as np
import tensorflow as tf

ids = tf.placeholder(tf.int32, [None, 3], name="ids")
labels = tf.placeholder(tf.float32, [None], name="labels")
embedded = tf.contrib.layers.embed_sequence(
    ids, vocab_size=5, embed_dim=2, initializer=tf.constant_initializer(0.1))
unique = tf.contrib.layers.embed_sequence(
    ids, vocab_size=5, embed_dim=2, unique=True, scope="shared",
    initializer=tf.random_uniform_initializer(-1.0, 1.0, seed=3))
again = tf.contrib.layers.embed_sequence(ids, scope="shared", reuse=True, unique=True)
pooled = tf.reduce_mean(embedded, axis=1)
w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
pred = tf.squeeze(tf.matmul(pooled, w), axis=1)
loss = tf.reduce_mean(tf.square(pred - labels))
global_step = tf.train.get_or_create_global_step()
train_op = tf.contrib.layers.optimize_loss(
    loss, global_step, learning_rate=0.5, optimizer="SGD", clip_gradients=1.0,
    learning_rate_decay_fn=lambda lr, step: tf.train.exponential_decay(lr, step, 1, 0.9),
    summaries=["loss", "learning_rate", "gradient_norm"])
adam_op = tf.contrib.layers.optimize_loss(
    loss, None, learning_rate=0.01, optimizer=tf.train.AdamOptimizer, name="Adam2",
    increment_global_step=False)
print("embedded shape:", embedded.get_shape().as_list())
print("variables:", " ".join(v.op.name for v in tf.global_variables()))
print("model variables:", " ".join(v.op.name for v in tf.model_variables()))
print("summaries:", " ".join(sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES))))
try:
    tf.contrib.layers.embed_sequence(ids)
except ValueError as e:
    print("no sizes:", e)
try:
    tf.contrib.layers.optimize_loss(loss, global_step, 0.1, "NoSuchOptimizer")
except ValueError as e:
    print("bad optimizer:", str(e).split(".")[0])
feed = {ids: np.array([[0, 1, 2], [2, 3, 4]]), labels: np.array([1.0, -1.0])}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    u, a = sess.run([unique, again], feed)
    print("unique equals reuse:", np.array_equal(u, a), u.shape)
    for step in range(3):
        l, _ = sess.run([loss, train_op], feed)
        print("step %d loss: %.6f" % (step, l))
    print("global step:", sess.run(global_step))
    print("w:", np.round(sess.run(w).ravel(), 6).tolist())
    print("embeddings:", np.round(sess.run("EmbedSequence/embeddings:0"), 6).tolist())
    sess.run(adam_op, feed)
    print("global step after adam:", sess.run(global_step))
