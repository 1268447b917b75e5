"""tf.contrib.data.sliding_window_batch as sequence and time-series pipelines used it:
windows with a shift, a window stride, the deprecated stride= name, tuple and dict
elements, a dataset shorter than a window, and the TF1 error for both shift names."""
import numpy as np
import tensorflow as tf

def run(dataset):
    it = dataset.make_one_shot_iterator().get_next()
    out = []
    with tf.Session() as sess:
        try:
            while True:
                out.append(sess.run(it))
        except tf.errors.OutOfRangeError:
            pass
    return out

swb = tf.contrib.data.sliding_window_batch
ds = tf.data.Dataset.range(7).apply(swb(window_size=3, window_shift=2))
print("shift 2:", [w.tolist() for w in run(ds)], ds.output_shapes)
print("default:", [w.tolist() for w in run(tf.data.Dataset.range(4).apply(swb(2)))])
print("window_stride:", [w.tolist() for w in run(tf.data.Dataset.range(9).apply(
    swb(window_size=2, window_shift=3, window_stride=2)))])
print("stride=:", [w.tolist() for w in run(tf.data.Dataset.range(5).apply(swb(3, stride=2)))])
pairs = tf.data.Dataset.from_tensor_slices((np.arange(5), np.arange(5) * 10)).apply(swb(2))
print("tuple:", [[a.tolist(), b.tolist()] for a, b in run(pairs)], pairs.output_shapes)
named = tf.data.Dataset.from_tensor_slices({"x": np.arange(4.0), "y": np.arange(4)}).apply(swb(3))
print("dict:", [(d["x"].tolist(), d["y"].tolist()) for d in run(named)])
print("short:", run(tf.data.Dataset.range(2).apply(swb(3))))
try:
    swb(3, stride=1, window_shift=1)
except ValueError as e:
    print("both:", type(e).__name__)
