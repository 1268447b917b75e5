"""``tf.contrib.rnn``'s smaller research cells: ``IndyLSTMCell``, ``IndyGRUCell``,
``UGRNNCell``, ``IntersectionRNNCell``, ``SRUCell``, ``PhasedLSTMCell``, ``GLSTMCell``,
``TimeFreqLSTMCell``.

Owns the eight cells. ``IndyLSTMCell`` and ``IndyGRUCell`` (Gonnet and Deselaers 2019) are
the LSTM and GRU with a diagonal recurrence: ``kernel_w`` ``[depth, gates * units]``,
``kernel_u`` ``[1, gates * units]`` (uniform in [-1, 1]), ``bias``; the GRU's under
``gates/`` and ``candidate/`` (whose input kernel is ``candidate/kernel``). ``UGRNNCell``
and ``IntersectionRNNCell`` (Collins et al. 2016) gate a tanh candidate by one ``kernel``
``[depth + units, k * units]`` and ``bias``; the Intersection RNN also gates the input
through to its output (``in_projection/`` first with ``num_in_proj``). ``SRUCell`` (Lei et
al. 2017): ``kernel`` ``[depth, 4 units]``, ``bias`` ``[2 units]`` for the forget and
reset gates. ``PhasedLSTMCell`` (Neil et al. 2016) takes ``(time, features)`` and opens
each unit's state only in a learned phase of its period: ``mask_gates/``, ``new_input/``,
``output_gate/`` ``kernel``/``bias``, then ``period`` (exp of a uniform draw in
``[log min, log max]``), ``phase`` (uniform in ``[0, period)``) and ``ratio_on``.
``GLSTMCell`` (Kuchaiev and Ginsburg 2017) splits the input and the output into
``number_of_groups`` parts, each group its own ``group<k>/kernel``, with ``bias_{i,j,f,o}``
and ``projection/kernel`` with ``num_proj``. ``TimeFreqLSTMCell`` (Sainath and Li 2016)
runs one LSTM (``W_0 ..``, ``B``, ``W_{F,I,O}_diag``) along the input's frequency windows;
as in TF 1.15 its state and output sizes count one window.

Guarantees TF 1.15's variable names, shapes and creation order (so TF1 checkpoints
restore), state sizes, TF1's refusals and values, and TF 1.15's op count before each
random draw, so that weights drawn from ``tf.set_random_seed`` alone are TF1's (corpus
``contrib_rnn_more_cells2.py``). As in TF 1.15 ``initializer`` is the scope's initializer
for the cell's variables. Arguments TF 1.15 let through to an obscure failure are refused
here with the value named. The cells subclass TF's v1 RNNCell, so the module imports
TensorFlow at its top (it is loaded only after TensorFlow).
"""

import numbers
import sys

import tensorflow.compat.v1 as tf

from tf1mem.compat.tf.contrib.rnn.cells import build_depth, sharded_variable

__all__ = ["IndyLSTMCell", "IndyGRUCell", "UGRNNCell", "IntersectionRNNCell", "SRUCell",
           "PhasedLSTMCell", "GLSTMCell", "TimeFreqLSTMCell"]


def _check_units(cell, name, value):
    """Refuses a ``value`` of ``name`` that is not a positive int, naming both."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral)
            or value <= 0):
        raise ValueError(f"{cell}: {name} must be a positive int, got {value!r}")


def _depth(inputs):
    """The static width of a ``[batch, depth]`` tensor, or TF1's ValueError."""
    depth = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[1])
    if depth is None:
        raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    return depth


def _linear(args, output_size, bias):
    """TF1 contrib's fully connected layer on the concatenated ``args``: ``kernel``
    ``[sum of depths, output_size]`` and, with ``bias``, ``bias`` (zeros), in the current
    variable scope.

    Args:
      args: a ``[batch, depth]`` tensor or a list of them, one dtype.
      output_size: the output's width, an int.
      bias: whether to add the bias.

    Returns:
      ``[batch, output_size]``.
    """
    args = list(args) if isinstance(args, (list, tuple)) else [args]
    depth = sum(_depth(arg) for arg in args)
    dtype = args[0].dtype
    kernel = tf.get_variable("kernel", [depth, output_size], dtype=dtype)
    if bias:
        biases = tf.get_variable("bias", [output_size], dtype=dtype,
                                 initializer=tf.constant_initializer(0.0, dtype=dtype))
    res = tf.matmul(args[0] if len(args) == 1 else tf.concat(args, 1), kernel)
    return tf.nn.bias_add(res, biases) if bias else res


