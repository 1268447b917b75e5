"""``tf.contrib.factorization.KMeans``: TF1's k-means graph builder, on TF 2's kernels.

This module owns our implementation of the graph API TF1 code used
(``KMeans(inputs, num_clusters, ...).training_graph()``) and its constants
(``RANDOM_INIT``, ``KMEANS_PLUS_PLUS_INIT``, ``KMC2_INIT``,
``SQUARED_EUCLIDEAN_DISTANCE``, ``COSINE_DISTANCE``). The clustering kernels TF1
called (``NearestNeighbors``, ``KmeansPlusPlusInitialization``) are still in TF
2.21's core, so the graph is TF1's: the same variables (``clusters``,
``initialized`` and, for mini-batch, the int64 per-cluster counts starting at 1),
the same initial centres for the same ``random_seed``, the same Lloyd and
mini-batch updates, the same scores (squared Euclidean distance, or half the
squared distance of L2-normalised vectors for ``cosine``).

Guarantees: ``training_graph()`` returns TF1's six-tuple ``(all_scores,
cluster_idx, scores, cluster_centers_initialized, init_op, training_op)`` with the
first three as one-tensor-per-input tuples; unsupported options
(``mini_batch_steps_per_iteration > 1``, ``kmc2`` initialisation) raise a clear
ValueError naming what to use. Graph mode only, as in TF1. The rest of
``tf.contrib.factorization`` lives beside it: the estimators ``KMeansClustering`` and
``GMM`` in :mod:`tf1mem.compat.tf.contrib.factorization.estimators` (on tf1mem's
``tf.estimator``), the Gaussian-mixture graph ``gmm`` / ``GmmAlgorithm`` in
:mod:`tf1mem.compat.tf.contrib.factorization.gmm_ops`; ``WALSModel`` and ``WALSMatrixFactorization`` are not
provided.
"""

from tf1mem._tf import v1 as _v1

__all__ = [
    "KMeans", "RANDOM_INIT", "KMEANS_PLUS_PLUS_INIT", "KMC2_INIT",
    "SQUARED_EUCLIDEAN_DISTANCE", "COSINE_DISTANCE",
]

RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"
SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
CLUSTERS_VAR_NAME = "clusters"


