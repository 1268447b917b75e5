"""tf.estimator.DNNClassifier on iris-like numbers (3 well-separated classes, 4 features):
seeded RunConfig, train, evaluate, predict; the checkpoint's variable names and the metric and
prediction keys TF 1.15 used."""
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]], np.float32)
labels = np.repeat(np.arange(3), 30)
features = (centers[labels] + 0.1 * rng.randn(90, 4)).astype(np.float32)
columns = [tf.feature_column.numeric_column('measurements', shape=[4])]
clf = tf.estimator.DNNClassifier(hidden_units=[10, 10], feature_columns=columns, n_classes=3,
                                 model_dir=tempfile.mkdtemp(),
                                 config=tf.estimator.RunConfig(tf_random_seed=42))
train_fn = tf.estimator.inputs.numpy_input_fn({'measurements': features}, labels, batch_size=30,
                                              num_epochs=None, shuffle=True)
clf.train(train_fn, steps=400)
print('variables:', ' '.join(clf.get_variable_names()))
eval_fn = tf.estimator.inputs.numpy_input_fn({'measurements': features}, labels, batch_size=30,
                                             num_epochs=1, shuffle=False)
result = clf.evaluate(eval_fn)
print('metric keys:', ' '.join(sorted(result)))
print('accuracy: %.2f' % result['accuracy'])
print('loss below 0.3:', bool(result['average_loss'] < 0.3))
print('global_step:', result['global_step'])
new = np.array([[5.1, 3.5, 1.4, 0.2], [6.7, 3.1, 5.6, 2.4]], np.float32)
pred_fn = tf.estimator.inputs.numpy_input_fn({'measurements': new}, batch_size=2, num_epochs=1,
                                             shuffle=False)
preds = list(clf.predict(pred_fn))
print('prediction keys:', ' '.join(sorted(preds[0])))
print('classes:', [p['classes'][0] for p in preds], [int(p['class_ids'][0]) for p in preds])
print('probabilities sum to 1:', all(abs(p['probabilities'].sum() - 1) < 1e-5 for p in preds))
