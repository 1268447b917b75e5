"""tf.estimator.experimental.InMemoryEvaluatorHook (TF 1.13-1.15; tf.contrib.estimator's
before): evaluation inside estimator.train every N iterations from the training session's
variables, without a checkpoint: when it evaluates (at session start, every_n_iter, at the
end), what it writes to model_dir/eval_<name>, its own hooks and steps, and its errors."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.WARN)
X = np.array([[1.], [2.], [3.], [4.]], np.float32)
Y = 2. * X


def model_fn(features, labels, mode):
    w = tf.get_variable('w', [1, 1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features['x'], w)
    loss = tf.losses.mean_squared_error(labels, predictions)
    train_op = tf.train.GradientDescentOptimizer(0.01).minimize(
        loss, global_step=tf.train.get_global_step())
    metrics = {'mae': tf.metrics.mean_absolute_error(labels, predictions)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics)


def input_fn(epochs, batch_size=4):
    return tf.estimator.inputs.numpy_input_fn({'x': X}, Y, batch_size=batch_size,
                                              num_epochs=epochs, shuffle=False)


class CountRuns(tf.train.SessionRunHook):
    """An evaluation hook: counts the evaluation runs and session starts."""

    def __init__(self):
        self.sessions = 0
        self.runs = 0

    def after_create_session(self, session, coord):
        self.sessions += 1

    def after_run(self, run_context, run_values):
        self.runs += 1


model_dir = tempfile.mkdtemp()
config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=1,
                                save_checkpoints_steps=None, save_checkpoints_secs=None)
estimator = tf.estimator.Estimator(model_fn, config=config)
counter = CountRuns()
evaluator = tf.estimator.experimental.InMemoryEvaluatorHook(
    estimator, input_fn(1, batch_size=2), hooks=[counter], name='mem', every_n_iter=2)
print('is a SessionRunHook:', isinstance(evaluator, tf.train.SessionRunHook))
estimator.train(input_fn(None), steps=5, hooks=[evaluator])
print('evaluation sessions:', counter.sessions, 'runs:', counter.runs)
print('in model_dir:', sorted(os.listdir(model_dir))[0],
      len([f for f in os.listdir(model_dir) if f.startswith('events.out.tfevents')]), 'event file')
print('checkpoints:', sorted(f for f in os.listdir(model_dir) if f.endswith('.index')))
rows = []
eval_dir = os.path.join(model_dir, 'eval_mem')
for name in sorted(os.listdir(eval_dir)):
    for event in tf.train.summary_iterator(os.path.join(eval_dir, name)):
        for value in event.summary.value:
            if value.tag == 'loss':
                rows.append('%d:%.4f' % (event.step, value.simple_value))
print('eval loss by step:', ' '.join(rows))

limited = tf.estimator.experimental.InMemoryEvaluatorHook(
    estimator, input_fn(None, batch_size=1), steps=3, every_n_iter=100)
counter2 = CountRuns()
estimator.train(input_fn(None), steps=2, hooks=[limited, counter2])
print('train runs:', counter2.runs, '(no checkpoint: training restarts at step 0)')
rows = []
for name in sorted(os.listdir(os.path.join(model_dir, 'eval'))):
    for event in tf.train.summary_iterator(os.path.join(model_dir, 'eval', name)):
        for value in event.summary.value:
            if value.tag in ('loss', 'mae'):
                rows.append('%d:%s=%.4f' % (event.step, value.tag, value.simple_value))
# The second evaluation reads on from where the first stopped; TF 1.15's feeding queue
# had read some rows ahead by then (how many varied), so only the first is printed.
print('steps=3 evaluations:', len(rows) // 2, 'first:', ' '.join(rows[:2]))

try:
    tf.estimator.experimental.InMemoryEvaluatorHook(estimator, input_fn(1), every_n_iter=0)
except ValueError as e:
    print('every_n_iter=0:', type(e).__name__, e)


def saver_model_fn(features, labels, mode):
    spec = model_fn(features, labels, mode)
    return spec._replace(scaffold=tf.train.Scaffold(saver=tf.train.Saver()))


own_saver = tf.estimator.Estimator(saver_model_fn, config=tf.estimator.RunConfig(
    model_dir=tempfile.mkdtemp(), tf_random_seed=1))
try:
    own_saver.train(input_fn(None), steps=1, hooks=[
        tf.estimator.experimental.InMemoryEvaluatorHook(own_saver, input_fn(1))])
except ValueError as e:
    print('custom saver:', type(e).__name__, e)
