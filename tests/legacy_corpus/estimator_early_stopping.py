"""tf.estimator.experimental's early stopping (TF 1.13-1.15): stop_if_no_decrease_hook in a
TrainSpec under train_and_evaluate (evaluation after every checkpoint), stop_if_higher_hook
and stop_if_lower_hook on estimator.train with metrics an earlier evaluate wrote,
make_early_stopping_hook with the user's own predicate, make_stop_at_checkpoint_step_hook,
estimator.eval_dir(), the early-stopping variable in the checkpoint, the INFO lines TF logs
and the argument errors."""
import logging
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.INFO)


class EarlyStopLines(logging.Handler):
    """Prints the early-stopping lines TF logs at INFO (the rest stays on stderr)."""

    def emit(self, record):
        message = record.getMessage()
        if 'early stopping' in message or 'Early stopping' in message:
            print('log:', message)


logging.getLogger('tensorflow').addHandler(EarlyStopLines())

# Training pulls w toward 2; the evaluation data wants -1: eval loss only grows.
TRAIN_X = np.array([[1.], [2.], [3.], [4.]], np.float32)
TRAIN_Y = 2. * TRAIN_X
EVAL_Y = -1. * TRAIN_X


def model_fn(features, labels, mode):
    w = tf.get_variable('w', [1, 1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features['x'], w)
    loss = tf.losses.mean_squared_error(labels, predictions)
    train_op = tf.train.GradientDescentOptimizer(0.01).minimize(
        loss, global_step=tf.train.get_global_step())
    metrics = {'mae': tf.metrics.mean_absolute_error(labels, predictions)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      predictions=predictions, eval_metric_ops=metrics)


def input_fn(y, epochs):
    return tf.estimator.inputs.numpy_input_fn({'x': TRAIN_X}, y, batch_size=4,
                                              num_epochs=epochs, shuffle=False)


model_dir = tempfile.mkdtemp()
config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=2,
                                tf_random_seed=1)
estimator = tf.estimator.Estimator(model_fn, config=config)
print('eval_dir:', os.path.relpath(estimator.eval_dir(), model_dir),
      os.path.relpath(estimator.eval_dir('holdout'), model_dir))

hook = tf.estimator.experimental.stop_if_no_decrease_hook(
    estimator, 'loss', max_steps_without_decrease=4, run_every_secs=None, run_every_steps=1)
print('hook is a SessionRunHook:', isinstance(hook, tf.train.SessionRunHook))
train_spec = tf.estimator.TrainSpec(input_fn(TRAIN_Y, None), max_steps=40, hooks=[hook])
eval_spec = tf.estimator.EvalSpec(input_fn(EVAL_Y, 1), steps=None, throttle_secs=0)
result, _ = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
print('stopped at global_step:', result['global_step'])
print('final eval loss: %.4f' % result['loss'])
print('checkpoint vars:', ' '.join(estimator.get_variable_names()))
print('STOP value:', estimator.get_variable_value('signal_early_stopping/STOP'))
steps = []
for name in sorted(os.listdir(estimator.eval_dir())):
    for event in tf.train.summary_iterator(os.path.join(estimator.eval_dir(), name)):
        for value in event.summary.value:
            if value.tag == 'loss':
                steps.append('%d:%.3f' % (event.step, value.simple_value))
print('eval losses:', ' '.join(steps))

# The threshold hooks read what evaluate() wrote; training stops once a step ends with
# the metric past the threshold. Every train() here passes an early-stopping hook: the
# hook adds its variable to the graph, and restoring a checkpoint written without it
# fails (NotFoundError), as it did in TF 1.15.
model_dir2 = tempfile.mkdtemp()
estimator2 = tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig(
    model_dir=model_dir2, tf_random_seed=1))
lower = tf.estimator.experimental.stop_if_lower_hook(
    estimator2, 'mae', 10.0, eval_dir=estimator2.eval_dir('holdout'), min_steps=100,
    run_every_secs=None, run_every_steps=1)
estimator2.train(input_fn(TRAIN_Y, None), steps=3, hooks=[lower])
print('after stop_if_lower_hook (no metrics yet):', estimator2.get_variable_value('global_step'))
metrics = estimator2.evaluate(input_fn(EVAL_Y, 1), name='holdout')
print('holdout mae: %.4f' % metrics['mae'])
estimator2.train(input_fn(TRAIN_Y, None), steps=3, hooks=[lower])
print('after stop_if_lower_hook (min_steps not reached):',
      estimator2.get_variable_value('global_step'))
higher = tf.estimator.experimental.stop_if_higher_hook(
    estimator2, 'mae', 1.0, eval_dir=estimator2.eval_dir('holdout'), run_every_secs=None,
    run_every_steps=2)
estimator2.train(input_fn(TRAIN_Y, None), steps=10, hooks=[higher])
print('after stop_if_higher_hook:', estimator2.get_variable_value('global_step'))
increase = tf.estimator.experimental.stop_if_no_increase_hook(
    estimator2, 'mae', 0, eval_dir=estimator2.eval_dir('holdout'), run_every_secs=None,
    run_every_steps=1)
estimator2.train(input_fn(TRAIN_Y, None), steps=3, hooks=[increase])
print('after stop_if_no_increase_hook:', estimator2.get_variable_value('global_step'))
calls = []


def should_stop():
    calls.append(1)
    return len(calls) >= 3


custom = tf.estimator.experimental.make_early_stopping_hook(
    estimator2, should_stop, run_every_secs=None, run_every_steps=2)
estimator2.train(input_fn(TRAIN_Y, None), steps=20, hooks=[custom])
print('custom predicate calls:', len(calls), 'global_step:',
      estimator2.get_variable_value('global_step'))

missing = tf.estimator.experimental.stop_if_higher_hook(
    estimator2, 'mae', 1.0, eval_dir=os.path.join(model_dir2, 'no_such_dir'),
    run_every_secs=None, run_every_steps=1)
estimator2.train(input_fn(TRAIN_Y, None), steps=2, hooks=[missing])
print('no eval dir: trained to', estimator2.get_variable_value('global_step'))

try:
    tf.estimator.experimental.make_early_stopping_hook(estimator2, should_stop,
                                                       run_every_secs=10, run_every_steps=2)
except ValueError as e:
    print('both intervals:', type(e).__name__, e)
try:
    tf.estimator.experimental.stop_if_no_decrease_hook(object(), 'loss', 10, eval_dir=model_dir)
except TypeError as e:
    print('not an estimator:', type(e).__name__)
try:
    tf.estimator.experimental.make_early_stopping_hook(estimator2, 'not callable',
                                                       run_every_secs=None,
                                                       run_every_steps=2)
except TypeError as e:
    print('not callable:', type(e).__name__, e)
# A train() without an early-stopping hook saves a checkpoint without its variable.
at_step = tf.estimator.experimental.make_stop_at_checkpoint_step_hook(estimator2, 30)
print('stop-at-step hook:', type(at_step).__name__)
estimator2.train(input_fn(TRAIN_Y, None), hooks=[at_step])
print('after make_stop_at_checkpoint_step_hook:',
      estimator2.get_variable_value('global_step'))

try:
    estimator2.train(input_fn(TRAIN_Y, None), steps=1, hooks=[higher])
    print('hook again after that: trained')
except tf.errors.NotFoundError as e:
    print('hook again after that:', type(e).__name__, 'signal_early_stopping/STOP' in str(e))
