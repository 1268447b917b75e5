"""``tf.contrib.distributions``' own distributions and ``percentile``, on TF's v1 base class.

TF 2.21 still has TF1's ``tf.compat.v1.distributions`` (Normal, Bernoulli, Categorical,
Beta, Dirichlet, ..., ``kl_divergence``, ``RegisterKL``) and its ``Distribution`` base
class; tf.contrib.distributions maps to those. What TF 1.15's contrib added and TF 2 lost
is here, written for tf1mem over that same base class (so ``sample``, ``log_prob``, the
name scopes and the KL registry behave as TF1's did):

- the multivariate normals: ``MultivariateNormalDiag`` (with ``scale_identity_multiplier``),
  ``MultivariateNormalDiagWithSoftplusScale``, ``MultivariateNormalTriL``,
  ``MultivariateNormalFullCovariance``, on ``tf.linalg`` linear operators: a sample is
  ``loc + scale @ eps`` with ``eps`` one standard-normal draw of shape
  ``[n] + batch + event`` (the same random op and seed as TF1's), and the KL divergence
  between two of them is registered;


- ``OneHotCategorical``; the Gumbel-softmax relaxations ``RelaxedOneHotCategorical``,
  ``ExpRelaxedOneHotCategorical``, ``RelaxedBernoulli``;


- ``Mixture`` (a Categorical over a list of distributions; samples through
  ``dynamic_partition`` / ``dynamic_stitch``, or with ``use_static_graph=True`` by masking
  every component's draw, the components' seeds derived as TF1 derived them) and
  ``MixtureSameFamily``;


- ``NormalWithSoftplusScale`` and the other ``...WithSoftplus...`` conveniences;
- ``percentile`` (TF 1.15's: interpolation ``nearest`` / ``lower`` / ``higher``, a scalar
  ``q``);


- ``bijectors`` and ``TransformedDistribution`` (in ``bijectors.py``).

TF 1.15's quirks kept: ``OneHotCategorical.mean()`` and ``Mixture.entropy()`` raise
``NotImplementedError``; a multivariate normal's ``stddev`` / ``variance`` /
``covariance`` have the scale's shape, not broadcast to a batch that only ``loc`` has.
One difference: TF 1.15's ``MixtureSameFamily.sample`` ignored its ``seed`` (its draws
changed from run to run); here the seed is used.

Checked against TF 1.15.5 by the corpus script ``contrib_distributions.py``. The classes
subclass TF's ``Distribution``, so the module imports TensorFlow at its top (it is loaded
only after TensorFlow); importing it registers the KL divergences.
"""

import math

import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as v1
from tensorflow import linalg
from tensorflow.compat.v1 import distributions as ds
from tensorflow.python.ops.distributions import distribution as dist_base
from tensorflow.python.ops.distributions import kullback_leibler, util

__all__ = [
    "MultivariateNormalLinearOperator", "MultivariateNormalDiag",
    "MultivariateNormalDiagWithSoftplusScale", "MultivariateNormalTriL",
    "MultivariateNormalFullCovariance", "OneHotCategorical", "ExpRelaxedOneHotCategorical",
    "RelaxedOneHotCategorical", "RelaxedBernoulli", "Mixture", "MixtureSameFamily",
    "NormalWithSoftplusScale", "LaplaceWithSoftplusScale", "ExponentialWithSoftplusRate",
    "GammaWithSoftplusConcentrationRate", "BetaWithSoftplusConcentration", "percentile"]


_INTERPOLATIONS = ("nearest", "lower", "higher")


