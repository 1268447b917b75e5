"""tf.contrib.factorization's estimators and Gaussian mixtures under tf1mem.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_contrib_factorization.py, tests/tf/test_contrib_factorization.py.
"""

import json
import textwrap

import numpy as np
import pytest

from tests import _subproc


def _run(tmp_path, body):
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(body))
    proc = _subproc.run(["-m", "tf1mem.run", script, tmp_path / "models"], cwd=tmp_path,
                        check_rc=0)
    return json.loads(proc.stdout.strip().splitlines()[-1])


POINTS = [[0, 0], [0.5, 0.2], [0.1, 0.9], [5, 5], [5.5, 4.1], [4.2, 5.3], [1, 1], [0, 3],
          [6, 1], [2.5, 2.5]]


INIT = [[0.5, 0.0], [1.0, 1.0], [5.0, 4.0]]


KMEANS = r'''
import json, os, sys
import numpy as np
import tensorflow as tf

pts = np.array(%r, np.float32)
init = np.array(%r, np.float32)
base = sys.argv[1]
out = {}
km = tf.contrib.factorization.KMeansClustering(
    3, model_dir=os.path.join(base, 'full'), initial_clusters=init, use_mini_batch=False)
const_fn = lambda: tf.constant(pts)
once_fn = lambda: tf.train.limit_epochs(tf.constant(pts), num_epochs=1)
out['centers'] = []
for _ in range(2):
    km.train(const_fn, steps=1)
    out['centers'].append(km.cluster_centers().tolist())
out['index'] = [int(i) for i in km.predict_cluster_index(once_fn)]
out['transform'] = [d.tolist() for d in km.transform(once_fn)]
out['score'] = float(km.score(const_fn))
out['step'] = int(km.get_variable_value('global_step'))
ended = tf.contrib.factorization.KMeansClustering(
    3, model_dir=os.path.join(base, 'ended'), initial_clusters=init, use_mini_batch=False)
ended.train(once_fn)
out['ended_step'] = int(ended.get_variable_value('global_step'))
out['ended_centers'] = ended.cluster_centers().tolist()
mini = tf.contrib.factorization.KMeansClustering(
    3, model_dir=os.path.join(base, 'mini'), initial_clusters=init)
mini.train(lambda: tf.data.Dataset.from_tensor_slices(pts).batch(4))
out['mini_centers'] = mini.cluster_centers().tolist()
out['mini_counts'] = mini.get_variable_value('Variable').tolist()
out['mini_step'] = int(mini.get_variable_value('global_step'))
tol = tf.contrib.factorization.KMeansClustering(
    3, model_dir=os.path.join(base, 'tol'), initial_clusters=init, use_mini_batch=False,
    relative_tolerance=0.05)
tol.train(const_fn, steps=20)
out['tol_step'] = int(tol.get_variable_value('global_step'))
by_key = tf.contrib.factorization.KMeansClustering(  # a dict: its values in key order
    3, model_dir=os.path.join(base, 'dict'), initial_clusters=init, use_mini_batch=False)
by_key.train(lambda: {'b': tf.constant(pts[:, 1]), 'a': tf.constant(pts[:, :1])}, steps=1)
out['dict_centers'] = by_key.cluster_centers().tolist()
columns = tf.contrib.factorization.KMeansClustering(
    3, model_dir=os.path.join(base, 'columns'), initial_clusters=init, use_mini_batch=False,
    feature_columns=[tf.feature_column.numeric_column('p', shape=[2])])
columns.train(lambda: {'p': tf.constant(pts)}, steps=1)
out['columns_centers'] = columns.cluster_centers().tolist()
small = tf.contrib.factorization.KMeansClustering(  # batches of 2 points, 5 centres
    5, model_dir=os.path.join(base, 'small'), use_mini_batch=False)
small.train(lambda: tf.data.Dataset.from_tensor_slices(pts).batch(2), steps=1)
out['small_centers'] = small.cluster_centers().tolist()
out['small_step'] = int(small.get_variable_value('global_step'))
print(json.dumps(out))
''' % (POINTS, INIT)


def _lloyd(points, centers):
    d = ((points[:, None, :] - centers[None]) ** 2).sum(-1)
    idx = d.argmin(1)
    new = np.stack([points[idx == c].sum(0) / ((idx == c).sum() + 1e-6)
                    for c in range(len(centers))])
    return new, idx, d


