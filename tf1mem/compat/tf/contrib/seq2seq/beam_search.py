"""``tf.contrib.seq2seq``'s beam search: ``BeamSearchDecoder`` and ``gather_tree`` of TF 1.15.

Owns ``BeamSearchDecoder`` (driven by ``dynamic_decode``: ``beam_width`` hypotheses per
batch entry, ``length_penalty_weight``, ``coverage_penalty_weight`` over an
AttentionWrapper's alignments, TensorArrays in the cell state reordered to the chosen
beams), its ``BeamSearchDecoderState`` / ``BeamSearchDecoderOutput`` /
``FinalBeamSearchDecoderOutput``, ``gather_tree`` (TF1's kernel, here in graph ops: the
GatherTree op left TensorFlow with tf.contrib) and ``gather_tree_from_array``.

Guarantees TF 1.15's search: at the first step only beam 0 is live; each step scores
every (beam, word) by the summed log-probabilities over the length penalty
``((5 + length) / 6) ** weight``; finished beams extend only with ``end_token`` at no
cost; the top ``beam_width`` scores (ties to the lower index, as ``top_k``) pick the
words and parent beams; ``predicted_ids`` are traced back from the last step and
hold ``end_token`` after a beam's first one. So a decoder gives TF 1.15.5's ids and
scores (corpus ``seq2seq_beam_search.py``). TensorFlow is imported when used.
"""

import collections

from tf1mem.compat.tf.contrib.seq2seq.decoder import Decoder

__all__ = ["BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
           "FinalBeamSearchDecoderOutput", "gather_tree", "gather_tree_from_array"]


def _tf():
    import tensorflow as tf

    return tf.compat.v1


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths",
                                   "accumulated_attention_probs"))):
    """The decoder's state: the cell's, and per beam its log-probability, whether it
    has ended, its length and (with a coverage penalty) its summed attention."""


class BeamSearchDecoderOutput(collections.namedtuple(
        "BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))):
    """One step's output: each beam's score, word and parent beam."""


class FinalBeamSearchDecoderOutput(collections.namedtuple(
        "FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])):
    """The traced-back ids ``[batch, time, beam]`` (best beam first) and the steps'."""


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """Traces each final beam back through its parents (TF1's GatherTree op).

    Args:
      step_ids, parent_ids: int32 ``[max_time, batch_size, beam_width]``.
      max_sequence_lengths: int32 ``[batch_size]``: steps past it are ``end_token``.
      end_token: int32 scalar; after a beam's first one, every id is ``end_token``.

    Returns:
      int32 ``[max_time, batch_size, beam_width]``.
    """
    tf = _tf()
    with tf.name_scope(name, "GatherTree", [step_ids, parent_ids, max_sequence_lengths]):
        step_ids = tf.convert_to_tensor(step_ids, name="step_ids")
        parent_ids = tf.convert_to_tensor(parent_ids, name="parent_ids")
        lengths = tf.convert_to_tensor(max_sequence_lengths, name="max_sequence_lengths")
        end_token = tf.cast(tf.convert_to_tensor(end_token, name="end_token"),
                            step_ids.dtype)
        shape = tf.shape(step_ids)
        max_time, batch_size, beam_width = shape[0], shape[1], shape[2]
        beams = tf.tile(tf.expand_dims(tf.range(beam_width, dtype=parent_ids.dtype), 0),
                        [batch_size, 1])
        ends = tf.fill([batch_size, beam_width], end_token)
        out = tf.TensorArray(step_ids.dtype, size=max_time, element_shape=step_ids.shape[1:])

        def body(t, current, out):
            inside = tf.expand_dims(t < lengths, 1)
            ids = tf.gather(step_ids[t], current, batch_dims=1)
            parents = tf.gather(parent_ids[t], current, batch_dims=1)
            out = out.write(t, tf.where(tf.tile(inside, [1, beam_width]), ids, ends))
            return t - 1, tf.where(tf.tile(inside, [1, beam_width]), parents, current), out

        _, _, out = tf.while_loop(lambda t, *_: t >= 0, body, (max_time - 1, beams, out),
                                  back_prop=False)
        traced = out.stack()
        # After a beam's first end_token, every id is end_token.
        is_end = tf.cast(tf.equal(traced, end_token), tf.int32)
        ended_before = tf.cumsum(is_end, axis=0, exclusive=True) > 0
        traced = tf.where(ended_before, tf.fill(tf.shape(traced), end_token), traced)
        traced.set_shape(step_ids.shape)
        return traced


def gather_tree_from_array(t, parent_ids, sequence_length):
    """Reorders a stacked ``[max_time, batch * beam, ...]`` (or ``[max_time, batch, beam,
    ...]``) tensor to the beams ``gather_tree`` traces (steps past a beam's length keep
    their own beam)."""
    tf = _tf()
    shape = tf.shape(parent_ids)
    max_time, batch_size, beam_width = shape[0], shape[1], shape[2]
    beam_ids = tf.tile(tf.reshape(tf.range(beam_width), [1, 1, -1]),
                       [max_time, batch_size, 1])
    max_lengths = tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32)
    sorted_ids = gather_tree(beam_ids, parent_ids, max_lengths, beam_width + 1)
    in_bound = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), [2, 0, 1])
    sorted_ids = tf.where(in_bound, sorted_ids, beam_ids)
    time_ind = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]),
                       [1, batch_size, beam_width])
    batch_ind = tf.transpose(tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]),
                                     [1, max_time, beam_width]), [1, 0, 2])
    indices = tf.stack([time_ind, batch_ind, sorted_ids], -1)
    final_shape = tf.shape(t)
    ordered = tf.gather_nd(tf.reshape(t, tf.stack([max_time, batch_size, beam_width, -1])),
                           indices)
    return tf.reshape(ordered, final_shape)


