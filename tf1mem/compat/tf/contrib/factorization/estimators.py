"""``tf.contrib.factorization.KMeansClustering`` and ``GMM``: TF1's clustering estimators.

This module owns the two estimators, built on tf1mem's ``tf.estimator.Estimator``
(:mod:`tf1mem.compat.tf.estimator`) over the graph builders
:class:`tf1mem.compat.tf.contrib.factorization.kmeans.KMeans` and
:class:`tf1mem.compat.tf.contrib.factorization.gmm_ops.GmmAlgorithm`. Written from TF 1.15.5's documented
behaviour and its outputs run as a black box (``tests/legacy_corpus/
kmeans_clustering_estimator.py`` and ``gmm_estimator.py``):

* Training first runs the initialisation op until the ``initialized`` variable is
  True (so a random or k-means++ initialisation reads one batch of the input_fn, as
  TF1's did: with ``limit_epochs(num_epochs=1)`` the first ``train()`` only chooses
  the centres; KMeans' random initialisation takes a batch no bigger than the
  centres still missing whole and reads further batches), then one Lloyd
  iteration, mini-batch update or EM iteration per step.


* The global step also counts the step that ended training on the input's end
  (``OutOfRangeError``): TF1's step increment did not wait for the input, so
  ``train()`` over a ``limit_epochs(..., 1)`` input moves the step by 2. Here a
  hook adds that step after the loop ends on end-of-input, deterministically.


* KMeansClustering: predictions ``all_distances`` / ``cluster_index``, the eval
  metric ``score`` (the summed distance of the points to their nearest centre,
  also the loss), ``cluster_centers()``, ``score()``, ``transform()``,
  ``predict_cluster_index()``; ``relative_tolerance`` stops training once
  |loss - previous loss| / (1 + |previous loss|) falls below it.


* GMM keeps TF 1.15's tf.contrib.learn interface: ``fit(input_fn=, steps=)``,
  ``evaluate(input_fn=, steps=)`` (``loss`` and the elementwise sum ``scores`` of
  the per-point log-likelihoods), ``predict(input_fn=, outputs=)`` yielding
  ``{'assignments': ...}``, ``predict_assignments``, ``score`` (the total
  log-likelihood), ``weights()``, ``clusters()`` ([K, D]), ``covariances()``.


Not provided: the contrib.learn ``x=`` / ``y=`` / ``batch_size=`` numpy arguments (a
ValueError says to pass ``input_fn``), KMeans' ``mini_batch_steps_per_iteration >
1``. On a cluster, the end-of-input step is counted by the chief only. The training hooks
subclass TF's ``SessionRunHook``, so the module imports TensorFlow at its top (it is loaded
only after TensorFlow).
"""

import tensorflow.compat.v1 as v1

from tf1mem.compat.tf.contrib.factorization import kmeans as _kmeans_lib
from tf1mem.compat.tf.contrib.factorization import gmm_ops as _gmm_lib
from tf1mem.compat.tf.estimator import estimator as _estimator_lib
from tf1mem.compat.tf.estimator import model_fn as _model_fn_lib

__all__ = ["KMeansClustering", "GMM"]

_ModeKeys = _model_fn_lib.ModeKeys
# Batches the initialisation may read (each must add a centre) before it is called stuck.
_MAX_INIT_RUNS = 10000


class _InitializeClustersHook(v1.train.SessionRunHook):
    """Runs the initialisation op once a session exists, unless already initialised."""

    def __init__(self, init_op, is_initialized):
        self._init_op = init_op
        self._is_initialized = is_initialized

    def after_create_session(self, session, coord):
        del coord
        # Each run reads one batch and adds up to the missing centres (KMeans'
        # random or callable initialisation over batches smaller than num_clusters).
        for _ in range(_MAX_INIT_RUNS):
            if session.run(self._is_initialized):
                return
            session.run(self._init_op)
        raise RuntimeError(f"the clustering initialisation op ran {_MAX_INIT_RUNS} "
                           f"times and the 'initialized' variable is still False: the "
                           f"input_fn gives empty batches, or initial_clusters' callable "
                           f"returns no centres")


class _CountEndOfInputStepHook(v1.train.SessionRunHook):
    """Adds the step that hit the end of the input to the global step (TF1 did)."""

    def __init__(self, increment_op):
        self._increment_op = increment_op
        self._pending = False

    def before_run(self, run_context):
        self._pending = True

    def after_run(self, run_context, run_values):
        self._pending = False

    def end(self, session):
        # end() runs only when the session closed cleanly: a run that did not
        # come back ended on OutOfRangeError / StopIteration.
        if self._pending:
            session.run(self._increment_op)
            self._pending = False