@pytest.mark.slow
def test_kmeans_clustering_is_lloyd_and_the_running_mean_from_the_same_centres(tmp_path):
    got = _run(tmp_path, KMEANS)
    pts, centers = np.array(POINTS, np.float64), np.array(INIT, np.float64)
    first, _, _ = _lloyd(pts, centers)
    second, _, _ = _lloyd(pts, first)
    np.testing.assert_allclose(got["centers"][0], first, atol=1e-5)
    np.testing.assert_allclose(got["centers"][1], second, atol=1e-5)
    _, idx, d = _lloyd(pts, second)
    assert got["index"] == idx.tolist()
    np.testing.assert_allclose(got["transform"], d, atol=1e-4)  # squared distances
    assert got["score"] == pytest.approx(d.min(1).sum(), abs=1e-4)
    assert got["step"] == 2
    # limit_epochs(num_epochs=1): one Lloyd step, and TF1 also counted the step that
    # hit the end of the input (given centres: the initialisation reads no input).
    assert got["ended_step"] == 2
    np.testing.assert_allclose(got["ended_centers"], first, atol=1e-5)
    # Mini-batch: each batch of 4 moves a centre to the running mean c + (s - k c) / (n + k).
    centers, counts = np.array(INIT, np.float64), np.ones(3)
    for start in range(0, len(pts), 4):
        batch = pts[start:start + 4]
        idx = ((batch[:, None, :] - centers[None]) ** 2).sum(-1).argmin(1)
        for c in np.unique(idx):
            members = batch[idx == c]
            centers[c] += (members.sum(0) - len(members) * centers[c]) / (counts[c] + len(members))
            counts[c] += len(members)
    np.testing.assert_allclose(got["mini_centers"], centers, atol=1e-5)
    assert got["mini_counts"] == counts.astype(int).tolist()
    assert got["mini_step"] == 4  # 3 batches, and the step that found the input's end
    # relative_tolerance: a step's loss is the distance sum before its update; training
    # stops after the first step whose loss changed by less than tol * (1 + |previous|)
    # (TF 1.15.5 stopped as this rule says for tolerances on both sides of a change).
    centers, losses = np.array(INIT, np.float64), []
    for _ in range(20):
        new, _, d = _lloyd(pts, centers)
        losses.append(d.min(1).sum())
        centers = new
    stop = next(step for step in range(2, 21)
                if abs(losses[step - 1] - losses[step - 2]) / (1 + abs(losses[step - 2])) < 0.05)
    assert stop == 4  # |change| / |previous| would have gone on to step 5 here
    assert got["tol_step"] == stop
    np.testing.assert_allclose(got["dict_centers"], first, atol=1e-5)
    np.testing.assert_allclose(got["columns_centers"], first, atol=1e-5)
    # Random initialisation over batches smaller than num_clusters (TF1's documented
    # rule, and what TF 1.15.5 did): batches [0 1] and [2 3] whole, one point drawn from
    # [4 5], then one Lloyd step on the next batch, [6 7] (centres without points go to 0).
    assert got["small_step"] == 1
    candidates = [_lloyd(pts[6:8], pts[[0, 1, 2, 3, drawn]])[0] for drawn in (4, 5)]
    assert any(np.allclose(got["small_centers"], c, atol=1e-5) for c in candidates), \
        (got["small_centers"], candidates)


GMM = r'''
import json, os, sys
import numpy as np
import tensorflow as tf

pts = np.array(%r, np.float32)
init = np.array(%r, np.float32)
out = {}
for cov in ('full', 'diag'):
    with tf.Graph().as_default():
        loss, scores, assignments, train_op, init_op, is_init = tf.contrib.factorization.gmm(
            tf.constant(pts), init, 3, 0, covariance_type=cov)
        algo_vars = tf.global_variables()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(init_op)
            before = s.run([loss, scores, assignments[0][0]])
            s.run(train_op)
            after = s.run(algo_vars)
    out[cov] = {'names': [v.op.name for v in algo_vars],
                'loss': float(before[0]), 'scores': before[1].tolist(),
                'assign': before[2].tolist(),
                'vars': [np.asarray(v).tolist() for v in after]}
    est = tf.contrib.factorization.GMM(3, model_dir=os.path.join(sys.argv[1], cov),
                                       initial_clusters=init, covariance_type=cov)
    est.fit(input_fn=lambda: (tf.constant(pts), None), steps=1)
    out[cov]['est'] = [est.weights().tolist(), est.clusters().tolist(),
                       est.covariances().tolist()]
    once_fn = lambda: (tf.train.limit_epochs(tf.constant(pts), num_epochs=1), None)
    out[cov]['est_assign'] = [int(a) for a in est.predict_assignments(input_fn=once_fn)]
    out[cov]['est_batch'] = est.predict(input_fn=once_fn, as_iterable=False)[
        'assignments'].tolist()
    out[cov]['est_score'] = float(est.score(input_fn=once_fn))
    out[cov]['est_eval'] = {k: np.asarray(v).tolist()
                            for k, v in est.evaluate(input_fn=once_fn).items()}
print(json.dumps(out))
''' % (POINTS, INIT)


