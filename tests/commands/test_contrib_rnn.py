"""tf.contrib.rnn's cells (``compat/tf/contrib/rnn/cells.py``, ``grid.py``,
``more_cells.py``) where tf1mem differs from TF 1.15 on purpose: refusals that name the
value at fault; and TF 1.15.5 checkpoints of the Grid LSTM and NAS cells and of
``rnn_more.py``'s cells restored. Their values, variable names and
TF1's own refusals are checked against TF 1.15.5 by the corpus scripts
``contrib_rnn_*.py``."""

import json
import textwrap

import numpy as np
import pytest

from tests import _subproc

REFUSALS = r'''
import json
import tensorflow as tf

x = tf.zeros([4, 3, 5])
got = {}
for label, make in [
        ("depth", lambda: tf.contrib.rnn.LSTMBlockFusedCell(2)(
            tf.placeholder(tf.float32, [4, 3, None]), dtype=tf.float32)),
        ("state", lambda: tf.contrib.rnn.LSTMBlockFusedCell(2)(
            x, initial_state=(tf.zeros([3, 2]),) * 3))]:
    try:
        make()
        got[label] = "no error"
    except Exception as e:
        got[label] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(got))
'''


def _refusals(tmp_path, source):
    """Runs ``source`` under ``tf1mem.run``; returns the JSON of errors it printed last."""
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(source))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_fused_cell_refusals_name_the_value(tmp_path):
    got = _refusals(tmp_path, REFUSALS)
    # TF 1.15 raised "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'".
    assert got["depth"].startswith("ValueError: Expecting inputs_shape[2] to be set: "), got
    assert got["depth"].endswith("(4, 3, ?)"), got
    assert "got length 3" in got["state"], got


# TF 1.15.5 checkpoints (make_fixture.py in each, run with the oracle) of model.py's cells
CHECKPOINT_FIXTURES = ("rnn_grid_tf115", "rnn_more_tf115")

GRID_RESTORE = r'''
import json
import os
import sys

import numpy as np
import tensorflow as tf

fixture, out_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixture)
import model

fetches = model.build()
saver = tf.train.Saver()
with tf.Session() as sess:
    saver.restore(sess, tf.train.latest_checkpoint(fixture))
    outputs = {k: v.tolist() for k, v in sess.run(fetches).items()}
    saved = saver.save(sess, os.path.join(out_dir, "again.ckpt"), write_meta_graph=False)
print(json.dumps({
    "variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
    "outputs": outputs,
    "tf115 checkpoint": tf.train.list_variables(fixture),
    "saved again": tf.train.list_variables(saved)}))
'''


@pytest.mark.slow
@pytest.mark.parametrize("fixture", CHECKPOINT_FIXTURES)
def test_tf115_checkpoint_of_contrib_rnn_cells_restores(tmp_path, fixture):
    """tests/rnn_grid_tf115 holds a checkpoint TF 1.15.5 wrote of model.py's NASCell,
    GridLSTMCell and BidirectionalGridLSTMCell, tests/rnn_more_tf115 one of the eight
    cells of ``compat/tf/contrib/rnn/more_cells.py``: the same TF1 code under tf1mem makes every
    variable under TF1's name and shape, in TF1's order, restores them, computes TF
    1.15.5's outputs, and saves a checkpoint holding the same names and shapes."""
    folder = _subproc.REPO / "tests" / fixture
    expected = json.loads((folder / "expected.json").read_text())
    script = tmp_path / "restore.py"
    script.write_text(GRID_RESTORE)
    proc = _subproc.run(["-m", "tf1mem.run", script, folder, tmp_path], cwd=tmp_path,
                        check_rc=0)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["variables"] == expected["variables"]
    assert got["saved again"] == got["tf115 checkpoint"] == sorted(expected["variables"])
    assert sorted(got["outputs"]) == sorted(expected["outputs"])
    for key, value in expected["outputs"].items():
        np.testing.assert_allclose(got["outputs"][key], value, atol=1e-5, err_msg=key)


