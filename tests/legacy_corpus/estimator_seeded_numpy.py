"""Seeded canned estimators fed by tf.estimator.inputs.numpy_input_fn (shuffle=False):
tf.estimator.DNNClassifier and DNNRegressor with RunConfig(tf_random_seed=7), five steps,
then their weights and metrics. TF 1.15's numpy_input_fn fed a queue (19 ops before the
model) and its canned DNN built its layers as a Keras model (resource variables: four ops
each and a read at each use), so the op seeds of its Glorot draws, and with them every
number below, are TF 1.15's only if the same ops come before each draw."""
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)
rng = np.random.RandomState(0)
X = rng.randn(64, 3).astype(np.float32)
y = (X.sum(1) > 0).astype(np.int32)
target = (X[:, :1] - 2 * X[:, 1:2]).astype(np.float32)


def train_input(labels):
    return tf.estimator.inputs.numpy_input_fn({'x': X}, labels, batch_size=16, num_epochs=None,
                                              shuffle=False)


def eval_input(labels):
    return tf.estimator.inputs.numpy_input_fn({'x': X}, labels, batch_size=32, num_epochs=1,
                                              shuffle=False)


cols = [tf.feature_column.numeric_column('x', shape=[3])]
config = tf.estimator.RunConfig(tf_random_seed=7)
for name, est, labels in [
        ('classifier', tf.estimator.DNNClassifier([4, 3], cols, model_dir=tempfile.mkdtemp(),
                                                  config=config), y),
        ('regressor', tf.estimator.DNNRegressor([4], cols, model_dir=tempfile.mkdtemp(),
                                                dropout=0.25, config=config), target)]:
    est.train(train_input(labels), steps=5)
    for var in est.get_variable_names():
        if 'Adagrad' not in var and var != 'global_step':
            print(name, var, np.round(est.get_variable_value(var), 4).tolist())
    result = est.evaluate(eval_input(labels))
    print(name, 'eval', ' '.join('%s=%.4f' % (k, result[k]) for k in sorted(result)
                                 if k != 'global_step'), 'step', result['global_step'])
