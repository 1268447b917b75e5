"""tf.data initializable iterator fed from placeholders, re-initialized; reinitializable Iterator.from_structure."""
import numpy as np
import tensorflow as tf

x_ph = tf.placeholder(tf.float32, [None, 2])
dataset = tf.data.Dataset.from_tensor_slices(x_ph).shuffle(100, seed=7).batch(2)
iterator = dataset.make_initializable_iterator()
batch = iterator.get_next()
total = tf.reduce_sum(batch)

train_ds = tf.data.Dataset.range(5)
val_ds = tf.data.Dataset.range(100, 103)
it = tf.data.Iterator.from_structure(train_ds.output_types, train_ds.output_shapes)
nxt = it.get_next()
train_init = it.make_initializer(train_ds)
val_init = it.make_initializer(val_ds)


def drain(sess, t):
    out = []
    while True:
        try:
            out.append(sess.run(t))
        except tf.errors.OutOfRangeError:
            return out


with tf.Session() as sess:
    for data in (np.ones((4, 2), np.float32), np.full((6, 2), 2.0, np.float32)):
        sess.run(iterator.initializer, feed_dict={x_ph: data})
        sums = drain(sess, total)
        print('init with %d rows -> batch sums: %s' % (len(data), ' '.join('%g' % s for s in sums)))
    sess.run(train_init)
    print('train: %s' % ' '.join(str(v) for v in drain(sess, nxt)))
    sess.run(val_init)
    print('val: %s' % ' '.join(str(v) for v in drain(sess, nxt)))
