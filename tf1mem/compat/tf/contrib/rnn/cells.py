"""``tf.contrib.rnn``'s pieces with no TF 2 home: stacked bidirectional RNNs, the
layer-normalised LSTM, the projection and embedding wrappers, the fused-kernel cells.

Owns ``stack_bidirectional_dynamic_rnn`` and ``stack_bidirectional_rnn`` (each layer a
bidirectional RNN over the previous layer's concatenated outputs, in variable scopes
``stack_bidirectional_rnn/cell_<i>``); ``LayerNormBasicLSTMCell`` (an LSTM whose four
gate pre-activations and new cell state are layer-normalised, ``gamma``/``beta`` under
``input``, ``transform``, ``forget``, ``output``, ``state``; recurrent dropout on the
candidate); ``OutputProjectionWrapper``, ``InputProjectionWrapper`` and
``EmbeddingWrapper`` (TF 1.0's core cells, in tf.contrib.rnn from 1.1);
``AttentionCellWrapper`` (attention over the cell's last outputs); the convolutional
LSTMs ``ConvLSTMCell`` and ``Conv1D/2D/3DLSTMCell``;
``LSTMBlockCell``, ``GRUBlockCell``, ``GRUBlockCellV2`` written in plain ops (TF 2.21
keeps their kernels but registers no gradient for them; the maths are LSTMCell's and
GRUCell's); ``LSTMBlockFusedCell`` on TF's ``BlockLSTM`` kernel (which has its gradient)
with ``TimeReversedFusedRNN``; ``CoupledInputForgetGateLSTMCell``, ``HighwayWrapper`` and
``IndRNNCell``. Guarantees TF 1.15's variable names, argument checks and values, training
included, and, for the cells added last, TF 1.15's op sequence, so that values drawn
from ``tf.set_random_seed`` alone are TF1's too (corpus ``contrib_rnn_extras.py``,
``contrib_rnn_more_cells.py``). The cells subclass TF's v1 RNNCell or tf.layers Layer, so
the module imports TensorFlow at its top: like every re-implementation it is loaded only
after TensorFlow, with ``TF_USE_LEGACY_KERAS`` set (tf.nn.rnn_cell is tf_keras').
"""

import functools
import math
import sys

import tensorflow.compat.v1 as tf
from tensorflow.python.ops import gen_rnn_ops

__all__ = ["LayerNormBasicLSTMCell", "LSTMBlockCell", "GRUBlockCell", "GRUBlockCellV2",
           "OutputProjectionWrapper", "InputProjectionWrapper", "EmbeddingWrapper",
           "AttentionCellWrapper", "ConvLSTMCell", "Conv1DLSTMCell", "Conv2DLSTMCell",
           "Conv3DLSTMCell", "LSTMBlockFusedCell", "CoupledInputForgetGateLSTMCell",
           "HighwayWrapper", "IndRNNCell", "TimeReversedFusedRNN", "build_depth",
           "sharded_variable", "stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn"]


def _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for what, states in (("initial_states_fw", initial_states_fw),
                         ("initial_states_bw", initial_states_bw)):
        if states is not None and (not isinstance(states, list)
                                   or len(states) != len(cells_fw)):
            raise ValueError(f"{what} must be a list of state tensors (one per layer).")


def _layers(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
        yield (i, cell_fw, cell_bw, initial_states_fw[i] if initial_states_fw else None,
               initial_states_bw[i] if initial_states_bw else None)


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                    initial_states_bw=None, dtype=None,
                                    sequence_length=None, parallel_iterations=None,
                                    time_major=False, scope=None, swap_memory=False):
    """Bidirectional ``dynamic_rnn`` layers, each over the last one's outputs.

    Returns:
      ``(outputs, output_states_fw, output_states_bw)``: the last layer's outputs
      (forward and backward concatenated on the last axis) and each layer's final
      states, as tuples.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = inputs
    with tf.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, cell_fw, cell_bw, state_fw, state_bw in _layers(
                cells_fw, cells_bw, initial_states_fw, initial_states_bw):
            with tf.variable_scope("cell_%d" % i):
                outputs, (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=state_fw,
                    initial_state_bw=state_bw, sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations, dtype=dtype,
                    swap_memory=swap_memory, time_major=time_major)
                layer = tf.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                            initial_states_bw=None, dtype=None, sequence_length=None,
                            scope=None):
    """Bidirectional ``static_rnn`` layers over a list of ``[batch, depth]`` inputs.

    Returns:
      ``(outputs, output_states_fw, output_states_bw)``: the last layer's list of
      outputs and each layer's final states, as tuples.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = inputs
    with tf.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, cell_fw, cell_bw, state_fw, state_bw in _layers(
                cells_fw, cells_bw, initial_states_fw, initial_states_bw):
            with tf.variable_scope("cell_%d" % i) as cell_scope:
                layer, state_fw, state_bw = tf.nn.static_bidirectional_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=state_fw,
                    initial_state_bw=state_bw, sequence_length=sequence_length,
                    dtype=dtype, scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def build_depth(inputs_shape):
    """A cell's input width at ``build``, or TF 1.15's ValueError where it is unknown."""
    import tensorflow as tf

    depth = tf.compat.dimension_value(inputs_shape[1])
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    return depth


