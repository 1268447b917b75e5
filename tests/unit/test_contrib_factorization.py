"""tf.contrib.factorization's estimators and Gaussian mixtures under tf1mem.

``KMeansClustering`` against a NumPy Lloyd iteration and the documented mini-batch update
from the same initial centres, and TF1's step counting on an input that ends; ``gmm`` /
``GmmAlgorithm`` / ``GMM`` against one NumPy EM iteration (full and diagonal covariances);
bad arguments. The TensorFlow cases run as scripts under ``python -m tf1mem.run``.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_factorization.py, tests/tf/test_contrib_factorization.py.
"""

import pytest

from tf1mem.compat.tf.contrib.factorization import gmm_ops as contrib_gmm
from tf1mem.compat.tf.contrib.factorization import estimators as fe


@pytest.mark.parametrize("kwargs, needle", [
    (dict(num_clusters=2, distance_metric="manhattan"),
     r"Unsupported distance metric 'manhattan': use 'squared_euclidean' or 'cosine'"),
    (dict(num_clusters=2, initial_clusters="kmc3"), r"initialization algorithm 'kmc3'"),
    (dict(num_clusters=0), r"num_clusters must be a positive int, got 0"),
    (dict(num_clusters=2, mini_batch_steps_per_iteration=4),
     r"mini_batch_steps_per_iteration=4 is not supported"),
    (dict(num_clusters=2, relative_tolerance=-1.0), r"relative_tolerance .* got -1\.0"),
])
def test_kmeans_clustering_rejects_bad_arguments_naming_the_value(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        fe.KMeansClustering(**kwargs)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(covariance_type="spherical"),
     r"covariance_type must be 'full' or 'diag', got 'spherical'"),
    (dict(params="wmx"), r"params must be a string of the letters .* got 'wmx'"),
    (dict(initial_clusters="kmeans_plus_plus"),
     r"initial_clusters must be 'random', .* got 'kmeans_plus_plus'"),
    (dict(num_clusters=1.5), r"positive int, got 1\.5"),
])
def test_gmm_rejects_bad_arguments_naming_the_value(kwargs, needle):
    args = dict(num_clusters=2)
    args.update(kwargs)
    with pytest.raises(ValueError, match=needle):
        fe.GMM(**args)
    with pytest.raises(ValueError, match=needle):
        contrib_gmm.gmm(object(), args.get("initial_clusters", "random"), args["num_clusters"],
                        0, covariance_type=args.get("covariance_type", "full"),
                        params=args.get("params", "wmc"))


def test_estimator_experimental_kmeans_is_kmeans_clustering():
    from tf1mem.compat import errors as compat_errors
    from tf1mem.compat.tf import estimator

    assert estimator.experimental.KMeans is fe.KMeansClustering
    with pytest.raises(compat_errors.RemovedAttributeError,
                       match=r"tf\.estimator\.experimental\.LinearSDCA was removed"):
        estimator.experimental.LinearSDCA
