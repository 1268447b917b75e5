"""tf.contrib.summary (the summary_ops_v2 API) in graph mode: create_file_writer,
record_summaries_every_n_global_steps, scalar/histogram/image with family,
initialize(graph=...), all_summary_ops(); reads the event file back."""
import glob
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

logdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()

global_step = tf.train.get_or_create_global_step()
x = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.0, name='w')
loss = tf.reduce_mean(tf.square(x * w - 2.0))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)

writer = tf.contrib.summary.create_file_writer(logdir, flush_millis=10000)
with writer.as_default(), tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar('loss', loss)
    tf.contrib.summary.histogram('x_hist', x, family='inputs')
    with tf.name_scope('extra'):
        tf.contrib.summary.scalar('w', w, step=tf.constant(7, tf.int64))
with writer.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(2):
    tf.contrib.summary.scalar('every2', w * 10.0)
    tf.contrib.summary.image('img', tf.reshape(tf.range(12, dtype=tf.float32) / 11.0,
                                               [1, 2, 2, 3]), max_images=1)
with writer.as_default(), tf.contrib.summary.never_record_summaries():
    tf.contrib.summary.scalar('never', loss)

summary_ops = tf.contrib.summary.all_summary_ops()
print('summary ops: %d' % len(summary_ops))
with tf.Session() as sess, writer.as_default():
    sess.run(tf.global_variables_initializer())
    tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)
    for step in range(4):
        sess.run(summary_ops, feed_dict={x: [1.0, 2.0, 3.0]})
        l, _ = sess.run([loss, train_op], feed_dict={x: [1.0, 2.0, 3.0]})
        print('step %d loss: %.5f' % (step, l))
    sess.run(tf.contrib.summary.flush())

events = sorted(glob.glob(os.path.join(logdir, 'events.out.tfevents.*')))
print('event files: %d' % len(events))
seen = {}
for e in tf.train.summary_iterator(events[0]):
    for v in e.summary.value:
        kind = v.WhichOneof('value')
        if kind == 'simple_value':
            value = '%.5f' % v.simple_value
        elif kind == 'image':
            value = 'image %dx%d' % (v.image.height, v.image.width)
        elif kind == 'histo':
            value = 'histo n=%d min=%.1f max=%.1f' % (v.histo.num, v.histo.min, v.histo.max)
        else:
            arr = tf.make_ndarray(v.tensor)
            value = '%s %s' % (kind, arr.tolist())
        seen.setdefault(v.tag, []).append('%d:%s' % (e.step, value))
    if e.HasField('graph_def'):
        seen.setdefault('<graph>', []).append(str(e.step))
for tag in sorted(seen):
    print('%s -> %s' % (tag, ' '.join(seen[tag])))
