"""``tf.contrib.rnn``: the cells and functions TF 2 has no home for.

The cells of ``cells.py`` (LayerNorm, projection, attention, convolutional, block and
fused cells, stacked bidirectional RNNs), ``grid.py`` (NAS and Grid LSTMs) and
``more_cells.py`` (Indy, UGRNN, Intersection, SRU, Phased, group and time-frequency
LSTMs), and TF's v1 ``static_rnn`` functions; tf1mem's table serves the rest of
``tf.contrib.rnn`` from ``tf.compat.v1.nn.rnn_cell``.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'LayerNormBasicLSTMCell': '.cells',
    'LSTMBlockCell': '.cells',
    'GRUBlockCell': '.cells',
    'GRUBlockCellV2': '.cells',
    'OutputProjectionWrapper': '.cells',
    'InputProjectionWrapper': '.cells',
    'EmbeddingWrapper': '.cells',
    'AttentionCellWrapper': '.cells',
    'ConvLSTMCell': '.cells',
    'Conv1DLSTMCell': '.cells',
    'Conv2DLSTMCell': '.cells',
    'Conv3DLSTMCell': '.cells',
    'LSTMBlockFusedCell': '.cells',
    'CoupledInputForgetGateLSTMCell': '.cells',
    'HighwayWrapper': '.cells',
    'IndRNNCell': '.cells',
    'TimeReversedFusedRNN': '.cells',
    'stack_bidirectional_dynamic_rnn': '.cells',
    'stack_bidirectional_rnn': '.cells',
    'NASCell': '.grid',
    'GridLSTMCell': '.grid',
    'BidirectionalGridLSTMCell': '.grid',
    'IndyLSTMCell': '.more_cells',
    'IndyGRUCell': '.more_cells',
    'UGRNNCell': '.more_cells',
    'IntersectionRNNCell': '.more_cells',
    'SRUCell': '.more_cells',
    'PhasedLSTMCell': '.more_cells',
    'GLSTMCell': '.more_cells',
    'TimeFreqLSTMCell': '.more_cells',
    'static_rnn': 'tensorflow:compat.v1.nn.static_rnn',
    'static_bidirectional_rnn': 'tensorflow:compat.v1.nn.static_bidirectional_rnn',
    'static_state_saving_rnn': 'tensorflow:compat.v1.nn.static_state_saving_rnn',
})
