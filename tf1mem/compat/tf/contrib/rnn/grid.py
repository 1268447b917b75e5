"""``tf.contrib.rnn``'s search-found and frequency-blocked cells: ``NASCell``,
``GridLSTMCell``, ``BidirectionalGridLSTMCell``.

Owns the three cells. ``NASCell`` is the recurrent cell found by Neural Architecture
Search (Zoph and Le 2016): eight input and eight recurrent projections combined through
a fixed tree of sums, products and activations; ``nas_cell/recurrent_kernel``
``[out, 8 units]``, ``kernel`` ``[depth, 8 units]``, ``bias`` with ``use_bias``,
``projection_weights`` ``[units, num_proj]`` with ``num_proj``. ``GridLSTMCell`` (Kalchbrenner
et al. 2015, as speech models use it over spectrogram frames) cuts each input row into
overlapping windows of ``feature_size`` every ``frequency_skip`` values (or, with
``start_freqindex_list`` / ``end_freqindex_list``, into blocks cut so) and runs two LSTMs
per window: one along frequency (its state passed from window to window, zeros at the
first) and one along time (its state the cell's state); variables ``W_f_<block>_<shard>``,
``B_f_<block>``, ``W_t_..``/``B_t_..`` unless ``share_time_frequency_weights``, and the
peepholes ``W_{F,I,O}_diag_{freq,time}{f,t}_<block>``. ``BidirectionalGridLSTMCell`` runs
the frequency LSTM both ways, under ``fwd`` and ``bwd``.

Guarantees TF 1.15's variable names and shapes (so TF1 checkpoints restore), state
tuples (``GridLSTMStateTuple`` with ``state_f<ff>_b<bb>_c`` / ``_m`` fields), argument
errors and values, and TF 1.15's op sequence, so that weights drawn from
``tf.set_random_seed`` alone are TF1's (corpus ``contrib_rnn_grid_nas.py``). As in TF
1.15 the cells' ``initializer`` argument is kept and not used (the scope's initializer
is), and with ``state_is_tuple=False`` every block reads its time state from the first
block's slots of the concatenated state. The cells subclass TF's v1 RNNCell, so the
module imports TensorFlow at its top (it is loaded only after TensorFlow).
"""

import collections
import numbers
import sys

import tensorflow.compat.v1 as tf

from tf1mem.compat.tf.contrib.rnn.cells import sharded_variable

__all__ = ["NASCell", "GridLSTMCell", "BidirectionalGridLSTMCell"]

# NASCell's eight projections of the input and of the previous output.
_NAS_MATRICES = 8


def _positive_int(value):
    return (isinstance(value, numbers.Integral) and not isinstance(value, bool)
            and value > 0)


def _int_list(name, value):
    """``value`` as a list of ints, or a ValueError naming ``name``."""
    try:
        items = list(value)
    except TypeError:
        raise ValueError(f"{name} must be a list of ints, got {value!r}") from None
    for item in items:
        if isinstance(item, bool) or not isinstance(item, numbers.Integral) or item < 0:
            raise ValueError(f"{name} must hold non-negative ints, got {value!r}")
    return [int(item) for item in items]


def _state_names(prefix, num_frequency_blocks):
    """The ``<prefix>_f<ff>_b<bb>_c`` / ``_m`` field names, blocks outer, windows inner."""
    names = []
    for block, count in enumerate(num_frequency_blocks):
        for freq in range(count):
            stem = "%s_f%02d_b%02d" % (prefix, freq, block)
            names += [stem + "_c", stem + "_m"]
    return names


_layer_rnn_cell = sys.modules[tf.nn.rnn_cell.RNNCell.__module__].LayerRNNCell


