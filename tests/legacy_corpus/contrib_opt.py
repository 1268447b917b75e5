"""tf.contrib.opt: LazyAdamOptimizer on an embedding, NadamOptimizer, AdamWOptimizer with
decay_var_list, MomentumWOptimizer, extend_with_decoupled_weight_decay,
MovingAverageOptimizer + swapping_saver (checkpoint read back, restored), and
ScipyOptimizerInterface (L-BFGS-B with bounds, SLSQP with an equality)."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

ckpt_dir = sys.argv[1]


def fmt(a):
    return " ".join("%.6f" % x for x in np.ravel(a))


def embedding_run(name, make_opt):
    tf.reset_default_graph()
    emb = tf.get_variable("embedding", initializer=tf.constant(
        np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0))
    ids = tf.placeholder(tf.int32, [None])
    target = tf.placeholder(tf.float32, [None, 3])
    loss = tf.reduce_mean(tf.square(tf.nn.embedding_lookup(emb, ids) - target))
    opt = make_opt()
    train = opt.minimize(loss)
    print(name, "slots:", " ".join(opt.get_slot_names()))
    print(name, "vars:", " ".join(v.op.name for v in tf.global_variables()))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step, batch in enumerate([[0, 1], [1, 1], [0, 2]]):
            l, _ = sess.run([loss, train], {ids: batch, target: np.ones((len(batch), 3))})
            print(name, "step %d loss: %.6f" % (step, l))
        print(name, "embedding:", fmt(sess.run(emb)))
        print(name, "m:", fmt(sess.run(opt.get_slot(emb, "m"))))


embedding_run("lazy", lambda: tf.contrib.opt.LazyAdamOptimizer(learning_rate=0.1))
embedding_run("nadam", lambda: tf.contrib.opt.NadamOptimizer(learning_rate=0.1))


def regression_run(name, make_opt, decay_w_only=False):
    tf.reset_default_graph()
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = tf.constant([[1.0], [2.0], [3.0]])
    w = tf.get_variable("w", initializer=tf.constant([[0.5], [-0.5]]))
    b = tf.get_variable("b", initializer=tf.constant([0.25]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    global_step = tf.train.get_or_create_global_step()
    # Gradients are computed in one run and fed to apply_gradients in the next, so the
    # weight decay (which changes w in place) never races with the gradient's read of w.
    grads = tf.gradients(loss, [w, b])
    feeds = [tf.placeholder(tf.float32, g.shape) for g in grads]
    opt = make_opt()
    if decay_w_only:
        train = opt.apply_gradients(zip(feeds, [w, b]), global_step=global_step,
                                    decay_var_list=[w])
    else:
        train = opt.apply_gradients(zip(feeds, [w, b]), global_step=global_step)
    print(name, "class:", type(opt).__name__)
    print(name, "slots:", " ".join(opt.get_slot_names()))
    print(name, "vars:", " ".join(v.op.name for v in tf.global_variables()))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = []
        for _ in range(4):
            l, g = sess.run([loss, grads])
            sess.run(train, dict(zip(feeds, g)))
            losses.append(l)
        print(name, "losses:", fmt(losses))
        print(name, "w b:", fmt(sess.run(w)), fmt(sess.run(b)))
        print(name, "step:", sess.run(global_step))


regression_run("adamw", lambda: tf.contrib.opt.AdamWOptimizer(weight_decay=0.1,
                                                              learning_rate=0.05),
               decay_w_only=True)
regression_run("momentumw", lambda: tf.contrib.opt.MomentumWOptimizer(
    weight_decay=0.01, learning_rate=0.01, momentum=0.9))
SGDW = tf.contrib.opt.extend_with_decoupled_weight_decay(tf.train.GradientDescentOptimizer)
regression_run("sgdw", lambda: SGDW(weight_decay=0.05, learning_rate=0.01))

# MovingAverageOptimizer: the swapping saver writes the averages under the variables'
# own names, so an evaluation graph restores them with a plain Saver.
tf.reset_default_graph()
v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]))
loss = tf.reduce_sum(tf.square(v))
opt = tf.contrib.opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.25),
                                            average_decay=0.5)
train = opt.minimize(loss)
saver = opt.swapping_saver()
print("ma vars:", " ".join(x.op.name for x in tf.global_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    print("ma v:", fmt(sess.run(v)))
    path = saver.save(sess, os.path.join(ckpt_dir, "ma.ckpt"))
for name, shape in tf.train.list_variables(path):
    print("ma ckpt %s %s: %s" % (name, shape, fmt(tf.train.load_variable(path, name))))
tf.reset_default_graph()
v = tf.get_variable("v", shape=[2])
with tf.Session() as sess:
    tf.train.Saver().restore(sess, path)
    print("ma restored v:", fmt(sess.run(v)))

# ScipyOptimizerInterface.
tf.reset_default_graph()
a = tf.Variable(0.5, name="a")
c = tf.Variable(0.0, name="c")
loss = tf.square(a - 3.0) + tf.square(c + 1.0)
bfgs = tf.contrib.opt.ScipyOptimizerInterface(loss, var_to_bounds={a: (0.0, 2.0)},
                                              options={"maxiter": 100})
seen = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    bfgs.minimize(sess, fetches=[loss, a], loss_callback=lambda l, av: seen.append((l, av)))
    print("scipy lbfgsb a c: %.4f %.4f" % tuple(sess.run([a, c])))
    print("scipy lbfgsb loss: %.4f" % sess.run(loss))
    print("scipy callbacks > 0:", len(seen) > 0)
tf.reset_default_graph()
p = tf.Variable([2.0, -1.0], name="p")
loss = tf.reduce_sum(tf.square(p))
slsqp = tf.contrib.opt.ScipyOptimizerInterface(loss, equalities=[p[0] + p[1] - 1.0],
                                               method="SLSQP")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    slsqp.minimize(sess)
    print("scipy slsqp p:", " ".join("%.4f" % x for x in sess.run(p)))
