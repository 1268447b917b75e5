"""``tf.contrib.factorization.gmm`` / ``GmmAlgorithm``: TF1's Gaussian-mixture EM graph.

This module owns the graph-level Gaussian mixture model of TF1's ``gmm_ops``: the
variables (``clusters`` [K, 1, D], ``clusters_covs`` [K, D, D] or [K, D] for
``diag``, ``alphas`` [K] starting at 1/K, the bool ``initialized``), the
initialisation op, one EM iteration as the training op, the per-point
log-likelihood scores, the assignments and the loss. Written from TF 1.15.5's
documented behaviour and its outputs run as a black box (``tests/legacy_corpus/
gmm_estimator.py``, ``tests/commands/test_contrib_factorization.py``):

* ``initial_clusters='random'`` draws K points uniformly with replacement (the op
  seed is ``random_seed``, as TF1); the initial covariance of every component is
  the sample covariance of the data (N - 1 in the denominator) plus 1e-3 on the
  diagonal (its diagonal only for ``diag``).
* The log densities use the stored covariances plus another 1e-3 on the diagonal.
  ``scores`` are the per-point log-likelihoods log sum_k alpha_k N(x | mu_k, S_k)
  ([N, 1]); ``loss`` is log sum_i exp(score_i) (what TF1's estimator reported); an
  assignment is the component of highest posterior.
* One training step is one EM iteration on the batch: responsibilities from the
  current parameters, then weights n_k / N (``w`` in ``params``), means (``m``)
  and responsibility-weighted covariances about the new means plus 1e-3 on the
  diagonal (``c``).

Differences from TF 1.15.5, on purpose: an unknown ``covariance_type`` or
``params`` letter is a ValueError when the graph is built (TF1 raised a bare
``Exception`` for the former and ignored the latter); with ``params`` lacking
``m`` or ``c`` the update is still the EM update of the letters given (TF1 left the
means unchanged unless both ``m`` and ``c`` were given, and computed covariances
about stale means, negative variances included); the log-likelihoods are summed
in log space, so points far from every component keep finite scores. Graph mode
only, as in TF1.
"""

import math

from tf1mem._tf import v1 as _v1

__all__ = ["GmmAlgorithm", "gmm", "FULL_COVARIANCE", "DIAG_COVARIANCE", "MEPS"]

FULL_COVARIANCE = "full"
DIAG_COVARIANCE = "diag"
# The smallest float64 step; keeps empty components from dividing by zero.
MEPS = 2.220446049250313e-16
# Added to the covariances' diagonals when they are set and again in the densities.
_MIN_VAR = 1e-3
_RANDOM = "random"


def _check_args(num_classes, params, covariance_type, initial_means, who):
    if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
        raise ValueError(f"{who}: the number of clusters must be a positive int, got "
                         f"{num_classes!r}")
    if covariance_type not in (FULL_COVARIANCE, DIAG_COVARIANCE):
        raise ValueError(f"{who}: covariance_type must be {FULL_COVARIANCE!r} or "
                         f"{DIAG_COVARIANCE!r}, got {covariance_type!r}")
    if not isinstance(params, str) or set(params) - set("wmc"):
        raise ValueError(f"{who}: params must be a string of the letters 'w' (weights), "
                         f"'m' (means) and 'c' (covariances), got {params!r}")
    if isinstance(initial_means, str) and initial_means != _RANDOM:
        raise ValueError(f"{who}: initial_clusters must be 'random', a [num_clusters, dim] "
                         f"tensor or array, or a callable f(data, num_clusters); got "
                         f"{initial_means!r}")


