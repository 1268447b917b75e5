"""tf.contrib.crf's viterbi_decode (NumPy, as TF 1.15's) against a brute-force search.

The module defines its RNN cells on TF's at import, so it loads as the shim loads it.
"""

import numpy as np
import pytest

from tests.commands.test_contrib_reimpl import _brute_viterbi


@pytest.fixture
def contrib_crf(monkeypatch):
    """tf.contrib.crf loaded as the shim loads it: its cells subclass tf.nn.rnn_cell's
    RNNCell, which needs TF_USE_LEGACY_KERAS before TensorFlow first resolves it."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    from tf1mem.compat.tf.contrib import crf

    return crf


def test_viterbi_decode_is_the_best_sequence(contrib_crf):
    rng = np.random.RandomState(3)
    for length in (1, 2, 4):
        score = rng.randn(length, 3).astype(np.float32)
        trans = rng.randn(3, 3).astype(np.float32)
        seq, value = contrib_crf.viterbi_decode(score, trans)
        want_seq, want_value = _brute_viterbi(score, trans)
        assert seq == want_seq
        assert all(type(t) is int for t in seq)  # prints as TF1's did under NumPy 1.x
        assert value == pytest.approx(want_value, abs=1e-5)


def test_viterbi_decode_rejects_mismatched_shapes(contrib_crf):
    with pytest.raises(ValueError, match=r"transition_params \[num_tags, num_tags\]"):
        contrib_crf.viterbi_decode(np.zeros([3, 4]), np.zeros([3, 3]))