def percentile(x, q, axis=None, interpolation=None, keep_dims=False, validate_args=False,
               name=None):
    """The ``q``-th percentile of ``x`` over ``axis`` (all axes when None), as TF 1.15.

    The values are sorted in descending order and the one at index
    ``(1 - q / 100) * (d - 1)`` is taken, rounded half to even (``nearest``, the
    default), up (``lower``) or down (``higher``): for an even count, ``nearest``'s median
    is the lower of the two middle values. ``q`` is a scalar in [0, 100].

    Raises:
      ValueError: an interpolation other than those three, or a ``q`` that is not a
        scalar.
    """
    interpolation = "nearest" if interpolation is None else interpolation
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"percentile: interpolation={interpolation!r} is not one of "
                         f"{', '.join(_INTERPOLATIONS)} (TF 1.15's percentile had no other; "
                         f"for a linear one use tfp.stats.percentile)")
    with v1.name_scope(name, "percentile", [x, q]):
        x = tf.convert_to_tensor(x, name="x")
        q = tf.cast(tf.convert_to_tensor(q, name="q", dtype_hint=tf.float64), tf.float64)
        if q.shape.ndims != 0:
            raise ValueError(f"percentile: q must be a scalar (one percentile per call, as "
                             f"in TF 1.15); got shape {q.shape}. Call it once per value.")
        if validate_args:
            with tf.control_dependencies([
                    tf.debugging.assert_non_negative(q, message="q must be at least 0"),
                    tf.debugging.assert_less_equal(q, tf.constant(100., tf.float64),
                                                   message="q must be at most 100")]):
                q = tf.identity(q)
        rank = x.shape.ndims
        if rank is None:
            raise ValueError("percentile: x must have a known rank")
        if axis is None:
            axes = list(range(rank))
        else:
            axes = sorted({a % rank if rank else a
                           for a in ([axis] if isinstance(axis, int) else list(axis))})
        kept = [a for a in range(rank) if a not in axes]
        y = tf.transpose(x, kept + axes) if axes != list(range(rank - len(axes), rank)) \
            else x
        kept_shape = tf.shape(x)[:0] if not kept else tf.gather(tf.shape(x), kept)
        y = tf.reshape(y, tf.concat([kept_shape, [-1]], 0))
        d = tf.shape(y)[-1]
        descending, _ = tf.nn.top_k(y, k=d, sorted=True)
        index = (1. - q / 100.) * tf.cast(d - 1, tf.float64)
        index = {"nearest": tf.round, "lower": tf.math.ceil,
                 "higher": tf.math.floor}[interpolation](index)
        index = tf.clip_by_value(tf.cast(index, tf.int32), 0, d - 1)
        result = tf.gather(descending, index, axis=-1)
        if keep_dims:
            static = x.shape.as_list()
            shape = tf.unstack(tf.shape(x)) if rank else []
            full = [1 if a in axes else (static[a] if static[a] is not None else shape[a])
                    for a in range(rank)]
            result = tf.reshape(result, full)
        return result


def _scope_name(name):
    with v1.name_scope(name) as scope:
        return scope


def _is_diagonal(op):
    return isinstance(op, (linalg.LinearOperatorDiag, linalg.LinearOperatorIdentity,
                           linalg.LinearOperatorScaledIdentity))


class MultivariateNormalLinearOperator(dist_base.Distribution):
    """N(loc, scale @ scale^T) for a ``tf.linalg.LinearOperator`` ``scale``."""

    def __init__(self, loc=None, scale=None, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalLinearOperator"):
        if scale is None:
            raise ValueError("MultivariateNormalLinearOperator: scale is missing; pass "
                             "a tf.linalg.LinearOperator (e.g. LinearOperatorDiag)")
        parameters = dict(locals())
        self._init(loc, scale, validate_args, allow_nan_stats, name, parameters)

    def _init(self, loc, scale, validate_args, allow_nan_stats, name, parameters):
        if not isinstance(scale, linalg.LinearOperator):
            raise TypeError(f"scale must be a tf.linalg.LinearOperator, got "
                            f"{type(scale).__name__}")
        if not scale.dtype.is_floating:
            raise TypeError(f"scale must be a floating-point operator, got "
                            f"{scale.dtype.name}")
        if loc is not None:
            loc = tf.convert_to_tensor(loc, name="loc", dtype=scale.dtype)
            if loc.shape.ndims == 0:
                raise ValueError("loc must have at least one dimension (the event's); "
                                 "got a scalar")
            loc_size = tf.compat.dimension_value(loc.shape[-1])
            scale_size = tf.compat.dimension_value(scale.range_dimension)
            if loc_size is not None and scale_size is not None \
                    and scale_size != loc_size and scale_size != 1:
                raise ValueError(
                    f"{type(self).__name__}: the event size of loc ({loc_size}) and of "
                    f"the scale ({scale_size}) differ; loc's last dimension must equal "
                    f"the scale's size")
        self._loc = loc
        self._scale = scale
        graph = [loc] if loc is not None else []
        super(MultivariateNormalLinearOperator, self).__init__(
            dtype=scale.dtype,
            reparameterization_type=ds.FULLY_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters, graph_parents=graph, name=name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _event_size(self):
        size = tf.compat.dimension_value(self._scale.range_dimension)
        if size is None and self._loc is not None:
            size = tf.compat.dimension_value(self._loc.shape[-1])
        return size

    def _batch_shape(self):
        shape = self._scale.batch_shape
        if self._loc is not None:
            shape = tf.broadcast_static_shape(shape, self._loc.shape[:-1])
        return shape

    def _batch_shape_tensor(self):
        shape = self._scale.batch_shape_tensor()
        if self._loc is not None:
            shape = tf.broadcast_dynamic_shape(shape, tf.shape(self._loc)[:-1])
        return shape

    def _event_shape(self):
        return tf.TensorShape([self._event_size()])

    def _event_shape_tensor(self):
        size = self._event_size()
        if size is not None:
            return tf.constant([size], tf.int32)
        return tf.reshape(self._scale.range_dimension_tensor(), [1])

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor(), self.event_shape_tensor()], 0)
        eps = tf.random.normal(shape, dtype=self.dtype, seed=seed)
        y = self._scale.matvec(eps)
        return y if self._loc is None else y + self._loc

    def _z(self, x):
        centred = x if self._loc is None else x - self._loc
        return self._scale.solvevec(centred)

    def _log_prob(self, x):
        z = self._z(x)
        per_dim = -0.5 * tf.square(z) - tf.constant(0.5 * math.log(2. * math.pi),
                                                    self.dtype)
        return tf.reduce_sum(per_dim, -1) - self._scale.log_abs_determinant()

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _entropy(self):
        k = tf.cast(self.event_shape_tensor()[0], self.dtype)
        per_dim = tf.constant(0.5 * math.log(2. * math.pi * math.e), self.dtype)
        entropy = per_dim * k + self._scale.log_abs_determinant()
        return entropy + tf.zeros(self.batch_shape_tensor(), self.dtype)

    def _mean(self):
        shape = tf.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0)
        if self._loc is None:
            return tf.zeros(shape, self.dtype)
        return self._loc + tf.zeros(shape, self.dtype)

    def _mode(self):
        return self._mean()

    def _covariance(self):
        if _is_diagonal(self._scale):
            return tf.linalg.diag(tf.square(self._scale.diag_part()))
        return self._scale.matmul(self._scale.to_dense(), adjoint_arg=True)

    def _variance(self):
        if _is_diagonal(self._scale):
            return tf.square(self._scale.diag_part())
        return tf.linalg.diag_part(self._covariance())

    def _stddev(self):
        if _is_diagonal(self._scale):
            return tf.abs(self._scale.diag_part())
        return tf.sqrt(self._variance())


