"""Example 1 on TF 2 natively: the article's softmax as ``tf.Module`` + ``tf.function``.

Same model as :mod:`tf1mem.models` (zero-initialised ``W`` [784, 10] and ``b`` [10],
``softmax(x W + b)``, the hand-written ``mean(-sum(y * log(y_pred), axis=1))``), same
plain gradient descent (``v -= learning_rate * grad``), same batches
(``mnist.train.next_batch(batch_size)`` of a :func:`tf1mem.data.input_data.read_data_sets`
read with the same seed). :func:`tf1_graph_losses` is the TF1 side, built from
:mod:`tf1mem.models` op for op in its own ``tf.Graph``; both return the loss of each
step as the TF1 loop fetches it (computed before that step's update).

Guarantee: no global TensorFlow state is changed (the TF1 side lives in its own graph
and session, the TF 2 side runs eagerly).
"""

from typing import List

from tf1mem import models

__all__ = ["softmax_module", "cross_entropy", "train_tf2", "tf1_graph_losses"]


_CLASS = []  # the tf.Module subclass, built on first use (no TensorFlow at import)


def softmax_module(**variable_options):
    """A new ``tf.Module`` holding the article's ``W`` [784, 10] and ``b`` [10], zeros.

    Calling it on ``x`` [batch, 784] gives ``softmax(x W + b)``.

    Args:
      **variable_options: passed to both ``tf.Variable``s (e.g. ``aggregation``).
    """
    if not _CLASS:
        import tensorflow as tf

        class SoftmaxRegression(tf.Module):
            """The article's softmax regression."""

            def __init__(self, **options):
                super().__init__(name="softmax")
                self.W = tf.Variable(tf.zeros([models.IMAGE_PIXELS, models.NUM_CLASSES]),
                                     name="W", **options)
                self.b = tf.Variable(tf.zeros([models.NUM_CLASSES]), name="b", **options)

            def __call__(self, x):
                return tf.nn.softmax(tf.matmul(x, self.W) + self.b)

        _CLASS.append(SoftmaxRegression)
    return _CLASS[0](**variable_options)


def cross_entropy(y_pred, y):
    """The article's loss, per example: ``-sum(y * log(y_pred), axis=1)``."""
    import tensorflow as tf

    return -tf.reduce_sum(y * tf.math.log(y_pred), axis=[1])


def train_tf2(mnist, steps: int, batch_size: int = models.BATCH_SIZE,
              learning_rate: float = models.LEARNING_RATE) -> List[float]:
    """Trains a fresh model eagerly with a ``tf.function`` step; returns each loss.

    Args:
      mnist: a ``read_data_sets`` result; ``mnist.train.next_batch`` is consumed.
      steps, batch_size, learning_rate: as the article's loop.
    """
    import tensorflow as tf

    model = softmax_module()
    lr = tf.constant(learning_rate, tf.float32)
    spec = (tf.TensorSpec([None, models.IMAGE_PIXELS], tf.float32),
            tf.TensorSpec([None, models.NUM_CLASSES], tf.float32))

    @tf.function(input_signature=spec)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(cross_entropy(model(x), y))
        grads = tape.gradient(loss, [model.W, model.b])
        model.W.assign_sub(lr * grads[0])
        model.b.assign_sub(lr * grads[1])
        return loss

    losses = []
    for _ in range(steps):
        xs, ys = mnist.train.next_batch(batch_size)
        losses.append(float(step(xs, ys)))
    return losses


def tf1_graph_losses(mnist, steps: int, batch_size: int = models.BATCH_SIZE,
                     learning_rate: float = models.LEARNING_RATE) -> List[float]:
    """The TF1 side: :mod:`tf1mem.models`' graph, placeholders and ``feed_dict``."""
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x, y = models.placeholders()
        loss = models.loss(models.inference(x), y)
        train = models.training(loss, learning_rate)
        init = v1.global_variables_initializer()
    losses = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(steps):
            xs, ys = mnist.train.next_batch(batch_size)
            _, value = sess.run([train, loss], feed_dict={x: xs, y: ys})
            losses.append(float(value))
    return losses
