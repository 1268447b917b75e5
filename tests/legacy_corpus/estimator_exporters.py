"""tf.estimator exporters: train_and_evaluate with a LatestExporter (exports_to_keep=2), a
FinalExporter, a BestExporter (loss comparison) and a user's own Exporter subclass in its
EvalSpec; what each evaluation passed the exporters, the folders under model_dir/export,
an export reloaded with tf.saved_model.loader, and EvalSpec's checks of exporters."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)
columns = [tf.feature_column.numeric_column('x', shape=[1])]
model_dir = tempfile.mkdtemp()
config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=2)
estimator = tf.estimator.LinearRegressor(feature_columns=columns, config=config)

x = np.array([1., 2., 3., 4.], np.float32)
y = np.array([0., -1., -2., -3.], np.float32)
train_fn = tf.estimator.inputs.numpy_input_fn({'x': x}, y, batch_size=4, num_epochs=None,
                                              shuffle=False)
eval_fn = tf.estimator.inputs.numpy_input_fn({'x': x}, y, batch_size=4, num_epochs=1,
                                             shuffle=False)
serving_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {'x': tf.placeholder(tf.float32, [None, 1])})



class StepRecorder(tf.estimator.Exporter):
    """A user's own Exporter: records what train_and_evaluate passed to it."""

    def __init__(self):
        self.calls = []

    @property
    def name(self):
        return 'recorder'

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        self.calls.append((int(eval_result['global_step']), is_the_final_export,
                           os.path.relpath(export_path, model_dir),
                           os.path.basename(checkpoint_path)))
        return None


recorder = StepRecorder()
exporters = [tf.estimator.LatestExporter('latest', serving_fn, exports_to_keep=2),
             tf.estimator.FinalExporter('final', serving_fn),
             tf.estimator.BestExporter(name='best', serving_input_receiver_fn=serving_fn,
                                       exports_to_keep=5), recorder]
train_spec = tf.estimator.TrainSpec(train_fn, max_steps=6)
eval_spec = tf.estimator.EvalSpec(eval_fn, steps=None, exporters=exporters, start_delay_secs=0,
                                  throttle_secs=0)
result, export_results = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
print('global_step:', int(result['global_step']))
print('metric keys:', ' '.join(sorted(result)))
print('exporter calls:', recorder.calls)
print('export results:', [(os.path.dirname(os.path.relpath(r.decode(), model_dir)),
                           os.path.basename(r.decode()).isdigit()) if r else r
                          for r in export_results])
base = os.path.join(model_dir, 'export')
print('export folders:', sorted(os.listdir(base)))
for name in sorted(os.listdir(base)):
    versions = sorted(os.listdir(os.path.join(base, name)))
    print('%s: %d export(s), all timestamps: %s, contents: %s' % (
        name, len(versions), all(v.isdigit() for v in versions),
        sorted(os.listdir(os.path.join(base, name, versions[-1])))))
latest = os.path.join(base, 'latest', sorted(os.listdir(os.path.join(base, 'latest')))[-1])
with tf.Graph().as_default(), tf.Session() as session:
    meta = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], latest)
    sig = meta.signature_def['predict']
    out = session.run(sig.outputs['predictions'].name,
                      {sig.inputs['x'].name: np.array([[5.]], np.float32)})
    print('latest export loads: predicts %.5f' % out[0, 0])

for bad in ('not an exporter', [exporters[0], tf.estimator.LatestExporter('latest', serving_fn)]):
    try:
        tf.estimator.EvalSpec(eval_fn, exporters=bad)
    except (TypeError, ValueError) as e:
        print('%s: %s' % (type(e).__name__, str(e).split('.')[0]))
