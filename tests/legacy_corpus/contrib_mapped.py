"""tf.contrib modules that TF 2 kept elsewhere, as TF 1.x scripts used them: contrib.data
(map_and_batch, shuffle_and_repeat, batch_and_drop_remainder), contrib.lookup tables,
contrib.signal.stft, contrib.framework.nest, contrib.util, contrib.cudnn_rnn's
CudnnCompatibleLSTMCell, contrib.training.create_train_op, contrib.keras."""
from __future__ import print_function

import numpy as np
import tensorflow as tf
from tensorflow.contrib import lookup

tf.set_random_seed(1)
ds = tf.data.Dataset.range(10).apply(tf.contrib.data.batch_and_drop_remainder(3))
ds2 = tf.data.Dataset.range(7).apply(tf.contrib.data.map_and_batch(lambda x: x * 2, 4))
ds3 = tf.data.Dataset.range(3).apply(tf.contrib.data.shuffle_and_repeat(3, count=2, seed=5))
it = ds.make_one_shot_iterator().get_next()
it2 = ds2.make_one_shot_iterator().get_next()
it3 = ds3.make_one_shot_iterator().get_next()
print("static batch shape:", it.get_shape().as_list())

table = lookup.HashTable(
    lookup.KeyValueTensorInitializer(tf.constant(["cat", "dog"]), tf.constant([1, 2],
                                                                              tf.int64)), -1)
ids = table.lookup(tf.constant(["dog", "bird", "cat"]))
vocab = tf.contrib.lookup.index_table_from_tensor(tf.constant(["a", "b", "c"]),
                                                  num_oov_buckets=1)
vids = vocab.lookup(tf.constant(["c", "a", "zzz"]))
rev = tf.contrib.lookup.index_to_string_table_from_tensor(tf.constant(["a", "b", "c"]))
words = rev.lookup(tf.constant([2, 0, 7], tf.int64))

signal = tf.constant(np.sin(np.arange(64) * 0.3).astype(np.float32))
spec = tf.contrib.signal.stft(signal, frame_length=16, frame_step=8, fft_length=16)
frames = tf.contrib.signal.frame(signal, 8, 8)

nested = {"a": (1, 2), "b": [3, {"c": 4}]}
print("nest flatten:", tf.contrib.framework.nest.flatten(nested))
print("nest map:", tf.contrib.framework.nest.map_structure(lambda x: x * 10, nested))
proto = tf.contrib.util.make_tensor_proto(np.array([[1.5, 2.5]], np.float32))
print("tensor proto:", proto.dtype, [d.size for d in proto.tensor_shape.dim],
      tf.contrib.util.make_ndarray(proto).tolist())
print("constant value:", tf.contrib.util.constant_value(tf.constant([3, 4])).tolist())

inputs = tf.constant(np.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4).astype(np.float32))
cell = tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(5)
with tf.variable_scope("rnn", initializer=tf.constant_initializer(0.1)):
    outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
print("cudnn cell variables:", " ".join(v.op.name for v in tf.trainable_variables()))

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
global_step = tf.train.get_or_create_global_step()
train_op = tf.contrib.training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05),
                                               global_step=global_step)
keras_dense = tf.contrib.keras.layers.Dense(2, kernel_initializer="ones")
print("keras dense:", keras_dense(x).get_shape().as_list())

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    print("batches:", [sess.run(it).tolist() for _ in range(3)])
    print("map_and_batch:", [sess.run(it2).tolist() for _ in range(2)])
    print("shuffle_and_repeat:", sorted(int(sess.run(it3)) for _ in range(6)))
    print("hash table:", sess.run(ids).tolist())
    print("vocab ids:", sess.run(vids).tolist())
    print("words:", [w.decode() for w in sess.run(words)])
    s = sess.run(spec)
    print("stft:", s.shape, s.dtype, "%.6f" % np.abs(s).sum())
    print("frames:", sess.run(frames).shape)
    out = sess.run(outputs)
    print("cudnn cell outputs:", out.shape, "%.6f" % out.sum())
    for _ in range(3):
        l = sess.run(train_op)
    print("create_train_op loss: %.6f step: %d" % (l, sess.run(global_step)))
