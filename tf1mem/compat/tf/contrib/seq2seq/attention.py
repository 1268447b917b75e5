"""``tf.contrib.seq2seq``'s attention: the mechanisms and the wrapper cell of TF 1.2-1.15.

Owns ``BahdanauAttention`` (``normalize``), ``LuongAttention`` (``scale``), their base
``AttentionMechanism``, ``AttentionWrapper`` (one mechanism or several,
``attention_layer_size`` or ``attention_layer``, ``alignment_history``,
``output_attention``, ``cell_input_fn``, ``initial_cell_state``), its state
``AttentionWrapperState`` (``clone``) and ``hardmax``.

Guarantees: TF 1.15's maths (scores, masking past ``memory_sequence_length`` with
``score_mask_value``, softmax alignments, context as the alignment-weighted memory,
the attention layer over ``[cell_output, context]``) and TF 1.15's variable names
(``memory_layer/kernel`` where the mechanism is built;
``.../attention_wrapper/bahdanau_attention/query_layer/kernel``, ``attention_v``,
``attention_g``, ``attention_b``; ``.../attention_wrapper/luong_attention/attention_g``;
``.../attention_wrapper/attention_layer/kernel``), so TF1 checkpoints restore and a
script prints TF 1.15.5's numbers (corpus ``seq2seq_attention.py``). The monotonic
mechanisms are not provided. The classes subclass TF's v1 RNN cell and legacy Dense
layer, so the module imports TensorFlow at its top (it is loaded only after TensorFlow,
with ``TF_USE_LEGACY_KERAS`` set).
"""

import collections
import math

import tensorflow.compat.v1 as tf

__all__ = ["AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
           "AttentionWrapperState", "hardmax"]


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState", ("cell_state", "attention", "time", "alignments",
                                  "alignment_history", "attention_state"))):
    """The state of an :class:`AttentionWrapper` (TF1's fields, in TF1's order)."""

    def clone(self, **kwargs):
        """This state with some fields replaced; a replacing tensor keeps the static
        shape of the one it replaces (a ValueError when they cannot agree)."""

        def same_shape(old, new):
            if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor):
                if not old.shape.is_compatible_with(new.shape):
                    raise ValueError(f"AttentionWrapperState.clone: a tensor of shape "
                                     f"{new.shape} cannot replace one of shape {old.shape}")
                new.set_shape(old.shape)
            return new

        return tf.nest.map_structure(same_shape, self, self._replace(**kwargs))


def hardmax(logits, name=None):
    """One-hot of the argmax of ``logits`` along the last axis, in logits' dtype."""
    with tf.name_scope(name, "Hardmax", [logits]):
        logits = tf.convert_to_tensor(logits, name="logits")
        depth = (tf.compat.dimension_value(logits.shape[-1])
                 if logits.shape.ndims is not None else None)
        if depth is None:
            depth = tf.shape(logits)[-1]
        return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)


def _static_or_dynamic(tensor, axis):
    value = tf.compat.dimension_value(tensor.shape[axis])
    return value if value is not None else tf.shape(tensor)[axis]


def _mask_memory(memory, memory_sequence_length, check_inner_dims_defined):
    """Memory with the steps past each row's length set to 0 (TF1's _prepare_memory)."""
    memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None:
        memory_sequence_length = tf.convert_to_tensor(memory_sequence_length,
                                                      name="memory_sequence_length")
    if check_inner_dims_defined:
        for m in tf.nest.flatten(memory):
            if not m.shape[2:].is_fully_defined():
                raise ValueError(f"Expected memory {m.name} to have fully defined inner "
                                 f"dims, but saw shape: {m.shape}")
    if memory_sequence_length is None:
        return memory
    first = tf.nest.flatten(memory)[0]
    seq_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(first)[1],
                                dtype=first.dtype)

    def mask(m):
        check = tf.assert_equal(
            tf.shape(seq_mask)[0], tf.shape(m)[0],
            message="memory_sequence_length and memory tensor batch sizes do not match.")
        with tf.control_dependencies([check]):
            extra = tf.ones(tf.rank(m) - 2, dtype=tf.int32)
            return m * tf.reshape(seq_mask, tf.concat([tf.shape(seq_mask), extra], 0))

    return tf.nest.map_structure(mask, memory)


