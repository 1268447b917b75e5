"""tf.summary.scalar/histogram + merge_all + FileWriter; read the event file back."""
import glob
import os
import sys
import tempfile

import tensorflow as tf

logdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()

x = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.0, name='w')
loss = tf.reduce_mean(tf.square(x * w - 2.0))
tf.summary.scalar('loss', loss)
tf.summary.histogram('x_hist', x)
merged = tf.summary.merge_all()
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    writer = tf.summary.FileWriter(logdir, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summ, l, _ = sess.run([merged, loss, train_op], feed_dict={x: [1.0, 2.0, 3.0]})
        writer.add_summary(summ, step)
        print('step %d loss: %.5f' % (step, l))
    writer.flush()
    writer.close()

events = glob.glob(os.path.join(logdir, 'events.out.tfevents.*'))
print('event files: %d' % len(events))
tags = {}
for e in tf.train.summary_iterator(events[0]):
    for v in e.summary.value:
        tags.setdefault(v.tag, []).append(e.step)
print('tags: %s' % ' '.join(sorted(tags)))
print('loss steps: %s' % ' '.join(str(s) for s in tags['loss']))
print('graph written: %s' % any(e.HasField('graph_def') for e in tf.train.summary_iterator(events[0])))
