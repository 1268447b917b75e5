"""tf.contrib.learn's Experiment run by learn_runner, as 2017-2018 code did: an
experiment_fn(run_config, hparams) returning an Experiment around a tf.estimator.Estimator
with a custom model_fn, numpy_input_fn inputs, tf.contrib.learn.RunConfig(model_dir=...,
save_checkpoints_steps=...), an export strategy from saved_model_export_utils (the Cloud ML
samples' way), learn_runner.run(schedule='train_and_evaluate') and then the
default schedule resuming to more steps, the older experiment_fn(output_dir) form with
the 'train' and 'test' schedules, and the errors of a misspelt schedule and a core
RunConfig."""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn import learn_runner
from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils

tf.logging.set_verbosity(tf.logging.ERROR)

FEATURES = np.array([[1., 2.], [2., 0.], [3., 1.], [4., 3.], [0., 1.], [5., 2.]], np.float32)
TARGETS = np.dot(FEATURES, np.array([0.5, -1.0], np.float32)) + 0.25


def model_fn(features, labels, mode, params):
    w = tf.get_variable('w', [2, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable('b', [1], initializer=tf.zeros_initializer())
    predictions = tf.squeeze(tf.matmul(features['x'], w) + b, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={'y': predictions})
    loss = tf.losses.mean_squared_error(labels, predictions)
    optimizer = tf.train.GradientDescentOptimizer(params.learning_rate)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    metrics = {'mae': tf.metrics.mean_absolute_error(labels, predictions),
               'rmse': tf.metrics.root_mean_squared_error(labels, predictions)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics)


def input_fn(num_epochs):
    return tf.estimator.inputs.numpy_input_fn({'x': FEATURES}, TARGETS, batch_size=3,
                                              num_epochs=num_epochs, shuffle=False)


def serving_input_fn():
    x = tf.placeholder(tf.float32, [None, 2], name='x')
    return tf.estimator.export.ServingInputReceiver({'x': x}, {'x': x})


def make_experiment_fn(train_steps):
    def experiment_fn(run_config, hparams):
        estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config,
                                           params=hparams)
        return tf.contrib.learn.Experiment(
            estimator=estimator,
            train_input_fn=input_fn(None),
            eval_input_fn=input_fn(1),
            train_steps=train_steps,
            eval_steps=None,
            min_eval_frequency=10,
            export_strategies=[saved_model_export_utils.make_export_strategy(
                serving_input_fn, exports_to_keep=1)])
    return experiment_fn


def show(label, metrics):
    print('%s: global_step=%d loss=%.6f mae=%.6f rmse=%.6f' % (
        label, metrics['global_step'], metrics['loss'], metrics['mae'], metrics['rmse']))


model_dir = os.path.join(tempfile.mkdtemp(), 'model')
hparams = tf.contrib.training.HParams(learning_rate=0.05)
run_config = tf.contrib.learn.RunConfig(model_dir=model_dir, save_checkpoints_steps=10,
                                        tf_random_seed=42)
print('run_config:', run_config.model_dir == model_dir, run_config.save_checkpoints_steps,
      run_config.save_checkpoints_secs, run_config.task_type, run_config.environment)

metrics, export_results = learn_runner.run(experiment_fn=make_experiment_fn(30),
                                           run_config=run_config,
                                           schedule='train_and_evaluate',
                                           hparams=hparams)
show('train_and_evaluate', metrics)
print('metric keys:', ' '.join(sorted(metrics)))
print('export results:', len(export_results), os.path.dirname(
    tf.compat.as_str(export_results[0])) == os.path.join(model_dir, 'export', 'Servo'))
print('checkpoints:', sorted(int(name.split('-')[1].split('.')[0])
                             for name in os.listdir(model_dir)
                             if name.startswith('model.ckpt-') and name.endswith('.index')))
print('eval dir:', sorted(os.listdir(model_dir)).count('eval'))
export_dir = tf.compat.as_str(export_results[0])
print('export contents:', sorted(os.listdir(export_dir)))
with tf.Session(graph=tf.Graph()) as sess:
    meta_graph = tf.saved_model.loader.load(sess, ['serve'], export_dir)
    signature = meta_graph.signature_def['serving_default']
    print('signature:', signature.method_name, sorted(signature.inputs),
          sorted(signature.outputs))
    outputs = sess.run(signature.outputs['y'].name,
                       {signature.inputs['x'].name: [[1., 1.], [2., 3.]]})
    print('export predicts: %.5f %.5f' % tuple(outputs))

# No schedule: on one machine TF 1.15 picks train_and_evaluate; training resumes.
metrics, _ = tf.contrib.learn.learn_runner.run(make_experiment_fn(45),
                                               run_config=run_config, hparams=hparams)
show('default schedule', metrics)
print('exports kept:', len(os.listdir(os.path.join(model_dir, 'export', 'Servo'))))


# The older form: experiment_fn(output_dir).
def old_experiment_fn(output_dir):
    estimator = tf.estimator.Estimator(model_fn=model_fn, model_dir=output_dir,
                                       params=tf.contrib.training.HParams(learning_rate=0.05))
    return tf.contrib.learn.Experiment(estimator, input_fn(None), input_fn(1),
                                       train_steps=12, eval_steps=2)


old_dir = os.path.join(tempfile.mkdtemp(), 'old')
estimator = learn_runner.run(old_experiment_fn, output_dir=old_dir, schedule='train')
print('train returned an Estimator:', isinstance(estimator, tf.estimator.Estimator))
print('w after train:', ' '.join('%.6f' % v for v in estimator.get_variable_value('w').ravel()))
print('global_step after train:', estimator.get_variable_value('global_step'))
show('test', learn_runner.run(old_experiment_fn, output_dir=old_dir + '_test', schedule='test'))

experiment = make_experiment_fn(30)(run_config, hparams)
print('experiment:', experiment.train_steps, experiment.eval_steps, experiment.eval_metrics,
      experiment.estimator.model_dir == model_dir)

try:
    learn_runner.run(make_experiment_fn(30), run_config=run_config, schedule='trian')
except ValueError as e:
    print('bad schedule: ValueError', 'trian' in str(e))
try:
    learn_runner.run(make_experiment_fn(30),
                     run_config=tf.estimator.RunConfig(model_dir=model_dir))
except ValueError as e:
    print('core RunConfig: ValueError', str(e).startswith(
        '`run_config` must be `tf.contrib.learn.RunConfig` instance'))
