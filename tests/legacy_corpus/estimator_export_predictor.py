"""tf.estimator export and serving: LinearRegressor.export_saved_model with a parsing and a
raw serving_input_receiver_fn (TF1's spelling export_savedmodel too), the signatures of the
SavedModel (reloaded with tf.saved_model.loader), served by tf.contrib.predictor
from_saved_model / from_estimator with estimator.predict's numbers."""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib import predictor

columns = [tf.feature_column.numeric_column('x', shape=[1])]
estimator = tf.estimator.LinearRegressor(feature_columns=columns, model_dir=tempfile.mkdtemp())
x_train = np.array([1., 2., 3., 4.], np.float32)
y_train = np.array([0., -1., -2., -3.], np.float32)
estimator.train(tf.estimator.inputs.numpy_input_fn({'x': x_train}, y_train, batch_size=4,
                                                   num_epochs=None, shuffle=False), steps=3)
x_new = np.array([5., 6., 7.], np.float32)
pred_fn = tf.estimator.inputs.numpy_input_fn({'x': x_new}, batch_size=3, num_epochs=1,
                                             shuffle=False)
print('predict:', ' '.join('%.5f' % p['predictions'][0] for p in estimator.predict(pred_fn)))

base = tempfile.mkdtemp()
parsing_fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(
    tf.feature_column.make_parse_example_spec(columns))
parsing_dir = estimator.export_saved_model(os.path.join(base, 'parsing'), parsing_fn)
raw_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {'x': tf.placeholder(tf.float32, [None, 1])})
raw_dir = estimator.export_savedmodel(os.path.join(base, 'raw'), raw_fn)
print('export dir:', type(parsing_dir).__name__, os.path.basename(parsing_dir).isdigit(),
      sorted(os.listdir(parsing_dir)))

for name, folder in (('parsing', parsing_dir), ('raw', raw_dir)):
    with tf.Graph().as_default(), tf.Session() as session:
        meta = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING],
                                          folder)
        for key in sorted(meta.signature_def):
            sig = meta.signature_def[key]
            print('%s signature %s: %s inputs=%s outputs=%s' % (
                name, key, sig.method_name, sorted(sig.inputs), sorted(sig.outputs)))

examples = [tf.train.Example(features=tf.train.Features(feature={
    'x': tf.train.Feature(float_list=tf.train.FloatList(value=[float(v)]))})).SerializeToString()
            for v in x_new]
served = predictor.from_saved_model(parsing_dir)({'inputs': examples})
print('served default:', sorted(served), ' '.join('%.5f' % v for v in served['outputs'][:, 0]))
served = predictor.from_saved_model(raw_dir, signature_def_key='predict')(
    {'x': x_new.reshape(3, 1)})
print('served raw:', sorted(served), ' '.join('%.5f' % v for v in served['predictions'][:, 0]))
served = predictor.from_estimator(estimator, parsing_fn)({'inputs': examples})
print('from_estimator:', ' '.join('%.5f' % v for v in served['outputs'][:, 0]))