def _zeros(batch_size, size, dtype):
    """Zeros ``[batch_size, size]`` with whatever of that shape is known statically."""
    out = tf.zeros(tf.stack([batch_size, size]), dtype=dtype)
    static = [tf.get_static_value(batch_size), tf.get_static_value(size)]
    out.set_shape([None if v is None else int(v) for v in static])
    return out


def _mask_score(score, memory_sequence_length, score_mask_value):
    if memory_sequence_length is None:
        return score
    score_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(score)[1])
    return tf.where(score_mask, score, score_mask_value * tf.ones_like(score))


def _default_mask_value(dtype):
    import numpy as np

    return tf.as_dtype(dtype).as_numpy_dtype(-np.inf)


# TF1's legacy Dense layer (tf_keras'), whose variables are kernel / bias.
_dense = tf.layers.Dense


class AttentionMechanism:
    """Base of the attention mechanisms (for ``isinstance`` checks, as in TF1)."""

    @property
    def alignments_size(self):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError


class _BaseAttentionMechanism(AttentionMechanism):
    """Memory (masked past its lengths), keys (the memory layer's projection of it)
    and the probability function over masked scores."""

    def __init__(self, query_layer, memory, probability_fn, memory_sequence_length=None,
                 memory_layer=None, check_inner_dims_defined=True,
                 score_mask_value=None, name=None):
        for what, layer in (("query_layer", query_layer), ("memory_layer", memory_layer)):
            if layer is not None and not isinstance(layer, tf.layers.Layer):
                raise TypeError(f"{what} is not a Layer: {type(layer).__name__}")
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype if memory_layer is not None else None
        if not callable(probability_fn):
            raise TypeError(f"probability_fn must be callable, saw type: "
                            f"{type(probability_fn).__name__}")
        with tf.name_scope(name, "BaseAttentionMechanismInit", tf.nest.flatten(memory)):
            self._values = _mask_memory(memory, memory_sequence_length,
                                        check_inner_dims_defined)
            self._keys = (self._memory_layer(self._values) if self._memory_layer
                          else self._values)
            if self.dtype is None:
                self.dtype = self._values.dtype
            self._batch_size = _static_or_dynamic(self._keys, 0)
            self._alignments_size = _static_or_dynamic(self._keys, 1)
        if score_mask_value is None:
            score_mask_value = _default_mask_value(self._values.dtype)
        self._probability_fn = lambda score, previous: probability_fn(
            _mask_score(score, memory_sequence_length, score_mask_value), previous)

    memory_layer = property(lambda self: self._memory_layer)
    query_layer = property(lambda self: self._query_layer)
    values = property(lambda self: self._values)
    keys = property(lambda self: self._keys)
    batch_size = property(lambda self: self._batch_size)
    alignments_size = property(lambda self: self._alignments_size)
    state_size = property(lambda self: self._alignments_size)

    def initial_alignments(self, batch_size, dtype):
        """Zeros ``[batch_size, alignments_size]``."""
        return _zeros(batch_size, self._alignments_size, dtype)

    def initial_state(self, batch_size, dtype):
        return self.initial_alignments(batch_size, dtype)


def _memory_layer(num_units, dtype):
    return _dense(num_units, name="memory_layer", use_bias=False, dtype=dtype)


def _no_custom_key_value_fn(custom_key_value_fn, name):
    if custom_key_value_fn is not None:
        raise NotImplementedError(
            f"{name}(custom_key_value_fn=...) (TF 1.15's last addition) is not provided "
            f"by tf1mem; project the memory before passing it")