class NASCell(_layer_rnn_cell):
    """The Neural Architecture Search recurrent cell, TF 1.15's.

    Args:
      num_units: the cell state's size.
      num_proj: if given, the output (and the state's ``h``) is projected to it.
      use_bias: add a ``bias`` (zeros) to the recurrent projections.
      reuse: reuse the variables of an existing scope.
      **kwargs: a Layer's ``name``, ``dtype``.
    """

    def __init__(self, num_units, num_proj=None, use_bias=False, reuse=None, **kwargs):
        try:
            super().__init__(_reuse=reuse, **kwargs)
        except TypeError as exc:
            # TF's Layer names an unknown keyword in a tuple; say it in words
            if len(exc.args) != 2 or exc.args[1] not in kwargs:
                raise
            hint = {"use_biases": " (the argument is use_bias)",
                    "state_is_tuple": " (the state is always an LSTMStateTuple)"}
            raise TypeError(f"NASCell: keyword argument not understood: "
                            f"{exc.args[1]!r}{hint.get(exc.args[1], '')}") from None
        for name, value in (("num_units", num_units), ("num_proj", num_proj)):
            if value is not None and not _positive_int(value):
                raise ValueError(f"NASCell: {name} must be a positive int, got "
                                 f"{value!r}")
        self._num_units = num_units
        self._num_proj = num_proj
        self._use_bias = use_bias
        out = num_units if num_proj is None else num_proj
        self._state_size = tf.nn.rnn_cell.LSTMStateTuple(num_units, out)
        self._output_size = out

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def build(self, inputs_shape):
        depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape).with_rank(2)[1])
        if depth is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        width = _NAS_MATRICES * self._num_units
        self.recurrent_kernel = self.add_weight("recurrent_kernel",
                                                  [self._output_size, width])
        self.kernel = self.add_weight("kernel", [depth, width])
        if self._use_bias:
            self.bias = self.add_weight("bias", shape=[width],
                                          initializer=tf.zeros_initializer())
        if self._num_proj is not None:
            self.concat_w = self.add_weight("projection_weights",
                                              [self._num_units, self._num_proj])
        self.built = True

    def call(self, inputs, state):
        c_prev, m_prev = state
        recurrent = tf.matmul(m_prev, self.recurrent_kernel)
        projected = tf.matmul(inputs, self.kernel)
        if self._use_bias:
            recurrent = tf.nn.bias_add(recurrent, self.bias)
        rec = tf.split(recurrent, _NAS_MATRICES, axis=1)
        inp = tf.split(projected, _NAS_MATRICES, axis=1)
        # The searched tree: eight first-layer nodes, four second-layer ones (the
        # first takes the old cell state in), two third-layer ones, the output.
        first = [tf.sigmoid(inp[0] + rec[0]), tf.nn.relu(inp[1] + rec[1]),
                 tf.sigmoid(inp[2] + rec[2]), tf.nn.relu(inp[3] * rec[3]),
                 tf.tanh(inp[4] + rec[4]), tf.sigmoid(inp[5] + rec[5]),
                 tf.tanh(inp[6] + rec[6]), tf.sigmoid(inp[7] + rec[7])]
        second = [tf.tanh(first[0] * first[1]), tf.tanh(first[2] + first[3]),
                  tf.tanh(first[4] * first[5]), tf.sigmoid(first[6] + first[7])]
        new_c = tf.tanh(second[0] + c_prev) * second[1]
        new_m = tf.tanh(new_c * tf.tanh(second[2] + second[3]))
        if self._num_proj is not None:
            new_m = tf.matmul(new_m, self.concat_w)
        return new_m, tf.nn.rnn_cell.LSTMStateTuple(new_c, new_m)