class _LossRelativeChangeHook(v1.train.SessionRunHook):
    """Stops training when the loss changes by less than ``tolerance``, relatively."""

    def __init__(self, loss, tolerance):
        self._loss = loss
        self._tolerance = tolerance
        self._previous = None

    def begin(self):
        self._previous = None

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._loss)

    def after_run(self, run_context, run_values):
        loss = float(run_values.results)
        if self._previous is not None and (abs(loss - self._previous)
                                           / (1.0 + abs(self._previous))
                                           < self._tolerance):
            run_context.request_stop()
        self._previous = loss


def _step_ops(training_op):
    """(the train op: training_op then global_step += 1, the lone increment op)."""
    global_step = v1.train.get_global_step()
    with v1.control_dependencies([training_op]):
        train_op = v1.assign_add(global_step, 1).op
    return train_op, v1.assign_add(global_step, 1).op


def _training_hooks(init_op, is_initialized, increment_op):
    """(training hooks, chief hooks). The step counter is a chief hook: chief hooks come
    before the CheckpointSaverHook, so its end() counts the step before the last save."""
    return ([_InitializeClustersHook(init_op, is_initialized)],
            [_CountEndOfInputStepHook(increment_op)])


def _matrix(features, feature_columns, who):
    """The [N, D] float input: a tensor, feature columns, or a dict concatenated by key."""
    if feature_columns is not None:
        return v1.feature_column.input_layer(features, list(feature_columns))
    if isinstance(features, dict):
        if not features:
            raise ValueError(f"{who}: the input_fn returned an empty dict of features")
        parts = []
        for key in sorted(features):
            value = v1.convert_to_tensor(features[key])
            parts.append(v1.reshape(value, [v1.shape(value)[0], -1]))
        return v1.concat(parts, 1)
    return v1.convert_to_tensor(features)