class KMeans:
    """Builds the graph of k-means clustering (TF1's ``tf.contrib.factorization.KMeans``).

    Args:
      inputs: a [num_points, dim] float tensor, or a list of them (shards).
      num_clusters: a positive int.
      initial_clusters: ``"random"`` (points drawn uniformly with replacement,
        seeded by ``random_seed``), ``"kmeans_plus_plus"``, a [num_clusters, dim]
        tensor or array, or a callable ``f(inputs, num_clusters)`` returning one.
      distance_metric: ``"squared_euclidean"`` or ``"cosine"``.
      use_mini_batch: each training step updates the centres from the points it
        sees (sequential k-means) instead of a full Lloyd iteration.
      mini_batch_steps_per_iteration: only 1 is supported.
      random_seed: the op seed of the initialisation.
      kmeans_plus_plus_num_retries: candidates tried per k-means++ centre.
      kmc2_chain_length: accepted for TF1's signature; ``kmc2`` is not supported.

    Raises:
      ValueError: an option TF1 did not accept, or one tf1mem does not support.
    """

    def __init__(self, inputs, num_clusters, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, use_mini_batch=False,
                 mini_batch_steps_per_iteration=1, random_seed=0,
                 kmeans_plus_plus_num_retries=2, kmc2_chain_length=200):
        if isinstance(num_clusters, bool) or not isinstance(num_clusters, int) \
                or num_clusters <= 0:
            raise ValueError(f"KMeans: num_clusters must be a positive int, got "
                             f"{num_clusters!r}")
        if distance_metric not in (SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE):
            raise ValueError(f"KMeans: distance_metric must be {SQUARED_EUCLIDEAN_DISTANCE!r} "
                             f"or {COSINE_DISTANCE!r}, got {distance_metric!r}")
        if isinstance(initial_clusters, str) and initial_clusters not in (
                RANDOM_INIT, KMEANS_PLUS_PLUS_INIT, KMC2_INIT):
            raise ValueError(f"KMeans: initial_clusters must be {RANDOM_INIT!r}, "
                             f"{KMEANS_PLUS_PLUS_INIT!r}, a tensor or a callable, got "
                             f"{initial_clusters!r}")
        if isinstance(initial_clusters, str) and initial_clusters == KMC2_INIT:
            raise ValueError("KMeans: initial_clusters='kmc2' is not supported by tf1mem; "
                             "use 'kmeans_plus_plus' (the same seeding idea, exact) instead")
        if mini_batch_steps_per_iteration != 1:
            raise ValueError(f"KMeans: mini_batch_steps_per_iteration="
                             f"{mini_batch_steps_per_iteration!r} is not supported by tf1mem "
                             f"(only 1, TF1's default); drop the argument")
        self._inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        if not self._inputs:
            raise ValueError("KMeans: inputs must be a tensor or a non-empty list of tensors")
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._use_mini_batch = bool(use_mini_batch)
        self._random_seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._kmc2_chain_length = kmc2_chain_length

    # --- distances --------------------------------------------------------------------

    def _clusters_l2_normalized(self):
        """Whether the centres themselves are kept L2-normalised (cosine, full batch)."""
        return self._distance_metric == COSINE_DISTANCE and not self._use_mini_batch

    def _distance_graph(self, inputs, clusters):
        tf = _v1()
        if self._distance_metric == COSINE_DISTANCE:
            return [1 - tf.matmul(inp, clusters, transpose_b=True) for inp in inputs]
        out = []
        for inp in inputs:
            out.append(tf.reduce_sum(tf.square(inp), 1, keepdims=True)
                       - 2 * tf.matmul(inp, clusters, transpose_b=True)
                       + tf.transpose(tf.reduce_sum(tf.square(clusters), 1, keepdims=True)))
        return out

    def _infer_graph(self, inputs, clusters):
        tf = _v1()
        if self._distance_metric == COSINE_DISTANCE and not self._clusters_l2_normalized():
            clusters = tf.nn.l2_normalize(clusters, axis=1)
        all_scores = self._distance_graph(inputs, clusters)
        out = []
        for inp, score in zip(inputs, all_scores):
            indices, distances = tf.raw_ops.NearestNeighbors(
                points=inp, centers=clusters, k=tf.constant(1, tf.int64))
            if self._distance_metric == COSINE_DISTANCE:
                distances *= 0.5
            out.append((score, tf.squeeze(distances, [-1]), tf.squeeze(indices, [-1])))
        return tuple(zip(*out))

    # --- initialisation ---------------------------------------------------------------

    def _choose_initial_centers(self, inputs, num_remaining):
        tf = _v1()
        init = self._initial_clusters
        if callable(init):
            return tf.convert_to_tensor(init(inputs, num_remaining))
        if isinstance(init, str) and init == RANDOM_INIT:
            points = inputs[0] if len(inputs) == 1 else tf.concat(inputs, 0)
            num_data = tf.cast(tf.shape(points)[0], tf.int64)

            def draw():
                indices = tf.random_uniform(tf.reshape(num_remaining, [-1]), minval=0,
                                            maxval=num_data, seed=self._random_seed,
                                            dtype=tf.int64)
                return tf.gather(points, indices)

            # A batch no bigger than what is missing is taken whole (TF1's documented
            # rule); the remaining centres then come from the next batches.
            return tf.cond(num_data <= tf.cast(num_remaining, tf.int64),
                           lambda: tf.identity(points), draw)
        if isinstance(init, str) and init == KMEANS_PLUS_PLUS_INIT:
            points = inputs[0]  # the first shard only, as TF1
            if self._distance_metric == COSINE_DISTANCE:
                points = tf.nn.l2_normalize(points, axis=1)  # once more, as TF1 did
            return tf.raw_ops.KmeansPlusPlusInitialization(
                points=points, num_to_sample=tf.cast(num_remaining, tf.int64),
                seed=tf.constant(self._random_seed, tf.int64),
                num_retries_per_sample=tf.constant(self._kmeans_plus_plus_num_retries,
                                                   tf.int64))
        value = tf.convert_to_tensor(init, dtype=inputs[0].dtype)
        if self._distance_metric == COSINE_DISTANCE:
            value = tf.nn.l2_normalize(value, axis=1)
        return value

    def _init_op(self, inputs, cluster_centers, initialized):
        tf = _v1()
        num_remaining = self._num_clusters - tf.shape(cluster_centers)[0]

        def initialize():
            new_centers = self._choose_initial_centers(inputs, num_remaining)
            count = tf.shape(new_centers)[0]
            init = self._initial_clusters
            if callable(init) or (isinstance(init, str) and init == RANDOM_INIT):
                # Up to num_remaining per run: init_op is run again on the next batch
                # until all num_clusters centres are chosen (initialized turns True).
                check = tf.assert_less_equal(
                    count, num_remaining,
                    message="KMeans initial_clusters gave more centres than missing")
            else:
                check = tf.assert_equal(
                    count, num_remaining,
                    message="KMeans initial_clusters must give num_clusters centres "
                            "(k-means++ needs a batch of at least num_clusters points)")
            with tf.control_dependencies([check]):
                all_centers = tf.concat([tf.reshape(cluster_centers,
                                                    [-1, tf.shape(new_centers)[1]]),
                                         new_centers], 0)
            assign = tf.assign(cluster_centers, all_centers, validate_shape=False)
            with tf.control_dependencies([assign]):
                done = tf.assign(initialized, tf.equal(tf.shape(all_centers)[0],
                                                       self._num_clusters))
            return tf.identity(done)

        def already():
            return tf.identity(initialized)

        return tf.cond(tf.equal(num_remaining, 0), already, initialize)

    # --- training ---------------------------------------------------------------------

    def _full_batch_training_op(self, inputs, cluster_idx_list, cluster_centers):
        tf = _v1()
        sums, counts = [], []
        epsilon = tf.constant(1e-6, dtype=inputs[0].dtype)
        for inp, idx in zip(inputs, cluster_idx_list):
            sums.append(tf.unsorted_segment_sum(inp, idx, self._num_clusters))
            ones = tf.reshape(tf.ones(tf.reshape(tf.shape(inp)[0], [-1])), [-1, 1])
            counts.append(tf.unsorted_segment_sum(ones, idx, self._num_clusters))
        new_centers = tf.add_n(sums) / (tf.cast(tf.add_n(counts), sums[0].dtype) + epsilon)
        if self._clusters_l2_normalized():
            new_centers = tf.nn.l2_normalize(new_centers, axis=1)
        return tf.assign(cluster_centers, new_centers)

    def _mini_batch_training_op(self, inputs, cluster_idx_list, cluster_centers,
                                total_counts):
        tf = _v1()
        update_ops = []
        for inp, idx in zip(inputs, cluster_idx_list):
            unique_ids, unique_idx = tf.unique(idx)
            num_unique = tf.size(unique_ids)
            old_counts = tf.gather(total_counts, unique_ids)
            old_centers = tf.gather(cluster_centers, unique_ids)
            count_updates = tf.unsorted_segment_sum(
                tf.ones_like(unique_idx, dtype=total_counts.dtype), unique_idx, num_unique)
            center_updates = tf.unsorted_segment_sum(inp, unique_idx, num_unique)
            broadcast_shape = tf.concat([tf.reshape(num_unique, [1]),
                                         tf.ones(tf.reshape(tf.rank(inp) - 1, [1]),
                                                 dtype=tf.int32)], 0)
            # c' = c + (sum(x) - k c) / (n + k): the running mean of every point seen.
            center_updates -= tf.cast(tf.reshape(count_updates, broadcast_shape),
                                      inp.dtype) * old_centers
            learning_rate = tf.reciprocal(tf.cast(old_counts + count_updates, inp.dtype))
            center_updates *= tf.reshape(learning_rate, broadcast_shape)
            # TF1 ran the reads and the scatter_adds unordered, so a read could see
            # this step's own update (its results varied run to run); here every
            # read happens first.
            with tf.control_dependencies([old_counts, old_centers, center_updates]):
                update_ops.append(tf.scatter_add(total_counts, unique_ids, count_updates))
                update_ops.append(tf.scatter_add(cluster_centers, unique_ids,
                                                 center_updates))
        return tf.group(*update_ops)

    def training_graph(self):
        """Builds the variables, the initialisation op and the training op.

        Run ``init_op`` until ``cluster_centers_initialized`` is True (once when the
        batch has at least ``num_clusters`` points; a smaller batch is taken whole by
        the random initialisation and init_op returns False until later batches
        complete the centres), then ``training_op`` as often as wanted.

        Returns:
          ``(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
          training_op)``: per input, the [num_points, num_clusters] distances, the
          nearest centre (int64) and the distance to it; the ``initialized`` bool
          variable; the op that chooses the centres (a bool tensor); the op of one
          Lloyd iteration (full batch) or one mini-batch step.
        """
        tf = _v1()
        inputs = self._inputs
        if self._distance_metric == COSINE_DISTANCE:
            inputs = [tf.nn.l2_normalize(inp, axis=1) for inp in inputs]
        init_value = tf.placeholder_with_default([], shape=None)
        cluster_centers = tf.Variable(init_value, name=CLUSTERS_VAR_NAME, validate_shape=False)
        initialized = tf.Variable(False, dtype=tf.bool, name="initialized")
        counts = (tf.Variable(tf.ones([self._num_clusters], dtype=tf.int64))
                  if self._use_mini_batch else None)
        init_op = self._init_op(inputs, cluster_centers, initialized)
        all_scores, scores, cluster_idx = self._infer_graph(inputs, cluster_centers)
        if self._use_mini_batch:
            training_op = self._mini_batch_training_op(inputs, cluster_idx, cluster_centers,
                                                       counts)
        else:
            training_op = self._full_batch_training_op(inputs, cluster_idx, cluster_centers)
        return all_scores, cluster_idx, scores, initialized, init_op, training_op
