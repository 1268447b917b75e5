"""tf.train.exponential_decay driven by global_step + tf.train.AdamOptimizer (+ MomentumOptimizer)."""
import tensorflow as tf

global_step = tf.Variable(0, trainable=False, name='global_step')
learning_rate = tf.train.exponential_decay(0.1, global_step, decay_steps=2, decay_rate=0.5,
                                           staircase=True)
w = tf.Variable([1.0, -2.0], name='w')
loss = tf.reduce_sum(tf.square(w - [3.0, 1.0]))
train_op = tf.train.AdamOptimizer(learning_rate).minimize(loss, global_step=global_step)
u = tf.Variable(1.0)
mom_op = tf.train.MomentumOptimizer(0.1, momentum=0.9).minimize(tf.square(u))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(5):
        lr, _ = sess.run([learning_rate, train_op])
        print('step %d lr %.4f w %s' % (sess.run(global_step), lr,
                                         ' '.join('%.5f' % v for v in sess.run(w))))
    for _ in range(3):
        sess.run(mom_op)
    print('momentum u: %.5f' % sess.run(u))
    print('adam slots: %s' % ' '.join(sorted(v.op.name for v in tf.global_variables() if 'Adam' in v.op.name)))
