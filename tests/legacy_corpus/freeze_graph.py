"""Freezing: tf.graph_util.convert_variables_to_constants / extract_sub_graph + tf.train.write_graph + tf.import_graph_def."""
import os
import tempfile

import tensorflow as tf

out_dir = tempfile.mkdtemp()
with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 2], name='input')
    w = tf.Variable([[1.0], [2.0]], name='w')
    y = tf.add(tf.matmul(x, w), 0.5, name='output')
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ['output'])
        pruned = tf.graph_util.extract_sub_graph(frozen, ['output'])
print('frozen has variables: %s' % any(n.op in ('VariableV2', 'VarHandleOp') for n in frozen.node))
print('extract_sub_graph keeps all: %s' % (len(pruned.node) == len(frozen.node)))
tf.train.write_graph(frozen, out_dir, 'frozen.pb', as_text=False)
tf.train.write_graph(frozen, out_dir, 'frozen.pbtxt', as_text=True)
print('files: %s' % sorted(os.listdir(out_dir)))

graph_def = tf.GraphDef()
with tf.gfile.GFile(os.path.join(out_dir, 'frozen.pb'), 'rb') as f:
    graph_def.ParseFromString(f.read())
with tf.Graph().as_default() as g2:
    tf.import_graph_def(graph_def, name='frozen')
    inp = g2.get_tensor_by_name('frozen/input:0')
    out = g2.get_tensor_by_name('frozen/output:0')
    with tf.Session(graph=g2) as sess:
        print('output: %s' % sess.run(out, {inp: [[1.0, 1.0], [2.0, 0.0]]}).ravel().tolist())
