"""TF 1.14/1.15's forward-compatible style: ``import tensorflow.compat.v1 as tf`` with
``tf.disable_v2_behavior()``, then a custom model_fn Estimator from ``tf.estimator`` (that is
``tf.compat.v1.estimator``) trained, evaluated and used to predict on
``tf.estimator.inputs.numpy_input_fn``; ``from tensorflow.compat.v1.estimator import ...``;
model_dir in a temporary folder."""
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1.estimator import EstimatorSpec, ModeKeys

tf.disable_v2_behavior()
print('eager after disable_v2_behavior:', tf.executing_eagerly())


def model_fn(features, labels, mode, params):
    x = tf.concat([features['a'], features['b']], axis=1)
    w = tf.get_variable('w', [2, 1], initializer=tf.zeros_initializer())
    bias = tf.get_variable('bias', [1], initializer=tf.zeros_initializer())
    pred = tf.squeeze(tf.matmul(x, w), 1) + bias
    if mode == ModeKeys.PREDICT:
        return EstimatorSpec(mode, predictions={'y': pred})
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(params['lr']).minimize(
        loss, global_step=tf.train.get_global_step())
    metrics = {'rmse': tf.metrics.root_mean_squared_error(labels, pred),
               'mae': tf.metrics.mean_absolute_error(labels, pred)}
    return EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


a = np.arange(8, dtype=np.float32).reshape(8, 1) / 4.
b = np.array([[1.], [0.], [1.], [0.], [1.], [0.], [1.], [0.]], np.float32)
y = (2. * a[:, 0] - b[:, 0] + 0.5).astype(np.float32)

model_dir = tempfile.mkdtemp()
try:
    config = tf.estimator.RunConfig(tf_random_seed=1, log_step_count_steps=100)
    est = tf.estimator.Estimator(model_fn, model_dir=model_dir, config=config,
                                 params={'lr': 0.1})
    train_input = tf.estimator.inputs.numpy_input_fn({'a': a, 'b': b}, y, batch_size=4,
                                                     num_epochs=None, shuffle=False)
    est.train(train_input, steps=30)
    print('global_step:', est.get_variable_value('global_step'))
    print('w: %.5f %.5f bias: %.5f' % (est.get_variable_value('w')[0, 0],
                                       est.get_variable_value('w')[1, 0],
                                       est.get_variable_value('bias')[0]))
    eval_input = tf.estimator.inputs.numpy_input_fn({'a': a, 'b': b}, y, batch_size=8,
                                                    num_epochs=1, shuffle=False)
    ev = est.evaluate(eval_input)
    print('eval:', ' '.join('%s=%.5f' % (k, ev[k]) for k in sorted(ev)))
    predict_input = tf.estimator.inputs.numpy_input_fn({'a': a[:3], 'b': b[:3]},
                                                       batch_size=3, num_epochs=1,
                                                       shuffle=False)
    print('predict:', ' '.join('%.5f' % p['y'] for p in est.predict(predict_input)))
    print('checkpoint:', os.path.basename(tf.train.latest_checkpoint(model_dir)))
    print('variables:', est.get_variable_names())
finally:
    shutil.rmtree(model_dir)
print('model_dir removed:', not os.path.exists(model_dir))