GRID_REFUSALS = r'''
import json
import tensorflow as tf

x = tf.zeros([2, 3, 8])
grid = tf.contrib.rnn.GridLSTMCell
got = {}
for label, make in [
        ("no blocks", lambda: grid(2, feature_size=4, frequency_skip=2)),
        ("blocks not ints", lambda: grid(2, feature_size=4, frequency_skip=2,
                                         num_frequency_blocks=[1.5])),
        ("blocks not a list", lambda: grid(2, feature_size=4, frequency_skip=2,
                                           num_frequency_blocks=3)),
        ("no feature size", lambda: tf.nn.dynamic_rnn(
            grid(2, frequency_skip=2, num_frequency_blocks=[3]), x, dtype=tf.float32,
            scope="a")),
        ("bad skip", lambda: tf.nn.dynamic_rnn(
            grid(2, feature_size=4, frequency_skip=0, num_frequency_blocks=[3]), x,
            dtype=tf.float32, scope="b")),
        ("lists", lambda: tf.nn.dynamic_rnn(
            grid(2, feature_size=2, frequency_skip=1, num_frequency_blocks=[2],
                 start_freqindex_list=[0], end_freqindex_list=[4, 8]), x,
            dtype=tf.float32, scope="c")),
        ("blocks and lists", lambda: tf.nn.dynamic_rnn(
            grid(2, feature_size=2, frequency_skip=1, num_frequency_blocks=[2],
                 start_freqindex_list=[0, 4], end_freqindex_list=[4, 8]), x,
            dtype=tf.float32, scope="d")),
        ("window count", lambda: tf.nn.dynamic_rnn(
            grid(2, feature_size=4, frequency_skip=2, num_frequency_blocks=[2]), x,
            dtype=tf.float32, scope="e")),
        ("unknown depth", lambda: grid(2, feature_size=4, frequency_skip=2,
                                       num_frequency_blocks=[3])(
            tf.placeholder(tf.float32, [2, None]),
            grid(2, feature_size=4, frequency_skip=2,
                 num_frequency_blocks=[3]).zero_state(2, tf.float32))),
        ("offset", lambda: tf.contrib.rnn.BidirectionalGridLSTMCell(
            2, feature_size=4, frequency_skip=2, num_frequency_blocks=[3],
            backward_slice_offset="one")),
        ("nas units", lambda: tf.contrib.rnn.NASCell(0)),
        ("nas proj", lambda: tf.contrib.rnn.NASCell(3, num_proj=2.5)),
        ("nas biases", lambda: tf.contrib.rnn.NASCell(3, use_biases=True)),
        ("nas keyword", lambda: tf.contrib.rnn.NASCell(3, colour="red"))]:
    try:
        make()
        got[label] = "no error"
    except Exception as e:
        got[label] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1])
print(json.dumps(got))
'''


@pytest.mark.slow
def test_grid_and_nas_refusals_name_the_value(tmp_path):
    got = _refusals(tmp_path, GRID_REFUSALS)
    assert got["no blocks"] == "ValueError: Must specify num_frequency_blocks", got
    assert got["blocks not ints"].endswith(
        "num_frequency_blocks must hold non-negative ints, got [1.5]"), got
    assert got["blocks not a list"].endswith(
        "num_frequency_blocks must be a list of ints, got 3"), got
    # TF 1.15 raised "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"
    assert got["no feature size"].endswith(
        "GridLSTMCell: feature_size must be a positive int, got None"), got
    assert got["bad skip"].endswith(
        "GridLSTMCell: frequency_skip must be a positive int, got 0"), got
    # TF 1.15 raised these two with its %-format and arguments as a tuple
    assert got["lists"].endswith(
        "Length of start and end freqindex_list does not match: 1 start indices, 2 end "
        "indices"), got
    assert got["blocks and lists"].endswith(
        "Length of num_frequency_blocks is not equal to start_freqindex_list: 1 blocks, "
        "2 start indices"), got
    assert got["window count"].endswith(
        "Invalid num_frequency_blocks, requires 2 but gets 3, please check the input size "
        "and filter config are correct."), got
    assert got["unknown depth"].endswith(
        "Cannot infer input_size from static shape inference."), got
    assert got["offset"].endswith("backward_slice_offset must be an int, got 'one'"), got
    assert got["nas units"].endswith("NASCell: num_units must be a positive int, got 0"), got
    assert got["nas proj"].endswith("NASCell: num_proj must be a positive int, got 2.5"), got
    # TF 1.15: TypeError: ('Keyword argument not understood:', 'use_biases')
    assert got["nas biases"] == ("TypeError: NASCell: keyword argument not understood: "
                                 "'use_biases' (the argument is use_bias)"), got
    assert got["nas keyword"] == ("TypeError: NASCell: keyword argument not understood: "
                                  "'colour'"), got


