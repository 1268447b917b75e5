"""tf.contrib.opt.AdaMaxOptimizer: dense and sparse (embedding) updates, its slot and
accumulator names, and the values after three steps."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=6, suppress=True)
w = tf.Variable([[0.5, -1.0], [2.0, 0.25]], name="w")
emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0, name="emb")
x = tf.constant([[1.0, 2.0], [-0.5, 0.5]])
rows = tf.nn.embedding_lookup(emb, [0, 2, 2])
loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - 1.0)) + tf.reduce_sum(rows * rows)
opt = tf.contrib.opt.AdaMaxOptimizer(learning_rate=0.1, beta1=0.8, beta2=0.9)
train = opt.minimize(loss)
print("slots:", opt.get_slot_names())
print("variables:", sorted(v.op.name for v in tf.global_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        sess.run(train)
        print("step %d loss: %.6f" % (step, sess.run(loss)))
    print("w:", sess.run(w).ravel())
    print("emb:", sess.run(emb).ravel())
    print("m, v of w:", sess.run(opt.get_slot(w, "m")).ravel(), sess.run(opt.get_slot(w, "v")).ravel())
    print("v of emb:", sess.run(opt.get_slot(emb, "v")).ravel())