def _exp_uniform_initializer(minval, maxval):
    """Draws ``exp(uniform(log minval, log maxval))``: periods spread evenly in log."""

    def initializer(shape, dtype=tf.float32, partition_info=None):
        del partition_info
        return tf.exp(tf.random_uniform(shape, tf.log(minval), tf.log(maxval), dtype))

    return initializer


_layer_rnn_cell = sys.modules[tf.nn.rnn_cell.RNNCell.__module__].LayerRNNCell


def _uniform_pm1(dtype):
    return tf.random_uniform_initializer(-1, 1, dtype=dtype)


class IndyLSTMCell(_layer_rnn_cell):
    """The LSTM with a diagonal (per-unit) recurrence, TF 1.15's.

    Args:
      num_units: the cell's size.
      forget_bias: added to the forget gate.
      activation: of the candidate and the output; tanh by default.
      reuse: reuse the variables of an existing scope.
      kernel_initializer: of ``kernel_w`` (the scope's by default).
      bias_initializer: of ``bias`` (zeros by default).
      name, dtype: the Layer's.
    """

    def __init__(self, num_units, forget_bias=1.0, activation=None, reuse=None,
                 kernel_initializer=None, bias_initializer=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        _check_units("IndyLSTMCell", "num_units", num_units)
        self.input_spec = tf.layers.InputSpec(ndim=2)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: tf.nn.rnn_cell.LSTMStateTuple(
        self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = build_depth(inputs_shape)
        width = 4 * self._num_units
        self._kernel_w = self.add_variable("kernel_w", shape=[depth, width],
                                           initializer=self._kernel_initializer)
        self._kernel_u = self.add_variable("kernel_u", shape=[1, width],
                                           initializer=_uniform_pm1(self.dtype))
        self._bias = self.add_variable(
            "bias", shape=[width],
            initializer=self._bias_initializer or tf.zeros_initializer(self.dtype))
        self.built = True

    def call(self, inputs, state):
        c, h = state
        gates = tf.matmul(inputs, self._kernel_w)
        gates += tf.tile(h, [1, 4]) * self._kernel_u
        gates = tf.nn.bias_add(gates, self._bias)
        # the axis a constant op of its own, as TF 1.15 built it (op seeds count it)
        i, j, f, o = tf.split(gates, 4, axis=tf.constant(1, dtype=tf.int32))
        forget_bias = tf.constant(self._forget_bias, dtype=f.dtype)
        new_c = c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, tf.nn.rnn_cell.LSTMStateTuple(new_c, new_h)


class IndyGRUCell(_layer_rnn_cell):
    """The GRU with a diagonal (per-unit) recurrence, TF 1.15's.

    Args:
      num_units: the cell's size.
      activation: of the candidate; tanh by default.
      reuse: reuse the variables of an existing scope.
      kernel_initializer: of the input kernels (the scope's by default).
      bias_initializer: of both biases (else ones for the gates, zeros for the
        candidate).
      name, dtype: the Layer's.
    """

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        _check_units("IndyGRUCell", "num_units", num_units)
        self.input_spec = tf.layers.InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = build_depth(inputs_shape)
        units = self._num_units
        add = self.add_variable
        self._gate_w = add("gates/kernel_w", shape=[depth, 2 * units],
                           initializer=self._kernel_initializer)
        self._gate_u = add("gates/kernel_u", shape=[1, 2 * units],
                           initializer=_uniform_pm1(self.dtype))
        self._gate_b = add("gates/bias", shape=[2 * units],
                           initializer=self._bias_initializer
                           or tf.constant_initializer(1.0, dtype=self.dtype))
        self._candidate_w = add("candidate/kernel", shape=[depth, units],
                                initializer=self._kernel_initializer)
        self._candidate_u = add("candidate/kernel_u", shape=[1, units],
                                initializer=_uniform_pm1(self.dtype))
        self._candidate_b = add("candidate/bias", shape=[units],
                                initializer=self._bias_initializer
                                or tf.zeros_initializer(self.dtype))
        self.built = True

    def call(self, inputs, state):
        gates = tf.matmul(inputs, self._gate_w)
        gates += tf.tile(state, [1, 2]) * self._gate_u
        gates = tf.sigmoid(tf.nn.bias_add(gates, self._gate_b))
        r, u = tf.split(gates, 2, axis=1)
        candidate = tf.matmul(inputs, self._candidate_w)
        candidate += r * state * self._candidate_u
        c = self._activation(tf.nn.bias_add(candidate, self._candidate_b))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class _ScopedCell(tf.nn.rnn_cell.RNNCell):
    """An RNNCell whose ``call`` makes its variables under ``initializer``."""

    def __init__(self, cell, num_units, initializer, reuse):
        super().__init__(_reuse=reuse)
        _check_units(cell, "num_units", num_units)
        self._num_units = num_units
        self._initializer = initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def _initializer_scope(self):
        return tf.variable_scope(tf.get_variable_scope(), initializer=self._initializer)


class UGRNNCell(_ScopedCell):
    """The update-gate RNN (Collins et al. 2016), TF 1.15's: ``kernel`` ``[depth +
    units, 2 units]`` and ``bias`` give the gate and the candidate; the new state
    (and output) is ``g * state + (1 - g) * activation(candidate)``.

    Args:
      num_units: the cell's size.
      initializer: the variables' initializer (the scope's by default).
      forget_bias: added to the gate.
      activation: of the candidate.
      reuse: reuse the variables of an existing scope.
    """

    def __init__(self, num_units, initializer=None, forget_bias=1.0, activation=None,
                 reuse=None):
        super().__init__("UGRNNCell", num_units, initializer, reuse)
        self._forget_bias = forget_bias
        self._activation = activation or tf.tanh

    def call(self, inputs, state):
        _depth(inputs)
        with self._initializer_scope():
            matrix = _linear(tf.concat([inputs, state], 1), 2 * self._num_units, True)
            g_act, c_act = tf.split(matrix, 2, axis=1)
            c = self._activation(c_act)
            g = tf.sigmoid(g_act + self._forget_bias)
            new_state = g * state + (1.0 - g) * c
        return new_state, new_state


class IntersectionRNNCell(_ScopedCell):
    """The Intersection RNN (Collins et al. 2016), TF 1.15's: one ``kernel``
    ``[depth + units, 4 units]`` and ``bias`` give a state gate and candidate and an
    output gate and candidate; the output gates the input through, so the input must
    be ``num_units`` wide or be projected (``num_in_proj``, ``in_projection/``).

    Args:
      num_units: the cell's size.
      num_in_proj: project the input to this width first (must be ``num_units``).
      initializer: the variables' initializer (the scope's by default).
      forget_bias: added to both gates.
      y_activation: of the output candidate; relu by default.
      reuse: reuse the variables of an existing scope.
    """

    def __init__(self, num_units, num_in_proj=None, initializer=None, forget_bias=1.0,
                 y_activation=None, reuse=None):
        super().__init__("IntersectionRNNCell", num_units, initializer, reuse)
        if num_in_proj is not None:
            _check_units("IntersectionRNNCell", "num_in_proj", num_in_proj)
        self._num_input_proj = num_in_proj
        self._forget_bias = forget_bias
        self._y_activation = y_activation or tf.nn.relu

    def call(self, inputs, state):
        depth = _depth(inputs)
        with self._initializer_scope():
            if self._num_input_proj:
                with tf.variable_scope("in_projection"):
                    inputs = _linear(inputs, self._num_input_proj, True)
            elif depth != self._num_units:
                raise ValueError("Must have input size == output size for "
                                 "Intersection RNN. To fix, num_in_proj should "
                                 "be set to num_units at cell init.")
            cell_inputs = tf.concat([inputs, state], 1)
            matrix = _linear(cell_inputs, 4 * self._num_units, True)
            # four column slices, not a split: TF 1.15's op count, which the op
            # seeds of later variables depend on
            n = self._num_units
            gh_act, h_act, gy_act, y_act = (matrix[:, k * n:(k + 1) * n]
                                            for k in range(4))
            h = tf.tanh(h_act)
            y = self._y_activation(y_act)
            gh = tf.sigmoid(gh_act + self._forget_bias)
            gy = tf.sigmoid(gy_act + self._forget_bias)
            new_state = gh * state + (1.0 - gh) * h
            new_y = gy * inputs + (1.0 - gy) * y
        return new_y, new_state


class SRUCell(_layer_rnn_cell):
    """The simple recurrent unit (Lei et al. 2017), TF 1.15's: ``kernel`` ``[depth, 4
    units]`` projects the input to a candidate, forget and reset pre-activations and a
    highway term; ``bias`` ``[2 units]`` (zeros) is the two gates'.

    Args:
      num_units: the cell's size.
      activation: of the output; tanh by default.
      reuse: reuse the variables of an existing scope.
      name: the Layer's.
      **kwargs: a Layer's ``dtype``.
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, **kwargs)
        _check_units("SRUCell", "num_units", num_units)
        self.input_spec = tf.layers.InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or tf.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = build_depth(inputs_shape)
        self._kernel = self.add_variable("kernel", shape=[depth, 4 * self._num_units])
        self._bias = self.add_variable("bias", shape=[2 * self._num_units],
                                       initializer=tf.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        projected = tf.matmul(inputs, self._kernel)
        x_bar, f_pre, r_pre, x_tx = tf.split(projected, 4, axis=1)
        gates = tf.sigmoid(tf.nn.bias_add(tf.concat([f_pre, r_pre], 1), self._bias))
        f, r = tf.split(gates, 2, axis=1)
        c = f * state + (1.0 - f) * x_bar
        h = r * self._activation(c) + (1.0 - r) * x_tx
        return h, c


class PhasedLSTMCell(tf.nn.rnn_cell.RNNCell):
    """The Phased LSTM (Neil et al. 2016), TF 1.15's: an LSTM whose every unit
    updates only while its oscillation (``period``, ``phase``, open a ``ratio_on``
    share of each period, leaking ``leak`` otherwise) is open.

    Args:
      num_units: the cell's size.
      use_peepholes: the gates also see the cell state.
      leak: how much a closed unit still follows its update.
      ratio_on: the open share of each period (initial value).
      trainable_ratio_on: whether ``ratio_on`` is trained.
      period_init_min, period_init_max: the periods' initial range (positive).
      reuse: reuse the variables of an existing scope.

    Inputs: ``(time [batch, 1], features [batch, depth])``.
    """

    def __init__(self, num_units, use_peepholes=False, leak=0.001, ratio_on=0.1,
                 trainable_ratio_on=True, period_init_min=1.0, period_init_max=1000.0,
                 reuse=None):
        super().__init__(_reuse=reuse)
        _check_units("PhasedLSTMCell", "num_units", num_units)
        for name, value in (("period_init_min", period_init_min),
                            ("period_init_max", period_init_max)):
            if not isinstance(value, numbers.Real) or value <= 0:
                raise ValueError(f"PhasedLSTMCell: {name} must be a positive number "
                                 f"(periods are drawn in log space), got {value!r}")
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._leak = leak
        self._ratio_on = ratio_on
        self._trainable_ratio_on = trainable_ratio_on
        self._period_init_min = period_init_min
        self._period_init_max = period_init_max

    state_size = property(lambda self: tf.nn.rnn_cell.LSTMStateTuple(
        self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        if not isinstance(inputs, (tuple, list)) or len(inputs) != 2:
            raise ValueError(f"PhasedLSTMCell: inputs must be a pair (time [batch, "
                             f"1], features [batch, depth]), got {inputs!r}")
        c_prev, h_prev = state
        time, x = inputs
        units = self._num_units
        mask_inputs = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
        with tf.variable_scope("mask_gates"):
            mask_gates = tf.sigmoid(_linear(mask_inputs, 2 * units, True))
            input_gate, forget_gate = tf.split(mask_gates, 2, axis=1)
        with tf.variable_scope("new_input"):
            new_input = tf.tanh(_linear([x, h_prev], units, True))
        new_c = c_prev * forget_gate + input_gate * new_input
        out_inputs = [x, h_prev] + ([new_c] if self._use_peepholes else [])
        with tf.variable_scope("output_gate"):
            output_gate = tf.sigmoid(_linear(out_inputs, units, True))
        new_h = tf.tanh(new_c) * output_gate

        period = tf.get_variable("period", [units],
                                 initializer=_exp_uniform_initializer(
                                     self._period_init_min, self._period_init_max))
        # each unit's phase uniform in [0, its own initial period)
        phase = tf.get_variable("phase", [units],
                                initializer=tf.random_uniform_initializer(
                                    0.0, period.initial_value))
        ratio_on = tf.get_variable("ratio_on", [units],
                                   initializer=tf.constant_initializer(self._ratio_on),
                                   trainable=self._trainable_ratio_on)
        period_t = tf.cast(period, time.dtype)
        shifted = time - tf.cast(phase, time.dtype)
        # the remainder's value with the gradient of ``shifted`` alone (TF 1.15's)
        cycle = tf.stop_gradient(tf.floormod(shifted, period_t) - shifted) + shifted
        cycle = tf.cast(cycle / period_t, tf.float32)
        # the openness: rising over the first half of the open share, falling over
        # the second, a leak while closed
        k_up = 2 * cycle / ratio_on
        k_down = 2 - k_up
        k_closed = self._leak * cycle
        k = tf.where(cycle < ratio_on, k_down, k_closed)
        k = tf.where(cycle < 0.5 * ratio_on, k_up, k)
        new_c = k * new_c + (1 - k) * c_prev
        new_h = k * new_h + (1 - k) * h_prev
        return new_h, tf.nn.rnn_cell.LSTMStateTuple(new_c, new_h)


class GLSTMCell(tf.nn.rnn_cell.RNNCell):
    """The group LSTM (Kuchaiev and Ginsburg 2017), TF 1.15's: the input and the
    previous output are cut into ``number_of_groups`` parts, each group's LSTM
    pre-activations from its own ``group<k>/kernel``, joined, plus ``bias_i``,
    ``bias_j``, ``bias_f``, ``bias_o``; ``projection/kernel`` with ``num_proj``.

    Args:
      num_units: the cell's size (divisible by ``number_of_groups``).
      initializer: the variables' initializer (the scope's by default).
      num_proj: project the output to this size (divisible by ``number_of_groups``).
      number_of_groups: how many groups.
      forget_bias: added to the forget gate.
      activation: of the cell state at the output.
      reuse: reuse the variables of an existing scope.
    """

    def __init__(self, num_units, initializer=None, num_proj=None, number_of_groups=1,
                 forget_bias=1.0, activation=None, reuse=None):
        super().__init__(_reuse=reuse)
        _check_units("GLSTMCell", "num_units", num_units)
        _check_units("GLSTMCell", "number_of_groups", number_of_groups)
        if num_proj is not None:
            _check_units("GLSTMCell", "num_proj", num_proj)
        if num_units % number_of_groups:
            raise ValueError("num_units must be divisible by number_of_groups")
        if num_proj and num_proj % number_of_groups:
            raise ValueError("num_proj must be divisible by number_of_groups")
        self._num_units = num_units
        self._initializer = initializer
        self._num_proj = num_proj
        self._number_of_groups = number_of_groups
        self._forget_bias = forget_bias
        self._activation = activation or tf.tanh
        out = num_proj or num_units
        # each group's slice of the previous output, and its units
        self._group_shape = [out // number_of_groups, num_units // number_of_groups]
        self._state_size = tf.nn.rnn_cell.LSTMStateTuple(num_units, out)
        self._output_size = out

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        c_prev, m_prev = state
        batch = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        depth = _depth(inputs)
        groups = self._number_of_groups
        if depth % groups:
            raise ValueError(f"input size ({depth}) must be divisible by "
                             f"number_of_groups ({groups})")
        in_size = depth // groups
        out_size, units = self._group_shape

        def part(tensor, group, size):
            return tf.slice(tensor, [0, group * size], [batch, size],
                            name="GLSTM_group%d_input_generation" % group)

        dtype = inputs.dtype
        parts = [[], [], [], []]
        with tf.variable_scope(tf.get_variable_scope(), initializer=self._initializer):
            for group in range(groups):
                with tf.variable_scope("group%d" % group):
                    joined = tf.concat([part(inputs, group, in_size),
                                        part(m_prev, group, out_size)], axis=1)
                    gates = tf.split(_linear(joined, 4 * units, False), 4, 1)
                for gate, value in zip(parts, gates):
                    gate.append(value)
            biases = [tf.get_variable("bias_" + name, [self._num_units], dtype=dtype,
                                      initializer=tf.constant_initializer(0.0, dtype))
                      for name in "ijfo"]
            i, j, f, o = [tf.nn.bias_add(tf.concat(gate, axis=1), b)
                          for gate, b in zip(parts, biases)]
        c = (tf.sigmoid(f + self._forget_bias) * c_prev
             + tf.sigmoid(i) * tf.tanh(j))
        m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            with tf.variable_scope("projection"):
                m = _linear(m, self._num_proj, False)
        return m, tf.nn.rnn_cell.LSTMStateTuple(c, m)


class TimeFreqLSTMCell(tf.nn.rnn_cell.RNNCell):
    """The time-frequency LSTM (Sainath and Li 2016), TF 1.15's: the input row is cut
    into windows of ``feature_size`` every ``frequency_skip`` values and one LSTM
    (``W_0 ..`` ``[feature_size + 2 units, 4 units]``, ``B``, peepholes
    ``W_F_diag``/``W_I_diag``/``W_O_diag``) runs over them, each window also seeing the
    previous window's output; each window keeps its own ``[c, m]`` in the state.

    Args:
      num_units: the LSTM's size.
      use_peepholes: diagonal cell-to-gate connections.
      cell_clip: clip the cell state to [-cell_clip, cell_clip].
      initializer: the variables' initializer (the scope's by default).
      num_unit_shards: rows of ``W`` split over this many variables.
      forget_bias: added to the forget gate.
      feature_size: the width of one window.
      frequency_skip: the stride between windows.
      reuse: reuse the variables of an existing scope.

    As in TF 1.15, ``state_size`` (``2 * num_units``) and ``output_size``
    (``num_units``) count one window: with more, the state passed in and the output
    are ``windows`` times wider (start ``static_rnn`` from a state of that width).
    """

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_unit_shards=1, forget_bias=1.0, feature_size=None,
                 frequency_skip=1, reuse=None):
        super().__init__(_reuse=reuse)
        _check_units("TimeFreqLSTMCell", "num_units", num_units)
        _check_units("TimeFreqLSTMCell", "num_unit_shards", num_unit_shards)
        _check_units("TimeFreqLSTMCell", "feature_size", feature_size)
        _check_units("TimeFreqLSTMCell", "frequency_skip", frequency_skip)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip

    state_size = property(lambda self: 2 * self._num_units)
    output_size = property(lambda self: self._num_units)

    def _windows(self, inputs):
        width = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[-1])
        if width is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        count = int((width - self._feature_size) / self._frequency_skip) + 1
        if count < 1:
            raise ValueError(f"TimeFreqLSTMCell: feature_size {self._feature_size} is "
                             f"wider than the input ({width})")
        skip, size = self._frequency_skip, self._feature_size
        return [tf.slice(inputs, [0, k * skip], [-1, size]) for k in range(count)]

    def call(self, inputs, state):
        units = self._num_units
        windows = self._windows(inputs)
        dtype = inputs.dtype
        batch = tf.compat.dimension_value(inputs.get_shape()[0])
        if batch is None:
            raise ValueError(f"TimeFreqLSTMCell: the batch size must be known, got "
                             f"inputs of shape {inputs.get_shape().as_list()}")
        width = tf.compat.dimension_value(state.get_shape().with_rank(2)[1])
        if width is not None and width < 2 * units * len(windows):
            raise ValueError(f"TimeFreqLSTMCell: the state must be 2 * num_units * "
                             f"windows = {2 * units * len(windows)} wide for "
                             f"{len(windows)} frequency windows, got {width}")
        with tf.variable_scope(tf.get_variable_scope(), initializer=self._initializer):
            kernel = sharded_variable("W", [self._feature_size + 2 * units, 4 * units],
                                      dtype, self._num_unit_shards)
            bias = tf.get_variable("B", shape=[4 * units],
                                   initializer=tf.zeros_initializer(), dtype=dtype)
            if self._use_peepholes:
                w_f, w_i, w_o = [tf.get_variable(f"W_{g}_diag", shape=[units],
                                                 dtype=dtype) for g in "FIO"]
        m_freq = tf.zeros([batch, units], dtype)
        states, outputs = [], []
        for k, window in enumerate(windows):
            c_prev = tf.slice(state, [0, 2 * k * units], [-1, units])
            m_prev = tf.slice(state, [0, (2 * k + 1) * units], [-1, units])
            gates = tf.nn.bias_add(
                tf.matmul(tf.concat([window, m_prev, m_freq], 1), kernel), bias)
            i, j, f, o = tf.split(gates, 4, axis=1)
            if self._use_peepholes:
                c = (tf.sigmoid(f + self._forget_bias + w_f * c_prev) * c_prev
                     + tf.sigmoid(i + w_i * c_prev) * tf.tanh(j))
            else:
                c = (tf.sigmoid(f + self._forget_bias) * c_prev
                     + tf.sigmoid(i) * tf.tanh(j))
            if self._cell_clip is not None:
                c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
            if self._use_peepholes:
                m = tf.sigmoid(o + w_o * c) * tf.tanh(c)
            else:
                m = tf.sigmoid(o) * tf.tanh(c)
            m_freq = m
            states += [c, m]
            outputs.append(m)
        # TF 1.15 grew both by one concatenation per window
        state_out, m_out = tf.concat(states[:2], 1), outputs[0]
        for k in range(1, len(windows)):
            state_out = tf.concat([state_out] + states[2 * k:2 * k + 2], 1)
            m_out = tf.concat([m_out, outputs[k]], 1)
        return m_out, state_out
