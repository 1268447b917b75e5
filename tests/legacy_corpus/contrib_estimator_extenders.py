"""tf.contrib.estimator's extenders as TF1 code used them: clip_gradients_by_norm around a
GradientDescentOptimizer for a canned LinearRegressor (Google's Machine Learning Crash
Course exercises) and around Adam in a custom model_fn (slots, names), add_metrics on a
canned estimator (metric_fn taking labels/predictions, and features/config), forward_features
into predict, and the errors of bad metric_fn and key arguments."""
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)

X = np.array([[1.], [2.], [3.], [4.]], np.float32)
Y = 10. * X + 3.
IDS = np.array([[11], [12], [13], [14]], np.int64)


def input_fn(epochs, with_ids=False):
    features = {'x': X, 'id': IDS} if with_ids else {'x': X}
    return tf.estimator.inputs.numpy_input_fn(features, Y, batch_size=4, num_epochs=epochs,
                                              shuffle=False)


my_optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.1)
my_optimizer = tf.contrib.estimator.clip_gradients_by_norm(my_optimizer, 5.0)
print('optimizer:', isinstance(my_optimizer, tf.train.Optimizer), my_optimizer.get_name())

columns = [tf.feature_column.numeric_column('x')]
config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=1)
regressor = tf.estimator.LinearRegressor(feature_columns=columns, optimizer=my_optimizer,
                                         config=config)
regressor.train(input_fn(None), steps=1)
w = regressor.get_variable_value('linear/linear_model/x/weights')
b = regressor.get_variable_value('linear/linear_model/bias_weights')
print('clipped step: w=%.6f b=%.6f norm=%.5f' % (w[0, 0], b[0], np.hypot(w[0, 0], b[0]) / 0.1))
regressor.train(input_fn(None), steps=99)
print('after 100 steps: w=%.4f b=%.4f' % (
    regressor.get_variable_value('linear/linear_model/x/weights')[0, 0],
    regressor.get_variable_value('linear/linear_model/bias_weights')[0]))
print('variables:', ' '.join(regressor.get_variable_names()))

plain = tf.estimator.LinearRegressor(
    feature_columns=columns, optimizer=tf.train.GradientDescentOptimizer(learning_rate=0.1),
    config=tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=1))
plain.train(input_fn(None), steps=1)
print('unclipped step: w=%.6f' % plain.get_variable_value('linear/linear_model/x/weights')[0, 0])


def model_fn(features, labels, mode):
    w = tf.get_variable('w', [1, 1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features['x'], w)
    loss = tf.losses.mean_squared_error(labels, predictions)
    optimizer = tf.contrib.estimator.clip_gradients_by_norm(
        tf.train.AdamOptimizer(0.5), clip_norm=1.0)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    if mode == tf.estimator.ModeKeys.TRAIN:
        print('slot names:', optimizer.get_slot_names(),
              optimizer.get_slot(w, 'm').op.name)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      predictions={'y': predictions})


custom = tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig(
    model_dir=tempfile.mkdtemp(), tf_random_seed=1))
custom.train(input_fn(None), steps=3)
print('adam clipped: w=%.6f' % custom.get_variable_value('w')[0, 0])
print('adam variables:', ' '.join(custom.get_variable_names()))


def my_rmse(labels, predictions):
    return {'rmse': tf.metrics.root_mean_squared_error(labels, predictions['predictions'])}


def my_feature_metric(features, labels, predictions, config):
    del config
    return {'mean_x': tf.metrics.mean(features['x']),
            'average_loss': tf.metrics.mean_absolute_error(labels, predictions['predictions'])}


with_metrics = tf.contrib.estimator.add_metrics(regressor, my_rmse)
print('add_metrics returns:', type(with_metrics).__name__,
      with_metrics.model_dir == regressor.model_dir)
result = with_metrics.evaluate(input_fn(1))
print('metric keys:', ' '.join(sorted(result)))
print('rmse: %.4f loss: %.4f' % (result['rmse'], result['loss']))
overridden = tf.contrib.estimator.add_metrics(with_metrics, my_feature_metric).evaluate(
    input_fn(1))
print('overridden: mean_x=%.4f average_loss=%.4f rmse=%.4f' % (
    overridden['mean_x'], overridden['average_loss'], overridden['rmse']))
try:
    tf.contrib.estimator.add_metrics(regressor, lambda labels, preds: {})
except ValueError as e:
    print('bad metric_fn:', type(e).__name__, 'preds' in str(e))

forwarding = tf.contrib.estimator.forward_features(regressor, 'id')
rows = list(forwarding.predict(input_fn(1, with_ids=True)))
print('forwarded keys:', ' '.join(sorted(rows[0])))
print('ids:', [int(r['id'][0]) for r in rows],
      'predictions: %.3f %.3f' % (rows[0]['predictions'][0], rows[-1]['predictions'][0]))
everything = tf.contrib.estimator.forward_features(regressor)
print('all features:', ' '.join(sorted(next(everything.predict(input_fn(1, True))))))
try:
    tf.contrib.estimator.forward_features(regressor, 7)
except TypeError as e:
    print('bad keys:', type(e).__name__)
try:
    next(tf.contrib.estimator.forward_features(regressor, 'nope').predict(input_fn(1, True)))
except ValueError as e:
    print('missing key:', type(e).__name__, 'nope' in str(e))