def _numpy_em(points, means, covs, alphas, diag):
    """One EM iteration as documented: densities with covs + 1e-3 I, M step + 1e-3 I."""
    n, dim = points.shape
    reg = 1e-3
    logp = np.empty((n, len(means)))
    for k, (mu, cov) in enumerate(zip(means, covs)):
        full = np.diag(cov + reg) if diag else cov + reg * np.eye(dim)
        diff = points - mu
        mahal = np.einsum("nd,de,ne->n", diff, np.linalg.inv(full), diff)
        logp[:, k] = -0.5 * (mahal + dim * np.log(2 * np.pi) + np.linalg.slogdet(full)[1])
    weighted = logp + np.log(alphas)
    scores = np.logaddexp.reduce(weighted, axis=1)
    resp = np.exp(weighted - scores[:, None])
    nk = resp.sum(0)
    new_means = resp.T @ points / nk[:, None]
    new_covs = []
    for k in range(len(means)):
        diff = points - new_means[k]
        c = (resp[:, k, None] * diff).T @ diff / nk[k]
        new_covs.append(np.diag(c) + reg if diag else c + reg * np.eye(dim))
    return dict(scores=scores, loss=np.logaddexp.reduce(scores), assign=weighted.argmax(1),
                alphas=nk / n, means=new_means, covs=np.array(new_covs))


@pytest.mark.slow
def test_gmm_em_step_matches_numpy_full_and_diag(tmp_path):
    got = _run(tmp_path, GMM)
    pts, init = np.array(POINTS, np.float64), np.array(INIT, np.float64)
    sample_cov = np.cov(pts.T) + 1e-3 * np.eye(2)  # N - 1, as TF1's initial covariance
    for cov, diag in (("full", False), ("diag", True)):
        case = got[cov]
        assert case["names"] == ["clusters", "clusters_covs", "alphas", "initialized"]
        start = np.diag(sample_cov) if diag else sample_cov
        want = _numpy_em(pts, init, [start] * 3, np.full(3, 1 / 3), diag)
        np.testing.assert_allclose(np.ravel(case["scores"]), want["scores"], atol=1e-4)
        assert case["loss"] == pytest.approx(want["loss"], abs=1e-4)
        assert case["assign"] == want["assign"].tolist()
        means, covs, alphas, initialized = case["vars"]
        assert initialized is True
        np.testing.assert_allclose(alphas, want["alphas"], atol=1e-5)
        np.testing.assert_allclose(np.reshape(means, (3, 2)), want["means"], atol=1e-4)
        np.testing.assert_allclose(covs, want["covs"], atol=1e-4)
        weights, clusters, covariances = case["est"]
        np.testing.assert_allclose(weights, want["alphas"], atol=1e-5)
        np.testing.assert_allclose(clusters, want["means"], atol=1e-4)
        np.testing.assert_allclose(covariances, want["covs"], atol=1e-4)
        # predictions and scores come from the trained parameters (the checkpoint's)
        after = _numpy_em(pts, want["means"], want["covs"], want["alphas"], diag)
        assert case["est_assign"] == after["assign"].tolist() == case["est_batch"]
        assert case["est_score"] == pytest.approx(after["loss"], abs=1e-4)
        evaluated = case["est_eval"]
        assert sorted(evaluated) == ["global_step", "loss", "scores"]
        assert evaluated["global_step"] == 1
        assert evaluated["loss"] == pytest.approx(after["loss"], abs=1e-4)
        np.testing.assert_allclose(np.ravel(evaluated["scores"]), after["scores"], atol=1e-4)