class GridLSTMCell(tf.nn.rnn_cell.RNNCell):
    """The frequency-blocked Grid LSTM, TF 1.15's.

    Args:
      num_units: each window's LSTM size (time and frequency alike).
      use_peepholes: diagonal cell-to-gate connections.
      share_time_frequency_weights: the time LSTM uses the frequency LSTM's weights.
      cell_clip: clip both cell states to [-cell_clip, cell_clip].
      initializer: kept and, as in TF 1.15, not used (the scope's initializer is).
      num_unit_shards: rows of each ``W_*`` split over this many variables.
      forget_bias: added to the forget gates.
      feature_size: the width of one frequency window.
      frequency_skip: the stride between windows.
      num_frequency_blocks: how many windows each block has (a list of ints).
      start_freqindex_list, end_freqindex_list: each block's columns of the input
        (``[start, end)``); without them one block spans the whole input.
      couple_input_forget_gates: the forget gate is one minus the input gate.
      state_is_tuple: the state is a ``GridLSTMStateTuple`` (else one concatenated
        ``[batch, 2 * units * windows]`` tensor).
      reuse: reuse the variables of an existing scope.

    Output: ``[batch, 2 * num_units * windows]``, each window's time then frequency
    LSTM output.
    """

    _STATE_PREFIX = "state"
    _TUPLE_NAME = "GridLSTMStateTuple"

    def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
                 cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
                 feature_size=None, frequency_skip=None, num_frequency_blocks=None,
                 start_freqindex_list=None, end_freqindex_list=None,
                 couple_input_forget_gates=False, state_is_tuple=True, reuse=None):
        super().__init__(_reuse=reuse)
        if not state_is_tuple:
            tf.logging.warn("%s: Using a concatenated state is slower and will soon be "
                            "deprecated.  Use state_is_tuple=True.", self)
        if num_frequency_blocks is None:
            raise ValueError("Must specify num_frequency_blocks")
        self._num_frequency_blocks = _int_list("num_frequency_blocks",
                                               num_frequency_blocks)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._share_time_frequency_weights = share_time_frequency_weights
        self._couple_input_forget_gates = couple_input_forget_gates
        self._state_is_tuple = state_is_tuple
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip
        self._start_freqindex_list = start_freqindex_list
        self._end_freqindex_list = end_freqindex_list
        self._total_blocks = sum(self._num_frequency_blocks)
        if state_is_tuple:
            names = _state_names(self._STATE_PREFIX, self._num_frequency_blocks)
            self._state_tuple_type = collections.namedtuple(self._TUPLE_NAME, names)
            self._state_size = self._state_tuple_type(*[num_units] * len(names))
        else:
            self._state_tuple_type = None
            self._state_size = num_units * self._total_blocks * 2
        self._output_size = num_units * self._total_blocks * 2

    output_size = property(lambda self: self._output_size)
    state_size = property(lambda self: self._state_size)
    state_tuple_type = property(lambda self: self._state_tuple_type)

    def call(self, inputs, state):
        batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        outputs, states = [], []
        for block, windows in enumerate(self._windows(inputs)):
            block_outputs, block_states = self._compute(windows, block, state,
                                                        batch_size, self._STATE_PREFIX)
            outputs += block_outputs
            states += block_states
        if self._state_is_tuple:
            new_state = self._state_tuple_type(*states)
        else:
            new_state = tf.concat(states, 1)
        return tf.concat(outputs, 1), new_state

    def _blocks(self, input_size):
        """Each block's ``(first column, window count)``, checked against
        ``num_frequency_blocks``."""
        for name in ("feature_size", "frequency_skip"):
            value = getattr(self, "_" + name)
            if not _positive_int(value):
                raise ValueError(f"{type(self).__name__}: {name} must be a positive "
                                 f"int, got {value!r}")
        if not self._start_freqindex_list:
            if len(self._num_frequency_blocks) != 1:
                raise ValueError(f"Length of num_frequency_blocks is not 1, but instead "
                                 f"is {len(self._num_frequency_blocks)}")
            spans = [(0, input_size)]
        else:
            starts = _int_list("start_freqindex_list", self._start_freqindex_list)
            ends = _int_list("end_freqindex_list", self._end_freqindex_list or ())
            # TF 1.15 raised these two with a %-format and its arguments as a tuple
            if len(starts) != len(ends):
                raise ValueError(f"Length of start and end freqindex_list does not "
                                 f"match: {len(starts)} start indices, {len(ends)} "
                                 f"end indices")
            if len(self._num_frequency_blocks) != len(starts):
                raise ValueError(f"Length of num_frequency_blocks is not equal to "
                                 f"start_freqindex_list: "
                                 f"{len(self._num_frequency_blocks)} blocks, "
                                 f"{len(starts)} start indices")
            spans = list(zip(starts, ends))
        for (start, end), count in zip(spans, self._num_frequency_blocks):
            windows = int((end - start - self._feature_size) / self._frequency_skip) + 1
            if windows != count:
                raise ValueError(f"Invalid num_frequency_blocks, requires {count} but "
                                 f"gets {windows}, please check the input size and "
                                 f"filter config are correct.")
            yield start, windows

    def _windows(self, inputs, slice_offset=0):
        """The input's frequency windows, per block: lists of ``[batch,
        feature_size]`` slices. A positive ``slice_offset`` pads that many zero
        columns at the end and shifts the windows right; a negative one pads at the
        front."""
        input_size = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[-1])
        if input_size is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        if slice_offset:
            pad = [0, 0, 0, slice_offset] if slice_offset > 0 else [0, 0, -slice_offset, 0]
            inputs = tf.pad(inputs, tf.constant(pad, shape=[2, 2], dtype=tf.int32),
                            "CONSTANT")
            slice_offset = max(slice_offset, 0)
        return [[tf.slice(inputs, [0, start + slice_offset + f * self._frequency_skip],
                          [-1, self._feature_size]) for f in range(windows)]
                for start, windows in self._blocks(input_size)]

    def _weights(self, block, depth, dtype):
        """Block ``block``'s weights, in TF 1.15's creation order (the op seeds of
        a seeded graph depend on it)."""
        gates = 3 if self._couple_input_forget_gates else 4
        shape = [depth + 2 * self._num_units, gates * self._num_units]
        zeros = tf.zeros_initializer()
        w = {"f": (sharded_variable(f"W_f_{block}", shape, dtype, self._num_unit_shards),
                   tf.get_variable(f"B_f_{block}", shape=shape[1:], initializer=zeros,
                                   dtype=dtype))}
        if self._share_time_frequency_weights:
            w["t"] = w["f"]
        else:
            w["t"] = (sharded_variable(f"W_t_{block}", shape, dtype,
                                       self._num_unit_shards),
                      tf.get_variable(f"B_t_{block}", shape=shape[1:],
                                      initializer=zeros, dtype=dtype))
        if not self._use_peepholes:
            return w, None
        gate_names = "IO" if self._couple_input_forget_gates else "FIO"

        def diagonals(kind):
            return {(g, src): tf.get_variable(f"W_{g}_diag_{kind}{src}_{block}",
                                              shape=[self._num_units], dtype=dtype)
                    for g in gate_names for src in "ft"}

        peep = {"freq": diagonals("freq")}
        peep["time"] = (peep["freq"] if self._share_time_frequency_weights
                        else diagonals("time"))
        return w, peep

    def _lstm(self, gates, peep, c_freq_prev, c_time_prev, c_own_prev):
        """One LSTM's gates to its new cell state (before the output gate)."""
        if self._couple_input_forget_gates:
            i, j, o = gates
        else:
            i, j, f, o = gates
        if peep:
            i = i + peep["I", "f"] * c_freq_prev + peep["I", "t"] * c_time_prev
        input_gate = tf.sigmoid(i)
        if self._couple_input_forget_gates:
            forget_gate = 1.0 - input_gate
        else:
            f = f + self._forget_bias
            if peep:
                f = f + peep["F", "f"] * c_freq_prev + peep["F", "t"] * c_time_prev
            forget_gate = tf.sigmoid(f)
        c = forget_gate * c_own_prev + input_gate * tf.tanh(j)
        if self._cell_clip is not None:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        return c, o

    def _compute(self, windows, block, state, batch_size, prefix):
        """Runs the frequency LSTM over one block's ``windows`` (a list of
        ``[batch, feature_size]`` tensors) and each window's time LSTM.

        Returns:
          ``(outputs, states)``: per window ``[m_time, m_freq]`` and ``[c_time,
          m_time]``, each ``[batch, num_units]``, flattened in window order.
        """
        units = self._num_units
        dtype = windows[0].dtype
        depth = windows[0].get_shape().as_list()[1]
        weights, peep = self._weights(block, depth, dtype)
        gates = 3 if self._couple_input_forget_gates else 4
        m_freq = tf.zeros([batch_size, units], dtype)
        c_freq = tf.zeros([batch_size, units], dtype)
        outputs, states = [], []
        for freq, window in enumerate(windows):
            if self._state_is_tuple:
                stem = "%s_f%02d_b%02d" % (prefix, freq, block)
                c_time = getattr(state, stem + "_c")
                m_time = getattr(state, stem + "_m")
            else:
                c_time = tf.slice(state, [0, 2 * freq * units], [-1, units])
                m_time = tf.slice(state, [0, (2 * freq + 1) * units], [-1, units])
            cell_inputs = tf.concat([window, m_time, m_freq], 1)
            pre = {}
            for kind in ("f", "t"):
                if kind == "t" and self._share_time_frequency_weights:
                    pre["t"] = pre["f"]
                    continue
                kernel, bias = weights[kind]
                pre[kind] = tf.split(tf.nn.bias_add(tf.matmul(cell_inputs, kernel),
                                                    bias), gates, axis=1)
            freq_peep = peep and peep["freq"]
            time_peep = peep and peep["time"]
            new_c_freq, o_freq = self._lstm(pre["f"], freq_peep, c_freq, c_time, c_freq)
            new_c_time, o_time = self._lstm(pre["t"], time_peep, c_freq, c_time, c_time)
            if peep:
                o_freq = (o_freq + freq_peep["O", "f"] * new_c_freq
                          + freq_peep["O", "t"] * new_c_time)
            new_m_freq = tf.sigmoid(o_freq) * tf.tanh(new_c_freq)
            if peep:
                o_time = (o_time + time_peep["O", "f"] * new_c_freq
                          + time_peep["O", "t"] * new_c_time)
            new_m_time = tf.sigmoid(o_time) * tf.tanh(new_c_time)
            m_freq, c_freq = new_m_freq, new_c_freq
            states += [new_c_time, new_m_time]
            outputs += [new_m_time, new_m_freq]
        return outputs, states


