"""tf.train.Saver save + restore into a fresh graph, latest_checkpoint, import_meta_graph."""
import os
import sys
import tempfile

import tensorflow as tf

ckpt_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()

with tf.Graph().as_default():
    v = tf.Variable([1.0, 2.0, 3.0], name='v')
    step = tf.Variable(0, name='global_step', trainable=False)
    inc = tf.assign_add(v, [10.0, 10.0, 10.0])
    out = tf.identity(v * 2.0, name='out')
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(inc)
        for s in (1, 2, 3):
            sess.run(tf.assign(step, s))
            path = saver.save(sess, os.path.join(ckpt_dir, 'model.ckpt'), global_step=s)
print('saved: %s' % os.path.basename(path))
print('latest: %s' % os.path.basename(tf.train.latest_checkpoint(ckpt_dir)))
print('index exists: %s' % os.path.exists(path + '.index'))
print('kept: %s' % ' '.join(sorted(f for f in os.listdir(ckpt_dir) if f.endswith('.index'))))

with tf.Graph().as_default():
    v = tf.Variable([0.0, 0.0, 0.0], name='v')
    step = tf.Variable(0, name='global_step', trainable=False)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
        print('restored v: %s' % ' '.join('%.1f' % x for x in sess.run(v)))
        print('restored step: %d' % sess.run(step))

with tf.Graph().as_default():
    with tf.Session() as sess:
        loader = tf.train.import_meta_graph(path + '.meta')
        loader.restore(sess, path)
        out = tf.get_default_graph().get_tensor_by_name('out:0')
        print('meta graph out: %s' % ' '.join('%.1f' % x for x in sess.run(out)))

reader = tf.train.NewCheckpointReader(path)
print('checkpoint vars: %s' % ' '.join(sorted(reader.get_variable_to_shape_map())))