def sharded_variable(name, shape, dtype, num_shards):
    """TF1's sharded variable ``name_0 .. name_<n-1>`` in the current variable scope
    (rows split as evenly as possible, the first ones one longer), concatenated once per
    scope (the concatenation noted in ``CONCATENATED_VARIABLES``).

    Args:
      name: the variables' stem.
      shape: the whole ``[rows, ...]`` shape, a list of ints.
      dtype: the variables' dtype.
      num_shards: how many variables the rows are split over.

    Returns:
      the one variable, or a ``shape`` tensor joining the shards.
    """
    if num_shards > shape[0]:
        raise ValueError(f"Too many shards: shape={shape}, num_shards={num_shards}")
    rows, extra = divmod(shape[0], num_shards)
    shards = [tf.get_variable(f"{name}_{i}", [rows + (i < extra)] + shape[1:],
                              dtype=dtype) for i in range(num_shards)]
    if num_shards == 1:
        return shards[0]
    full_name = f"{tf.get_variable_scope().name}/{name}/concat:0"
    for value in tf.get_collection(tf.GraphKeys.CONCATENATED_VARIABLES):
        if value.name == full_name:
            return value
    joined = tf.concat(shards, 0, name=name + "/concat")
    tf.add_to_collection(tf.GraphKeys.CONCATENATED_VARIABLES, joined)
    return joined


class TimeReversedFusedRNN:
    """A fused cell (``LSTMBlockFusedCell``) run backwards in time: the inputs (a
    time-major tensor, or a list of steps) reversed, each sequence within its
    ``sequence_length`` where given, the cell run, its outputs reversed back; the state is
    the cell's, at the sequence's first step. The backward half of TF1's fused bi-LSTMs.
    """

    def __init__(self, cell):
        self._cell = cell

    @staticmethod
    def _reverse(t, lengths):
        if isinstance(t, list):
            return t[::-1]
        if lengths is None:
            return tf.reverse_v2(t, [0])
        return tf.reverse_sequence(t, lengths, 0, 1)

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
                 scope=None):
        outputs, state = self._cell(self._reverse(inputs, sequence_length),
                                    initial_state=initial_state, dtype=dtype,
                                    sequence_length=sequence_length, scope=scope)
        return self._reverse(outputs, sequence_length), state


class LayerNormBasicLSTMCell(tf.nn.rnn_cell.RNNCell):
    """An LSTM cell with layer normalisation and recurrent dropout (TF 1.15's).

    Args:
      num_units: the cell's size.
      forget_bias: added to the forget gate.
      input_size: ignored (deprecated in TF1 already; a warning says so).
      activation: of the candidate and the output.
      layer_norm: False turns the normalisation off (the kernel gains a bias).
      norm_gain, norm_shift: the initial gamma and beta.
      dropout_keep_prob: keep probability of the candidate (a float or a tensor).
      dropout_prob_seed: the dropout's seed.
      reuse: reuse the variables of an existing scope.
    """

    def __init__(self, num_units, forget_bias=1.0, input_size=None,
                 activation=tf.tanh, layer_norm=True, norm_gain=1.0, norm_shift=0.0,
                 dropout_keep_prob=1.0, dropout_prob_seed=None, reuse=None):
        super().__init__(_reuse=reuse)
        if input_size is not None:
            tf.logging.warn("%s: The input_size parameter is deprecated.", self)
        self._num_units = num_units
        self._activation = activation
        self._forget_bias = forget_bias
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift

    @property
    def state_size(self):
        return tf.nn.rnn_cell.LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def _norm(self, inp, scope, dtype):
        shape = inp.get_shape()[-1:]
        with tf.variable_scope(scope):
            gamma = tf.get_variable("gamma", shape=shape, dtype=dtype,
                                    initializer=tf.constant_initializer(self._norm_gain))
            beta = tf.get_variable("beta", shape=shape, dtype=dtype,
                                   initializer=tf.constant_initializer(self._norm_shift))
            mean, variance = tf.nn.moments(inp, [1], keep_dims=True)
            return tf.nn.batch_normalization(inp, mean, variance, offset=beta,
                                             scale=gamma, variance_epsilon=1e-12)

    def _linear(self, args):
        out_size = 4 * self._num_units
        weights = tf.get_variable("kernel", [args.get_shape()[-1], out_size],
                                  dtype=args.dtype)
        out = tf.matmul(args, weights)
        if not self._layer_norm:
            bias = tf.get_variable("bias", [out_size], dtype=args.dtype)
            out = tf.nn.bias_add(out, bias)
        return out

    def call(self, inputs, state):
        c, h = state
        args = tf.concat([inputs, h], 1)
        dtype = args.dtype
        i, j, f, o = tf.split(value=self._linear(args), num_or_size_splits=4, axis=1)
        if self._layer_norm:
            i = self._norm(i, "input", dtype)
            j = self._norm(j, "transform", dtype)
            f = self._norm(f, "forget", dtype)
            o = self._norm(o, "output", dtype)
        g = self._activation(j)
        if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
            g = tf.nn.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state", dtype)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, tf.nn.rnn_cell.LSTMStateTuple(new_c, new_h)


