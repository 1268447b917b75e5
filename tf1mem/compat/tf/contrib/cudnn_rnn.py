"""``tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell`` as the v1 LSTM cell it equals.

TF 1.15's cell is an ``LSTMBlockCell`` with ``forget_bias=0`` and no peepholes,
named ``cudnn_compatible_lstm_cell``, whose ``kernel`` / ``bias`` variables (gates
i, j, f, o) are laid out as ``tf.compat.v1.nn.rnn_cell.LSTMCell``'s: the same maths
and the same checkpoint names. The cuDNN layers (``CudnnLSTM``, ``CudnnGRU``) and
``CudnnCompatibleGRUCell`` (cuDNN's GRU applies the reset gate after the matrix
product, unlike ``GRUCell``) are not provided: see
:data:`tf1mem.compat.table.REMOVED_SYMBOLS`.
"""

from tf1mem._tf import v1 as _v1

__all__ = ["CudnnCompatibleLSTMCell"]


def CudnnCompatibleLSTMCell(num_units, reuse=None):  # noqa: N802 - TF1's class name
    """A ``tf.compat.v1.nn.rnn_cell.LSTMCell`` computing what TF 1.15's
    ``CudnnCompatibleLSTMCell(num_units, reuse)`` computed."""
    return _v1().nn.rnn_cell.LSTMCell(num_units, forget_bias=0.0, state_is_tuple=True,
                                      reuse=reuse, name="cudnn_compatible_lstm_cell")