class BidirectionalGridLSTMCell(GridLSTMCell):
    """GridLSTMCell whose frequency LSTM runs both ways (variables under ``fwd`` and
    ``bwd``); the backward pass reads its windows ``backward_slice_offset`` columns
    further (zero-padded). Arguments as GridLSTMCell's (the state is always a
    ``BidirectionalGridLSTMStateTuple``, ``fwd_state_..`` then ``bwd_state_..``);
    output ``[batch, 4 * num_units * windows]``."""

    def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
                 cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
                 feature_size=None, frequency_skip=None, num_frequency_blocks=None,
                 start_freqindex_list=None, end_freqindex_list=None,
                 couple_input_forget_gates=False, backward_slice_offset=0, reuse=None):
        super().__init__(num_units, use_peepholes, share_time_frequency_weights,
                         cell_clip, initializer, num_unit_shards, forget_bias,
                         feature_size, frequency_skip, num_frequency_blocks,
                         start_freqindex_list, end_freqindex_list,
                         couple_input_forget_gates, True, reuse)
        try:
            self._backward_slice_offset = int(backward_slice_offset)
        except (TypeError, ValueError):
            raise ValueError(f"BidirectionalGridLSTMCell: backward_slice_offset must "
                             f"be an int, got {backward_slice_offset!r}") from None
        names = [name for direction in ("fwd", "bwd") for name in _state_names(
            direction + "_state", self._num_frequency_blocks)]
        self._state_tuple_type = collections.namedtuple(
            "BidirectionalGridLSTMStateTuple", names)
        self._state_size = self._state_tuple_type(*[num_units] * len(names))
        self._output_size = 2 * num_units * self._total_blocks * 2

    def call(self, inputs, state):
        batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        fwd_windows = self._windows(inputs)
        bwd_windows = (self._windows(inputs, self._backward_slice_offset)
                       if self._backward_slice_offset else fwd_windows)
        outputs, states = [], []
        for direction, blocks in (("fwd", fwd_windows), ("bwd", bwd_windows)):
            with tf.variable_scope(direction):
                for block, windows in enumerate(blocks):
                    if direction == "bwd":
                        windows = windows[::-1]
                    block_outputs, block_states = self._compute(
                        windows, block, state, batch_size, direction + "_state")
                    outputs += block_outputs
                    states += block_states
        # the forward states first, then the backward ones: the tuple's field order
        return tf.concat(outputs, 1), self._state_tuple_type(*states)
