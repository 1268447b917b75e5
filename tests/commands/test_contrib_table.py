"""The ranked tf.contrib table: one source (compat/table.py), the docs generated from it.

The tests here: the commands in subprocesses; the rest: tests/unit/test_contrib_table.py.
"""

import pytest

from tests import _subproc


@pytest.mark.slow
def test_dir_of_a_composite_module_lists_every_provided_name(tmp_path):
    """dir(tf.contrib.rnn) lists what TF 1.15's did, not only the names used so far; a name
    the table marks missing (None) stays out."""
    script = tmp_path / "names.py"
    script.write_text(
        "import tensorflow as tf\n"
        "rnn, data = dir(tf.contrib.rnn), dir(tf.contrib.data)\n"
        "print(all(n in rnn for n in ('ConvLSTMCell', 'Conv3DLSTMCell', 'LSTMCell',\n"
        "                           'AttentionCellWrapper')),\n"
        "      'assert_element_shape' in data, 'batch_and_drop_remainder' in data)\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["True", "False", "True"]


@pytest.mark.slow
def test_star_import_of_a_composite_module_gives_every_provided_name(tmp_path):
    """``from tensorflow.contrib.rnn import *`` (2017 code did) binds every name TF 1.15's
    did, not only those the script used before; a missing name (None) stays out."""
    script = tmp_path / "star.py"
    script.write_text(
        "from tensorflow.contrib.rnn import *\n"
        "from tensorflow.contrib.data import *\n"
        "print(LSTMBlockCell.__name__, static_rnn.__name__, ConvLSTMCell.__name__,\n"
        "      batch_and_drop_remainder.__name__, 'assert_element_shape' in globals())\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["LSTMBlockCell", "static_rnn", "ConvLSTMCell",
                                   "batch_and_drop_remainder", "False"]
