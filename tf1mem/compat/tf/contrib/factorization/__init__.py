"""``tf.contrib.factorization``: k-means and Gaussian mixtures (not WALS).

``kmeans.py`` (the ``KMeans`` training graph on TF's clustering kernels), ``gmm.py``
(the EM graph: ``gmm``, ``GmmAlgorithm``) and ``estimators.py`` (``KMeansClustering``
and ``GMM`` on tf1mem's ``tf.estimator``).
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'KMeans': '.kmeans',
    'RANDOM_INIT': '.kmeans',
    'KMEANS_PLUS_PLUS_INIT': '.kmeans',
    'KMC2_INIT': '.kmeans',
    'SQUARED_EUCLIDEAN_DISTANCE': '.kmeans',
    'COSINE_DISTANCE': '.kmeans',
    'GmmAlgorithm': '.gmm_ops',
    'gmm': '.gmm_ops',
    'FULL_COVARIANCE': '.gmm_ops',
    'DIAG_COVARIANCE': '.gmm_ops',
    'MEPS': '.gmm_ops',
    'KMeansClustering': '.estimators',
    'GMM': '.estimators',
})