class MultivariateNormalDiag(MultivariateNormalLinearOperator):
    """N(loc, diag(scale_diag + scale_identity_multiplier)^2): TF 1.15's MVN of VAEs."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalDiag"):
        parameters = dict(locals())
        with v1.name_scope(name, values=[loc, scale_diag,
                                         scale_identity_multiplier]) as scope:
            scale = _diag_scale(loc, scale_diag, scale_identity_multiplier,
                                type(self).__name__)
            self._init(loc, scale, validate_args, allow_nan_stats, scope, parameters)


def _diag_scale(loc, scale_diag, multiplier, who):
    dtype = None
    for value in (loc, scale_diag, multiplier):
        if tf.is_tensor(value):
            dtype = value.dtype.base_dtype
            break
    dtype = dtype or tf.float32
    if scale_diag is not None:
        scale_diag = tf.convert_to_tensor(scale_diag, name="scale_diag", dtype=dtype)
        if multiplier is not None:
            multiplier = tf.convert_to_tensor(multiplier, name="scale_identity_multiplier",
                                              dtype=dtype)
            scale_diag = scale_diag + multiplier[..., tf.newaxis]
        return linalg.LinearOperatorDiag(scale_diag, is_non_singular=True)
    if loc is None:
        raise ValueError(f"{who}: give loc (its last dimension is the event size) or "
                         f"scale_diag; with neither the event size is unknown")
    loc = tf.convert_to_tensor(loc, name="loc", dtype=dtype)
    size = tf.compat.dimension_value(loc.shape[-1]) if loc.shape.ndims else None
    if size is None:
        size = tf.shape(loc)[-1]
    if multiplier is None:
        return linalg.LinearOperatorIdentity(num_rows=size, dtype=dtype,
                                             is_non_singular=True)
    multiplier = tf.convert_to_tensor(multiplier, name="scale_identity_multiplier",
                                      dtype=dtype)
    return linalg.LinearOperatorScaledIdentity(num_rows=size, multiplier=multiplier,
                                               is_non_singular=True)


class MultivariateNormalDiagWithSoftplusScale(MultivariateNormalDiag):
    """MultivariateNormalDiag(loc, softplus(scale_diag))."""

    def __init__(self, loc, scale_diag, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalDiagWithSoftplusScale"):
        parameters = dict(locals())
        with v1.name_scope(name, values=[scale_diag]) as scope:
            super(MultivariateNormalDiagWithSoftplusScale, self).__init__(
                loc=loc, scale_diag=tf.nn.softplus(scale_diag),
                validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                name=scope)
        self._parameters = parameters


class MultivariateNormalTriL(MultivariateNormalLinearOperator):
    """N(loc, scale_tril @ scale_tril^T) for a lower-triangular ``scale_tril``."""

    def __init__(self, loc=None, scale_tril=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalTriL"):
        parameters = dict(locals())
        if loc is None and scale_tril is None:
            raise ValueError(f"{type(self).__name__}: give loc, scale_tril or both")
        with v1.name_scope(name, values=[loc, scale_tril]) as scope:
            if scale_tril is None:
                scale = _diag_scale(loc, None, None, type(self).__name__)
            else:
                dtype = loc.dtype.base_dtype if tf.is_tensor(loc) else None
                tril = tf.convert_to_tensor(scale_tril, name="scale_tril", dtype=dtype)
                scale = linalg.LinearOperatorLowerTriangular(
                    tf.linalg.band_part(tril, -1, 0), is_non_singular=True)
            self._init(loc, scale, validate_args, allow_nan_stats, scope, parameters)


class MultivariateNormalFullCovariance(MultivariateNormalTriL):
    """N(loc, covariance_matrix), through the Cholesky factor of the covariance."""

    def __init__(self, loc=None, covariance_matrix=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalFullCovariance"):
        parameters = dict(locals())
        if loc is None and covariance_matrix is None:
            raise ValueError(f"{type(self).__name__}: give loc, covariance_matrix or "
                             f"both")
        with v1.name_scope(name, values=[loc, covariance_matrix]) as scope:
            tril = None
            if covariance_matrix is not None:
                dtype = loc.dtype.base_dtype if tf.is_tensor(loc) else None
                cov = tf.convert_to_tensor(covariance_matrix, name="covariance_matrix",
                                           dtype=dtype)
                if validate_args:
                    with tf.control_dependencies([tf.debugging.assert_equal(
                            cov, tf.linalg.matrix_transpose(cov),
                            message="covariance_matrix is not symmetric")]):
                        cov = tf.identity(cov)
                tril = tf.linalg.cholesky(cov)
            super(MultivariateNormalFullCovariance, self).__init__(
                loc=loc, scale_tril=tril, validate_args=validate_args,
                allow_nan_stats=allow_nan_stats, name=scope)
        self._parameters = parameters

@kullback_leibler.RegisterKL(MultivariateNormalLinearOperator,
                             MultivariateNormalLinearOperator)


def _kl_mvn(a, b, name=None):
    """KL(a || b) = log|B| - log|A| + (tr(B^-1 A A^T B^-T) + |B^-1 (mu_b - mu_a)|^2
    - k) / 2."""
    with v1.name_scope(name, "kl_mvn", [a.mean(), b.mean()]):
        if _is_diagonal(a.scale) and _is_diagonal(b.scale):
            ratio = (a.stddev() / b.stddev())[..., tf.newaxis]
        else:
            ratio = b.scale.solve(a.scale.to_dense())
        gap = b.scale.solvevec(b.mean() - a.mean())
        k = tf.cast(a.scale.domain_dimension_tensor(), a.dtype)
        kl = (b.scale.log_abs_determinant() - a.scale.log_abs_determinant()
              + 0.5 * (-k + tf.reduce_sum(tf.square(ratio), [-2, -1])
                       + tf.reduce_sum(tf.square(gap), -1)))
        kl.set_shape(tf.broadcast_static_shape(a.batch_shape, b.batch_shape))
        return kl


class _CategoricalParams(dist_base.Distribution):
    """logits / probs handling shared by the one-hot distributions."""

    def _init_params(self, logits, probs, validate_args, name):
        self._logits, self._probs = util.get_logits_and_probs(
            logits=logits, probs=probs, validate_args=validate_args,
            multidimensional=True, name=name)
        if self._logits.shape.ndims == 0:
            raise ValueError(f"{type(self).__name__}: logits / probs need at least one "
                             f"dimension (the classes)")

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    @property
    def event_size(self):
        size = tf.compat.dimension_value(self._logits.shape[-1])
        return size if size is not None else tf.shape(self._logits)[-1]

    def _batch_shape(self):
        return self._logits.shape[:-1]

    def _batch_shape_tensor(self):
        return tf.shape(self._logits)[:-1]

    def _event_shape(self):
        return self._logits.shape[-1:]

    def _event_shape_tensor(self):
        return tf.shape(self._logits)[-1:]

    def _broadcast(self, x):
        """(logits, x) broadcast against each other, reshaped to [-1, K], and the
        batch shape of the result."""
        logits = self._logits
        if not (x.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and x.shape == logits.shape):
            logits = tf.ones_like(x, dtype=logits.dtype) * logits
            x = tf.ones_like(logits, dtype=x.dtype) * x
        batch = tf.shape(logits)[:-1]
        size = self.event_size
        return (tf.reshape(logits, [-1, size]), tf.reshape(x, [-1, size]), batch)


class OneHotCategorical(_CategoricalParams):
    """A Categorical whose samples are one-hot vectors of ``dtype`` (int32 by default)."""

    def __init__(self, logits=None, probs=None, dtype=tf.int32, validate_args=False,
                 allow_nan_stats=True, name="OneHotCategorical"):
        parameters = dict(locals())
        with v1.name_scope(name, values=[logits, probs]) as scope:
            self._init_params(logits, probs, validate_args, scope)
        super(OneHotCategorical, self).__init__(
            dtype=tf.as_dtype(dtype), reparameterization_type=ds.NOT_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters, graph_parents=[self._logits, self._probs],
            name=scope)

    def _sample_n(self, n, seed=None):
        size = self.event_size
        logits_2d = tf.reshape(self._logits, [-1, size])
        draws = tf.transpose(tf.random.categorical(logits_2d, n, seed=seed))
        draws = tf.one_hot(draws, size, dtype=self.dtype)
        return tf.reshape(draws, tf.concat([[n], self.batch_shape_tensor(), [size]], 0))

    def _log_prob(self, x):
        x = tf.cast(x, self._logits.dtype)
        logits_2d, x_2d, batch = self._broadcast(x)
        neg = tf.nn.softmax_cross_entropy_with_logits(labels=x_2d, logits=logits_2d)
        return tf.reshape(-neg, batch)

    def _entropy(self):
        return -tf.reduce_sum(tf.nn.log_softmax(self._logits) * self._probs, -1)

    def _mode(self):
        mode = tf.one_hot(tf.argmax(self._logits, axis=-1), self.event_size,
                          dtype=self.dtype)
        mode.set_shape(self._logits.shape)
        return mode

    def _covariance(self):
        p = self._probs
        return tf.linalg.diag(p) - p[..., :, tf.newaxis] * p[..., tf.newaxis, :]

    def _variance(self):
        return self._probs * (1. - self._probs)


@kullback_leibler.RegisterKL(OneHotCategorical, OneHotCategorical)
def _kl_onehot(a, b, name=None):
    with v1.name_scope(name, "kl_onehot_categorical", [a.logits, b.logits]):
        return tf.reduce_sum(tf.nn.softmax(a.logits) * (
            tf.nn.log_softmax(a.logits) - tf.nn.log_softmax(b.logits)), -1)


class ExpRelaxedOneHotCategorical(_CategoricalParams):
    """The log of a Gumbel-softmax (Concrete) sample: log-probabilities on the simplex."""

    def __init__(self, temperature, logits=None, probs=None, dtype=None,
                 validate_args=False, allow_nan_stats=True,
                 name="ExpRelaxedOneHotCategorical"):
        parameters = dict(locals())
        with v1.name_scope(name, values=[logits, probs, temperature]) as scope:
            self._init_params(logits, probs, validate_args, scope)
            dtype = tf.as_dtype(dtype) if dtype is not None else self._logits.dtype
            self._temperature = tf.convert_to_tensor(temperature, name="temperature",
                                                     dtype=dtype)
            if validate_args:
                with tf.control_dependencies([tf.debugging.assert_positive(
                        self._temperature, message="temperature must be positive")]):
                    self._temperature = tf.identity(self._temperature)
            self._temperature_2d = tf.reshape(self._temperature, [-1, 1])
        super(ExpRelaxedOneHotCategorical, self).__init__(
            dtype=dtype, reparameterization_type=ds.FULLY_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters,
            graph_parents=[self._logits, self._probs, self._temperature], name=scope)

    @property
    def temperature(self):
        return self._temperature

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], tf.shape(self._logits)], 0)
        logits = self._logits * tf.ones(shape, dtype=self.dtype)
        logits_2d = tf.reshape(logits, [-1, self.event_size])
        tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
        uniform = tf.random.uniform(tf.shape(logits_2d), minval=tiny, maxval=1.,
                                    dtype=self.dtype, seed=seed)
        gumbel = -tf.math.log(-tf.math.log(uniform))
        draws = tf.nn.log_softmax((gumbel + logits_2d) / self._temperature_2d)
        return tf.reshape(draws, shape)

    def _log_prob(self, x):
        logits_2d, x_2d, batch = self._broadcast(x)
        k = tf.cast(self.event_size, x.dtype)
        log_norm = tf.math.lgamma(k) + (k - 1.) * tf.math.log(self._temperature)
        terms = logits_2d - x_2d * self._temperature_2d
        log_prob = (log_norm + tf.reduce_sum(terms, -1)
                    - k * tf.reduce_logsumexp(terms, -1))
        return tf.reshape(log_prob, batch)


class RelaxedOneHotCategorical(dist_base.Distribution):
    """The Gumbel-softmax (Concrete) relaxation of a one-hot categorical: samples on
    the simplex, ``exp`` of an ``ExpRelaxedOneHotCategorical``'s."""

    def __init__(self, temperature, logits=None, probs=None, dtype=None,
                 validate_args=False, allow_nan_stats=True,
                 name="RelaxedOneHotCategorical"):
        parameters = dict(locals())
        self._exp = ExpRelaxedOneHotCategorical(
            temperature, logits=logits, probs=probs, dtype=dtype,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats)
        super(RelaxedOneHotCategorical, self).__init__(
            dtype=self._exp.dtype, reparameterization_type=ds.FULLY_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters, graph_parents=self._exp._graph_parents,
            name=name)

    temperature = property(lambda self: self._exp.temperature)
    logits = property(lambda self: self._exp.logits)
    probs = property(lambda self: self._exp.probs)
    distribution = property(lambda self: self._exp)

    def _batch_shape(self):
        return self._exp.batch_shape

    def _batch_shape_tensor(self):
        return self._exp.batch_shape_tensor()

    def _event_shape(self):
        return self._exp.event_shape

    def _event_shape_tensor(self):
        return self._exp.event_shape_tensor()

    def _sample_n(self, n, seed=None):
        return tf.exp(self._exp._sample_n(n, seed))

    def _log_prob(self, x):
        log_x = tf.math.log(x)
        return self._exp.log_prob(log_x) - tf.reduce_sum(log_x, -1)

    def _prob(self, x):
        return tf.exp(self._log_prob(x))


