"""tf.contrib.losses.metric_learning as face-embedding and person re-id models used it:
triplet_semihard_loss on l2-normalised embeddings (batches with and without a farther
negative, a margin), contrastive_loss, metric_loss_ops.pairwise_distance, and a training step through them."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.losses.python.metric_learning import metric_loss_ops

ml = tf.contrib.losses.metric_learning
rng = np.random.RandomState(0)
labels = tf.constant([0, 0, 1, 1, 2, 2, 0, 1])
raw = tf.Variable(rng.randn(8, 4).astype(np.float32))
emb = tf.nn.l2_normalize(raw, 1)
triplet = ml.triplet_semihard_loss(labels, emb)
wide = ml.triplet_semihard_loss(labels, emb, margin=0.2)
one_class = ml.triplet_semihard_loss(tf.constant([3, 3, 3, 4]), emb[:4])
pairs = ml.contrastive_loss(tf.constant([1, 0, 1, 0]), emb[:4], emb[4:], margin=1.5)
dist = metric_loss_ops.pairwise_distance(emb[:3])
dist_sq = metric_loss_ops.pairwise_distance(emb[:3], squared=True)
print(triplet.name, pairs.name)
step = tf.train.GradientDescentOptimizer(0.5).minimize(triplet)
np.set_printoptions(precision=5, suppress=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("triplet: %.5f wide: %.5f one class: %.5f" % tuple(sess.run([triplet, wide, one_class])))
    print("contrastive: %.5f" % sess.run(pairs))
    print("distances:")
    print(sess.run(dist))
    print(sess.run(dist_sq))
    before = sess.run(triplet)
    for _ in range(5):
        sess.run(step)
    print("trained: %.5f -> %.5f" % (before, sess.run(triplet)))