def _gather(indices, source, batch_size, range_size, gather_shape, name=None):
    """``source`` (``[batch, range, ...]`` or ``[batch * range, ...]``) at ``indices``
    ``[batch, beam]`` taken within each batch entry."""
    tf = _tf()
    with tf.name_scope(name, "tensor_gather_helper"):
        offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
        flat = tf.reshape(indices + offsets, [-1])
        out = tf.gather(tf.reshape(source, gather_shape), flat)
        final_shape = tf.shape(source)[:1 + len(gather_shape)]
        static = tf.TensorShape([tf.get_static_value(batch_size)]).concatenate(
            source.shape[1:1 + len(gather_shape)])
        out = tf.reshape(out, final_shape, name="output")
        out.set_shape(static)
        return out


def _attention_probs(cell_state, coverage_penalty_weight):
    """The alignments (averaged over mechanisms and attention cells) a coverage
    penalty needs; None without one."""
    from tf1mem.compat.tf.contrib.seq2seq.attention import AttentionWrapperState

    tf = _tf()
    if coverage_penalty_weight == 0.0:
        return None

    def mean_over(probs):
        if isinstance(probs, tuple):
            return tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in probs], -1), -1)
        return probs

    states = [cell_state] if isinstance(cell_state, AttentionWrapperState) else [
        s for s in (cell_state if isinstance(cell_state, tuple) else ())
        if isinstance(s, AttentionWrapperState)]
    if not states:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    return mean_over(tuple(mean_over(s.alignments) for s in states)
                     if len(states) > 1 else states[0].alignments)