class KMeansClustering(_estimator_lib.Estimator):
    """The k-means estimator (TF 1.15's ``tf.contrib.factorization.KMeansClustering``).

    Args:
      num_clusters: the number of clusters, a positive int.
      model_dir: where checkpoints go (None: a temporary folder, as TF1).
      initial_clusters: ``RANDOM_INIT``, ``KMEANS_PLUS_PLUS_INIT``, a
        [num_clusters, dim] tensor or array, or a callable ``f(inputs, k)``.
      distance_metric: ``SQUARED_EUCLIDEAN_DISTANCE`` or ``COSINE_DISTANCE``.
      random_seed: the op seed of the initialisation.
      use_mini_batch: True (TF1's default): each step moves the centres to the running
        mean of the points seen; False: each step is a full Lloyd iteration on the batch.
      mini_batch_steps_per_iteration: only 1 is supported.
      kmeans_plus_plus_num_retries: candidates tried per k-means++ centre.
      relative_tolerance: stop training when the loss changes by less than this,
        relatively (None: never).
      config: a ``tf.estimator.RunConfig``.
      feature_columns: columns for ``tf.feature_column.input_layer``; None: the
        features tensor itself (a dict: its values concatenated in key order).

    Raises:
      ValueError: an unknown distance metric or initialisation, a num_clusters that is
        no positive int, an unsupported option (TF1's wording where TF1 had one).
    """

    SQUARED_EUCLIDEAN_DISTANCE = _kmeans_lib.SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = _kmeans_lib.COSINE_DISTANCE
    RANDOM_INIT = _kmeans_lib.RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = _kmeans_lib.KMEANS_PLUS_PLUS_INIT
    SCORE = "score"
    CLUSTER_CENTERS_VAR_NAME = _kmeans_lib.CLUSTERS_VAR_NAME
    CLUSTER_INDEX = "cluster_index"
    ALL_DISTANCES = "all_distances"

    def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, random_seed=0,
                 use_mini_batch=True, mini_batch_steps_per_iteration=1,
                 kmeans_plus_plus_num_retries=2, relative_tolerance=None, config=None,
                 feature_columns=None):
        if isinstance(initial_clusters, str) and initial_clusters not in (
                self.RANDOM_INIT, self.KMEANS_PLUS_PLUS_INIT):
            raise ValueError(f"Unsupported initialization algorithm '{initial_clusters}': "
                             f"use {self.RANDOM_INIT!r}, {self.KMEANS_PLUS_PLUS_INIT!r}, a "
                             f"tensor or array of centres, or a callable")
        if distance_metric not in (self.SQUARED_EUCLIDEAN_DISTANCE, self.COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric '{distance_metric}': use "
                             f"{self.SQUARED_EUCLIDEAN_DISTANCE!r} or "
                             f"{self.COSINE_DISTANCE!r}")
        if isinstance(num_clusters, bool) or not isinstance(num_clusters, int) \
                or num_clusters <= 0:
            raise ValueError(f"KMeansClustering: num_clusters must be a positive int, got "
                             f"{num_clusters!r}")
        if use_mini_batch and mini_batch_steps_per_iteration != 1:
            raise ValueError(f"KMeansClustering: mini_batch_steps_per_iteration="
                             f"{mini_batch_steps_per_iteration!r} is not supported by tf1mem "
                             f"(only 1, TF1's default); drop the argument")
        if relative_tolerance is not None and not relative_tolerance >= 0:
            raise ValueError(f"KMeansClustering: relative_tolerance must be None or >= 0, "
                             f"got {relative_tolerance!r}")
        self._kmeans_args = dict(
            num_clusters=num_clusters, initial_clusters=initial_clusters,
            distance_metric=distance_metric, use_mini_batch=bool(use_mini_batch),
            random_seed=random_seed, kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries)
        self._relative_tolerance = relative_tolerance
        self._feature_columns = feature_columns
        super().__init__(model_fn=self._kmeans_model_fn, model_dir=model_dir, config=config)

    def _kmeans_model_fn(self, features, labels, mode, config):
        """The model_fn: the KMeans graph, its loss, hooks, predictions and metric."""
        del labels, config  # unsupervised; TF1 ignored labels too
        inputs = _matrix(features, self._feature_columns, "KMeansClustering")
        (all_distances, cluster_index, scores, initialized, init_op,
         training_op) = _kmeans_lib.KMeans(inputs, **self._kmeans_args).training_graph()
        loss = v1.reduce_sum(scores[0])
        predictions = {self.ALL_DISTANCES: all_distances[0],
                       self.CLUSTER_INDEX: cluster_index[0]}
        if mode == _ModeKeys.PREDICT:
            return _model_fn_lib.EstimatorSpec(mode, predictions=predictions)
        train_op, increment_op = _step_ops(training_op)
        hooks, chief_hooks = _training_hooks(init_op, initialized, increment_op)
        if self._relative_tolerance is not None:
            hooks.append(_LossRelativeChangeHook(loss, self._relative_tolerance))
        return _model_fn_lib.EstimatorSpec(
            mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops={self.SCORE: v1.metrics.mean(loss)}, training_hooks=hooks,
            training_chief_hooks=chief_hooks)

    def _predict_one_key(self, input_fn, key):
        for result in self.predict(input_fn=input_fn, predict_keys=[key]):
            yield result[key]

    def predict_cluster_index(self, input_fn):
        """Yields the index of the nearest centre of each input point."""
        return self._predict_one_key(input_fn, self.CLUSTER_INDEX)

    def score(self, input_fn):
        """The sum of the distances of input_fn's first batch to their nearest centres
        (squared for the Euclidean metric; unlike sklearn's, not negated)."""
        return self.evaluate(input_fn=input_fn, steps=1)[self.SCORE]

    def transform(self, input_fn):
        """Yields each point's distances to every centre (squared Euclidean, or cosine)."""
        return self._predict_one_key(input_fn, self.ALL_DISTANCES)

    def cluster_centers(self):
        """The [num_clusters, dim] centres of the newest checkpoint."""
        return self.get_variable_value(self.CLUSTER_CENTERS_VAR_NAME)


def _no_numpy_args(who, **given):
    passed = sorted(name for name, value in given.items() if value is not None)
    if passed:
        raise ValueError(f"GMM.{who}: {', '.join(passed)} (tf.contrib.learn's numpy "
                         f"arguments) are not supported by tf1mem; pass input_fn instead, "
                         f"e.g. input_fn=lambda: (tf.constant(points), None)")


