"""The cells of the TF 1.15.5 checkpoint in this folder, built as TF1 code builds them:
NASCell (num_proj, use_bias), GridLSTMCell (peepholes, two weight shards, two blocks
from start/end index lists, cell_clip) and BidirectionalGridLSTMCell (coupled gates, a
negative backward slice offset), each through dynamic_rnn under its own scope."""
import numpy as np
import tensorflow as tf


def build():
    """Returns the fetches: each cell's last output and its flattened final state."""
    x = tf.constant(np.cos(0.3 * np.arange(2 * 3 * 8)).reshape(2, 3, 8), tf.float32)
    cells = [
        ("nas", tf.contrib.rnn.NASCell(3, num_proj=2, use_bias=True)),
        ("grid", tf.contrib.rnn.GridLSTMCell(
            2, use_peepholes=True, num_unit_shards=2, feature_size=4, frequency_skip=2,
            num_frequency_blocks=[1, 2], start_freqindex_list=[0, 2],
            end_freqindex_list=[4, 8], cell_clip=0.8)),
        ("bigrid", tf.contrib.rnn.BidirectionalGridLSTMCell(
            2, couple_input_forget_gates=True, use_peepholes=True, feature_size=4,
            frequency_skip=4, num_frequency_blocks=[2], backward_slice_offset=-1)),
    ]
    fetches = {}
    for scope, cell in cells:
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope=scope)
        fetches[scope] = out[:, -1]
        fetches[scope + " state"] = tf.concat(tf.nest.flatten(state), 1)
    return fetches


def values(variables):
    """Distinct, deterministic values for each variable (in creation order)."""
    return [0.5 * np.sin(0.37 * np.arange(int(np.prod(v.shape.as_list()))) + i).reshape(
        v.shape.as_list()) for i, v in enumerate(variables)]
