"""Accuracy ops, as tflearn's metrics built them."""

import tensorflow as tf

__all__ = ["binary_accuracy", "categorical_accuracy"]


def binary_accuracy(y_pred, y_true):
    with tf.name_scope("binary_acc"):
        predicted = tf.cast(tf.greater(y_pred, 0.), tf.float32)
        return tf.reduce_mean(tf.cast(tf.equal(predicted, y_true), tf.float32))


def categorical_accuracy(y_pred, y_true):
    correct = tf.equal(tf.argmax(y_pred, 1), tf.argmax(y_true, 1))
    return tf.reduce_mean(tf.cast(correct, tf.float32), name="acc")
