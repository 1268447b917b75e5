"""TensorFlow, imported on first use: tf1mem modules do no work at import time."""


def v1():
    """Returns ``tf.compat.v1``, importing TensorFlow if it is not loaded yet."""
    import tensorflow as tf

    return tf.compat.v1
