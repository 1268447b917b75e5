"""tf.train.MonitoredTrainingSession with StopAtStepHook and a custom tf.train.SessionRunHook."""
import sys
import tempfile

import tensorflow as tf


class PrintHook(tf.train.SessionRunHook):
    def begin(self):
        self._step = tf.train.get_global_step()
        print('hook begin: global_step op %s' % self._step.op.name)

    def after_create_session(self, session, coord):
        print('hook after_create_session: step %d' % session.run(self._step))

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._step)

    def after_run(self, run_context, run_values):
        print('hook after_run: step %d' % run_values.results)

    def end(self, session):
        print('hook end: step %d' % session.run(self._step))


ckpt_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
global_step = tf.train.get_or_create_global_step()
w = tf.Variable(3.0)
loss = tf.square(w)
train_op = tf.train.GradientDescentOptimizer(0.25).minimize(loss, global_step=global_step)

hooks = [tf.train.StopAtStepHook(last_step=4), PrintHook()]
runs = 0
with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt_dir, hooks=hooks,
                                       save_summaries_steps=None, save_summaries_secs=None,
                                       log_step_count_steps=None) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
        runs += 1
print('runs: %d' % runs)
print('checkpoint: %s' % (tf.train.latest_checkpoint(ckpt_dir) or '').rsplit('/', 1)[-1])

with tf.train.MonitoredSession(session_creator=tf.train.ChiefSessionCreator(checkpoint_dir=ckpt_dir)) as s:
    print('restored step: %d w: %.6f' % tuple(s.run([global_step, w])))