class GMM(_estimator_lib.Estimator):
    """The Gaussian-mixture estimator (TF 1.15's ``tf.contrib.factorization.GMM``).

    Args:
      num_clusters: the number of components, a positive int.
      model_dir: where checkpoints go (None: a temporary folder).
      random_seed: the op seed of the random initialisation.
      params: the parameters training updates: letters of ``"wmc"`` (weights, means,
        covariances).
      initial_clusters: ``"random"``, a [num_clusters, dim] tensor or array, or a
        callable ``f(data, num_clusters)``.
      covariance_type: ``"full"`` or ``"diag"``.
      config: a ``tf.estimator.RunConfig`` (tf.contrib.learn's RunConfig is the same).

    Raises:
      ValueError: an unknown covariance_type, params letter or initial_clusters
        string, or a num_clusters that is no positive int (TF 1.15 only failed, with a
        bare Exception, when the graph was built).
    """

    SCORES = "scores"
    LOG_LIKELIHOOD = "loss"
    ASSIGNMENTS = "assignments"

    def __init__(self, num_clusters, model_dir=None, random_seed=0, params="wmc",
                 initial_clusters="random", covariance_type="full", config=None):
        _gmm_lib._check_args(num_clusters, params, covariance_type, initial_clusters, "GMM")
        self._gmm_args = dict(num_classes=num_clusters, initial_means=initial_clusters,
                              params=params, covariance_type=covariance_type,
                              random_seed=random_seed)
        super().__init__(model_fn=self._gmm_model_fn, model_dir=model_dir, config=config)

    def _gmm_model_fn(self, features, labels, mode, config):
        """The model_fn: the EM graph, its log-likelihood loss, hooks and outputs."""
        del labels, config  # unsupervised
        algorithm = _gmm_lib.GmmAlgorithm(_matrix(features, None, "GMM"), **self._gmm_args)
        predictions = {self.ASSIGNMENTS: algorithm.assignments()[0]}
        if mode == _ModeKeys.PREDICT:
            return _model_fn_lib.EstimatorSpec(mode, predictions=predictions)
        loss = algorithm.log_likelihood_op()
        train_op, increment_op = _step_ops(algorithm.training_ops())
        hooks, chief_hooks = _training_hooks(algorithm.init_ops(),
                                             algorithm.is_initialized(), increment_op)
        return _model_fn_lib.EstimatorSpec(
            mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops={self.SCORES: _streaming_sum(algorithm.scores())},
            training_hooks=hooks, training_chief_hooks=chief_hooks)

    # tf.contrib.learn's spellings ------------------------------------------------------

    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None,
            max_steps=None):
        """Trains (tf.contrib.learn's ``fit``): ``steps`` more EM iterations, up to
        ``max_steps``, or until input_fn ends. Returns self."""
        _no_numpy_args("fit", x=x, y=y, batch_size=batch_size)
        return self.train(input_fn, hooks=monitors, steps=steps, max_steps=max_steps)

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None,
                 steps=None, metrics=None, name=None, checkpoint_path=None, hooks=None,
                 log_progress=True):
        """Evaluates on input_fn: ``loss`` (mean log-likelihood per batch), ``scores``
        (the per-point log-likelihoods, summed over the batches) and ``global_step``."""
        del log_progress
        _no_numpy_args("evaluate", x=x, y=y, feed_fn=feed_fn, batch_size=batch_size,
                       metrics=metrics)
        return super().evaluate(input_fn, steps=steps, hooks=hooks,
                                checkpoint_path=checkpoint_path, name=name)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True,
                iterate_batches=False):
        """Predicts ``{'assignments': ...}``: an iterator of examples (of batches with
        ``iterate_batches``), or with ``as_iterable=False`` one dict of whole arrays."""
        import numpy as np

        _no_numpy_args("predict", x=x, batch_size=batch_size)
        results = super().predict(input_fn, predict_keys=outputs,
                                  yield_single_examples=not iterate_batches and as_iterable)
        if as_iterable:
            return results
        batches = list(results)
        return {key: np.concatenate([b[key] for b in batches]) for key in batches[0]} \
            if batches else {}

    def predict_assignments(self, input_fn=None, batch_size=None, outputs=None):
        """Yields each input point's component (of highest posterior)."""
        for result in self.predict(input_fn=input_fn, batch_size=batch_size, outputs=outputs):
            yield result[self.ASSIGNMENTS]

    def score(self, input_fn=None, batch_size=None, steps=None):
        """The total log-likelihood, log sum_n p(x_n), of input_fn's data."""
        import numpy as np

        results = self.evaluate(input_fn=input_fn, batch_size=batch_size, steps=steps)
        return np.sum(results[self.LOG_LIKELIHOOD])

    def weights(self):
        """The [K] component weights of the newest checkpoint."""
        return self.get_variable_value(_gmm_lib.GmmAlgorithm.CLUSTERS_WEIGHT)

    def clusters(self):
        """The [K, D] means of the newest checkpoint."""
        means = self.get_variable_value(_gmm_lib.GmmAlgorithm.CLUSTERS_VARIABLE)
        return means.reshape(means.shape[0], -1)

    def covariances(self):
        """The covariances of the newest checkpoint: [K, D, D] (full) or [K, D] (diag)."""
        return self.get_variable_value(_gmm_lib.GmmAlgorithm.CLUSTERS_COVS_VARIABLE)


def _streaming_sum(values):
    """(value, update_op) of the elementwise sum of ``values`` over evaluation batches."""
    total = v1.Variable(v1.zeros([], values.dtype), trainable=False, validate_shape=False,
                        name="scores_sum", collections=[v1.GraphKeys.LOCAL_VARIABLES,
                                                        v1.GraphKeys.METRIC_VARIABLES])
    update = v1.assign(total, total + values, validate_shape=False)
    return v1.identity(total), update
