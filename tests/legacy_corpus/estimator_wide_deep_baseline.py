"""tf.estimator.DNNLinearCombinedClassifier (wide and deep: categorical, indicator and numeric
columns, Adam for the deep part), DNNLinearCombinedRegressor (wide only) and the Baseline
estimators: checkpoint variable names, and the metrics of the models whose start is not random."""
import tempfile

import numpy as np
import tensorflow as tf

color = np.array([b'red', b'green', b'blue', b'red', b'green', b'blue'])
size = np.array([1., 2., 3., 4., 5., 6.], np.float32)
features = {'color': color, 'size': size}
labels = np.array([0, 1, 1, 0, 1, 0])
cat = tf.feature_column.categorical_column_with_vocabulary_list('color', ['red', 'green', 'blue'])
wide = [cat, tf.feature_column.numeric_column('size')]


def numpy_fn(y, epochs):
    return tf.estimator.inputs.numpy_input_fn(features, y, batch_size=3, num_epochs=epochs,
                                              shuffle=False)


def show(name, metrics):
    print(name, ' '.join('%s=%.5f' % (k, metrics[k]) for k in sorted(metrics)))


deep = tf.estimator.DNNLinearCombinedClassifier(
    model_dir=tempfile.mkdtemp(), linear_feature_columns=wide,
    dnn_feature_columns=[tf.feature_column.indicator_column(cat)], dnn_hidden_units=[3],
    dnn_optimizer=tf.train.AdamOptimizer(0.01), config=tf.estimator.RunConfig(tf_random_seed=1))
deep.train(numpy_fn(labels, None), steps=4)
print('wide and deep variables:', ' '.join(deep.get_variable_names()))
print('wide and deep metric keys:', ' '.join(sorted(deep.evaluate(numpy_fn(labels, 1)))))
wide_only = tf.estimator.DNNLinearCombinedClassifier(model_dir=tempfile.mkdtemp(),
                                                     linear_feature_columns=wide)
wide_only.train(numpy_fn(labels, None), steps=4)
show('wide only:', wide_only.evaluate(numpy_fn(labels, 1)))
regressor = tf.estimator.DNNLinearCombinedRegressor(
    model_dir=tempfile.mkdtemp(), linear_feature_columns=[tf.feature_column.numeric_column('size')])
regressor.train(numpy_fn(size * 2, None), steps=3)
show('wide regressor:', regressor.evaluate(numpy_fn(size * 2, 1)))
for make, y in ((tf.estimator.BaselineClassifier, labels),
                (tf.estimator.BaselineRegressor, labels.astype(np.float32))):
    baseline = make(model_dir=tempfile.mkdtemp())
    baseline.train(numpy_fn(y, None), steps=3)
    print(make.__name__, 'variables:', ' '.join(baseline.get_variable_names()))
    show(make.__name__ + ':', baseline.evaluate(numpy_fn(y, 1)))
    print(make.__name__, 'predicts:', ' '.join(sorted(next(baseline.predict(numpy_fn(None, 1))))))
