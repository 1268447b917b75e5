"""``tf.contrib.legacy_seq2seq``: the static-graph seq2seq functions of TF 1.0-1.15.

Owns ``rnn_decoder``, ``basic_rnn_seq2seq``, ``tied_rnn_seq2seq``,
``sequence_loss_by_example`` and ``sequence_loss`` (the legacy one: a list of per-step
logits, targets and weights), with TF1's variable scopes, so TF1 checkpoints restore and
values equal TF 1.15.5's (corpus script ``seq2seq_toy.py``). The embedding and attention
variants are named removed by tf1mem's table, with their replacement.
"""

import copy

from tf1mem._tf import v1 as _v1

__all__ = ["rnn_decoder", "basic_rnn_seq2seq", "tied_rnn_seq2seq",
           "sequence_loss_by_example", "sequence_loss"]


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    """Runs ``cell`` over the list ``decoder_inputs`` from ``initial_state``.

    With ``loop_function(prev_output, i)``, step ``i > 0`` reads its result instead
    of ``decoder_inputs[i]``. Returns ``(outputs list, final state)``.
    """
    tf = _v1()
    with tf.variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs = []
        prev = None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with tf.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                tf.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=None, scope=None):
    """Encoder ``static_rnn`` (on a copy of ``cell``), then :func:`rnn_decoder`."""
    tf = _v1()
    with tf.variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = copy.deepcopy(cell)
        _, enc_state = tf.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype or tf.float32)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, loop_function=None, dtype=None,
                     scope=None):
    """As :func:`basic_rnn_seq2seq`, with the encoder and decoder sharing variables."""
    tf = _v1()
    with tf.variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = tf.nn.static_rnn(cell, encoder_inputs, dtype=dtype or tf.float32,
                                        scope=scope)
        tf.get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function,
                           scope=scope)


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                             softmax_loss_function=None, name=None):
    """Per-example weighted cross-entropy over lists of [batch, classes] logits, [batch]."""
    tf = _v1()
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(f"Lengths of logits, weights, and targets must be the same "
                         f"{len(logits)}, {len(weights)}, {len(targets)}.")
    with tf.name_scope(name, "sequence_loss_by_example", logits + targets + weights):
        log_perp_list = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                target = tf.reshape(target, [-1])
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target,
                                                                          logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            log_perp_list.append(crossent * weight)
        log_perps = tf.add_n(log_perp_list)
        if average_across_timesteps:
            log_perps /= tf.add_n(weights) + 1e-12
    return log_perps


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                         average_across_batch=True, softmax_loss_function=None, name=None):
    """The summed :func:`sequence_loss_by_example`, divided by the batch size by default."""
    tf = _v1()
    with tf.name_scope(name, "sequence_loss", logits + targets + weights):
        cost = tf.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            batch_size = tf.shape(targets[0])[0]
            return cost / tf.cast(batch_size, cost.dtype)
        return cost