class RelaxedBernoulli(dist_base.Distribution):
    """The binary Concrete relaxation: sigmoid of a Logistic(logits / temperature,
    1 / temperature) draw."""

    def __init__(self, temperature, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="RelaxedBernoulli"):
        parameters = dict(locals())
        with v1.name_scope(name, values=[logits, probs, temperature]) as scope:
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args, name=scope)
            self._temperature = tf.convert_to_tensor(
                temperature, name="temperature", dtype=self._logits.dtype)
            if validate_args:
                with tf.control_dependencies([tf.debugging.assert_positive(
                        self._temperature, message="temperature must be positive")]):
                    self._temperature = tf.identity(self._temperature)
            self._loc = self._logits / self._temperature
            self._scale = 1. / self._temperature
        super(RelaxedBernoulli, self).__init__(
            dtype=self._logits.dtype, reparameterization_type=ds.FULLY_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters,
            graph_parents=[self._logits, self._probs, self._temperature], name=scope)

    temperature = property(lambda self: self._temperature)
    logits = property(lambda self: self._logits)
    probs = property(lambda self: self._probs)

    def _batch_shape(self):
        return tf.broadcast_static_shape(self._loc.shape, self._scale.shape)

    def _batch_shape_tensor(self):
        return tf.broadcast_dynamic_shape(tf.shape(self._loc), tf.shape(self._scale))

    def _event_shape(self):
        return tf.TensorShape([])

    def _event_shape_tensor(self):
        return tf.constant([], tf.int32)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
        uniform = tf.random.uniform(shape, minval=tiny, maxval=1., dtype=self.dtype,
                                    seed=seed)
        logistic = tf.math.log(uniform) - tf.math.log1p(-1. * uniform)
        return tf.sigmoid(logistic * self._scale + self._loc)

    def _log_prob(self, y):
        x = tf.math.log(y) - tf.math.log1p(-y)
        z = (x - self._loc) / self._scale
        logistic = -z - 2. * tf.nn.softplus(-z) - tf.math.log(self._scale)
        return logistic + (-tf.math.log(y) - tf.math.log1p(-y))

    def _prob(self, y):
        return tf.exp(self._log_prob(y))


