"""``tf.contrib.crf``, the linear-chain conditional random field of TF 1.x.

This module owns our implementation of TF1's CRF API: the scores
(``crf_sequence_score``, ``crf_unary_score``, ``crf_binary_score``,
``crf_multitag_sequence_score``), the partition function (``crf_log_norm``), the
training objective (``crf_log_likelihood``, which makes the ``transitions``
variable with ``tf.get_variable`` when none is given), decoding in the graph
(``crf_decode``) and in NumPy (``viterbi_decode``), and the RNN cells the
forward and Viterbi passes run through ``tf.nn.dynamic_rnn``
(``CrfForwardRnnCell``, ``CrfDecodeForwardRnnCell``, ``CrfDecodeBackwardRnnCell``).

Guarantees: the same maths, shapes, dtypes and edge cases as TF 1.15 (sequences
of length 1 score their first step only; a sequence length of 0 scores 0),
so the numbers agree with TF 1.15.5 to float rounding (the legacy corpus
``crf_tagger.py`` checks them). Works in graph and eager mode. The cells subclass TF's
v1 RNNCell, so the module imports TensorFlow at its top (it is loaded only after
TensorFlow, with ``TF_USE_LEGACY_KERAS`` set).
"""

import numpy as np
import tensorflow.compat.v1 as tf

__all__ = [
    "crf_sequence_score", "crf_multitag_sequence_score", "crf_log_norm",
    "crf_log_likelihood", "crf_unary_score", "crf_binary_score", "crf_decode",
    "viterbi_decode", "CrfForwardRnnCell", "CrfDecodeForwardRnnCell",
    "CrfDecodeBackwardRnnCell",
]


def _static_len_is_one(inputs):
    dim = inputs.get_shape()[1] if inputs.get_shape().ndims else None
    dim = getattr(dim, "value", dim)
    return dim


