"""tf.contrib.summary under tf.enable_eager_execution(): create_file_writer, scalar with
the global step, record_summaries_every_n_global_steps, generic, flush; reads it back."""
import glob
import os
import sys
import tempfile

import tensorflow as tf

tf.enable_eager_execution()
logdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()

global_step = tf.train.get_or_create_global_step()
writer = tf.contrib.summary.create_file_writer(logdir, max_queue=5, filename_suffix='.tfe')
w = tf.Variable(3.0)
with writer.as_default():
    for i in range(5):
        with tf.contrib.summary.record_summaries_every_n_global_steps(2):
            tf.contrib.summary.scalar('every2', w * 2.0)
            print('recording at step %d: %s' % (
                int(global_step.numpy()), bool(tf.contrib.summary.should_record_summaries())))
        with tf.contrib.summary.always_record_summaries():
            tf.contrib.summary.scalar('w', w, family='params')
            tf.contrib.summary.histogram('hist', tf.constant([1.0, 2.0, float(i)]))
            tf.contrib.summary.generic('gen', tf.constant([i, i + 1]), step=100 + i)
        w.assign_sub(0.5)
        global_step.assign_add(1)
    print('flushed: %s' % (tf.contrib.summary.flush() is not None))

events = sorted(glob.glob(os.path.join(logdir, 'events.out.tfevents.*')))
print('event files: %d, suffix: %s' % (len(events), events[0].endswith('.tfe')))
seen = {}
for e in tf.train.summary_iterator(events[0]):
    for v in e.summary.value:
        kind = v.WhichOneof('value')
        if kind == 'simple_value':
            value = '%.2f' % v.simple_value
        elif kind == 'histo':
            value = 'histo n=%d max=%.1f' % (v.histo.num, v.histo.max)
        else:
            value = '%s %s' % (kind, tf.make_ndarray(v.tensor).tolist())
        seen.setdefault(v.tag, []).append('%d:%s' % (e.step, value))
for tag in sorted(seen):
    print('%s -> %s' % (tag, ' '.join(seen[tag])))
