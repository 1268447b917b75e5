"""A custom model_fn (features, labels, mode, params) with numpy_input_fn and a tf.data input_fn:
train with logging every 5 steps, evaluate with an extra metric, predict a dict, resume training
from model_dir (argv[1]), batches of a finite input that end mid-epoch."""
import sys

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.INFO)


def model_fn(features, labels, mode, params):
    w = tf.get_variable('w', [1], initializer=tf.zeros_initializer())
    b = tf.get_variable('b', [1], initializer=tf.zeros_initializer())
    pred = features['x'] * w + b
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={'y': pred, 'double_x': features['x'] * 2})
    loss = tf.reduce_mean(tf.square(pred - labels))
    optimizer = tf.train.GradientDescentOptimizer(params['learning_rate'])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    metrics = {'mae': tf.metrics.mean_absolute_error(labels, pred)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


model_dir = sys.argv[1]
x = np.array([1., 2., 3., 4.], np.float32)
y = np.array([0., -1., -2., -3.], np.float32)
config = tf.estimator.RunConfig(log_step_count_steps=5, save_summary_steps=5)
est = tf.estimator.Estimator(model_fn, model_dir=model_dir, params={'learning_rate': 0.05},
                             config=config)
print('model_dir given:', est.model_dir == model_dir)
est.train(tf.estimator.inputs.numpy_input_fn({'x': x}, y, batch_size=2, num_epochs=None,
                                             shuffle=False), steps=12)
print('step:', est.get_variable_value('global_step'))
print('w b: %.5f %.5f' % (est.get_variable_value('w')[0], est.get_variable_value('b')[0]))
ev = est.evaluate(tf.estimator.inputs.numpy_input_fn({'x': x}, y, batch_size=3, num_epochs=1,
                                                     shuffle=False))
print('eval:', ' '.join('%s=%.5f' % (k, ev[k]) for k in sorted(ev)))
ev1 = est.evaluate(tf.estimator.inputs.numpy_input_fn({'x': x}, y, batch_size=3, num_epochs=None,
                                                      shuffle=False), steps=1, name='one')
print('eval 1 step: loss=%.5f' % ev1['loss'])
preds = list(est.predict(tf.estimator.inputs.numpy_input_fn({'x': x}, batch_size=3, num_epochs=1,
                                                            shuffle=False)))
print('predict:', len(preds), sorted(preds[0]), ' '.join('%.5f' % p['y'] for p in preds))
batches = list(est.predict(tf.estimator.inputs.numpy_input_fn({'x': x}, batch_size=3, num_epochs=1,
                                                              shuffle=False),
                           predict_keys=['y'], yield_single_examples=False))
print('batched:', [sorted(b) for b in batches], [b['y'].shape for b in batches])


def dataset_input_fn():
    data = tf.data.Dataset.from_tensor_slices(({'x': x}, y))
    return data.repeat(2).batch(4)


est.train(dataset_input_fn)
print('resumed step:', est.get_variable_value('global_step'))
print('variables:', est.get_variable_names())
print('eval dirs:', sorted(d for d in tf.gfile.ListDirectory(model_dir) if d.startswith('eval')))