class Mixture(dist_base.Distribution):
    """A mixture of a list of distributions of one dtype and shape, chosen by ``cat``
    (a Categorical with one class per component)."""

    def __init__(self, cat, components, validate_args=False, allow_nan_stats=True,
                 use_static_graph=False, name="Mixture"):
        parameters = dict(locals())
        if not isinstance(cat, ds.Categorical):
            raise TypeError(f"Mixture: cat must be a tf.distributions.Categorical, got "
                            f"{type(cat).__name__}")
        if not components:
            raise ValueError("Mixture: components is empty; give one distribution per "
                             "category")
        if not isinstance(components, (list, tuple)) or not all(
                isinstance(c, dist_base.Distribution) for c in components):
            raise TypeError(f"Mixture: components must be a list of distributions, "
                            f"got {components!r}")
        dtype = components[0].dtype
        if any(c.dtype != dtype for c in components):
            raise TypeError(f"Mixture: every component must have dtype {dtype.name}; "
                            f"got {[c.dtype.name for c in components]}")
        event = components[0].event_shape
        batch = cat.batch_shape
        for c in components:
            if not event.is_compatible_with(c.event_shape):
                raise ValueError(f"Mixture: components' event shapes differ: {event} "
                                 f"and {c.event_shape}")
            if not batch.is_compatible_with(c.batch_shape):
                raise ValueError(f"Mixture: a component's batch shape {c.batch_shape} "
                                 f"differs from cat's {cat.batch_shape}")
            event = event.merge_with(c.event_shape)
            batch = batch.merge_with(c.batch_shape)
        classes = tf.compat.dimension_value(cat.logits.shape[-1])
        if classes is not None and classes != len(components):
            raise ValueError(f"Mixture: cat has {classes} classes but there are "
                             f"{len(components)} components")
        self._cat = cat
        self._components = list(components)
        self._num_components = len(components)
        self._static_event = event
        self._static_batch = batch
        self._use_static_graph = use_static_graph
        graph = []
        for d in [cat] + self._components:
            graph += list(d._graph_parents)
        super(Mixture, self).__init__(
            dtype=dtype, reparameterization_type=ds.NOT_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters, graph_parents=graph, name=name)

    cat = property(lambda self: self._cat)
    components = property(lambda self: self._components)
    num_components = property(lambda self: self._num_components)

    def _batch_shape(self):
        return self._static_batch

    def _batch_shape_tensor(self):
        return self._cat.batch_shape_tensor()

    def _event_shape(self):
        return self._static_event

    def _event_shape_tensor(self):
        return self._components[0].event_shape_tensor()

    def _event_rank(self):
        rank = self._static_event.ndims
        if rank is None:
            raise ValueError("Mixture: the components' event rank must be known")
        return rank

    def _cat_weights(self, log):
        weights = (tf.nn.log_softmax if log else tf.nn.softmax)(self._cat.logits)
        return tf.unstack(weights, num=self._num_components, axis=-1)

    def _to_event_rank(self, w):
        for _ in range(self._event_rank()):
            w = w[..., tf.newaxis]
        return w

    def _log_prob(self, x):
        x = tf.convert_to_tensor(x, name="x")
        terms = [w + d.log_prob(x)
                 for w, d in zip(self._cat_weights(log=True), self._components)]
        return tf.reduce_logsumexp(tf.stack(terms, 0), [0])

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _mean(self):
        return tf.add_n([self._to_event_rank(w) * d.mean()
                         for w, d in zip(self._cat_weights(log=False),
                                         self._components)])

    def _variance(self):
        weights = [self._to_event_rank(w) for w in self._cat_weights(log=False)]
        means = [d.mean() for d in self._components]
        second = tf.add_n([w * (d.variance() + tf.square(m))
                           for w, d, m in zip(weights, self._components, means)])
        first = tf.add_n([w * m for w, m in zip(weights, means)])
        return second - tf.square(first)

    def _stddev(self):
        return tf.sqrt(self._variance())

    def entropy_lower_bound(self, name="entropy_lower_bound"):
        """sum_i p_i H(component_i) (TF 1.15's; ``entropy`` itself is not provided)."""
        with self._name_scope(name):
            return tf.add_n([w * d.entropy() for w, d in
                             zip(self._cat_weights(log=False), self._components)])

    def _sample_n(self, n, seed=None):
        if self._use_static_graph:
            choice = self._cat.sample(n, seed=seed)
            draws = []
            for c in range(self._num_components):
                seed = util.gen_new_seed(seed, "mixture")
                draws.append(self._components[c].sample(n, seed=seed))
            stacked = tf.stack(draws, -self._event_rank() - 1)
            mask = tf.one_hot(choice, self._num_components, dtype=stacked.dtype)
            for _ in range(self._event_rank()):
                mask = mask[..., tf.newaxis]
            return tf.reduce_sum(stacked * mask, axis=-1 - self._event_rank())
        choice = self._cat.sample(n, seed=seed)  # [n, batch...]
        batch_size = tf.reduce_prod(self.batch_shape_tensor())
        flat_choice = tf.reshape(choice, [-1])
        positions = tf.dynamic_partition(tf.range(n * batch_size), flat_choice,
                                         self._num_components)
        batch_index = tf.dynamic_partition(tf.tile(tf.range(batch_size), [n]),
                                           flat_choice, self._num_components)
        event = self.event_shape_tensor()
        pieces = []
        for c in range(self._num_components):
            count = tf.size(positions[c])
            seed = util.gen_new_seed(seed, "mixture")
            drawn = self._components[c].sample(count, seed=seed)
            drawn = tf.reshape(drawn, tf.concat([[count * batch_size], event], 0))
            pieces.append(tf.gather(drawn, batch_size * tf.range(count) + batch_index[c]))
        stitched = tf.dynamic_stitch(positions, pieces)
        return tf.reshape(stitched, tf.concat([tf.shape(choice), event], 0))


