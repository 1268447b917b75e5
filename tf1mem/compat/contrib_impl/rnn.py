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
LSTMs ``ConvLSTMCell`` and ``Conv1D/2D/3DLSTMCell``; and
``LSTMBlockCell``, ``GRUBlockCell``, ``GRUBlockCellV2`` written in plain ops (TF 2.21
keeps their kernels but registers no gradient for them; the maths are LSTMCell's and
GRUCell's). Guarantees TF 1.15's variable names, argument checks and values, training
included (corpus ``contrib_rnn_extras.py``). The cells subclass TF's v1 RNNCell, so
they are built on first use; TensorFlow is not imported before.
"""

import math

_CLASS_NAMES = ("LayerNormBasicLSTMCell", "LSTMBlockCell", "GRUBlockCell", "GRUBlockCellV2",
                "OutputProjectionWrapper", "InputProjectionWrapper", "EmbeddingWrapper",
                "AttentionCellWrapper", "ConvLSTMCell", "Conv1DLSTMCell", "Conv2DLSTMCell",
                "Conv3DLSTMCell")
__all__ = [*_CLASS_NAMES, "stack_bidirectional_dynamic_rnn",
           "stack_bidirectional_rnn", "symbols"]

_CLASSES = None


def _tf():
    import tensorflow as tf

    return tf.compat.v1


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
    tf = _tf()
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
    tf = _tf()
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


def _classes():
    global _CLASSES
    if _CLASSES is not None:
        return _CLASSES
    tf = _tf()

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
            self._kernel = self.add_variable(
                "kernel", [input_size + self._num_units, self._num_units * 4])
            self._bias = self.add_variable("bias", [self._num_units * 4],
                                           initializer=tf.constant_initializer(0.0))
            if self._use_peephole:
                self._diag = [self.add_variable(n, [self._num_units])
                              for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
            self.built = True

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

    def check_cell(cell):
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size")
                and callable(cell)):
            raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell: 'output_size' "
                            f"property is missing, 'state_size' property is missing, or "
                            f"it is not callable.")

    def linear(inputs, output_size):
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
            check_cell(cell)
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
            projected = linear(output, self._output_size)
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
            projected = linear(inputs, self._num_proj)
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
            inputs = linear(tf.concat([inputs, attns], 1), input_size)
            cell_output, new_state = self._cell(inputs, state)
            query = tf.concat(tf.nest.flatten(new_state), 1)
            new_attns, window = self._attend(query, window)
            with tf.variable_scope("attn_output_projection"):
                output = linear(tf.concat([cell_output, new_attns], 1), self._attn_size)
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
                y = tf.reshape(linear(query, self._attn_vec_size),
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

    _CLASSES = {"LayerNormBasicLSTMCell": LayerNormBasicLSTMCell,
                "OutputProjectionWrapper": OutputProjectionWrapper,
                "InputProjectionWrapper": InputProjectionWrapper,
                "EmbeddingWrapper": EmbeddingWrapper,
                "AttentionCellWrapper": AttentionCellWrapper,
                "ConvLSTMCell": ConvLSTMCell, "Conv1DLSTMCell": Conv1DLSTMCell,
                "Conv2DLSTMCell": Conv2DLSTMCell, "Conv3DLSTMCell": Conv3DLSTMCell,
                "LSTMBlockCell": LSTMBlockCell, "GRUBlockCell": GRUBlockCell,
                "GRUBlockCellV2": GRUBlockCellV2}
    return _CLASSES


def symbols():
    """The names tf.contrib.rnn gains from this module (the cell built on first use)."""
    table = dict(_classes())
    table.update(stack_bidirectional_dynamic_rnn=stack_bidirectional_dynamic_rnn,
                 stack_bidirectional_rnn=stack_bidirectional_rnn)
    return table


def __getattr__(name):
    if name in _CLASS_NAMES:
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
