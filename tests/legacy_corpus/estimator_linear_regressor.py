"""tf.estimator.LinearRegressor over a numeric feature column, fed by numpy_input_fn: train,
evaluate (TF1's metric keys), predict, the variable names of the checkpoint (FTRL slots)."""
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
print('weights: %.6f bias: %.6f' % (estimator.get_variable_value('linear/linear_model/x/weights')[0, 0],
                                    estimator.get_variable_value('linear/linear_model/bias_weights')[0]))
print('variables:', ' '.join(estimator.get_variable_names()))
eval_fn = tf.estimator.inputs.numpy_input_fn({'x': x_train}, y_train, batch_size=4, num_epochs=1,
                                             shuffle=False)
metrics = estimator.evaluate(input_fn=eval_fn)
print('metric keys:', ' '.join(sorted(metrics)))
print('eval: loss %.5f average_loss %.5f label/mean %.5f prediction/mean %.5f' % (
    metrics['loss'], metrics['average_loss'], metrics['label/mean'], metrics['prediction/mean']))
pred_fn = tf.estimator.inputs.numpy_input_fn({'x': np.array([5., 6.], np.float32)}, batch_size=2,
                                             num_epochs=1, shuffle=False)
print('predictions:', ' '.join('%.5f' % p['predictions'][0] for p in estimator.predict(pred_fn)))
estimator.train(input_fn=input_fn, max_steps=5)
print('resumed to: %d steps' % estimator.get_variable_value('global_step'))