class MixtureSameFamily(dist_base.Distribution):
    """A mixture whose components are the last batch dimension of one distribution."""

    def __init__(self, mixture_distribution, components_distribution,
                 validate_args=False, allow_nan_stats=True, name="MixtureSameFamily"):
        parameters = dict(locals())
        if not isinstance(mixture_distribution, ds.Categorical):
            raise TypeError(f"MixtureSameFamily: mixture_distribution must be a "
                            f"tf.distributions.Categorical, got "
                            f"{type(mixture_distribution).__name__}")
        comp_batch = components_distribution.batch_shape
        if comp_batch.ndims == 0:
            raise ValueError("MixtureSameFamily: components_distribution needs a batch "
                             "dimension (its last one holds the components)")
        classes = tf.compat.dimension_value(mixture_distribution.logits.shape[-1])
        k = tf.compat.dimension_value(comp_batch[-1]) if comp_batch.ndims else None
        if classes is not None and k is not None and classes != k:
            raise ValueError(f"MixtureSameFamily: mixture_distribution has {classes} "
                             f"classes but components_distribution's last batch "
                             f"dimension is {k}")
        self._mixture = mixture_distribution
        self._components_dist = components_distribution
        self._num_components = k if k is not None else \
            components_distribution.batch_shape_tensor()[-1]
        super(MixtureSameFamily, self).__init__(
            dtype=components_distribution.dtype,
            reparameterization_type=ds.NOT_REPARAMETERIZED,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats,
            parameters=parameters,
            graph_parents=(list(mixture_distribution._graph_parents)
                           + list(components_distribution._graph_parents)),
            name=name)

    mixture_distribution = property(lambda self: self._mixture)
    components_distribution = property(lambda self: self._components_dist)

    def _event_rank(self):
        rank = self._components_dist.event_shape.ndims
        if rank is None:
            raise ValueError("MixtureSameFamily: the components' event rank must be "
                             "known")
        return rank

    def _batch_shape(self):
        return self._components_dist.batch_shape[:-1]

    def _batch_shape_tensor(self):
        return self._components_dist.batch_shape_tensor()[:-1]

    def _event_shape(self):
        return self._components_dist.event_shape

    def _event_shape_tensor(self):
        return self._components_dist.event_shape_tensor()

    def _pad(self, x):
        for _ in range(self._event_rank()):
            x = x[..., tf.newaxis]
        return x

    def _weights(self, log):
        return (tf.nn.log_softmax if log else tf.nn.softmax)(self._mixture.logits)

    def _sample_n(self, n, seed=None):
        draws = self._components_dist.sample(n, seed=seed)  # [n, B, k, E]
        choice = self._mixture.sample(
            n, seed=util.gen_new_seed(seed, "MixtureSameFamily"))  # [n, B]
        mask = tf.one_hot(choice, self._num_components, dtype=draws.dtype)
        return tf.reduce_sum(draws * self._pad(mask), axis=-1 - self._event_rank())

    def _log_prob(self, x):
        x = tf.convert_to_tensor(x, name="x")
        x = tf.expand_dims(x, -1 - self._event_rank())  # [S, B, 1, E]
        return tf.reduce_logsumexp(self._components_dist.log_prob(x)
                                   + self._weights(log=True), axis=-1)

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _mean(self):
        w = self._pad(self._weights(log=False))
        return tf.reduce_sum(w * self._components_dist.mean(),
                             axis=-1 - self._event_rank())

    def _variance(self):
        w = self._pad(self._weights(log=False))
        axis = -1 - self._event_rank()
        means = self._components_dist.mean()
        second = tf.reduce_sum(w * (self._components_dist.variance() + tf.square(means)),
                               axis=axis)
        return second - tf.square(tf.reduce_sum(w * means, axis=axis))