def _add_block_lstm_weights(layer, depth):
    """The weights TF 1.15's block LSTM kernels read, as its cells named them:
    ``kernel`` [depth + units, 4 units], ``bias`` (zeros), the peepholes."""
    units = layer._num_units  # pylint: disable=protected-access
    layer._kernel = layer.add_variable("kernel", [depth + units, units * 4])
    layer._bias = layer.add_variable("bias", [units * 4],
                                     initializer=tf.constant_initializer(0.0))
    if layer._use_peephole:
        layer._diag = [layer.add_variable(n, [units])
                       for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
    layer.built = True


class LSTMBlockCell(tf.nn.rnn_cell.RNNCell):
    """TF1's fused-kernel LSTM cell, in plain ops: LSTMCell's maths and variable
    names (``lstm_cell/kernel``, ``bias``, ``w_i_diag``/``w_f_diag``/``w_o_diag``
    with ``use_peephole``); ``cell_clip`` clips the cell state."""

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                 dtype=None, reuse=None, name="lstm_cell"):
        super().__init__(_reuse=reuse, dtype=dtype, name=name)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._use_peephole = use_peephole
        self._cell_clip = cell_clip if cell_clip is not None else -1

    state_size = property(lambda self: tf.nn.rnn_cell.LSTMStateTuple(self._num_units,
                                                                     self._num_units))
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        input_size = tf.compat.dimension_value(inputs_shape[1])
        if not input_size:
            raise ValueError(f"Expecting inputs_shape[1] to be set: {inputs_shape}")
        _add_block_lstm_weights(self, input_size)

    def call(self, inputs, state):
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        cs_prev, h_prev = state
        gates = tf.matmul(tf.concat([inputs, h_prev], 1), self._kernel) + self._bias
        i, ci, f, o = tf.split(gates, 4, axis=1)
        if self._use_peephole:
            wci, wcf, wco = self._diag
            i, f = i + cs_prev * wci, f + cs_prev * wcf
        cs = tf.tanh(ci) * tf.sigmoid(i) + cs_prev * tf.sigmoid(f + self._forget_bias)
        if self._cell_clip > 0:
            cs = tf.clip_by_value(cs, -self._cell_clip, self._cell_clip)
        if self._use_peephole:
            o = o + cs * wco
        h = tf.tanh(cs) * tf.sigmoid(o)
        return h, tf.nn.rnn_cell.LSTMStateTuple(cs, h)


class GRUBlockCell(tf.nn.rnn_cell.RNNCell):
    """TF1's fused-kernel GRU cell, in plain ops: GRUCell's maths with the block
    cell's variable names (``gru_cell/w_ru``, ``b_ru`` (ones), ``w_c``, ``b_c``)."""

    _NAMES = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(_reuse=reuse, name=name)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        self._cell_size = num_units if num_units is not None else cell_size

    state_size = property(lambda self: self._cell_size)
    output_size = property(lambda self: self._cell_size)

    def build(self, input_shape):
        input_size = tf.compat.dimension_value(input_shape[1])
        if input_size is None:
            raise ValueError("Expecting input_size to be set.")
        w_ru, b_ru, w_c, b_c = self._NAMES
        size = self._cell_size
        self._gate_kernel = self.add_variable(w_ru, [input_size + size, size * 2])
        self._gate_bias = self.add_variable(b_ru, [size * 2],
                                            initializer=tf.constant_initializer(1.0))
        self._candidate_kernel = self.add_variable(w_c, [input_size + size, size])
        self._candidate_bias = self.add_variable(b_c, [size],
                                                 initializer=tf.constant_initializer(0.0))
        self.built = True

    def call(self, inputs, h_prev):
        cell_size = h_prev.get_shape().with_rank(2)[1]
        if cell_size != self._cell_size:
            raise ValueError(f"Shape of h_prev[1] incorrect: cell_size "
                             f"{self._cell_size} vs {cell_size}")
        ru = tf.sigmoid(tf.matmul(tf.concat([inputs, h_prev], 1), self._gate_kernel)
                        + self._gate_bias)
        r, u = tf.split(ru, 2, axis=1)
        c = tf.tanh(tf.matmul(tf.concat([inputs, r * h_prev], 1), self._candidate_kernel)
                    + self._candidate_bias)
        new_h = u * h_prev + (1 - u) * c
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """GRUBlockCell with GRUCell's variable names (``gates/kernel``, ...)."""

    _NAMES = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")