MORE_REFUSALS = r'''
import json
import tensorflow as tf

rnn = tf.contrib.rnn
x = tf.zeros([2, 3, 4])
got = {}
for label, make in [
        ("indy lstm units", lambda: rnn.IndyLSTMCell(0)),
        ("indy gru units", lambda: rnn.IndyGRUCell("4")),
        ("ugrnn units", lambda: rnn.UGRNNCell(2.5)),
        ("intersection units", lambda: rnn.IntersectionRNNCell(-1)),
        ("intersection proj", lambda: rnn.IntersectionRNNCell(4, num_in_proj=0)),
        ("sru units", lambda: rnn.SRUCell(True)),
        ("phased units", lambda: rnn.PhasedLSTMCell(None)),
        ("phased period", lambda: rnn.PhasedLSTMCell(3, period_init_min=0.0)),
        ("phased inputs", lambda: tf.nn.dynamic_rnn(rnn.PhasedLSTMCell(3), x,
                                                    dtype=tf.float32, scope="p")),
        ("glstm groups", lambda: rnn.GLSTMCell(4, number_of_groups=0)),
        ("glstm proj", lambda: rnn.GLSTMCell(4, num_proj=1.5)),
        ("glstm divisible", lambda: rnn.GLSTMCell(6, number_of_groups=4)),
        ("ugrnn depth", lambda: rnn.UGRNNCell(2)(tf.placeholder(tf.float32, [2, None]),
                                                 tf.zeros([2, 2]))),
        ("indy depth", lambda: rnn.IndyGRUCell(2)(tf.placeholder(tf.float32, [2, None]),
                                                  tf.zeros([2, 2]))),
        ("timefreq feature size", lambda: rnn.TimeFreqLSTMCell(2)),
        ("timefreq skip", lambda: rnn.TimeFreqLSTMCell(2, feature_size=2,
                                                       frequency_skip=0)),
        ("timefreq wide window", lambda: rnn.TimeFreqLSTMCell(2, feature_size=5)(
            tf.zeros([2, 4]), tf.zeros([2, 4]))),
        # three windows of 2 in 4 columns need a state 2 * 2 * 3 wide
        ("timefreq state", lambda: tf.nn.static_rnn(
            rnn.TimeFreqLSTMCell(2, feature_size=2), [tf.zeros([2, 4])], dtype=tf.float32,
            scope="t")),
        ("timefreq batch", lambda: rnn.TimeFreqLSTMCell(2, feature_size=4)(
            tf.placeholder(tf.float32, [None, 4]), tf.zeros([2, 4])))]:
    try:
        make()
        got[label] = "no error"
    except Exception as e:
        got[label] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1])
print(json.dumps(got))
'''


@pytest.mark.slow
def test_more_cells_refusals_name_the_value(tmp_path):
    got = _refusals(tmp_path, MORE_REFUSALS)
    # TF 1.15 took these values: a cell of no units, a period of zero (NaN when run), an
    # error from deeper down (GLSTMCell's ZeroDivisionError, TimeFreqLSTMCell's
    # TypeError and ZeroDivisionError when called); tf1mem refuses the value when the
    # cell is made
    expected = {
        "indy lstm units": "IndyLSTMCell: num_units must be a positive int, got 0",
        "indy gru units": "IndyGRUCell: num_units must be a positive int, got '4'",
        "ugrnn units": "UGRNNCell: num_units must be a positive int, got 2.5",
        "intersection units": "IntersectionRNNCell: num_units must be a positive int, "
                              "got -1",
        "intersection proj": "IntersectionRNNCell: num_in_proj must be a positive int, "
                             "got 0",
        "sru units": "SRUCell: num_units must be a positive int, got True",
        "phased units": "PhasedLSTMCell: num_units must be a positive int, got None",
        "phased period": "PhasedLSTMCell: period_init_min must be a positive number "
                         "(periods are drawn in log space), got 0.0",
        "glstm groups": "GLSTMCell: number_of_groups must be a positive int, got 0",
        "glstm proj": "GLSTMCell: num_proj must be a positive int, got 1.5",
        "timefreq feature size": "TimeFreqLSTMCell: feature_size must be a positive int, "
                                 "got None",
        "timefreq skip": "TimeFreqLSTMCell: frequency_skip must be a positive int, got 0",
    }
    for label, message in {
            # TF 1.15: IndexError: list index out of range
            "timefreq wide window": "TimeFreqLSTMCell: feature_size 5 is wider than the "
                                    "input (4)",
            # TF 1.15 built the graph; running it failed on a slice past the state's end
            "timefreq state": "TimeFreqLSTMCell: the state must be 2 * num_units * "
                              "windows = 12 wide for 3 frequency windows, got 4",
            # TF 1.15: TypeError: __int__ returned non-int (type NoneType)
            "timefreq batch": "TimeFreqLSTMCell: the batch size must be known, got "
                              "inputs of shape [None, 4]"}.items():
        assert got[label].endswith(message), (label, got[label])
    for label, message in expected.items():
        assert got[label] == "ValueError: " + message, (label, got[label])
    # raised inside dynamic_rnn's loop, where autograph reports it in its own words
    assert ("PhasedLSTMCell: inputs must be a pair (time [batch, 1], features [batch, "
            "depth]), got <tf.Tensor" in got["phased inputs"]), got
    # TF 1.15's own messages, kept
    assert got["glstm divisible"] == (
        "ValueError: num_units must be divisible by number_of_groups"), got
    # (autograph reports errors from a cell's call in its own words, as TF 1.15's did)
    assert got["ugrnn depth"].endswith(
        "ValueError: Could not infer input size from inputs.get_shape()[-1]"), got
    assert got["indy depth"].startswith(
        "ValueError: Expected inputs.shape[-1] to be known, saw shape: "), got
