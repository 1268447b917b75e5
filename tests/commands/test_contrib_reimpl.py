"""tf1mem's re-implementations of tf.contrib.eager, crf, factorization.KMeans, seq2seq.

The quick tests need no TensorFlow (the table, NumPy Viterbi, argument checks); the
slow ones run a script under ``python -m tf1mem.run`` (the shim is process-wide) and
compare with NumPy: brute force over every tag sequence for the CRF, Lloyd and the
sequential k-means update for KMeans, the loss formulas for seq2seq.

The tests here: the commands in subprocesses; the rest: tests/unit/test_contrib_reimpl.py.
"""

import itertools
import json
import textwrap

import numpy as np
import pytest

from tests import _subproc


@pytest.fixture
def contrib_crf(monkeypatch):
    """tf.contrib.crf loaded as the shim loads it: its cells subclass tf.nn.rnn_cell's
    RNNCell, which needs TF_USE_LEGACY_KERAS before TensorFlow first resolves it."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    from tf1mem.compat.tf.contrib import crf

    return crf


def _brute_viterbi(score, trans):
    best, best_seq = -np.inf, None
    for seq in itertools.product(range(score.shape[1]), repeat=score.shape[0]):
        s = score[np.arange(len(seq)), seq].sum() + sum(trans[a, b] for a, b in zip(seq, seq[1:]))
        if s > best:
            best, best_seq = s, list(seq)
    return best_seq, best


def _run(tmp_path, body):
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(body))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    return json.loads(proc.stdout.strip().splitlines()[-1])


CRF = r'''
import itertools, json
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
B, T, N = 4, 3, 3
x = rng.randn(B, T, N).astype(np.float32)
tags = rng.randint(N, size=[B, T]).astype(np.int32)
lengths = np.array([3, 2, 1, 0], np.int32)
trans = rng.randn(N, N).astype(np.float32)
one = x[:, :1]
with tf.Session() as s:
    out = s.run({
        "score": tf.contrib.crf.crf_sequence_score(x, tags, lengths, trans),
        "norm": tf.contrib.crf.crf_log_norm(x, lengths, trans),
        "ll": tf.contrib.crf.crf_log_likelihood(x, tags, lengths, tf.constant(trans))[0],
        "decode": tf.contrib.crf.crf_decode(x, trans, lengths),
        "norm1": tf.contrib.crf.crf_log_norm(one, np.ones(B, np.int32), trans),
        "decode1": tf.contrib.crf.crf_decode(one, trans, np.ones(B, np.int32)),
    })
print(json.dumps({k: np.asarray(v).tolist() if not isinstance(v, tuple)
                  else [np.asarray(a).tolist() for a in v] for k, v in out.items()}))
'''


@pytest.mark.slow
def test_crf_matches_brute_force(tmp_path):
    got = _run(tmp_path, CRF)
    rng = np.random.RandomState(0)
    B, T, N = 4, 3, 3
    x = rng.randn(B, T, N).astype(np.float32)
    tags = rng.randint(N, size=[B, T])
    lengths = [3, 2, 1, 0]
    trans = rng.randn(N, N).astype(np.float32)

    def seq_score(b, seq):
        return x[b, np.arange(len(seq)), seq].sum() + sum(trans[p, q] for p, q in zip(seq, seq[1:]))

    for b, n in enumerate(lengths):
        if n == 0:  # TF1: a zero-length sequence scores 0
            assert got["score"][b] == 0 and got["norm"][b] == 0
            continue
        all_scores = [seq_score(b, seq) for seq in itertools.product(range(N), repeat=n)]
        assert got["score"][b] == pytest.approx(seq_score(b, list(tags[b, :n])), abs=1e-5)
        assert got["norm"][b] == pytest.approx(np.logaddexp.reduce(all_scores), abs=1e-5)
        assert got["ll"][b] == pytest.approx(got["score"][b] - got["norm"][b], abs=1e-6)
        best_seq, best = _brute_viterbi(x[b, :n], trans)
        assert got["decode"][0][b][:n] == best_seq
        assert got["decode"][1][b] == pytest.approx(best, abs=1e-5)
    assert got["norm1"] == pytest.approx(np.logaddexp.reduce(x[:, 0], axis=1), abs=1e-5)
    assert [t[0] for t in got["decode1"][0]] == np.argmax(x[:, 0], axis=1).tolist()


KMEANS = r'''
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.factorization import KMeans

pts = np.array([[0, 0], [0.1, 0], [5, 5], [5.1, 5], [1, 1], [0, 3]], np.float32)
init = np.array([[0.1, 0], [1, 1]], np.float32)
out = {}
for mb in (False, True):
    with tf.Graph().as_default():
        km = KMeans(tf.constant(pts), 2, initial_clusters=init, use_mini_batch=mb)
        all_scores, idx, scores, initialized, init_op, train_op = km.training_graph()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            out["init_ran_%s" % mb] = bool(s.run(init_op))
            out["init_again_%s" % mb] = bool(s.run(init_op))
            steps = []
            for _ in range(2):
                i, sc, _ = s.run([idx[0], scores[0], train_op])
                steps.append({"idx": i.tolist(), "scores": sc.tolist(),
                              "centers": s.run(tf.global_variables()[0]).tolist()})
            out["steps_%s" % mb] = steps
            out["vars_%s" % mb] = [v.op.name for v in tf.global_variables()]
print(json.dumps(out))
'''


@pytest.mark.slow
def test_kmeans_full_batch_is_lloyd_and_mini_batch_is_the_running_mean(tmp_path):
    got = _run(tmp_path, KMEANS)
    pts = np.array([[0, 0], [0.1, 0], [5, 5], [5.1, 5], [1, 1], [0, 3]], np.float32)
    assert got["vars_False"] == ["clusters", "initialized"]
    assert got["vars_True"] == ["clusters", "initialized", "Variable"]  # int64 counts, from 1
    for mb in (False, True):
        assert got[f"init_ran_{mb}"] and got[f"init_again_{mb}"]
        centers = np.array([[0.1, 0], [1, 1]], np.float64)
        counts = np.ones(2)
        for step in got[f"steps_{mb}"]:
            d = ((pts[:, None, :] - centers[None]) ** 2).sum(-1)
            assert step["idx"] == d.argmin(1).tolist()
            assert step["scores"] == pytest.approx(d.min(1), abs=1e-4)
            new = centers.copy()
            for c in range(2):
                members = pts[d.argmin(1) == c]
                if mb:  # sequential k-means: c + (sum - k c) / (n + k)
                    k = len(members)
                    if k:
                        new[c] = centers[c] + (members.sum(0) - k * centers[c]) / (counts[c] + k)
                        counts[c] += k
                else:
                    new[c] = members.sum(0) / (len(members) + 1e-6)
            centers = new
            assert np.ravel(step["centers"]) == pytest.approx(centers.ravel(), abs=1e-4)


SEQ2SEQ = r'''
import json
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
logits = rng.randn(2, 3, 4).astype(np.float32)
targets = rng.randint(4, size=[2, 3]).astype(np.int32)
weights = np.array([[1, 1, 0], [1, 0, 0]], np.float32)
L, Tg, W = tf.constant(logits), tf.constant(targets), tf.constant(weights)
sl = tf.contrib.seq2seq.sequence_loss
cell = tf.nn.rnn_cell.GRUCell(3)
inputs = tf.constant(rng.randn(2, 4, 2).astype(np.float32))
helper = tf.contrib.seq2seq.TrainingHelper(inputs, [4, 2])
dec = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32))
outputs, state, lengths = tf.contrib.seq2seq.dynamic_decode(dec, impute_finished=True)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    out = s.run({
        "both": sl(L, Tg, W),
        "time_only": sl(L, Tg, W, average_across_batch=False),
        "batch_only": sl(L, Tg, W, average_across_timesteps=False),
        "none": sl(L, Tg, W, average_across_timesteps=False, average_across_batch=False),
        "legacy": tf.contrib.legacy_seq2seq.sequence_loss(
            tf.unstack(L, axis=1), tf.unstack(Tg, axis=1), tf.unstack(W, axis=1)),
        "rnn": outputs.rnn_output, "lengths": lengths,
        "tiled": tf.contrib.seq2seq.tile_batch(tf.constant([[1, 2], [3, 4]]), 2),
    })
print(json.dumps({k: np.asarray(v).tolist() for k, v in out.items()}))
'''


@pytest.mark.slow
def test_seq2seq_losses_and_decoder(tmp_path):
    got = _run(tmp_path, SEQ2SEQ)
    rng = np.random.RandomState(1)
    logits = rng.randn(2, 3, 4)
    targets = rng.randint(4, size=[2, 3])
    w = np.array([[1, 1, 0], [1, 0, 0]], np.float64)
    logp = logits - np.logaddexp.reduce(logits, axis=-1, keepdims=True)
    xent = -np.take_along_axis(logp, targets[..., None], -1)[..., 0] * w
    assert got["both"] == pytest.approx(xent.sum() / w.sum(), abs=1e-5)
    assert got["time_only"] == pytest.approx(xent.sum(1) / w.sum(1), abs=1e-5)
    assert got["batch_only"] == pytest.approx(xent.sum(0) / (w.sum(0) + 1e-12), abs=1e-5)
    assert got["none"] == pytest.approx(xent, abs=1e-5)
    assert got["legacy"] == pytest.approx((xent.sum(1) / w.sum(1)).mean(), abs=1e-5)
    assert got["lengths"] == [4, 2]
    rnn = np.array(got["rnn"])
    assert rnn.shape == (2, 4, 3)
    assert (rnn[1, 2:] == 0).all() and (rnn[1, :2] != 0).any()  # impute_finished
    assert got["tiled"] == [[1, 2], [1, 2], [3, 4], [3, 4]]


TFE = r'''
import json
import tensorflow as tf
import tensorflow.contrib.eager as tfe
out = {}
tfe.enable_eager_execution()
it = tfe.Iterator(tf.data.Dataset.range(2))
out["items"] = [int(it.get_next()), int(next(it))]
try:
    it.get_next()
except tf.errors.OutOfRangeError:
    out["end"] = "OutOfRangeError"
try:
    tfe.gradients_function(lambda x: x * x, params=[3])(1.0)
except ValueError as e:
    out["bad_params"] = str(e)
try:
    tfe.implicit_gradients(lambda: None)()
except ValueError as e:
    out["none"] = str(e)
m = tfe.metrics.Mean()
m([1.0, 3.0], weights=[1.0, 0.0]); m(5.0)
out["mean"] = float(m.result())
seq = tfe.Sequential([tf.layers.Dense(2, kernel_initializer=tf.ones_initializer()), tf.nn.relu])
out["seq"] = seq(tf.ones([1, 3])).numpy().tolist()
out["seq_vars"] = [v.name for v in seq.variables]
out["defun"] = float(tfe.defun(lambda x: x * 2.0)(tf.constant(3.0)))
try:
    tfe.seterr
except AttributeError as e:
    out["missing"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
'''


@pytest.mark.slow
def test_tfe_edges(tmp_path):
    got = _run(tmp_path, TFE)
    assert got["items"] == [0, 1] and got["end"] == "OutOfRangeError"
    assert "params must be indices" in got["bad_params"] and "[3]" in got["bad_params"]
    assert "returns None" in got["none"]
    assert got["mean"] == pytest.approx(3.0)  # (1*1 + 3*0 + 5) / (1 + 0 + 1)
    assert got["seq"] == [[3.0, 3.0]]
    assert got["seq_vars"] == ["sequential/dense/kernel:0", "sequential/dense/bias:0"]
    assert got["defun"] == 6.0
    assert got["missing"].startswith("RemovedAttributeError") and "tf.contrib.eager.seterr" \
        in got["missing"]


TFE_GRAPH = r'''
import json
import tensorflow as tf
import tensorflow.contrib.eager as tfe
try:
    tfe.implicit_gradients(lambda: tf.constant(1.0))()
except Exception as e:
    print(json.dumps("%s: %s" % (type(e).__name__, e)))
'''


@pytest.mark.slow
def test_tfe_without_eager_execution_says_what_to_call(tmp_path):
    got = _run(tmp_path, TFE_GRAPH)
    assert got.startswith("ShimError") and "tf.enable_eager_execution()" in got


TFE_IMPORT_PATHS = r'''
import json
from tensorflow.contrib.eager.python import tfe
import tensorflow.contrib.eager.python.tfe as tfe_module
import tensorflow as tf
import tensorflow.contrib.eager as tfe_contrib
tfe.enable_eager_execution()
w = tfe.Variable(2.0)
grads = tfe.implicit_gradients(lambda: w * w)()
try:
    import tensorflow.contrib.eager.python.no_such_module
except ImportError as e:
    missing = "%s: %s" % (type(e).__name__, e)
print(json.dumps({"same": [tfe is tfe_contrib, tfe_module is tfe_contrib,
                           tfe is tf.contrib.eager],
                  "grad": float(grads[0][0].numpy()), "missing": missing}))
'''


@pytest.mark.slow
def test_tfe_2017_import_path_is_tf_contrib_eager(tmp_path):
    """``from tensorflow.contrib.eager.python import tfe`` (TF 1.5-era code)."""
    got = _run(tmp_path, TFE_IMPORT_PATHS)
    assert got["same"] == [True, True, True]
    assert got["grad"] == 4.0
    assert got["missing"].startswith("RemovedModuleError") \
        and "tf.contrib.eager.python.no_such_module" in got["missing"]
