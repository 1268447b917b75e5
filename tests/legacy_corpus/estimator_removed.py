"""tf.estimator: removed in TF 2.16. Under the runner this must fail clearly (naming tf.estimator,
the removal, and the replacement); under TF 1.15 it trains a tiny LinearRegressor."""
import tempfile

import numpy as np
import tensorflow as tf

estimator = tf.estimator.LinearRegressor(
    feature_columns=[tf.feature_column.numeric_column('x', shape=[1])],
    model_dir=tempfile.mkdtemp())
x_train = np.array([1., 2., 3., 4.], np.float32)
y_train = np.array([0., -1., -2., -3.], np.float32)
input_fn = tf.estimator.inputs.numpy_input_fn({'x': x_train}, y_train, batch_size=4,
                                              num_epochs=None, shuffle=False)
estimator.train(input_fn=input_fn, steps=2)
print('trained: %d steps' % estimator.get_variable_value('global_step'))
