"""The TF1 tutorial's MNIST model library (``tensorflow.examples.tutorials.mnist.mnist``).

Legacy code in the style of ``fully_connected_feed.py`` imports this module for a
two-hidden-layer network: :func:`inference` builds it, :func:`loss` adds the
cross-entropy, :func:`training` the optimizer, :func:`evaluation` the count of
correct predictions. Same names, scopes and maths as TF 1.x's module; graph mode
(``tf.compat.v1``) only.
"""

import math

from tf1mem._tf import v1 as _v1

__all__ = ["NUM_CLASSES", "IMAGE_SIZE", "IMAGE_PIXELS", "inference", "loss", "training",
           "evaluation"]

NUM_CLASSES = 10
IMAGE_SIZE = 28
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE


def _dense(tf, inputs, fan_in, fan_out, scope, activation):
    with tf.name_scope(scope):
        weights = tf.Variable(
            tf.truncated_normal([fan_in, fan_out], stddev=1.0 / math.sqrt(float(fan_in))),
            name="weights")
        biases = tf.Variable(tf.zeros([fan_out]), name="biases")
        out = tf.matmul(inputs, weights) + biases
        return activation(out) if activation else out


def inference(images, hidden1_units, hidden2_units):
    """Builds the model up to the logits.

    Args:
      images: float32 tensor [batch, IMAGE_PIXELS].
      hidden1_units: size of the first hidden layer.
      hidden2_units: size of the second hidden layer.

    Returns:
      logits: float32 tensor [batch, NUM_CLASSES].
    """
    tf = _v1()
    hidden1 = _dense(tf, images, IMAGE_PIXELS, hidden1_units, "hidden1", tf.nn.relu)
    hidden2 = _dense(tf, hidden1, hidden1_units, hidden2_units, "hidden2", tf.nn.relu)
    return _dense(tf, hidden2, hidden2_units, NUM_CLASSES, "softmax_linear", None)


def loss(logits, labels):
    """Mean softmax cross-entropy of ``logits`` against integer ``labels``.

    Args:
      logits: float32 tensor [batch, NUM_CLASSES].
      labels: int tensor [batch], class indices.

    Returns:
      float32 scalar loss.
    """
    tf = _v1()
    labels = tf.to_int64(labels)
    return tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)


def training(loss, learning_rate):
    """Adds a scalar summary of ``loss`` and a gradient-descent step.

    Args:
      loss: float32 scalar from :func:`loss`.
      learning_rate: Python float.

    Returns:
      The op that runs one step and increments the ``global_step`` variable.
    """
    tf = _v1()
    tf.summary.scalar("loss", loss)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate)
    global_step = tf.Variable(0, name="global_step", trainable=False)
    return optimizer.minimize(loss, global_step=global_step)


def evaluation(logits, labels):
    """Counts the rows whose label is the top-1 prediction.

    Args:
      logits: float32 tensor [batch, NUM_CLASSES].
      labels: int32 tensor [batch], class indices.

    Returns:
      int32 scalar: the number of correct predictions in the batch.
    """
    tf = _v1()
    correct = tf.nn.in_top_k(logits, labels, 1)
    return tf.reduce_sum(tf.cast(correct, tf.int32))