def _softplus_variant(base, class_name, params, doc):
    def __init__(self, *args, validate_args=False, allow_nan_stats=True, name=None,
                 **kwargs):
        values = dict(zip(base_args, args))
        values.update(kwargs)
        missing = [p for p in base_args if p not in values]
        if missing:
            raise TypeError(f"{class_name}() missing argument(s): {', '.join(missing)}")
        with v1.name_scope(name or class_name,
                           values=[values[p] for p in base_args]) as scope:
            for p in params:
                values[p] = tf.nn.softplus(values[p], name=f"softplus_{p}")
            base.__init__(self, **values, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=scope)

    base_args = _POSITIONAL[base.__name__]
    return type(class_name, (base,), {"__init__": __init__, "__doc__": doc})


_POSITIONAL = {"Normal": ("loc", "scale"), "Laplace": ("loc", "scale"),
               "Exponential": ("rate",), "Gamma": ("concentration", "rate"),
               "Beta": ("concentration1", "concentration0")}


NormalWithSoftplusScale = _softplus_variant(
    ds.Normal, "NormalWithSoftplusScale", ("scale",), "Normal(loc, softplus(scale)).")


LaplaceWithSoftplusScale = _softplus_variant(
    ds.Laplace, "LaplaceWithSoftplusScale", ("scale",), "Laplace(loc, softplus(scale)).")


ExponentialWithSoftplusRate = _softplus_variant(
    ds.Exponential, "ExponentialWithSoftplusRate", ("rate",), "Exponential(softplus(rate)).")


GammaWithSoftplusConcentrationRate = _softplus_variant(
    ds.Gamma, "GammaWithSoftplusConcentrationRate", ("concentration", "rate"),
    "Gamma(softplus(concentration), softplus(rate)).")


BetaWithSoftplusConcentration = _softplus_variant(
    ds.Beta, "BetaWithSoftplusConcentration", ("concentration1", "concentration0"),
    "Beta(softplus(concentration1), softplus(concentration0)).")
