"""tf.contrib.distributions under tf1mem: what the TF 1.15.5 corpus script cannot show.

The corpus script ``contrib_distributions.py`` holds the values equal to TF 1.15.5's. Here:
the densities and KL divergences against NumPy's formulas on random parameters (diagonal
against full scales, broadcasting a batch of points), samples' moments, gradients through
a reparameterised sample, the seeded MixtureSameFamily (TF 1.15 ignored its seed), and the
refusals: each names the value and what to do.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_contrib_distributions.py.
"""

import json
import textwrap

import numpy as np
import pytest

from tests import _subproc


CASES = r'''
import json
import numpy as np
import tensorflow as tf

ds = tf.contrib.distributions
rng = np.random.RandomState(0)
out = {}
loc = rng.randn(2, 3).astype(np.float32)
diag = (rng.rand(2, 3) + 0.5).astype(np.float32)
tril = np.tril(rng.randn(3, 3)).astype(np.float32) + 2 * np.eye(3, dtype=np.float32)
x = rng.randn(4, 1, 3).astype(np.float32)
a = ds.MultivariateNormalDiag(loc, diag)
b = ds.MultivariateNormalTriL(loc[0], tril)
full = ds.MultivariateNormalFullCovariance(loc[1], tril.dot(tril.T))
mix = ds.MixtureSameFamily(ds.Categorical(probs=[0.25, 0.75]),
                           ds.Normal(loc=[-2., 3.], scale=[1., 0.5]))
p = tf.Variable(loc)
z = ds.MultivariateNormalDiag(p, diag).sample(seed=1)
grad = tf.gradients(tf.reduce_sum(z), p)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out.update(sess.run(dict(
        a_lp=a.log_prob(x), b_lp=b.log_prob(x), kl_ab=ds.kl_divergence(a, b),
        kl_ba=ds.kl_divergence(b, a), full_lp=full.log_prob(x[:, 0]),
        b_draws=b.sample(20000, seed=3), mix1=mix.sample(6, seed=5),
        grad=grad)))
    out["mix2"] = sess.run(mix.sample(6, seed=5))
    out["mix_other"] = sess.run(mix.sample(6, seed=6))
out = {k: np.asarray(v).tolist() for k, v in out.items()}
out["lp_shape"] = a.log_prob(x).shape.as_list()
errors = {}
for label, build in [
        ("interp", lambda: ds.percentile([1., 2.], 50., interpolation="linear")),
        ("q_vector", lambda: ds.percentile([1., 2.], [10., 20.])),
        ("no_params", lambda: ds.MultivariateNormalDiag()),
        ("sizes", lambda: ds.MultivariateNormalDiag(loc=[0., 0.], scale_diag=[1., 1., 1.])),
        ("classes", lambda: ds.Mixture(ds.Categorical(probs=[0.5, 0.5]),
                                       [ds.Normal(0., 1.)] * 3)),
        ("bijectors", lambda: ds.bijectors.RealNVP),
        ("vector_base_override", lambda: ds.TransformedDistribution(
            ds.Normal(loc=[0., 0.], scale=1.), ds.bijectors.Exp(), event_shape=[2]))]:
    try:
        build()
        errors[label] = None
    except Exception as e:
        errors[label] = "%s: %s" % (type(e).__name__, e)
with tf.Session() as sess:
    out["pct_checked"] = float(sess.run(ds.percentile([1., 2., 3.], 50., validate_args=True)))
    out["pct_unchecked"] = float(sess.run(ds.percentile([1., 2., 3.], 150.)))
    for label, q in [("pct_high", 150.), ("pct_low", -1.)]:
        try:
            sess.run(ds.percentile([1., 2., 3.], q, validate_args=True))
            errors[label] = None
        except tf.errors.InvalidArgumentError as e:
            errors[label] = "%s: %s" % (type(e).__name__, e.message)
import tensorflow.contrib.distributions.bijectors as tfb
out["tfb_is_the_module"] = tfb is ds.bijectors
try:
    tfb.MaskedAutoregressiveFlow
    errors["import_bijectors"] = None
except AttributeError as e:
    errors["import_bijectors"] = "%s: %s" % (type(e).__name__, e)
out["errors"] = errors
print(json.dumps(out))
'''


def _mvn_logpdf(x, mean, cov):
    k = mean.shape[-1]
    d = x - mean
    sol = np.linalg.solve(cov, d[..., None])[..., 0]
    return -0.5 * (np.sum(d * sol, -1) + k * np.log(2 * np.pi) + np.linalg.slogdet(cov)[1])


