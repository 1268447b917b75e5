"""Losses with TF1's signatures."""

import tensorflow as tf

__all__ = ["mean_square", "softmax_categorical_crossentropy"]


def mean_square(y_pred, y_true):
    with tf.name_scope("MeanSquare"):
        return tf.reduce_mean(tf.square(y_pred - y_true))


def softmax_categorical_crossentropy(y_pred, y_true):
    with tf.name_scope("SoftmaxCrossentropy"):
        return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            logits=y_pred, labels=y_true))
