"""tf.contrib.learn.monitors in fit(monitors=[...]): an EveryN subclass (which steps its
every_n_* methods run at, what step_end receives, stopping by returning True, the post step
run at end) and a ValidationMonitor with early stopping on a seeded LinearClassifier that
checkpoints every 10 steps (check_interval_secs=0, so no evaluation is skipped for time)."""
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.randn(200, 4).astype(np.float32)
y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
cols = tf.contrib.learn.infer_real_valued_columns_from_input(X)


class Probe(tf.contrib.learn.monitors.EveryN):
    def every_n_step_begin(self, step):
        print('every_n_step_begin', step)
        return ['global_step:0']

    def every_n_step_end(self, step, outputs):
        print('every_n_step_end', step, sorted(outputs.items()))
        return step >= 33

    def every_n_post_step(self, step, session):
        print('every_n_post_step', step)


class Watch(tf.contrib.learn.monitors.BaseMonitor):
    def step_end(self, step, output):
        super(Watch, self).step_end(step, output)
        if step < 3 or step > 40:
            print('step_end', step, sorted(output))
        return False


clf = tf.contrib.learn.LinearClassifier(feature_columns=cols, model_dir=tempfile.mkdtemp())
probe = Probe(every_n_steps=10, first_n_steps=2)
clf.fit(X, y, steps=45, batch_size=32, monitors=[probe, Watch()])
print('stopped at', clf.get_variable_value('global_step'))
clf.fit(X, y, steps=5, batch_size=32, monitors=[probe])
print('second fit to', clf.get_variable_value('global_step'))

clf = tf.contrib.learn.LinearClassifier(
    feature_columns=cols, model_dir=tempfile.mkdtemp(),
    config=tf.contrib.learn.RunConfig(save_checkpoints_steps=10, tf_random_seed=1))
monitor = tf.contrib.learn.monitors.ValidationMonitor(
    X[:50], y[:50], every_n_steps=10, early_stopping_metric='loss',
    early_stopping_metric_minimize=False, early_stopping_rounds=20, check_interval_secs=0)
clf.fit(X, y, steps=100, batch_size=32, monitors=[monitor])
print('early stopped:', monitor.early_stopped, 'best step:', monitor.best_step,
      'best loss: %.4f' % monitor.best_value)
print('best metrics: %s' % ' '.join(sorted(monitor.best_metrics)))
print('accuracy at best: %.2f' % monitor.best_metrics['accuracy'])
print('trained to step', clf.get_variable_value('global_step'))
try:
    tf.contrib.learn.monitors.ValidationMonitor(every_n_steps=10)
except ValueError as e:
    print('ValueError:', e)
