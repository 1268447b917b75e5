"""tf.contrib.rnn's cells (``compat/contrib_impl/rnn.py``) where tf1mem differs from TF 1.15
on purpose: refusals that name the value at fault. Their values, variable names and TF1's
own refusals are checked against TF 1.15.5 by the corpus scripts ``contrib_rnn_*.py``."""

import json
import textwrap

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


@pytest.mark.slow
def test_fused_cell_refusals_name_the_value(tmp_path):
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(REFUSALS))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    # TF 1.15 raised "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'".
    assert got["depth"].startswith("ValueError: Expecting inputs_shape[2] to be set: "), got
    assert got["depth"].endswith("(4, 3, ?)"), got
    assert "got length 3" in got["state"], got