def _scores(log_probs, lengths, length_penalty_weight, coverage_penalty_weight, finished,
            accumulated):
    tf = _tf()
    weight = tf.convert_to_tensor(length_penalty_weight, name="penalty_factor")
    weight.set_shape(())
    static = tf.get_static_value(weight)
    if static is not None and static == 0:
        scores = log_probs / 1.0
    else:
        penalty = tf.div((5. + tf.cast(lengths, tf.float32)) ** weight, (5. + 1.) ** weight)
        scores = log_probs / tf.cast(penalty, log_probs.dtype)
    coverage = tf.convert_to_tensor(coverage_penalty_weight, name="coverage_penalty_weight")
    if coverage.shape.ndims != 0:
        raise ValueError(f"coverage_penalty_weight should be a scalar, but saw shape: "
                         f"{coverage.shape}")
    if tf.get_static_value(coverage) == 0.0:
        return scores
    accumulated = tf.where(tf.equal(accumulated, 0.0), tf.ones_like(accumulated),
                           accumulated)
    penalty = tf.reduce_sum(tf.log(tf.minimum(accumulated, 1.0)), 2)
    penalty *= tf.cast(finished, tf.float32)
    return scores + tf.expand_dims(penalty * coverage, 2)


def _mask_probs(probs, end_token, finished):
    """Finished beams: log-probability 0 for end_token, the dtype's minimum elsewhere."""
    tf = _tf()
    vocab = tf.shape(probs)[2]
    row = tf.one_hot(end_token, vocab, dtype=probs.dtype,
                     on_value=tf.convert_to_tensor(0., dtype=probs.dtype),
                     off_value=probs.dtype.min)
    finished_probs = tf.tile(tf.reshape(row, [1, 1, -1]),
                             tf.concat([tf.shape(finished), [1]], 0))
    mask = tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab])
    return tf.where(mask, finished_probs, probs)


def _step(logits, next_cell_state, state, batch_size, beam_width, end_token,
          length_penalty_weight, coverage_penalty_weight):
    """One beam-search step over ``logits [batch, beam, vocab]``."""
    tf = _tf()
    static_batch = tf.get_static_value(batch_size)
    finished_before = state.finished
    live = tf.logical_not(finished_before)
    step_log_probs = _mask_probs(tf.nn.log_softmax(logits), end_token, finished_before)
    total = tf.expand_dims(state.log_probs, 2) + step_log_probs
    vocab = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
    add = tf.one_hot(tf.fill([batch_size, beam_width], end_token), depth=vocab,
                     on_value=tf.constant(0, tf.int64), off_value=tf.constant(1, tf.int64),
                     dtype=tf.int64)
    add *= tf.expand_dims(tf.cast(live, tf.int64), 2)
    new_lengths = add + tf.expand_dims(state.lengths, 2)
    accumulated = None
    probs = _attention_probs(next_cell_state, coverage_penalty_weight)
    if probs is not None:
        probs *= tf.expand_dims(tf.cast(live, tf.float32), 2)
        accumulated = state.accumulated_attention_probs + probs
    scores = _scores(total, new_lengths, length_penalty_weight, coverage_penalty_weight,
                     finished_before, accumulated)
    flat_scores = tf.reshape(scores, [batch_size, -1])
    top_scores, word_indices = tf.nn.top_k(
        flat_scores, k=tf.convert_to_tensor(beam_width, dtype=tf.int32, name="beam_width"))
    top_scores.set_shape([static_batch, beam_width])
    word_indices.set_shape([static_batch, beam_width])
    next_log_probs = _gather(word_indices, total, batch_size, beam_width * vocab, [-1],
                             name="next_beam_probs")
    word_ids = tf.cast(tf.mod(word_indices, vocab, name="next_beam_word_ids"), tf.int32)
    parent_ids = tf.cast(word_indices / vocab, tf.int32, name="next_beam_parent_ids")
    parent_finished = _gather(parent_ids, finished_before, batch_size, beam_width, [-1])
    next_finished = tf.logical_or(parent_finished, tf.equal(word_ids, end_token),
                                  name="next_beam_finished")
    next_lengths = _gather(parent_ids, state.lengths, batch_size, beam_width, [-1])
    next_lengths += tf.cast(tf.logical_not(parent_finished), tf.int64)
    next_accumulated = ()
    if accumulated is not None:
        next_accumulated = _gather(parent_ids, accumulated, batch_size, beam_width,
                                   [batch_size * beam_width, -1],
                                   name="next_accumulated_attention_probs")

    def gather_state(source):
        if isinstance(source, tf.TensorArray):
            return source
        _check_rank(source)
        if source.shape.ndims >= 2:
            return _gather(parent_ids, source, batch_size, beam_width,
                           [batch_size * beam_width, -1])
        return source

    next_state = BeamSearchDecoderState(
        cell_state=tf.nest.map_structure(gather_state, next_cell_state),
        log_probs=next_log_probs, lengths=next_lengths, finished=next_finished,
        accumulated_attention_probs=next_accumulated)
    output = BeamSearchDecoderOutput(scores=top_scores, predicted_ids=word_ids,
                                     parent_ids=parent_ids)
    return output, next_state


