"""The cells of the TF 1.15.5 checkpoint in this folder, built as TF1 code builds them:
IndyLSTMCell, IndyGRUCell, UGRNNCell, IntersectionRNNCell (num_in_proj), SRUCell,
PhasedLSTMCell (peepholes), GLSTMCell (two groups, num_proj) and TimeFreqLSTMCell
(peepholes, two weight shards, one window), each through dynamic_rnn under its own
scope."""
import numpy as np
import tensorflow as tf


def build():
    """Returns the fetches: each cell's last output and its flattened final state."""
    x = tf.constant(np.cos(0.3 * np.arange(2 * 3 * 4)).reshape(2, 3, 4), tf.float32)
    times = tf.constant(np.cumsum(np.full([2, 3, 1], 0.7), axis=1), tf.float32)
    rnn = tf.contrib.rnn
    cells = [
        ("indy_lstm", rnn.IndyLSTMCell(3, forget_bias=0.5), x),
        ("indy_gru", rnn.IndyGRUCell(3), x),
        ("ugrnn", rnn.UGRNNCell(3), x),
        ("intersection", rnn.IntersectionRNNCell(2, num_in_proj=2), x),
        ("sru", rnn.SRUCell(3), x),
        ("phased", rnn.PhasedLSTMCell(3, use_peepholes=True, ratio_on=0.5), (times, x)),
        ("glstm", rnn.GLSTMCell(4, num_proj=2, number_of_groups=2), x),
        ("timefreq", rnn.TimeFreqLSTMCell(2, use_peepholes=True, num_unit_shards=2,
                                          feature_size=4), x),
    ]
    fetches = {}
    for scope, cell, inputs in cells:
        out, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32, scope=scope)
        fetches[scope] = out[:, -1]
        fetches[scope + " state"] = tf.concat(tf.nest.flatten(state), 1)
    return fetches


def values(variables):
    """Distinct, deterministic values for each variable (in creation order); the Phased
    LSTM's periods and open ratios positive."""
    out = []
    for i, v in enumerate(variables):
        shape = v.shape.as_list()
        value = 0.5 * np.sin(0.37 * np.arange(int(np.prod(shape))) + i).reshape(shape)
        if v.op.name.endswith(("period", "ratio_on")):
            value = np.abs(value) + 0.5
        out.append(value)
    return out