class GmmAlgorithm:
    """The graph of Gaussian-mixture EM clustering (TF1's ``gmm_ops.GmmAlgorithm``).

    Args:
      data: a [num_points, dim] float tensor, or a list of them (shards).
      num_classes: the number of components K, a positive int.
      initial_means: None or ``"random"`` (K data points drawn with replacement),
        a [K, dim] tensor or array, or a callable ``f(data, K)`` returning one
        (``data`` is the shards concatenated).
      params: which parameters training updates: any of ``"w"`` (weights),
        ``"m"`` (means), ``"c"`` (covariances).
      covariance_type: ``"full"`` or ``"diag"``.
      random_seed: the op seed of the random initialisation.

    Raises:
      ValueError: an unknown covariance_type, params letter or initial_means string,
        or a num_classes that is no positive int.
    """

    CLUSTERS_WEIGHT = "alphas"
    CLUSTERS_VARIABLE = "clusters"
    CLUSTERS_COVS_VARIABLE = "clusters_covs"

    def __init__(self, data, num_classes, initial_means=None, params="wmc",
                 covariance_type=FULL_COVARIANCE, random_seed=0):
        _check_args(num_classes, params, covariance_type, initial_means, "GmmAlgorithm")
        tf = _v1()
        shards = list(data) if isinstance(data, (list, tuple)) else [data]
        if not shards:
            raise ValueError("GmmAlgorithm: data must be a tensor or a non-empty list of "
                             "tensors")
        self._shards = [tf.convert_to_tensor(s) for s in shards]
        self._num_classes = num_classes
        self._params = params
        self._diag = covariance_type == DIAG_COVARIANCE
        self._random_seed = random_seed
        self._initial_means = _RANDOM if initial_means is None else initial_means
        self._build()

    # --- variables and initialisation ---------------------------------------------------

    def _points(self):
        tf = _v1()
        return self._shards[0] if len(self._shards) == 1 else tf.concat(self._shards, 0)

    def _build(self):
        tf = _v1()
        dtype = self._shards[0].dtype
        empty = tf.placeholder_with_default(tf.zeros([0], dtype), shape=None)
        self._means = tf.Variable(empty, name=self.CLUSTERS_VARIABLE, validate_shape=False)
        self._covs = tf.Variable(empty, name=self.CLUSTERS_COVS_VARIABLE, validate_shape=False)
        self._alpha = tf.Variable(tf.fill([self._num_classes],
                                          tf.constant(1.0 / self._num_classes, dtype)),
                                  name=self.CLUSTERS_WEIGHT)
        self._initialized = tf.Variable(False, dtype=tf.bool, name="initialized")
        self._init_op = self._build_init_op()
        self._build_expectation()
        self._train_op = self._build_maximization()

    def _initial_means_tensor(self, points):
        tf = _v1()
        init = self._initial_means
        if isinstance(init, str):
            num_points = tf.cast(tf.shape(points)[0], tf.int64)
            indices = tf.random_uniform([self._num_classes], minval=0, maxval=num_points,
                                        seed=self._random_seed, dtype=tf.int64)
            return tf.gather(points, indices)
        if callable(init):
            init = init(points, self._num_classes)
        return tf.convert_to_tensor(init, dtype=points.dtype)

    def _build_init_op(self):
        tf = _v1()

        def initialize():
            points = self._points()
            means = self._initial_means_tensor(points)
            with tf.control_dependencies([tf.assert_equal(
                    tf.shape(means)[0], self._num_classes,
                    message="GMM initial_clusters must give num_clusters means")]):
                means = tf.expand_dims(means, 1)
            centred = points - tf.reduce_mean(points, 0, keepdims=True)
            count = tf.cast(tf.shape(points)[0], points.dtype)
            cov = tf.matmul(centred, centred, transpose_a=True) / (count - 1.0)
            cov += _MIN_VAR * tf.eye(tf.shape(points)[1], dtype=points.dtype)
            cov = tf.linalg.diag_part(cov) if self._diag else cov
            covs = tf.tile(tf.expand_dims(cov, 0),
                           tf.concat([[self._num_classes], tf.ones_like(tf.shape(cov))], 0))
            assigns = [tf.assign(self._means, means, validate_shape=False),
                       tf.assign(self._covs, covs, validate_shape=False)]
            with tf.control_dependencies(assigns):
                return tf.identity(tf.assign(self._initialized, True))

        done = tf.cond(self._initialized, lambda: tf.identity(self._initialized), initialize)
        return tf.group(done, name="gmm_init")

    # --- E step ---------------------------------------------------------------------------

    def _log_densities(self, points, means, covs):
        """[N, K] log N(x_n | mu_k, S_k + 1e-3 I)."""
        tf = _v1()
        dim = tf.shape(points)[1]
        diff = tf.expand_dims(points, 0) - tf.expand_dims(means, 1)  # [K, N, D]
        if self._diag:
            var = covs + _MIN_VAR
            mahal = tf.reduce_sum(tf.square(diff) / tf.expand_dims(var, 1), 2)
            log_det = tf.reduce_sum(tf.log(var), 1)
        else:
            chol = tf.linalg.cholesky(covs + _MIN_VAR * tf.eye(dim, dtype=points.dtype))
            solved = tf.linalg.triangular_solve(chol, tf.transpose(diff, [0, 2, 1]), lower=True)
            mahal = tf.reduce_sum(tf.square(solved), 1)
            log_det = 2.0 * tf.reduce_sum(tf.log(tf.linalg.diag_part(chol)), 1)
        const = tf.cast(dim, points.dtype) * math.log(2.0 * math.pi)
        return tf.transpose(-0.5 * (mahal + const + tf.expand_dims(log_det, 1)))

    def _build_expectation(self):
        tf = _v1()
        means = tf.reshape(self._means, [self._num_classes, -1])
        self._weighted = []  # per shard, [N_s, K] log(alpha_k) + log N(x | k)
        self._shard_scores = []
        self._assignments = []
        for shard in self._shards:
            weighted = (self._log_densities(shard, means, self._covs)
                        + tf.expand_dims(tf.log(self._alpha), 0))
            self._weighted.append(weighted)
            self._shard_scores.append(tf.reduce_logsumexp(weighted, 1, keepdims=True))
            self._assignments.append(tf.argmax(weighted, 1))
        self._scores = (self._shard_scores[0] if len(self._shards) == 1
                        else tf.concat(self._shard_scores, 0))
        self._loss = tf.reduce_logsumexp(self._scores)

    # --- M step ---------------------------------------------------------------------------

    def _build_maximization(self):
        tf = _v1()
        points = self._points()
        weighted = self._weighted[0] if len(self._shards) == 1 else tf.concat(self._weighted, 0)
        resp = tf.exp(weighted - self._scores)  # [N, K] posteriors
        counts = tf.reduce_sum(resp, 0) + MEPS  # [K]
        total = tf.cast(tf.shape(points)[0], points.dtype)
        old_means = tf.reshape(self._means, [self._num_classes, -1])
        new_means = tf.matmul(resp, points, transpose_a=True) / tf.expand_dims(counts, 1)
        centre = new_means if "m" in self._params else old_means
        diff = tf.expand_dims(points, 0) - tf.expand_dims(centre, 1)  # [K, N, D]
        resp_k = tf.expand_dims(tf.transpose(resp), 2)  # [K, N, 1]
        if self._diag:
            new_covs = (tf.reduce_sum(resp_k * tf.square(diff), 1)
                        / tf.expand_dims(counts, 1) + _MIN_VAR)
        else:
            scatter = tf.matmul(resp_k * diff, diff, transpose_a=True)  # [K, D, D]
            new_covs = (scatter / tf.reshape(counts, [-1, 1, 1])
                        + _MIN_VAR * tf.eye(tf.shape(points)[1], dtype=points.dtype))
        updates = []
        # Every read of the old parameters happens before any of them is written.
        with tf.control_dependencies([new_means, new_covs, counts]):
            if "w" in self._params:
                updates.append(tf.assign(self._alpha, counts / total))
            if "m" in self._params:
                updates.append(tf.assign(self._means, tf.expand_dims(new_means, 1),
                                         validate_shape=False))
            if "c" in self._params:
                updates.append(tf.assign(self._covs, new_covs, validate_shape=False))
            return tf.group(*updates, name="gmm_train")

    # --- TF1's accessors ------------------------------------------------------------------

    def training_ops(self):
        """The op of one EM iteration on the data."""
        return self._train_op

    def init_ops(self):
        """The op that sets the means, covariances and ``initialized`` (once)."""
        return self._init_op

    def is_initialized(self):
        """The bool variable ``initialized``."""
        return self._initialized

    def alphas(self):
        """The [K] weights variable ``alphas``."""
        return self._alpha

    def clusters(self):
        """The [K, 1, D] means variable ``clusters``."""
        return self._means

    def covariances(self):
        """The ``clusters_covs`` variable: [K, D, D] (full) or [K, D] (diag)."""
        return self._covs

    def assignments(self):
        """Per shard, the [N_s] int64 component of highest posterior."""
        return list(self._assignments)

    def scores(self):
        """The [N, 1] per-point log-likelihoods (all shards, in order)."""
        return self._scores

    def log_likelihood_op(self):
        """The scalar log sum_n exp(score_n)."""
        return self._loss


