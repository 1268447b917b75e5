"""``tf.contrib.distributions``: what TF's v1 distributions lack.

``distributions.py`` (multivariate normals, relaxed and one-hot categoricals, mixtures,
the ...WithSoftplus... variants, ``percentile``) and ``bijectors.py`` (the common
bijectors and ``TransformedDistribution``), on TF's v1 ``Distribution`` and ``Bijector``
base classes; TF's distribution utilities that TF 1.15's contrib re-exported. tf1mem's
table serves the rest from ``tf.compat.v1.distributions``.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'MultivariateNormalLinearOperator': '.distributions',
    'MultivariateNormalDiag': '.distributions',
    'MultivariateNormalDiagWithSoftplusScale': '.distributions',
    'MultivariateNormalTriL': '.distributions',
    'MultivariateNormalFullCovariance': '.distributions',
    'OneHotCategorical': '.distributions',
    'ExpRelaxedOneHotCategorical': '.distributions',
    'RelaxedOneHotCategorical': '.distributions',
    'RelaxedBernoulli': '.distributions',
    'Mixture': '.distributions',
    'MixtureSameFamily': '.distributions',
    'NormalWithSoftplusScale': '.distributions',
    'LaplaceWithSoftplusScale': '.distributions',
    'ExponentialWithSoftplusRate': '.distributions',
    'GammaWithSoftplusConcentrationRate': '.distributions',
    'BetaWithSoftplusConcentration': '.distributions',
    'percentile': '.distributions',
    'bijectors': '.bijectors:',
    'TransformedDistribution': '.bijectors',
    'softplus_inverse': 'tensorflow.python.ops.distributions.util',
    'fill_triangular': 'tensorflow.python.ops.distributions.util',
    'fill_triangular_inverse': 'tensorflow.python.ops.distributions.util',
    'matrix_diag_transform': 'tensorflow.python.ops.distributions.util',
    'reduce_weighted_logsumexp': 'tensorflow.python.ops.distributions.util',
    'tridiag': 'tensorflow.python.ops.distributions.util',
})