def _check_cell(cell):
    if not (hasattr(cell, "output_size") and hasattr(cell, "state_size")
            and callable(cell)):
        raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell: 'output_size' "
                        f"property is missing, 'state_size' property is missing, or "
                        f"it is not callable.")


def _linear(inputs, output_size):
    """TF1's core_rnn_cell linear map: ``kernel`` (the scope's initializer) and a
    zero ``bias``, in the current variable scope."""
    size = tf.compat.dimension_value(inputs.shape[1])
    if inputs.shape.ndims != 2:
        raise ValueError(f"linear is expecting 2D arguments: {[inputs.shape]}")
    if size is None:
        raise ValueError(f"linear expects shape[1] to be provided for shape "
                         f"{inputs.shape}, but saw {size}")
    kernel = tf.get_variable("kernel", [size, output_size], dtype=inputs.dtype)
    bias = tf.get_variable("bias", [output_size], dtype=inputs.dtype,
                           initializer=tf.constant_initializer(0.0, dtype=inputs.dtype))
    return tf.nn.bias_add(tf.matmul(inputs, kernel), bias)


class _Wrapper(tf.nn.rnn_cell.RNNCell):
    """A cell around ``cell``: its state, and its zero state in TF1's name scope."""

    def __init__(self, cell, reuse=None):
        super().__init__(_reuse=reuse)
        _check_cell(cell)
        self._cell = cell

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return self._cell.zero_state(batch_size, dtype)


class OutputProjectionWrapper(_Wrapper):
    """``cell`` whose outputs go through a linear map to ``output_size`` (and
    ``activation``); variables ``kernel``/``bias`` beside the cell's."""

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
        self._output_size = output_size
        self._activation = activation

    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        output, new_state = self._cell(inputs, state)
        projected = _linear(output, self._output_size)
        if self._activation:
            projected = self._activation(projected)
        return projected, new_state