def _probability(probability_fn):
    if probability_fn is None:
        return lambda score, _: tf.nn.softmax(score)
    return lambda score, _: probability_fn(score)


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention: ``v . tanh(keys + W query)`` (weight-normalised ``v``
    and a bias with ``normalize=True``)."""

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="BahdanauAttention"):
        _no_custom_key_value_fn(custom_key_value_fn, name)
        dtype = dtype or tf.float32
        super().__init__(
            query_layer=_dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
            memory_layer=_memory_layer(num_units, dtype), memory=memory,
            probability_fn=_probability(probability_fn),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._normalize = normalize

    def __call__(self, query, state):
        with tf.variable_scope(None, "bahdanau_attention", [query]):
            processed = self.query_layer(query) if self.query_layer else query
            keys = self._keys
            units = _static_or_dynamic(keys, 2)
            processed = tf.expand_dims(processed, 1)
            v = tf.get_variable("attention_v", [units], dtype=keys.dtype)
            if self._normalize:
                g = tf.get_variable("attention_g", dtype=keys.dtype, shape=(),
                                    initializer=tf.constant_initializer(
                                        math.sqrt(1. / units)))
                b = tf.get_variable("attention_b", [units], dtype=keys.dtype,
                                    initializer=tf.zeros_initializer())
                normed_v = g * v * tf.rsqrt(tf.reduce_sum(tf.square(v)))
                score = tf.reduce_sum(normed_v * tf.tanh(keys + processed + b), [2])
            else:
                score = tf.reduce_sum(v * tf.tanh(keys + processed), [2])
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention: ``query . keys`` (times a learnt scalar with
    ``scale=True``); the query's depth must equal ``num_units``."""

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="LuongAttention"):
        _no_custom_key_value_fn(custom_key_value_fn, name)
        super().__init__(
            query_layer=None, memory_layer=_memory_layer(num_units, dtype or tf.float32),
            memory=memory, probability_fn=_probability(probability_fn),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._scale = scale

    def __call__(self, query, state):
        with tf.variable_scope(None, "luong_attention", [query]):
            keys = self._keys
            depth = query.shape[-1]
            key_units = keys.shape[-1]
            if depth != key_units:
                raise ValueError(
                    f"Incompatible or unknown inner dimensions between query and keys. "
                    f"Query has units: {depth}. Keys have units: {key_units}. "
                    f"LuongAttention's num_units must equal the query's depth, the "
                    f"decoder cell's output size ({depth}).")
            score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), keys,
                                         transpose_b=True), [1])
            if self._scale:
                g = tf.get_variable("attention_g", dtype=query.dtype, shape=(),
                                    initializer=tf.ones_initializer())
                score = g * score
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _compute_attention(mechanism, cell_output, attention_state, attention_layer):
    alignments, next_attention_state = mechanism(cell_output, state=attention_state)
    context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), mechanism.values), [1])
    if attention_layer is not None:
        attention = attention_layer(tf.concat([cell_output, context], 1))
    else:
        attention = context
    return attention, alignments, next_attention_state


