"""One task of a tf.estimator cluster, as a 2018 user wrote it: TF_CONFIG comes from the
launcher's environment; train_and_evaluate does what the task type says."""
import argparse
import glob
import json
import os

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument('--model_dir', required=True)
args = parser.parse_args()
tf.logging.set_verbosity(tf.logging.INFO)

x = np.linspace(0., 1., 64).astype(np.float32)
y = (2. * x - 1.).astype(np.float32)
columns = [tf.feature_column.numeric_column('x')]
config = tf.estimator.RunConfig(model_dir=args.model_dir, save_checkpoints_steps=20,
                                experimental_max_worker_delay_secs=1)
estimator = tf.estimator.LinearRegressor(columns, config=config)
train_spec = tf.estimator.TrainSpec(tf.estimator.inputs.numpy_input_fn(
    {'x': x}, y, batch_size=16, num_epochs=None, shuffle=True), max_steps=100)
eval_spec = tf.estimator.EvalSpec(tf.estimator.inputs.numpy_input_fn(
    {'x': x}, y, batch_size=64, num_epochs=1, shuffle=False), steps=None,
    start_delay_secs=0, throttle_secs=1)
tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
task = json.loads(os.environ['TF_CONFIG'])['task']['type']
if task == 'evaluator':
    last = {}
    for path in sorted(glob.glob(os.path.join(args.model_dir, 'eval', 'events.*'))):
        for event in tf.train.summary_iterator(path):
            values = {v.tag: v.simple_value for v in event.summary.value
                      if v.HasField('simple_value')}
            if values:
                last = dict(values, global_step=event.step)
    print('evaluator: last global_step >= 100:', last.get('global_step', 0) >= 100)
    print('evaluator: metric keys:', ' '.join(sorted(last)))
    print('evaluator: loss < 1: %s' % (last.get('loss', 99.) < 1.))
else:
    print('%s: global_step >= 100: %s' % (
        task, estimator.get_variable_value('global_step') >= 100))