class InputProjectionWrapper(_Wrapper):
    """``cell`` fed a linear map of its inputs to ``num_proj`` (and ``activation``)."""

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(cell, reuse)
        if input_size is not None:
            tf.logging.warn("%s: The input_size parameter is deprecated.", self)
        self._num_proj = num_proj
        self._activation = activation

    def call(self, inputs, state):
        projected = _linear(inputs, self._num_proj)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class EmbeddingWrapper(_Wrapper):
    """``cell`` fed the embeddings of integer inputs (``embedding``
    ``[embedding_classes, embedding_size]``, on the CPU; uniform in +-sqrt(3) unless
    an initializer or the scope's says otherwise)."""

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None,
                 reuse=None):
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError(f"Both embedding_classes and embedding_size must be > 0: "
                             f"{embedding_classes}, {embedding_size}.")
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    def call(self, inputs, state):
        with tf.device("/cpu:0"):
            initializer = (self._initializer or tf.get_variable_scope().initializer
                           or tf.random_uniform_initializer(-math.sqrt(3), math.sqrt(3)))
            dtype = state[0].dtype if isinstance(state, tuple) else state.dtype
            embedding = tf.get_variable(
                "embedding", [self._embedding_classes, self._embedding_size],
                initializer=initializer, dtype=dtype)
            embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class AttentionCellWrapper(_Wrapper):
    """``cell`` with attention over its last ``attn_length`` outputs (TF 1.15's).

    Each step the input and the previous attention read are mapped back to the
    input's size (``kernel``/``bias``), the cell runs, its whole new state is the
    query of an additive attention over the window (``attention/attn_w``, ``attn_v``,
    ``kernel``, ``bias``), and the cell output with the new read is projected to
    ``attn_size`` (``attn_output_projection``): that is the output, and it joins the
    window. State: ``(cell state, attention read, window)`` (concatenated with
    ``state_is_tuple=False``).
    """

    def __init__(self, cell, attn_length, attn_size=None, attn_vec_size=None,
                 input_size=None, state_is_tuple=True, reuse=None):
        super().__init__(cell, reuse)
        if attn_length <= 0:
            raise ValueError(f"attn_length should be greater than zero, got "
                             f"{attn_length}")
        flat_state = tf.nest.flatten(cell.state_size)
        if not state_is_tuple:
            tf.logging.warn("%s: Using a concatenated state is slower and will soon "
                            "be deprecated. Use state_is_tuple=True.", self)
            if len(flat_state) > 1:
                raise ValueError(f"Cell returns tuple of states, but the flag "
                                 f"state_is_tuple is not set. State size is: "
                                 f"{cell.state_size}")
        self._state_is_tuple = state_is_tuple
        self._attn_length = attn_length
        self._attn_size = attn_size if attn_size is not None else cell.output_size
        self._attn_vec_size = attn_vec_size if attn_vec_size is not None \
            else self._attn_size
        self._input_size = input_size

    @property
    def state_size(self):
        sizes = (self._cell.state_size, self._attn_size,
                 self._attn_size * self._attn_length)
        return sizes if self._state_is_tuple else sum(sizes)

    output_size = property(lambda self: self._attn_size)

    def zero_state(self, batch_size, dtype):
        return tf.nn.rnn_cell.RNNCell.zero_state(self, batch_size, dtype)

    def call(self, inputs, state):
        if self._state_is_tuple:
            state, attns, window = state
        else:
            cell_size = self._cell.state_size
            state, attns, window = tf.split(
                state, [cell_size, self._attn_size,
                        self._attn_size * self._attn_length], axis=1)
        window = tf.reshape(window, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size or tf.compat.dimension_value(inputs.shape[1])
        inputs = _linear(tf.concat([inputs, attns], 1), input_size)
        cell_output, new_state = self._cell(inputs, state)
        query = tf.concat(tf.nest.flatten(new_state), 1)
        new_attns, window = self._attend(query, window)
        with tf.variable_scope("attn_output_projection"):
            output = _linear(tf.concat([cell_output, new_attns], 1), self._attn_size)
        window = tf.reshape(tf.concat([window, tf.expand_dims(output, 1)], 1),
                            [-1, self._attn_length * self._attn_size])
        new_state = (new_state, new_attns, window)
        if not self._state_is_tuple:
            new_state = tf.concat(list(new_state), 1)
        return output, new_state

    def _attend(self, query, window):
        """The attention read of ``window`` for ``query``, and the window without its
        oldest entry."""
        with tf.variable_scope("attention"):
            w = tf.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
            v = tf.get_variable("attn_v", [self._attn_vec_size])
            hidden = tf.reshape(window, [-1, self._attn_length, 1, self._attn_size])
            features = tf.nn.conv2d(hidden, w, [1, 1, 1, 1], "SAME")
            y = tf.reshape(_linear(query, self._attn_vec_size),
                           [-1, 1, 1, self._attn_vec_size])
            scores = tf.reduce_sum(v * tf.tanh(features + y), [2, 3])
            weights = tf.reshape(tf.nn.softmax(scores), [-1, self._attn_length, 1, 1])
            read = tf.reshape(tf.reduce_sum(weights * hidden, [1, 2]),
                              [-1, self._attn_size])
            return read, window[:, 1:, :]


class ConvLSTMCell(tf.nn.rnn_cell.RNNCell):
    """A convolutional LSTM (Shi et al. 2015), TF 1.15's: the gates are a ``SAME``
    convolution of the input and the previous output (``kernel``
    ``kernel_shape + [in + out channels, 4 * out channels]``, ``biases``), in the order
    input, candidate, forget, output; ``forget_bias`` added to the forget gate;
    ``skip_connection`` appends the input's channels to the output (and, as in TF 1.15,
    to the state's ``h``, whose declared size does not say so: dynamic_rnn refuses it).
    ``initializers`` is accepted and, as in TF 1.15, not used."""

    def __init__(self, conv_ndims, input_shape, output_channels, kernel_shape,
                 use_bias=True, skip_connection=False, forget_bias=1.0,
                 initializers=None, name="conv_lstm_cell"):
        super().__init__(name=name)
        if conv_ndims != len(input_shape) - 1:
            raise ValueError(f"Invalid input_shape {input_shape} for conv_ndims="
                             f"{conv_ndims}.")
        if len(kernel_shape) != conv_ndims:
            raise ValueError(f"kernel_shape {kernel_shape} must have conv_ndims="
                             f"{conv_ndims} entries")
        self._conv_ndims = conv_ndims
        self._input_shape = list(input_shape)
        self._output_channels = output_channels
        self._kernel_shape = list(kernel_shape)
        self._use_bias = use_bias
        self._forget_bias = forget_bias
        self._skip_connection = skip_connection
        self._initializers = initializers
        spatial = self._input_shape[:-1]
        channels = output_channels + (input_shape[-1] if skip_connection else 0)
        self._state_size = tf.nn.rnn_cell.LSTMStateTuple(
            tf.TensorShape(spatial + [output_channels]),
            tf.TensorShape(spatial + [output_channels]))
        self._output_size = tf.TensorShape(spatial + [channels])

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        cell, hidden = state
        joined = tf.concat([inputs, hidden], axis=-1)
        depth = tf.compat.dimension_value(joined.shape[-1])
        kernel = tf.get_variable(
            "kernel", self._kernel_shape + [depth, 4 * self._output_channels],
            dtype=joined.dtype)
        gates = tf.nn.convolution(joined, kernel, padding="SAME")
        if self._use_bias:
            gates = gates + tf.get_variable(
                "biases", [4 * self._output_channels], dtype=joined.dtype,
                initializer=tf.constant_initializer(0.0, dtype=joined.dtype))
        i, j, f, o = tf.split(gates, 4, axis=self._conv_ndims + 1)
        new_cell = (tf.sigmoid(f + self._forget_bias) * cell
                    + tf.sigmoid(i) * tf.tanh(j))
        output = tf.tanh(new_cell) * tf.sigmoid(o)
        if self._skip_connection:
            output = tf.concat([output, inputs], axis=-1)
        return output, tf.nn.rnn_cell.LSTMStateTuple(new_cell, output)


def _conv_variant(conv_ndims, default_name):
    def __init__(self, input_shape, output_channels, kernel_shape, use_bias=True,
                 skip_connection=False, forget_bias=1.0, initializers=None,
                 name=default_name):
        ConvLSTMCell.__init__(self, conv_ndims, input_shape, output_channels,
                              kernel_shape, use_bias=use_bias,
                              skip_connection=skip_connection,
                              forget_bias=forget_bias, initializers=initializers,
                              name=name)

    return __init__


class Conv1DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over 1-D inputs ``[width, channels]``."""
    __init__ = _conv_variant(1, "conv_1d_lstm_cell")


class Conv2DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over 2-D inputs ``[height, width, channels]``."""
    __init__ = _conv_variant(2, "conv_2d_lstm_cell")


class Conv3DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over 3-D inputs ``[depth, height, width, channels]``."""
    __init__ = _conv_variant(3, "conv_3d_lstm_cell")


class LSTMBlockFusedCell(tf.layers.Layer):
    """TF1's whole-sequence LSTM on TF's ``BlockLSTM`` kernel (which TF 2.21 keeps,
    with its gradient): time-major ``[time, batch, depth]`` inputs in, outputs
    ``[time, batch, num_units]`` and the final ``LSTMStateTuple`` out. Variables
    ``lstm_fused_cell/kernel`` ``[depth + num_units, 4 * num_units]`` (gates in the
    order input, candidate, forget, output), ``bias`` (zeros), ``w_i_diag``,
    ``w_f_diag``, ``w_o_diag`` with ``use_peephole``. With ``sequence_length`` the
    outputs past each length are zero and the final state is the one at its length.
    """

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                 reuse=None, dtype=None, name="lstm_fused_cell"):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole
        self.input_spec = tf.layers.InputSpec(ndim=3)

    num_units = property(lambda self: self._num_units)

    def build(self, input_shape):
        depth = tf.compat.dimension_value(input_shape[2])
        if depth is None:  # TF 1.15 failed here with a TypeError on None + int
            raise ValueError(f"Expecting inputs_shape[2] to be set: {input_shape}")
        _add_block_lstm_weights(self, depth)

    def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
        """Runs the LSTM over ``inputs`` ``[time, batch, depth]`` from
        ``initial_state`` ``(c, h)`` (zeros of ``dtype`` if not given).

        Returns:
          ``(outputs, LSTMStateTuple(c, h))``: outputs ``[time, batch, num_units]``.
        """
        # The ops below are TF 1.15's, in its order: the op seeds drawn after them
        # (the next cell's kernel) depend on the graph's op count.
        shape = inputs.get_shape().with_rank(3)
        if not shape[2]:
            raise ValueError(f"Expecting inputs_shape[2] to be set: {shape}")
        batch_size = tf.compat.dimension_value(shape[1])
        if batch_size is None:
            batch_size = tf.shape(inputs)[1]
        time_len = tf.compat.dimension_value(shape[0])
        if time_len is None:
            time_len = tf.shape(inputs)[0]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            zeros = tf.zeros(tf.stack([batch_size, self._num_units]), dtype=dtype)
            initial_state = zeros, zeros
        else:
            if len(initial_state) != 2:
                raise ValueError(f"Expecting initial_state to be a tuple with length 2 "
                                 f"or None, got length {len(initial_state)}")
            if dtype is None:
                dtype = initial_state[0].dtype
        if sequence_length is not None:
            sequence_length = tf.convert_to_tensor(sequence_length)
        c0, h0 = initial_state
        if self._use_peephole:
            wci, wcf, wco = self._diag
        else:
            wci = wcf = wco = tf.zeros([self._num_units], dtype=dtype)
        if sequence_length is None:
            max_len = tf.cast(time_len, tf.int64)
        else:
            max_len = tf.cast(tf.reduce_max(sequence_length), tf.int64)
        _, cs, _, _, _, _, h = gen_rnn_ops.block_lstm(
            seq_len_max=max_len, x=inputs, cs_prev=c0, h_prev=h0, w=self._kernel,
            wci=wci, wcf=wcf, wco=wco, b=self._bias, forget_bias=self._forget_bias,
            cell_clip=self._cell_clip, use_peephole=self._use_peephole)
        if sequence_length is None:
            return h, tf.nn.rnn_cell.LSTMStateTuple(cs[-1], h[-1])
        mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype),
                            [1, 0])
        h *= tf.tile(tf.expand_dims(mask, [-1]), [1, 1, self._num_units])
        # Index 0 is the initial state, so a length of 0 picks it.
        with_first = [tf.concat([tf.expand_dims(first, [0]), seq], 0)
                      for first, seq in ((c0, cs), (h0, h))]
        final = [tf.gather_nd(seq, tf.stack([sequence_length, tf.range(batch_size)],
                                            axis=1)) for seq in with_first]
        return h, tf.nn.rnn_cell.LSTMStateTuple(*final)


def _layer_norm(gain, shift, inp, scope):
    """tf.contrib.layers.layer_norm over the last axis, ``scope/gamma``, ``beta``."""
    shape = inp.get_shape()[-1:]
    with tf.variable_scope(scope):
        tf.get_variable("gamma", shape=shape, initializer=tf.constant_initializer(gain))
        tf.get_variable("beta", shape=shape, initializer=tf.constant_initializer(shift))
    with tf.variable_scope(scope, reuse=True):
        gamma, beta = tf.get_variable("gamma"), tf.get_variable("beta")
        mean, variance = tf.nn.moments(inp, [1], keep_dims=True)
        out = tf.nn.batch_normalization(inp, mean, variance, offset=beta, scale=gamma,
                                        variance_epsilon=1e-12)
        out.set_shape(inp.shape)
        return out


class CoupledInputForgetGateLSTMCell(tf.nn.rnn_cell.RNNCell):
    """An LSTM whose input gate is one minus its forget gate (Greff et al. 2015),
    TF 1.15's: variables ``W_0`` (``W_0 .. W_<n-1>`` with ``num_unit_shards``)
    ``[depth + output, 3 * num_units]`` (candidate, forget, output), ``B`` (zeros;
    unused with ``layer_norm``), ``W_F_diag``/``W_O_diag`` with ``use_peepholes``,
    ``W_P_0 ..`` with ``num_proj``; ``transform``/``forget``/``output``/``state``
    ``gamma``/``beta`` with ``layer_norm``. ``initializer`` is accepted and, as in
    TF 1.15, not used (the scope's initializer is)."""

    def __init__(self, num_units, use_peepholes=False, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=1, num_proj_shards=1, forget_bias=1.0,
                 state_is_tuple=True, activation=tf.tanh, reuse=None, layer_norm=False,
                 norm_gain=1.0, norm_shift=0.0):
        super().__init__(_reuse=reuse)
        if not state_is_tuple:
            tf.logging.warn("%s: Using a concatenated state is slower and will soon be "
                            "deprecated.  Use state_is_tuple=True.", self)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        out = num_proj or num_units
        self._state_size = (tf.nn.rnn_cell.LSTMStateTuple(num_units, out)
                            if state_is_tuple else num_units + out)
        self._output_size = out

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        out = self._num_units if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = tf.slice(state, [0, 0], [-1, self._num_units])
            m_prev = tf.slice(state, [0, self._num_units], [-1, out])
        dtype = inputs.dtype
        depth = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[1])
        if depth is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        weights = sharded_variable("W", [depth + out, 3 * self._num_units], dtype,
                                   self._num_unit_shards)
        bias = tf.get_variable("B", shape=[3 * self._num_units],
                               initializer=tf.zeros_initializer(), dtype=dtype)
        gates = tf.matmul(tf.concat([inputs, m_prev], 1), weights)
        if not self._layer_norm:
            gates = tf.nn.bias_add(gates, bias)
        j, f, o = tf.split(value=gates, num_or_size_splits=3, axis=1)
        norm = functools.partial(_layer_norm, self._norm_gain, self._norm_shift)
        if self._layer_norm:
            j, f, o = norm(j, "transform"), norm(f, "forget"), norm(o, "output")
        if self._use_peepholes:
            w_f = tf.get_variable("W_F_diag", shape=[self._num_units], dtype=dtype)
            w_o = tf.get_variable("W_O_diag", shape=[self._num_units], dtype=dtype)
            forget = tf.sigmoid(f + self._forget_bias + w_f * c_prev)
        else:
            forget = tf.sigmoid(f + self._forget_bias)
        c = forget * c_prev + (1 - forget) * self._activation(j)
        if self._layer_norm:
            c = norm(c, "state")
        if self._use_peepholes:
            m = tf.sigmoid(o + w_o * c) * self._activation(c)
        else:
            m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = tf.matmul(m, sharded_variable("W_P", [self._num_units, self._num_proj],
                                              dtype, self._num_proj_shards))
            if self._proj_clip is not None:
                m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = (tf.nn.rnn_cell.LSTMStateTuple(c, m) if self._state_is_tuple
                     else tf.concat([c, m], 1))
        return m, new_state


class HighwayWrapper(tf.nn.rnn_cell.RNNCell):
    """``cell`` with a highway connection (Srivastava et al. 2015) from each input to
    its output: ``input * carry + output * transform``, carry a sigmoid layer
    (``carry_w``, ``carry_b`` = ``carry_bias_init``) of the input, transform
    ``1 - carry`` or, uncoupled, its own layer (``transform_w``, ``transform_b`` =
    ``-carry_bias_init``). As in TF 1.15 the wrapper opens no scope of its own: the
    variables sit in the scope it is called in, beside the cell's."""

    def __init__(self, cell, couple_carry_transform_gates=True, carry_bias_init=1.0):
        super().__init__()
        self._cell = cell
        self._couple_carry_transform_gates = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return self._cell.zero_state(batch_size, dtype)

    def _gate(self, inp, name, bias):
        size = tf.compat.dimension_value(inp.get_shape().with_rank(2)[1])
        weight = tf.get_variable(name + "_w", [size, size])
        bias = tf.get_variable(name + "_b", [size],
                               initializer=tf.constant_initializer(bias))
        return tf.sigmoid(tf.nn.xw_plus_b(inp, weight, bias))

    def _highway(self, inp, out):
        carry = self._gate(inp, "carry", self._carry_bias_init)
        if self._couple_carry_transform_gates:
            transform = 1 - carry
        else:
            transform = self._gate(inp, "transform", -self._carry_bias_init)
        return inp * carry + out * transform

    def __call__(self, inputs, state, scope=None):
        outputs, new_state = self._cell(inputs, state, scope=scope)
        tf.nest.assert_same_structure(inputs, outputs)
        tf.nest.map_structure(
            lambda inp, out: inp.get_shape().assert_is_compatible_with(out.get_shape()),
            inputs, outputs)
        return tf.nest.map_structure(self._highway, inputs, outputs), new_state


# TF1's LayerRNNCell: a Layer's own scope, without RNNCell's re-entered one.
_layer_rnn_cell = sys.modules[tf.nn.rnn_cell.RNNCell.__module__].LayerRNNCell


class IndRNNCell(_layer_rnn_cell):
    """The independently recurrent cell (Li et al. 2018), TF 1.15's:
    ``act(x W + h * u + b)`` with ``ind_rnn_cell/kernel_w`` ``[depth, num_units]``,
    ``kernel_u`` ``[1, num_units]`` (uniform in [-1, 1]) and ``bias`` (zeros)."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = tf.layers.InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or tf.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = build_depth(inputs_shape)
        self._kernel_w = self.add_variable("kernel_w", shape=[depth, self._num_units])
        self._kernel_u = self.add_variable(
            "kernel_u", shape=[1, self._num_units],
            initializer=tf.random_uniform_initializer(-1, 1, dtype=self.dtype))
        self._bias = self.add_variable("bias", shape=[self._num_units],
                                       initializer=tf.zeros_initializer(self.dtype))
        self.built = True

    def call(self, inputs, state):
        gates = tf.matmul(inputs, self._kernel_w) + state * self._kernel_u
        out = self._activation(tf.nn.bias_add(gates, self._bias))
        return out, out
