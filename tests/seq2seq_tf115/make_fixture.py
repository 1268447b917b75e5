"""Makes this folder's fixture with TensorFlow 1.15.5 (run with the oracle interpreter).

    /work/oracle/bin/python tests/seq2seq_tf115/make_fixture.py

Trains model.py's attention seq2seq for 5 Adam steps with TF 1.15.5's tf.contrib.seq2seq,
keeps the checkpoint (``checkpoint``, ``model.ckpt-5.index``, ``model.ckpt-5.data-*``: a
few KB) and ``expected.json``: what model.evaluate computed from that checkpoint.
tests/corpus/test_seq2seq_tf115.py restores it under tf1mem and compares.
"""
import glob
import json
import os
import shutil
import sys
import tempfile

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model  # noqa: E402

tf.set_random_seed(1)
fetches = model.build()
saver = tf.train.Saver()
work = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(5):
        sess.run(fetches['train_op'])
    path = saver.save(sess, os.path.join(work, 'model.ckpt'), global_step=5)
with tf.Session() as sess:
    saver.restore(sess, path)
    expected = model.evaluate(sess, fetches)
for old in glob.glob(os.path.join(HERE, 'model.ckpt-*')) + [os.path.join(HERE, 'checkpoint')]:
    if os.path.exists(old):
        os.remove(old)
for name in os.listdir(work):
    if name.startswith('model.ckpt-5.') and not name.endswith('.meta') or name == 'checkpoint':
        shutil.copy(os.path.join(work, name), HERE)
with open(os.path.join(HERE, 'checkpoint'), 'w') as f:
    f.write('model_checkpoint_path: "model.ckpt-5"\nall_model_checkpoint_paths: "model.ckpt-5"\n')
expected['variables'] = sorted(name for name, _ in tf.train.list_variables(path))
expected['tensorflow'] = tf.__version__
with open(os.path.join(HERE, 'expected.json'), 'w') as f:
    json.dump(expected, f, indent=1)
    f.write('\n')
print('wrote', sorted(os.listdir(HERE)))