def _mvn_kl(m0, c0, m1, c1):
    k = m0.shape[-1]
    inv1 = np.linalg.inv(c1)
    d = m1 - m0
    return 0.5 * (np.trace(inv1 @ c0) + d @ inv1 @ d - k
                  + np.linalg.slogdet(c1)[1] - np.linalg.slogdet(c0)[1])


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dist")
    script = tmp / "case.py"
    script.write_text(textwrap.dedent(CASES))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp, check_rc=0)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_densities_and_kl_equal_the_formulas(got):
    rng = np.random.RandomState(0)
    loc = rng.randn(2, 3).astype(np.float32).astype(np.float64)
    diag = (rng.rand(2, 3) + 0.5).astype(np.float32).astype(np.float64)
    tril = np.tril(rng.randn(3, 3)).astype(np.float32).astype(np.float64) + 2 * np.eye(3)
    x = rng.randn(4, 1, 3).astype(np.float32).astype(np.float64)
    covs = [np.diag(d ** 2) for d in diag]
    cov_b = tril @ tril.T
    assert got["lp_shape"] == [4, 2]  # points [4, 1] broadcast against the batch [2]
    want_a = np.stack([_mvn_logpdf(x[:, 0], loc[i], covs[i]) for i in range(2)], -1)
    assert np.allclose(got["a_lp"], want_a, atol=1e-4)
    assert np.allclose(got["b_lp"], _mvn_logpdf(x, loc[0], cov_b), atol=1e-4)
    assert np.allclose(got["full_lp"], _mvn_logpdf(x[:, 0], loc[1], cov_b), atol=1e-4)
    assert np.allclose(got["kl_ab"], [_mvn_kl(loc[i], covs[i], loc[0], cov_b)
                                      for i in range(2)], atol=1e-4)
    assert np.allclose(got["kl_ba"], [_mvn_kl(loc[0], cov_b, loc[i], covs[i])
                                      for i in range(2)], atol=1e-4)


@pytest.mark.slow
def test_samples_have_the_moments_and_pass_gradients(got):
    rng = np.random.RandomState(0)
    loc = rng.randn(2, 3).astype(np.float32)
    rng.rand(2, 3)
    tril = np.tril(rng.randn(3, 3)) + 2 * np.eye(3)
    draws = np.array(got["b_draws"])
    assert draws.shape == (20000, 3)
    assert np.allclose(draws.mean(0), loc[0], atol=0.06)
    assert np.allclose(np.cov(draws.T), tril @ tril.T, atol=0.25)
    assert got["grad"] == [[1.0] * 3] * 2  # d(loc + scale * eps)/d loc


@pytest.mark.slow
def test_percentile_validate_args_passes_a_valid_q_unchanged(got):
    assert got["pct_checked"] == 2.0
    # without validate_args, TF 1.15 let q = 150 through: the index clips to the largest
    assert got["pct_unchecked"] == 3.0


@pytest.mark.slow
def test_mixture_same_family_uses_its_seed(got):
    assert got["mix1"] == got["mix2"]
    assert got["mix1"] != got["mix_other"]
    assert all(-7 < v < 7 for v in got["mix1"])


@pytest.mark.slow
def test_refusals_name_the_value_and_what_to_do(got):
    errors = got["errors"]
    assert errors["interp"].startswith("ValueError") and "'linear'" in errors["interp"] \
        and "tfp.stats.percentile" in errors["interp"]
    assert errors["q_vector"].startswith("ValueError") and "once per value" in \
        errors["q_vector"]
    assert errors["no_params"].startswith("ValueError") and "give loc" in errors["no_params"]
    assert "(2)" in errors["sizes"] and "(3)" in errors["sizes"]
    assert "2 classes but there are 3 components" in errors["classes"]
    # the bijectors tf1mem does not write, through tf.contrib and through an import
    for label in ("bijectors", "import_bijectors"):
        assert errors[label].startswith("RemovedAttributeError") and "tfp.bijectors" in \
            errors[label] and "Exp" in errors[label]
    assert got["tfb_is_the_module"] is True
    # validate_args: q outside [0, 100] fails the run, naming the bound
    assert errors["pct_high"].startswith("InvalidArgumentError") and \
        "q must be at most 100" in errors["pct_high"]
    assert errors["pct_low"].startswith("InvalidArgumentError") and \
        "q must be at least 0" in errors["pct_low"]
    assert errors["vector_base_override"].startswith("ValueError") and \
        "scalar base distribution" in errors["vector_base_override"]