def _by_length(inputs, single, multi):
    """``single()`` when the time axis has length 1, else ``multi()`` (TF1's smart_cond)."""
    dim = _static_len_is_one(inputs)
    if dim is not None:
        return single() if dim == 1 else multi()
    return tf.cond(tf.equal(tf.shape(inputs)[1], 1), single, multi)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """Unnormalised score of each tag sequence: unary plus transition scores.

    Args:
      inputs: [batch, max_seq_len, num_tags] unary potentials.
      tag_indices: [batch, max_seq_len] int tags.
      sequence_lengths: [batch] lengths.
      transition_params: [num_tags, num_tags] transition scores.

    Returns:
      [batch] scores (0 where a length is 0).
    """
    inputs = tf.convert_to_tensor(inputs)
    tag_indices = tf.convert_to_tensor(tag_indices)
    sequence_lengths = tf.convert_to_tensor(sequence_lengths)

    def single():
        batch_size = tf.shape(inputs, out_type=tag_indices.dtype)[0]
        example_inds = tf.reshape(tf.range(batch_size, dtype=tag_indices.dtype), [-1, 1])
        scores = tf.gather_nd(tf.squeeze(inputs, [1]),
                              tf.concat([example_inds, tag_indices], axis=1))
        return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(scores), scores)

    def multi():
        unary = crf_unary_score(tag_indices, sequence_lengths, inputs)
        binary = crf_binary_score(tag_indices, sequence_lengths, transition_params)
        return unary + binary

    return _by_length(inputs, single, multi)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """Score of all sequences allowed by ``tag_bitmap`` ([batch, max_seq_len, num_tags] bool)."""
    inputs = tf.convert_to_tensor(inputs)
    filtered = tf.where(tag_bitmap, inputs,
                        tf.fill(tf.shape(inputs), tf.cast(float("-inf"), inputs.dtype)))
    return crf_log_norm(filtered, sequence_lengths, transition_params)


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """Log of the partition function (forward algorithm), [batch]; 0 where a length is 0."""
    inputs = tf.convert_to_tensor(inputs)
    sequence_lengths = tf.convert_to_tensor(sequence_lengths)
    first_input = tf.squeeze(tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

    def single():
        log_norm = tf.reduce_logsumexp(first_input, [1])
        return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(log_norm), log_norm)

    def multi():
        rest = tf.slice(inputs, [0, 1, 0], [-1, -1, -1])
        cell = CrfForwardRnnCell(transition_params)
        lengths_less_one = tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype),
                                      sequence_lengths - 1)
        _, alphas = tf.nn.dynamic_rnn(cell=cell, inputs=rest, sequence_length=lengths_less_one,
                                      initial_state=first_input, dtype=tf.float32)
        log_norm = tf.reduce_logsumexp(alphas, [1])
        return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(log_norm), log_norm)

    return _by_length(inputs, single, multi)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """Log-likelihood of the tag sequences under a linear-chain CRF.

    Args:
      inputs: [batch, max_seq_len, num_tags] unary potentials.
      tag_indices: [batch, max_seq_len] the true tags.
      sequence_lengths: [batch] lengths.
      transition_params: [num_tags, num_tags], or None to create the variable
        ``transitions`` with ``tf.get_variable`` in the current variable scope.

    Returns:
      ``(log_likelihood [batch], transition_params)``.
    """
    inputs = tf.convert_to_tensor(inputs)
    num_tags = inputs.get_shape()[2]
    num_tags = getattr(num_tags, "value", num_tags)
    if transition_params is None:
        if num_tags is None:
            raise ValueError("crf_log_likelihood: inputs must have a static number of tags "
                             f"(last dimension) to create the transitions variable; got shape "
                             f"{inputs.get_shape()}. Pass transition_params instead.")
        transition_params = tf.get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths,
                                         transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """Sum over the valid steps of ``inputs[b, t, tag[b, t]]``, [batch]."""
    tag_indices = tf.convert_to_tensor(tag_indices)
    inputs = tf.convert_to_tensor(inputs)
    batch_size = tf.shape(inputs)[0]
    max_seq_len = tf.shape(inputs)[1]
    num_tags = tf.shape(inputs)[2]
    flattened_inputs = tf.reshape(inputs, [-1])
    offsets = tf.expand_dims(tf.range(batch_size) * max_seq_len * num_tags, 1)
    offsets += tf.expand_dims(tf.range(max_seq_len) * num_tags, 0)
    if tag_indices.dtype == tf.int64:
        offsets = tf.cast(offsets, tf.int64)
    flattened_tag_indices = tf.reshape(offsets + tag_indices, [-1])
    unary_scores = tf.reshape(tf.gather(flattened_inputs, flattened_tag_indices),
                              [batch_size, max_seq_len])
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1],
                             dtype=tf.float32)
    return tf.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """Sum of ``transition_params[tag[t-1], tag[t]]`` over the valid steps, [batch]."""
    tag_indices = tf.convert_to_tensor(tag_indices)
    transition_params = tf.convert_to_tensor(transition_params)
    num_tags = tf.shape(transition_params)[0]
    num_transitions = tf.shape(tag_indices)[1] - 1
    start_tag_indices = tf.slice(tag_indices, [0, 0], [-1, num_transitions])
    end_tag_indices = tf.slice(tag_indices, [0, 1], [-1, num_transitions])
    flattened_indices = start_tag_indices * tf.cast(num_tags, tag_indices.dtype) \
        + end_tag_indices
    binary_scores = tf.gather(tf.reshape(transition_params, [-1]), flattened_indices)
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1],
                             dtype=tf.float32)
    truncated_masks = tf.slice(masks, [0, 1], [-1, -1])
    return tf.reduce_sum(binary_scores * truncated_masks, 1)