def gmm(inp, initial_clusters, num_clusters, random_seed, covariance_type=FULL_COVARIANCE,
        params="wmc"):
    """Builds the graph of Gaussian-mixture clustering (TF1's ``tf.contrib.factorization.gmm``).

    Args:
      inp: a [num_points, dim] float tensor, or a list of them.
      initial_clusters: ``"random"``, a [num_clusters, dim] tensor or array, or a
        callable ``f(data, num_clusters)``.
      num_clusters: a positive int.
      random_seed: the op seed of the random initialisation.
      covariance_type: ``"full"`` or ``"diag"``.
      params: the letters of the parameters to train (``"wmc"``).

    Returns:
      TF 1.15's six-tuple ``(loss, scores, assignments, training_op, init_op,
      is_initialized)``: the scalar log-likelihood, the [N, 1] per-point scores,
      ``[[assignments of each shard]]``, the EM-step op, the initialisation op, the
      ``initialized`` bool variable.

    Raises:
      ValueError: see :class:`GmmAlgorithm`.
    """
    _check_args(num_clusters, params, covariance_type, initial_clusters, "gmm")
    algorithm = GmmAlgorithm(inp, num_clusters, initial_clusters, params, covariance_type,
                             random_seed)
    return (algorithm.log_likelihood_op(), algorithm.scores(), [algorithm.assignments()],
            algorithm.training_ops(), algorithm.init_ops(), algorithm.is_initialized())