def _check_rank(t):
    if t.shape.ndims is None:
        raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")


class BeamSearchDecoder(Decoder):
    """Beam search over ``cell`` from ``initial_state`` (tiled ``beam_width`` times with
    ``tile_batch``), feeding each chosen word's embedding back.

    Args:
      cell: the RNN cell (an AttentionWrapper over tiled memory, often).
      embedding: a function of ids, or the params of ``embedding_lookup``.
      start_tokens: int32 ``[batch_size]``; end_token: int32 scalar.
      initial_state: the cell's state for ``batch_size * beam_width`` rows.
      beam_width: how many hypotheses each batch entry keeps.
      output_layer: a layer turning the cell's output into logits.
      length_penalty_weight, coverage_penalty_weight: 0 turns each off.
      reorder_tensor_arrays: reorder TensorArrays in the final cell state (the
        alignment history) to the chosen beams.

    Raises:
      TypeError: a cell that is no RNN cell, an output_layer that is no Layer.
      ValueError: start_tokens not a vector, end_token not a scalar.
    """

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width,
                 output_layer=None, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
                 reorder_tensor_arrays=True):
        tf = _tf()
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size")
                and callable(cell)):
            raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell: it must have "
                            f"output_size, state_size and be callable")
        if output_layer is not None and not isinstance(output_layer, tf.layers.Layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._embedding_fn = embedding if callable(embedding) else (
            lambda ids: tf.nn.embedding_lookup(embedding, ids))
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32,
                                                  name="start_tokens")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(start_tokens)
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._initial_cell_state = tf.nest.map_structure(
            self._maybe_split, initial_state, self._cell.state_size)
        self._start_tokens = tf.tile(tf.expand_dims(self._start_tokens, 1),
                                     [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                                    depth=self._beam_width, on_value=False, off_value=True,
                                    dtype=tf.bool)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def tracks_own_finished(self):
        """True: the beams' finished flags move with the beams."""
        return True

    def _rnn_output_size(self):
        tf = _tf()
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        shapes = tf.nest.map_structure(
            lambda s: tf.TensorShape([None]).concatenate(s), size)
        return tf.nest.map_structure(lambda s: s[1:],
                                     self._output_layer.compute_output_shape(shapes))

    @property
    def output_size(self):
        tf = _tf()
        return BeamSearchDecoderOutput(scores=tf.TensorShape([self._beam_width]),
                                       predicted_ids=tf.TensorShape([self._beam_width]),
                                       parent_ids=tf.TensorShape([self._beam_width]))

    @property
    def output_dtype(self):
        tf = _tf()
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=tf.int32, parent_ids=tf.int32)

    def initialize(self, name=None):
        import numpy as np

        tf = _tf()
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                               depth=self._beam_width,
                               on_value=tf.convert_to_tensor(0.0, dtype=dtype),
                               off_value=tf.convert_to_tensor(-np.inf, dtype=dtype),
                               dtype=dtype)
        attention = _attention_probs(self._initial_cell_state, self._coverage_penalty_weight)
        state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs,
            finished=self._finished,
            lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
            accumulated_attention_probs=() if attention is None else attention)
        return self._finished, self._start_inputs, state

    def finalize(self, outputs, final_state, sequence_lengths):
        tf = _tf()
        max_lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                max_sequence_lengths=max_lengths, end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=tf.nest.map_structure(
                lambda t: self._maybe_sort_array(t, outputs.parent_ids, final_state.lengths),
                final_state.cell_state))
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                            predicted_ids=predicted), final_state

    def _static_batch(self):
        return _tf().get_static_value(self._batch_size)

    def _merge(self, t, s=None):
        tf = _tf()
        s = tf.TensorShape(tf.get_static_value(s) if isinstance(s, tf.Tensor) else s)
        static = self._static_batch()
        out = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width],
                                       tf.shape(t)[2:]), 0))
        out.set_shape(tf.TensorShape([None if static is None else static * self._beam_width])
                      .concatenate(s))
        return out

    def _split(self, t, s=None):
        tf = _tf()
        s = tf.TensorShape(tf.get_static_value(s) if isinstance(s, tf.Tensor) else s)
        out = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width],
                                       tf.shape(t)[1:]), 0))
        expected = tf.TensorShape([self._static_batch(), self._beam_width]).concatenate(s)
        if not out.shape.is_compatible_with(expected):
            raise ValueError(
                f"Unexpected behavior when reshaping between beam width and batch size.  "
                f"The reshaped tensor has shape: {out.shape}.  We expected it to have shape "
                f"(batch_size, beam_width, depth) == {expected}.  Perhaps you forgot to "
                f"create a zero_state with batch_size=encoder_batch_size * beam_width?")
        out.set_shape(expected)
        return out

    def _maybe_split(self, t, s):
        if isinstance(t, _tf().TensorArray):
            return t
        _check_rank(t)
        return self._split(t, s) if t.shape.ndims >= 1 else t

    def _maybe_merge(self, t, s):
        if isinstance(t, _tf().TensorArray):
            return t
        _check_rank(t)
        return self._merge(t, s) if t.shape.ndims >= 2 else t

    def _maybe_sort_array(self, t, parent_ids, lengths):
        tf = _tf()
        if not isinstance(t, tf.TensorArray):
            return t
        shape = t.element_shape
        if shape.ndims is None or shape.ndims < 1:
            tf.logging.warn("The TensorArray %s in the cell state is not amenable to "
                            "sorting based on the beam search result. For a TensorArray to "
                            "be sorted, its elements shape must be defined and have at least "
                            "a rank of 1, but saw shape: %s", t.handle.name, shape)
            return t
        batch = self._static_batch()
        first = tf.compat.dimension_value(shape[0])
        second = tf.compat.dimension_value(shape[1]) if shape.ndims >= 2 else None
        if batch is not None and first is not None and (
                first != batch * self._beam_width
                or (second is not None and (first != batch or second != self._beam_width))):
            tf.logging.warn("TensorArray reordering expects elements to be reshapable to %s "
                            "which is incompatible with the current shape %s. Consider "
                            "setting reorder_tensor_arrays to False to disable TensorArray "
                            "reordering during the beam search.",
                            tf.TensorShape([batch, self._beam_width, None]), shape)
            return t
        return gather_tree_from_array(t.stack(), parent_ids, lengths)

    def step(self, time, inputs, state, name=None):
        tf = _tf()
        with tf.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            inputs = tf.nest.map_structure(lambda x: self._merge(x, s=x.shape[2:]), inputs)
            cell_state = tf.nest.map_structure(self._maybe_merge, state.cell_state,
                                               self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = tf.nest.map_structure(lambda o: self._split(o, o.shape[1:]),
                                                 cell_outputs)
            next_cell_state = tf.nest.map_structure(self._maybe_split, next_cell_state,
                                                    self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            output, next_state = _step(
                cell_outputs, next_cell_state, state, self._batch_size, self._beam_width,
                self._end_token, self._length_penalty_weight, self._coverage_penalty_weight)
            finished = next_state.finished
            next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                                  lambda: self._embedding_fn(output.predicted_ids))
        return output, next_state, next_inputs, finished