def crf_decode(potentials, transition_params, sequence_length):
    """Viterbi decoding in the graph.

    Args:
      potentials: [batch, max_seq_len, num_tags] unary potentials.
      transition_params: [num_tags, num_tags].
      sequence_length: [batch] lengths.

    Returns:
      ``(decode_tags [batch, max_seq_len] int32, best_score [batch])``.
    """
    potentials = tf.convert_to_tensor(potentials)
    sequence_length = tf.convert_to_tensor(sequence_length)

    def single():
        squeezed = tf.squeeze(potentials, [1])
        decode_tags = tf.expand_dims(tf.cast(tf.argmax(squeezed, axis=1), tf.int32), 1)
        return decode_tags, tf.reduce_max(squeezed, axis=1)

    def multi():
        num_tags = potentials.get_shape()[2]
        num_tags = getattr(num_tags, "value", num_tags)
        fwd_cell = CrfDecodeForwardRnnCell(transition_params)
        initial_state = tf.squeeze(tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), [1])
        inputs = tf.slice(potentials, [0, 1, 0], [-1, -1, -1])
        lengths_less_one = tf.maximum(tf.constant(0, dtype=sequence_length.dtype),
                                      sequence_length - 1)
        backpointers, last_score = tf.nn.dynamic_rnn(
            fwd_cell, inputs=inputs, sequence_length=lengths_less_one,
            initial_state=initial_state, time_major=False, dtype=tf.int32)
        backpointers = tf.reverse_sequence(backpointers, lengths_less_one, seq_axis=1)
        bwd_cell = CrfDecodeBackwardRnnCell(num_tags)
        initial_state = tf.cast(tf.expand_dims(tf.argmax(last_score, axis=1), axis=-1),
                                tf.int32)
        decode_tags, _ = tf.nn.dynamic_rnn(
            bwd_cell, inputs=backpointers, sequence_length=lengths_less_one,
            initial_state=initial_state, time_major=False, dtype=tf.int32)
        decode_tags = tf.squeeze(decode_tags, axis=[2])
        decode_tags = tf.concat([initial_state, decode_tags], axis=1)
        decode_tags = tf.reverse_sequence(decode_tags, sequence_length, seq_axis=1)
        return decode_tags, tf.reduce_max(last_score, axis=1)

    return _by_length(potentials, single, multi)


def viterbi_decode(score, transition_params):
    """Viterbi decoding in NumPy (outside the graph), as TF1's.

    Args:
      score: [seq_len, num_tags] unary potentials.
      transition_params: [num_tags, num_tags].

    Returns:
      ``(viterbi, viterbi_score)``: the best tag sequence (a list of Python ints) and its
      score (a NumPy scalar).
    """
    score = np.asarray(score)
    transition_params = np.asarray(transition_params)
    if score.ndim != 2 or transition_params.shape != (score.shape[1],) * 2:
        raise ValueError(f"viterbi_decode needs score [seq_len, num_tags] and "
                         f"transition_params [num_tags, num_tags]; got shapes {score.shape} "
                         f"and {transition_params.shape}")
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(v, 0)
        backpointers[t] = np.argmax(v, 0)
    viterbi = [np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        viterbi.append(bp[viterbi[-1]])
    viterbi.reverse()
    # Python ints: TF1's list held NumPy ints, which NumPy 1.x printed as plain numbers.
    return [int(tag) for tag in viterbi], np.max(trellis[-1])


# --- the cells (they subclass TF's v1 RNNCell) ----------------------------------------

_RNNCell = tf.nn.rnn_cell.RNNCell


class _TransitionCell(_RNNCell):
    """A cell over ``num_tags`` scores that adds the transition matrix each step."""

    def __init__(self, transition_params):
        super().__init__()
        transition_params = tf.convert_to_tensor(transition_params)
        self._transition_params = tf.expand_dims(transition_params, 0)
        num_tags = transition_params.get_shape()[0]
        self._num_tags = getattr(num_tags, "value", num_tags)

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags

    def _scores(self, state):
        return tf.expand_dims(state, 2) + self._transition_params


class CrfForwardRnnCell(_TransitionCell):
    """One step of the forward algorithm: log-sum-exp over the previous tag."""

    def __call__(self, inputs, state, scope=None):
        new_alphas = inputs + tf.reduce_logsumexp(self._scores(state), [1])
        return new_alphas, new_alphas


class CrfDecodeForwardRnnCell(_TransitionCell):
    """One Viterbi step: the best previous tag (backpointer) and the new scores."""

    def __call__(self, inputs, state, scope=None):
        scores = self._scores(state)
        new_state = inputs + tf.reduce_max(scores, [1])
        backpointers = tf.cast(tf.argmax(scores, 1), dtype=tf.int32)
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(_RNNCell):
    """Follows the backpointers one step back."""

    def __init__(self, num_tags):
        super().__init__()
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        state = tf.squeeze(state, [1])
        b_indices = tf.range(tf.shape(inputs)[0])
        indices = tf.stack([b_indices, state], axis=1)
        new_tags = tf.expand_dims(tf.gather_nd(inputs, indices), axis=-1)
        return new_tags, new_tags
