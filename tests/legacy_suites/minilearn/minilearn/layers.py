"""Layers as TF1 libraries wrote them: variable scopes, get_variable, initialisers."""

import tensorflow as tf

__all__ = ["fully_connected"]


def fully_connected(incoming, n_units, activation=None, weights_init=None,
                    name="FullyConnected"):
    n_inputs = int(incoming.get_shape()[-1])
    with tf.variable_scope(name):
        if weights_init is None:
            weights_init = tf.truncated_normal_initializer(stddev=0.02)
        W = tf.get_variable("W", [n_inputs, n_units], initializer=weights_init)
        b = tf.get_variable("b", [n_units], initializer=tf.zeros_initializer())
        out = tf.matmul(incoming, W) + b
        if activation is not None:
            out = activation(out)
    return out