class AttentionWrapper(tf.nn.rnn_cell.RNNCell):
    """An RNN cell with attention: each step feeds ``cell_input_fn(inputs,
    previous attention)`` to ``cell``, attends with its output and emits the
    attention (or the cell's output with ``output_attention=False``)."""

    def __init__(self, cell, attention_mechanism, attention_layer_size=None,
                 alignment_history=False, cell_input_fn=None, output_attention=True,
                 initial_cell_state=None, name=None, attention_layer=None,
                 attention_fn=None):
        super().__init__(name=name)
        self._is_multi = isinstance(attention_mechanism, (list, tuple))
        mechanisms = (tuple(attention_mechanism) if self._is_multi
                      else (attention_mechanism,))
        for mechanism in mechanisms:
            if not isinstance(mechanism, AttentionMechanism):
                raise TypeError(f"attention_mechanism must be an AttentionMechanism or "
                                f"list of multiple AttentionMechanism instances, saw "
                                f"type: {type(mechanism).__name__}")
        if cell_input_fn is None:
            cell_input_fn = lambda inputs, attention: tf.concat([inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError(f"cell_input_fn must be callable, saw type: "
                            f"{type(cell_input_fn).__name__}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer "
                             "should be set")
        if attention_layer_size is not None:
            sizes = (tuple(attention_layer_size) if isinstance(
                attention_layer_size, (list, tuple)) else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer_size must contain exactly "
                                 f"one integer per attention_mechanism, saw: "
                                 f"{len(sizes)} vs {len(mechanisms)}")
            self._attention_layers = tuple(
                _dense(size, name="attention_layer", use_bias=False,
                       dtype=mechanisms[i].dtype) for i, size in enumerate(sizes))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            layers = (tuple(attention_layer) if isinstance(attention_layer, (list, tuple))
                      else (attention_layer,))
            if len(layers) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer must contain exactly one "
                                 f"layer per attention_mechanism, saw: {len(layers)} vs "
                                 f"{len(mechanisms)}")
            self._attention_layers = layers
            self._attention_layer_size = sum(
                tf.compat.dimension_value(layer.compute_output_shape(
                    [None, cell.output_size + tf.compat.dimension_value(
                        mechanism.values.shape[-1])])[-1])
                for layer, mechanism in zip(layers, mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(
                tf.compat.dimension_value(m.values.shape[-1]) for m in mechanisms)
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        self._attention_fn = attention_fn or _compute_attention
        with tf.name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                final = tf.nest.flatten(initial_cell_state)[-1]
                batch = _static_or_dynamic(final, 0)
                message = ("When constructing AttentionWrapper %s: " % self._wrapper_name()
                           + "Non-matching batch sizes between the memory (encoder "
                           "output) and initial_cell_state.  Are you using the "
                           "BeamSearchDecoder?  You may need to tile your initial state "
                           "via the tf.contrib.seq2seq.tile_batch function with argument "
                           "multiple=beam_width.")
                with tf.control_dependencies(self._batch_size_checks(batch, message)):
                    self._initial_cell_state = tf.nest.map_structure(
                        lambda s: tf.identity(s, name="check_initial_cell_state"),
                        initial_cell_state)

    def _wrapper_name(self):
        return getattr(self, "_base_name", None) or self.name

    def _batch_size_checks(self, batch_size, message):
        return [tf.assert_equal(batch_size, m.batch_size, message=message)
                for m in self._attention_mechanisms]

    def _item_or_tuple(self, seq):
        items = tuple(seq)
        return items if self._is_multi else items[0]

    @property
    def output_size(self):
        return (self._attention_layer_size if self._output_attention
                else self._cell.output_size)

    @property
    def state_size(self):
        mechanisms = self._attention_mechanisms
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(m.alignments_size for m in mechanisms),
            attention_state=self._item_or_tuple(m.state_size for m in mechanisms),
            alignment_history=self._item_or_tuple(
                m.alignments_size if self._alignment_history else ()
                for m in mechanisms))

    def zero_state(self, batch_size, dtype):
        """The first state: the cell's zero state (or ``initial_cell_state``), zero
        attention, each mechanism's initial alignments."""
        with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            message = ("When calling zero_state of AttentionWrapper %s: " % self._wrapper_name()
                       + "Non-matching batch sizes between the memory (encoder output) "
                       "and the requested batch size.  Are you using the "
                       "BeamSearchDecoder?  If so, make sure your encoder output has "
                       "been tiled to beam_width via tf.contrib.seq2seq.tile_batch, and "
                       "the batch_size= argument passed to zero_state is batch_size * "
                       "beam_width.")
            with tf.control_dependencies(self._batch_size_checks(batch_size, message)):
                cell_state = tf.nest.map_structure(
                    lambda s: tf.identity(s, name="checked_cell_state"), cell_state)
            alignments = [m.initial_alignments(batch_size, dtype)
                          for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state, time=tf.zeros([], dtype=tf.int32),
                attention=_zeros(batch_size, self._attention_layer_size, dtype),
                alignments=self._item_or_tuple(alignments),
                attention_state=self._item_or_tuple(
                    m.initial_state(batch_size, dtype)
                    for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    tf.TensorArray(dtype, size=0, dynamic_size=True,
                                   element_shape=a.shape)
                    if self._alignment_history else () for a in alignments))

    def call(self, inputs, state):
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(f"Expected state to be instance of AttentionWrapperState. "
                            f"Received type {type(state)} instead.")
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        batch = _static_or_dynamic(cell_output, 0)
        message = ("When applying AttentionWrapper %s: " % self.name
                   + "Non-matching batch sizes between the memory (encoder output) and "
                   "the query (decoder output).  Are you using the BeamSearchDecoder?  "
                   "You may need to tile your memory input via the "
                   "tf.contrib.seq2seq.tile_batch function with argument "
                   "multiple=beam_width.")
        with tf.control_dependencies(self._batch_size_checks(batch, message)):
            cell_output = tf.identity(cell_output, name="checked_cell_output")
        if self._is_multi:
            previous_states = state.attention_state
            previous_histories = state.alignment_history
        else:
            previous_states = [state.attention_state]
            previous_histories = [state.alignment_history]
        attentions, all_alignments, states, histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_states[i],
                self._attention_layers[i] if self._attention_layers else None)
            history = (previous_histories[i].write(state.time, alignments)
                       if self._alignment_history else ())
            attentions.append(attention)
            all_alignments.append(alignments)
            states.append(next_attention_state)
            histories.append(history)
        attention = tf.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(histories))
        return (attention if self._output_attention else cell_output), next_state
