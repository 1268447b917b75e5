"""NumPy as 2017-2019 TF1 code used it: np.float/np.int/np.bool dtypes, np.asscalar,
np.reshape(newshape=), np.product, np.NaN/np.Inf, np.float_, np.alltrue, np.in1d,
np.fromstring's binary mode; NumPy scalars printed in a list and a dict."""
from __future__ import print_function

import numpy as np
import tensorflow as tf

labels = np.array([0, 2, 1, 2], dtype=np.int)
weights = np.ones(4, dtype=np.float) * 0.5
mask = np.array([1, 0, 1, 1]).astype(np.bool)
names = np.array(["a", "bb"], dtype=np.object)
print("dtypes:", labels.dtype, weights.dtype, mask.dtype, names.dtype)
print("types:", np.float is float, np.int is int, np.bool is bool, np.long is int,
      np.str is str, np.unicode is str, np.object is object)
print("isinstance:", isinstance(3.0, np.float), isinstance(True, np.bool))
print("float_:", np.float_(1.5) * 2, np.dtype(np.float_).name, np.dtype(np.complex_).name)
print("constants:", np.NaN != np.NaN, np.Inf > 1e308, np.NINF < -1e308)

image = np.arange(12, dtype=np.float32)
batch = np.reshape(image, newshape=(-1, 2, 3))
print("reshape:", batch.shape, np.reshape(image, (3, 4)).shape)
print("product:", np.product(batch.shape), np.cumproduct([1, 2, 3]).tolist())
print("alltrue:", np.alltrue(mask), np.sometrue(mask))
print("in1d:", np.in1d(labels, [2]).tolist())
print("round_:", np.round_(2.675, 2), "asfarray:", np.asfarray([1, 2]).dtype)

x = tf.placeholder(tf.float32, [None, 2, 3])
total = tf.reduce_sum(x)
with tf.Session() as sess:
    value = sess.run(total, feed_dict={x: batch})
    print("run list:", sess.run([total, tf.constant(3, tf.int64)], feed_dict={x: batch}))
print("asscalar:", np.asscalar(np.array([value])), type(np.asscalar(np.float32(2.5))).__name__)
print("tf dtype:", tf.as_dtype(np.float).name, tf.constant(labels).dtype.name)
print("metrics:", {"loss": np.float32(0.25), "global_step": np.int64(3)})
print("fromstring:", np.fromstring(b"\x01\x00\x02\x00", dtype=np.int16),
      np.fromstring("1 2 3", dtype=np.int, sep=" "))
