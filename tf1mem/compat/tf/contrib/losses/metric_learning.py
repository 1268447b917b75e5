"""``tf.contrib.losses.metric_learning``: ``triplet_semihard_loss``, ``contrastive_loss``,
``pairwise_distance``.

TF 1.15's definitions, written here on TF ops:

- ``pairwise_distance(feature, squared=False)``: the ``[n, n]`` Euclidean distances
  between the rows of ``feature`` (squared with ``squared=True``), from
  ``|a|^2 + |b|^2 - 2 a.b`` clipped at 0, exactly 0 on the diagonal;
- ``contrastive_loss(labels, embeddings_anchor, embeddings_positive, margin=1.0)``: the
  mean of ``y d^2 + (1 - y) max(margin - d, 0)^2`` over the pairs, ``d`` their Euclidean
  distance, ``y`` 1 for a similar pair;
- ``triplet_semihard_loss(labels, embeddings, margin=1.0)`` (FaceNet's semi-hard
  mining, on squared distances): for each anchor and positive (same label, not the
  anchor itself), the negative is the closest one farther than the positive, or, where
  none is, the farthest negative; the loss is the mean over those pairs of
  ``max(margin + d(a, p) - d(a, n), 0)``.

Values equal TF 1.15.5's to 1e-5 (corpus script ``contrib_metric_learning.py``); the
gradients are TensorFlow's own. ``lifted_struct_loss``, ``npairs_loss``,
``npairs_loss_multilabel`` and ``cluster_loss`` are not provided (the error names
TensorFlow Addons). TensorFlow is imported when a function runs.
"""

from tf1mem.compat import errors

__all__ = ["pairwise_distance", "contrastive_loss", "triplet_semihard_loss"]


def pairwise_distance(feature, squared=False):
    """``[n, n]`` distances between the rows of ``feature`` ``[n, d]``."""
    import tensorflow as tf

    feature = tf.convert_to_tensor(feature, name="feature")
    norms = tf.reduce_sum(tf.square(feature), axis=1)
    squares = norms[:, None] + norms[None, :] - 2.0 * tf.matmul(feature, feature,
                                                                 transpose_b=True)
    squares = tf.maximum(squares, 0.0)
    positive = squares > 0.0
    # sqrt's gradient at 0 is infinite: take it of a tiny positive there, then zero it
    distances = squares if squared else tf.sqrt(
        squares + tf.cast(tf.logical_not(positive), squares.dtype) * 1e-16)
    distances = distances * tf.cast(positive, distances.dtype)
    off_diagonal = 1.0 - tf.eye(tf.shape(feature)[0], dtype=distances.dtype)
    return distances * off_diagonal


def contrastive_loss(labels, embeddings_anchor, embeddings_positive, margin=1.0):
    """Hadsell et al.'s contrastive loss of the pairs ``(anchor[i], positive[i])``."""
    import tensorflow as tf

    distances = tf.sqrt(tf.reduce_sum(tf.square(embeddings_anchor - embeddings_positive), 1))
    labels = tf.cast(labels, distances.dtype)
    return tf.reduce_mean(labels * tf.square(distances) + (1.0 - labels) * tf.square(
        tf.maximum(margin - distances, 0.0)), name="contrastive_loss")


def triplet_semihard_loss(labels, embeddings, margin=1.0):
    """FaceNet's triplet loss with semi-hard negatives, over a batch.

    Args:
      labels: ``[n]`` (or ``[n, 1]``) integer classes.
      embeddings: ``[n, d]`` float embeddings, usually l2-normalised.
      margin: the margin of the triplet loss.
    """
    import tensorflow as tf

    labels = tf.reshape(labels, [-1])
    embeddings = tf.convert_to_tensor(embeddings, name="embeddings")
    if embeddings.shape.rank not in (None, 2):
        raise ValueError(f"triplet_semihard_loss: embeddings must be [batch, dims]; got "
                         f"shape {embeddings.shape}")
    distances = pairwise_distance(embeddings, squared=True)
    same = tf.equal(labels[:, None], labels[None, :])
    negative = tf.logical_not(same)
    dtype = distances.dtype
    # [anchor, positive, candidate]: a negative farther from the anchor than the positive
    farther = negative[:, None, :] & (distances[:, None, :] > distances[:, :, None])
    inf = tf.constant(float("inf"), dtype)
    closest_farther = tf.reduce_min(tf.where(farther, distances[:, None, :], inf), axis=2)
    # where no negative is farther: the farthest negative (the row's smallest distance,
    # the anchor's own 0, where the batch has no negative at all, as TF 1.15's)
    farthest = tf.reduce_max(tf.where(negative, distances, -inf), axis=1, keepdims=True)
    farthest = tf.where(tf.reduce_any(negative, axis=1, keepdims=True), farthest,
                        tf.reduce_min(distances, axis=1, keepdims=True))
    semi_hard = tf.where(tf.reduce_any(farther, axis=2), closest_farther,
                         tf.broadcast_to(farthest, tf.shape(distances)))
    positives = tf.cast(same, dtype) - tf.eye(tf.shape(labels)[0], dtype=dtype)
    losses = tf.maximum((margin + distances - semi_hard) * positives, 0.0)
    return tf.truediv(tf.reduce_sum(losses), tf.reduce_sum(positives),
                      name="triplet_semihard_loss")


# lifted_struct_loss, npairs_loss, npairs_loss_multilabel, cluster_loss: the table's
# replacements.
__getattr__ = errors.removed_names("tf.contrib.losses.metric_learning", __name__)
