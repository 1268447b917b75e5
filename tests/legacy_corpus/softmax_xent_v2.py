"""Losses of the era: softmax_cross_entropy_with_logits_v2, sparse_softmax_..., sigmoid_..., and the
hand-written -reduce_sum(y * tf.log(p), reduction_indices=[1]) with keep_dims/tf.to_float/tf.arg_max."""
import numpy as np
import tensorflow as tf

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.2]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
sparse = tf.constant([0, 1])
xent_v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
xent_v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
xent_sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sparse, logits=logits)
by_hand = -tf.reduce_sum(labels * tf.log(tf.nn.softmax(logits)), reduction_indices=[1])
kept = tf.reduce_mean(logits, axis=1, keep_dims=True)
sig = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.to_float(labels), logits=logits)
acc = tf.reduce_mean(tf.cast(tf.equal(tf.arg_max(logits, 1), tf.to_int64(sparse)), tf.float32))
loss_api = tf.losses.softmax_cross_entropy(onehot_labels=labels, logits=logits)

with tf.Session() as sess:
    v2, v1, sp, bh, k, s, a, la = sess.run([xent_v2, xent_v1, xent_sparse, by_hand, kept, sig, acc, loss_api])
    print('xent_v2: %s' % ' '.join('%.6f' % v for v in v2))
    print('xent_v1 == v2: %s' % bool(np.allclose(v1, v2)))
    print('sparse == v2: %s' % bool(np.allclose(sp, v2)))
    print('by_hand == v2: %s' % bool(np.allclose(bh, v2, atol=1e-6)))
    print('keep_dims shape: %s' % list(k.shape))
    print('sigmoid sum: %.6f' % s.sum())
    print('accuracy: %g' % a)
    print('tf.losses mean: %.6f' % la)
