"""Graph builders for the article's models, in the TF tutorial's four-function style.

Each function only adds ops to the current default graph (TF1 graph mode, via
``tf.compat.v1``) and returns tensors; none runs a session or reads flags. The
softmax model is the article's example 1, op for op: zero-initialised ``W`` and
``b``, ``softmax(x W + b)``, and the cross-entropy written out by hand as
``mean(-sum(y * log(y_pred), axis=1))`` rather than TF's fused, numerically safer
op, because that is what the legacy code computes.
"""

from tf1mem._tf import v1 as _v1

__all__ = [
    "DATA_DIR",
    "BATCH_SIZE",
    "STEPS",
    "LEARNING_RATE",
    "IMAGE_PIXELS",
    "NUM_CLASSES",
    "placeholders",
    "inference",
    "weights",
    "softmax",
    "loss",
    "training",
    "evaluation",
]

# The article's settings, the defaults of every command that trains its model.
DATA_DIR = "MNIST_data/"
BATCH_SIZE = 100
STEPS = 1000
LEARNING_RATE = 0.5

IMAGE_PIXELS = 784
NUM_CLASSES = 10


def placeholders():
    """Returns the article's input placeholders.

    Returns:
      x: float32 placeholder of shape [None, 784], flattened images in [0, 1].
      y: float32 placeholder of shape [None, 10], one-hot labels.
    """
    tf = _v1()
    x = tf.placeholder(tf.float32, shape=[None, IMAGE_PIXELS])
    y = tf.placeholder(tf.float32, shape=[None, NUM_CLASSES])
    return x, y


def inference(x):
    """Softmax regression: ``softmax(x W + b)`` with zero-initialised W and b.

    Args:
      x: float32 tensor [batch, 784].

    Returns:
      y_pred: float32 tensor [batch, 10], class probabilities.
    """
    return softmax(x, *weights())


def weights():
    """The softmax model's zero-initialised variables.

    Returns:
      W: float32 variable [784, 10].
      b: float32 variable [10].
    """
    tf = _v1()
    W = tf.Variable(tf.zeros([IMAGE_PIXELS, NUM_CLASSES]))
    b = tf.Variable(tf.zeros([NUM_CLASSES]))
    return W, b


def softmax(x, W, b):
    """``softmax(x W + b)``: the model's forward pass on given weights.

    Args:
      x: float32 tensor [batch, 784].
      W, b: float32 tensors (or variables) [784, 10] and [10].

    Returns:
      y_pred: float32 tensor [batch, 10].
    """
    tf = _v1()
    return tf.nn.softmax(tf.matmul(x, W) + b)


def loss(y_pred, y):
    """The article's hand-written cross-entropy.

    Args:
      y_pred: float32 tensor [batch, 10] of probabilities.
      y: float32 tensor [batch, 10], one-hot labels.

    Returns:
      float32 scalar, ``mean over batch of -sum(y * log(y_pred))``.
    """
    tf = _v1()
    return tf.reduce_mean(-tf.reduce_sum(y * tf.log(y_pred), axis=[1]))


def training(loss_op, learning_rate, global_step=None):
    """Plain gradient descent on ``loss_op``.

    Args:
      loss_op: float32 scalar tensor to minimise.
      learning_rate: Python float, the step size (0.5 in the article).
      global_step: optional int64 variable, incremented by each step.

    Returns:
      The training op.
    """
    tf = _v1()
    optimizer = tf.train.GradientDescentOptimizer(learning_rate)
    return optimizer.minimize(loss_op, global_step=global_step)


def evaluation(y_pred, y):
    """Fraction of rows whose arg-max prediction equals the arg-max label.

    Args:
      y_pred: float32 tensor [batch, 10].
      y: float32 tensor [batch, 10], one-hot labels.

    Returns:
      float32 scalar accuracy in [0, 1].
    """
    tf = _v1()
    correct = tf.equal(tf.argmax(y_pred, 1), tf.argmax(y, 1))
    return tf.reduce_mean(tf.cast(correct, tf.float32))
