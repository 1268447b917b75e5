"""A TF 1.15.5 checkpoint of an attention seq2seq model restores under tf1mem.

tests/seq2seq_tf115 holds a checkpoint TF 1.15.5 wrote after 5 Adam steps of
model.py's model (LSTM encoder, AttentionWrapper with normalised BahdanauAttention,
TrainingHelper; greedy and beam-search decoding on the same variables) and what TF 1.15.5
computed from it (make_fixture.py, run with the oracle). Restored under
``python -m tf1mem.run``, the same TF1 code must find every variable under TF1's name
(Adam's slots included) and compute the same outputs, and one more Adam step the same
loss.
"""

import json

import numpy as np
import pytest

from tests import _subproc

FIXTURE = _subproc.REPO / "tests" / "seq2seq_tf115"

SCRIPT = r'''
import json
import sys

import tensorflow as tf

sys.path.insert(0, sys.argv[1])
import model

fetches = model.build()
with tf.Session() as sess:
    tf.train.Saver().restore(sess, tf.train.latest_checkpoint(sys.argv[1]))
    result = model.evaluate(sess, fetches)
result['variables'] = sorted(v.op.name for v in tf.global_variables())
print(json.dumps(result))
'''


@pytest.mark.slow
def test_tf115_attention_checkpoint_restores_with_the_same_outputs(tmp_path):
    expected = json.loads((FIXTURE / "expected.json").read_text())
    script = tmp_path / "restore.py"
    script.write_text(SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script, FIXTURE], cwd=tmp_path, check_rc=0)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    # Every variable the TF1 code makes is one TF 1.15.5 saved, under the same name.
    assert got["variables"] == expected["variables"]
    assert got["greedy_ids"] == expected["greedy_ids"]
    assert got["beam_ids"] == expected["beam_ids"]
    for key in ("loss", "loss_after_step", "rnn_output", "beam_scores"):
        np.testing.assert_allclose(got[key], expected[key], atol=1e-5, err_msg=key)
