"""Graph builders for the article's models, in the TF tutorial's four-function style.

Each function only adds ops to the current default graph (TF1 graph mode, via
``tf.compat.v1``) and returns tensors; none runs a session or reads flags. The
softmax model is the article's example 1, op for op: zero-initialised ``W`` and
``b``, ``softmax(x W + b)``, and the cross-entropy written out by hand as
``mean(-sum(y * log(y_pred), axis=1))`` rather than TF's fused, numerically safer
op, because that is what the legacy code computes.
"""

import collections

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
    "pixels",
    "sgd_step",
    "evaluation",
    "MEMORY_MODELS",
    "DTYPES",
    "TrainGraph",
    "train_graph",
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


def pixels(images):
    """uint8 pixels in [0, 255] as float32 in [0, 1], as TF1's MNIST loader scaled them.

    ``float32(x) * float32(1/255)``, the loader's two roundings
    (:class:`tf1mem.data.input_data.DataSet` with ``dtype=float32``), so the values
    are the loader's, bit for bit.

    Args:
      images: uint8 tensor of any shape.

    Returns:
      float32 tensor of the same shape.
    """
    tf = _v1()
    return tf.cast(images, tf.float32) * tf.constant(1.0 / 255.0, tf.float32)


def sgd_step(x, y, W, b, learning_rate):
    """One gradient-descent step of example 1, with the gradient written out.

    The same step as :func:`softmax`, :func:`loss` and :func:`training`, in fewer
    ops, for loops that run many steps in the graph. With ``z = x W + b`` and
    ``p = softmax(z)``, the derivative of the hand-written cross-entropy
    ``mean(-sum(y * log(p), 1))`` is ``dz = (p * sum(y, 1) - y) / batch`` (the chain
    rule through ``log`` and ``softmax``, simplified), and ``sum(y, 1)`` is 1 for
    one-hot labels, so ``grad W = x^T (p - y) / batch`` and
    ``grad b = sum((p - y) / batch, 0)``. ``softmax`` is written as
    ``exp(z - max z) / sum``, the same function as ``tf.nn.softmax``: on this
    [batch, 10] tensor the five small ops cost less than TF's ``Softmax`` kernel
    (measured on a 2-core CPU: about 30 us a step less). The loss is left to the
    caller (:func:`loss` of ``y_pred``). The order of
    the floating-point operations differs from ``tf.gradients`` of the article's
    graph: after its 1000 steps the weights differ by at most about 5e-7
    (``tests/tf/test_fast_train.py`` bounds them at 1e-5).

    Args:
      x: float32 tensor [batch, 784].
      y: float32 tensor [batch, 10], one-hot labels (each row sums to 1).
      W, b: float32 tensors [784, 10] and [10], the weights before the step.
      learning_rate: Python float.

    Returns:
      ``(W_next, b_next, y_pred)``: the weights after the step and the float32
      [batch, 10] probabilities of ``(W, b)`` on this batch.
    """
    tf = _v1()
    logits = tf.matmul(x, W) + b
    e = tf.exp(logits - tf.reduce_max(logits, axis=1, keepdims=True))
    y_pred = e / tf.reduce_sum(e, axis=1, keepdims=True)
    batch = tf.compat.dimension_value(x.shape[0])
    if batch is None:
        scale = learning_rate / tf.cast(tf.shape(x)[0], tf.float32)
    else:
        scale = tf.constant(learning_rate / batch, tf.float32)
    # d loss / d logits, scaled by the step size once here rather than twice below.
    dz = (y_pred - y) * scale
    return (W - tf.matmul(x, dz, transpose_a=True), b - tf.reduce_sum(dz, axis=0),
            y_pred)


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


# Models the memory commands measure: the article's softmax, a one-hidden-layer MLP
# and a small CNN, each in float32, float16 or bfloat16.
MEMORY_MODELS = ("softmax", "mlp", "cnn")
DTYPES = ("float32", "float16", "bfloat16")

TrainGraph = collections.namedtuple("TrainGraph", "x y train_op loss accuracy")


def train_graph(model="softmax", *, hidden=128, dtype="float32",
                learning_rate=LEARNING_RATE):
    """Adds one of :data:`MEMORY_MODELS` with its loss and training op to the graph.

    - ``softmax``: the article's example 1 (:func:`inference`, :func:`loss`,
      :func:`training`), with every tensor in ``dtype``.
    - ``mlp``: ``784 -> hidden (ReLU) -> 10``, fused softmax cross-entropy, gradient
      descent; weights from a truncated normal (stddev 0.1, TF 1's tutorial).
    - ``cnn``: 5x5 convolution to 32 channels (ReLU, SAME), 2x2 max pool, dense to 10.

    Args:
      model: one of :data:`MEMORY_MODELS`.
      hidden: the MLP's hidden width (ignored by the others).
      dtype: one of :data:`DTYPES`: placeholders, variables and every activation.
      learning_rate: Python float.

    Returns:
      A :class:`TrainGraph`: ``x`` [None, 784] and ``y`` [None, 10] placeholders of
      ``dtype``, the training op, the scalar loss and the scalar accuracy (float32).

    Raises:
      ValueError: an unknown model, dtype or a hidden width < 1, naming the value.
    """
    if model not in MEMORY_MODELS:
        raise ValueError(f"model must be one of {', '.join(MEMORY_MODELS)}, got {model!r}")
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    if int(hidden) < 1:
        raise ValueError(f"hidden must be >= 1, got {hidden!r}")
    tf = _v1()
    dt = tf.as_dtype(dtype)
    x = tf.placeholder(dt, shape=[None, IMAGE_PIXELS], name="x")
    y = tf.placeholder(dt, shape=[None, NUM_CLASSES], name="y")
    if model == "softmax":
        W = tf.Variable(tf.zeros([IMAGE_PIXELS, NUM_CLASSES], dtype=dt))
        b = tf.Variable(tf.zeros([NUM_CLASSES], dtype=dt))
        y_pred = softmax(x, W, b)
        loss_op = loss(y_pred, y)
        logits = y_pred
    else:
        def dense(inputs, n_in, n_out):
            w = tf.Variable(tf.cast(tf.truncated_normal([n_in, n_out], stddev=0.1), dt))
            bias = tf.Variable(tf.zeros([n_out], dtype=dt))
            return tf.matmul(inputs, w) + bias

        if model == "mlp":
            logits = dense(tf.nn.relu(dense(x, IMAGE_PIXELS, int(hidden))),
                           int(hidden), NUM_CLASSES)
        else:
            images = tf.reshape(x, [-1, 28, 28, 1])
            kernel = tf.Variable(tf.cast(tf.truncated_normal([5, 5, 1, 32], stddev=0.1), dt))
            conv = tf.nn.relu(tf.nn.conv2d(images, kernel, [1, 1, 1, 1], "SAME")
                              + tf.Variable(tf.zeros([32], dtype=dt)))
            pool = tf.nn.max_pool2d(conv, 2, 2, "VALID")
            logits = dense(tf.reshape(pool, [-1, 14 * 14 * 32]), 14 * 14 * 32, NUM_CLASSES)
        loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=tf.stop_gradient(y), logits=logits))
    train_op = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss_op)
    correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return TrainGraph(x, y, train_op, loss_op, accuracy)
