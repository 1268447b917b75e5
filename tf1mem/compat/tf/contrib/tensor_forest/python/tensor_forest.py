"""``tf.contrib.tensor_forest.python.tensor_forest``: TF1's online random forest, in TF ops.

This module owns tf1mem's re-implementation of the graph API TF1 code used
(``ForestHParams(...).fill()``, ``RandomForestGraphs(params)`` with ``training_graph``,
``inference_graph``, ``training_loss``, ``average_size``, ``feature_importances``) and
TF 1.15's parameter tables (``CLASSIFICATION_LEAF_MODEL_TYPES``, ``FINISH_TYPES``,
``PRUNING_TYPES``, ``SPLIT_TYPES``, ``REGRESSION_MODEL_TYPE``, their proto enum values).
TF 1.15's forest ran in custom C++ kernels that TF 2 does not ship; here every tree grows in
ordinary TF ops on resource variables, in graph mode, as TF1's did:

- Each tree starts as one leaf. A leaf that sees samples for the first time draws
  ``num_splits_to_consider`` candidate splits: a random feature (of the tree's bagged
  features) and, as threshold, that feature's value in a random sample that reached the
  leaf in the same batch.
- Every sample that reaches a leaf adds to the leaf's class counts and, for each candidate,
  to the counts of the samples going left (``x <= threshold``; ``x < threshold`` with
  ``split_name='less'``).
- Once a leaf has counted ``split_after_samples`` samples since its candidates were drawn,
  it splits on the candidate with the lowest weighted Gini impurity, while the tree has
  room (``max_nodes``); its two children start with that candidate's left and right class
  counts, and draw their own candidates. A leaf whose best candidate does not lower the
  impurity (a pure leaf, say) draws new candidates instead.
- Inference walks each tree to a leaf, takes the leaf's class counts normalised (uniform
  for a leaf that has seen nothing) and averages them over the trees.

That is TF 1.15's algorithm with its defaults (``model_name='all_dense'``,
``split_finish_name='basic'``, ``split_pruning_name='none'``): extremely randomised trees
grown online. Random like TF1's (``base_random_seed=0``); a non-zero seed makes the draws
repeatable. Guarantees: ``fill()`` sets the same values as TF 1.15.5 (the tests hold its
output); the returned tensors have TF1's dtypes and ranks; the accuracy on MNIST is within
the spread of TF 1.15.5's own runs (docs/CONTRIB_NOTES.md gives the figures). Not provided
(each a clear ValueError naming what to do): regression, sparse features, the other leaf
models, finish and pruning methods, ``num_trainers > 1``. The tree state lives in
variables (``tree_*`` and ``stats_*`` below the forest's scope), not in TF1's resources, so
``resources.shared_resources()`` is empty and ``global_variables_initializer`` initialises
the forest; its size is ``4 * num_trees * max_nodes * num_splits_to_consider *
(num_classes + 2)`` bytes of candidate statistics, refused above :data:`MAX_STATS_BYTES`.
"""

import math
import numbers
import random

import tensorflow as tf

__all__ = [
    "ForestHParams", "RandomForestGraphs", "CLASSIFICATION_LEAF_MODEL_TYPES",
    "REGRESSION_MODEL_TYPE", "FINISH_TYPES", "PRUNING_TYPES", "SPLIT_TYPES", "MAX_STATS_BYTES",
]

_v1 = tf.compat.v1

# TF 1.15's names -> its proto enum values (tensor_forest_params.proto, as fill() set them).
CLASSIFICATION_LEAF_MODEL_TYPES = {"all_dense": (0, 0), "all_sparse": (1, 1),
                                   "sparse_then_dense": (3, 3)}
REGRESSION_MODEL_TYPE = (2, 2, 0)
FINISH_TYPES = {"basic": 0, "hoeffding": 2, "bootstrap": 3}
PRUNING_TYPES = {"none": 0, "half": 1, "quarter": 2, "10_percent": 3, "hoeffding": 4}
SPLIT_TYPES = {"less_or_equal": 0, "less": 1}

# The candidate statistics are dense (one row per node); a forest needing more is refused
# with the figure rather than failing in the allocator.
MAX_STATS_BYTES = 4 << 30


class ForestHParams:
    """TF 1.15's random-forest hyper-parameters; :meth:`fill` derives the rest.

    Any keyword beyond the listed ones (``num_classes``, ``num_features``, ``regression``,
    ``base_random_seed``) becomes an attribute, as in TF1.
    """

    def __init__(self, num_trees=100, max_nodes=10000, bagging_fraction=1.0,
                 num_splits_to_consider=0, feature_bagging_fraction=1.0, max_fertile_nodes=0,
                 split_after_samples=250, valid_leaf_threshold=1, dominate_method="bootstrap",
                 dominate_fraction=0.99, model_name="all_dense", split_finish_name="basic",
                 split_pruning_name="none", prune_every_samples=0,
                 early_finish_check_every_samples=0, collate_examples=False,
                 checkpoint_stats=False, use_running_stats_method=False,
                 initialize_average_splits=False, inference_tree_paths=False, param_file=None,
                 split_name="less_or_equal", **kwargs):
        self.num_trees = num_trees
        self.max_nodes = max_nodes
        self.bagging_fraction = bagging_fraction
        self.feature_bagging_fraction = feature_bagging_fraction
        self.num_splits_to_consider = num_splits_to_consider
        self.max_fertile_nodes = max_fertile_nodes  # unused, as in TF 1.15
        self.split_after_samples = split_after_samples
        self.valid_leaf_threshold = valid_leaf_threshold
        self.dominate_method = dominate_method
        self.dominate_fraction = dominate_fraction
        self.model_name = model_name
        self.split_finish_name = split_finish_name
        self.split_pruning_name = split_pruning_name
        self.collate_examples = collate_examples
        self.checkpoint_stats = checkpoint_stats
        self.use_running_stats_method = use_running_stats_method
        self.initialize_average_splits = initialize_average_splits
        self.inference_tree_paths = inference_tree_paths
        self.param_file = param_file
        self.split_name = split_name
        self.early_finish_check_every_samples = early_finish_check_every_samples
        self.prune_every_samples = prune_every_samples
        for name, value in kwargs.items():
            setattr(self, name, value)

    def values(self):
        """The attributes as a dict (the object's own ``__dict__``, as in TF1)."""
        return self.__dict__

    def fill(self):
        """Sets the derived parameters as TF 1.15 did, and returns self.

        Raises:
          AttributeError: ``num_classes`` or ``num_features`` was not given (TF1's error).
          KeyError: an unknown ``model_name``, ``split_finish_name``,
            ``split_pruning_name`` or ``split_name`` (TF1's error).
        """
        num_classes = self.num_classes  # TF1's fail-fast AttributeError when missing
        num_features = self.num_features
        self.bagged_num_features = int(self.feature_bagging_fraction * num_features)
        self.bagged_features = None
        if self.feature_bagging_fraction < 1.0:
            self.bagged_features = [random.sample(range(num_features), self.bagged_num_features)
                                    for _ in range(self.num_trees)]
        self.regression = getattr(self, "regression", False)
        self.num_outputs = num_classes if self.regression else 1
        self.num_output_columns = num_classes + 1
        self.num_splits_to_consider = self.num_splits_to_consider or min(
            max(10, math.floor(math.sqrt(num_features))), 1000)
        self.base_random_seed = getattr(self, "base_random_seed", 0)
        types = (REGRESSION_MODEL_TYPE if self.regression
                 else CLASSIFICATION_LEAF_MODEL_TYPES[self.model_name])
        self.leaf_model_type, self.stats_model_type = types[0], types[1]
        self.finish_type = 0 if self.regression else FINISH_TYPES[self.split_finish_name]
        self.pruning_type = PRUNING_TYPES[self.split_pruning_name]
        if self.pruning_type == PRUNING_TYPES["none"]:
            self.prune_every_samples = 0
        else:
            self.prune_every_samples = (self.prune_every_samples
                                        or int(self.split_after_samples) / 2)
        if self.finish_type == FINISH_TYPES["basic"]:
            self.early_finish_check_every_samples = 0
        else:
            self.early_finish_check_every_samples = (self.early_finish_check_every_samples
                                                     or int(self.split_after_samples) / 4)
        self.split_type = SPLIT_TYPES[self.split_name]
        return self


def _positive_int(params, name):
    value = getattr(params, name)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"ForestHParams.{name} must be a positive int, got {value!r}")
    return int(value)


def _check(params):
    """The sizes this forest is built with; refuses what tf1mem does not implement."""
    if not hasattr(params, "num_output_columns"):
        raise ValueError("RandomForestGraphs needs filled hyper-parameters: pass "
                         "ForestHParams(...).fill(), as TF1 code did")
    if params.regression:
        raise ValueError("ForestHParams(regression=True): tf1mem's tensor_forest grows "
                         "classification forests only; for regression use TensorFlow "
                         "Decision Forests (pip install tensorflow_decision_forests) or "
                         "sklearn.ensemble.RandomForestRegressor")
    for name, value, supported in (
            ("model_name", params.model_name, "all_dense"),
            ("split_finish_name", params.split_finish_name, "basic"),
            ("split_pruning_name", params.split_pruning_name, "none")):
        if value != supported:
            raise ValueError(f"ForestHParams({name}={value!r}) is not supported by "
                             f"tf1mem's tensor_forest: leave the default {supported!r}")
    if params.param_file:
        raise ValueError(f"ForestHParams(param_file={params.param_file!r}) is not supported "
                         f"by tf1mem's tensor_forest: pass the parameters as arguments")
    sizes = {name: _positive_int(params, name) for name in (
        "num_trees", "max_nodes", "num_classes", "num_features", "num_splits_to_consider")}
    if isinstance(params.split_after_samples, str) and not params.split_after_samples.isdigit():
        raise ValueError(f"ForestHParams(split_after_samples={params.split_after_samples!r}):"
                         f" depth-dependent values are not supported by tf1mem's "
                         f"tensor_forest; give a number of samples")
    if float(params.split_after_samples) < 1:
        raise ValueError(f"ForestHParams.split_after_samples must be >= 1, got "
                         f"{params.split_after_samples!r}")
    if not 0.0 < params.bagging_fraction <= 1.0:
        raise ValueError(f"ForestHParams.bagging_fraction must be in (0, 1], got "
                         f"{params.bagging_fraction!r}")
    if params.bagged_num_features < 1:
        raise ValueError(f"ForestHParams.feature_bagging_fraction="
                         f"{params.feature_bagging_fraction!r} leaves no feature of "
                         f"{sizes['num_features']}: raise it")
    stats = 4 * sizes["num_trees"] * sizes["max_nodes"] * sizes["num_splits_to_consider"] * (
        sizes["num_classes"] + 2)
    if stats > MAX_STATS_BYTES:
        raise ValueError(
            f"tf1mem's tensor_forest keeps dense split statistics: num_trees="
            f"{sizes['num_trees']} x max_nodes={sizes['max_nodes']} x num_splits_to_consider="
            f"{sizes['num_splits_to_consider']} x (num_classes + 2) floats is {stats >> 20} "
            f"MiB, over its limit of {MAX_STATS_BYTES >> 20} MiB: lower max_nodes, num_trees "
            f"or num_splits_to_consider")
    return sizes


def _dense_features(input_data):
    """``[batch, num_features]`` float32 from a tensor or a dict of tensors (sorted keys)."""
    if isinstance(input_data, dict):
        if not input_data:
            raise ValueError("RandomForestGraphs: the input dict has no features")
        columns = []
        for key in sorted(input_data):
            value = input_data[key]
            if isinstance(value, tf.SparseTensor):
                raise ValueError(f"RandomForestGraphs: feature {key!r} is a SparseTensor; "
                                 f"tf1mem's tensor_forest takes dense features only "
                                 f"(tf.sparse.to_dense first)")
            value = tf.cast(value, tf.float32)
            columns.append(tf.reshape(value, [tf.shape(value)[0], -1]))
        return tf.concat(columns, 1)
    if isinstance(input_data, tf.SparseTensor):
        raise ValueError("RandomForestGraphs: a SparseTensor input is not supported by "
                         "tf1mem's tensor_forest; densify it first (tf.sparse.to_dense)")
    data = tf.convert_to_tensor(input_data)
    if data.dtype != tf.float32:
        data = tf.cast(data, tf.float32)
    return data


def _labels(input_labels):
    labels = input_labels
    if isinstance(labels, dict):
        if len(labels) != 1:
            raise ValueError(f"RandomForestGraphs: give one label tensor, got a dict with "
                             f"keys {sorted(labels)}")
        labels = next(iter(labels.values()))
    labels = tf.convert_to_tensor(labels)
    return tf.reshape(tf.cast(labels, tf.int32), [-1])


class RandomForestGraphs:
    """Builds the training and inference graphs of a random forest (TF1's class).

    Args:
      params: filled :class:`ForestHParams`.
      tree_configs, tree_stats: TF1's serialized initial trees; only None is supported.
      device_assigner: accepted for TF1's signature; the forest lives on one device.
      variables: only None is supported (the forest creates its own).
      training: accepted for TF1's signature.

    Raises:
      ValueError: parameters tf1mem does not support (see the module docstring).
    """

    def __init__(self, params, tree_configs=None, tree_stats=None, device_assigner=None,
                 variables=None, tree_variables_class=None, tree_graphs=None, training=True,
                 **kwargs):
        for name, value in (("tree_configs", tree_configs), ("tree_stats", tree_stats),
                            ("variables", variables), ("tree_variables_class",
                                                       tree_variables_class),
                            ("tree_graphs", tree_graphs)):
            if value is not None:
                raise ValueError(f"RandomForestGraphs({name}=...) is not supported by "
                                 f"tf1mem's tensor_forest: leave it None")
        self.params = params
        sizes = _check(params)
        self._trees = sizes["num_trees"]
        self._nodes = sizes["max_nodes"]
        self._classes = sizes["num_classes"]
        self._features = sizes["num_features"]
        self._splits = sizes["num_splits_to_consider"]
        self._split_after = float(params.split_after_samples)
        self._seed = params.base_random_seed or None
        self._less = params.split_type == SPLIT_TYPES["less"]
        if params.bagged_features:
            bagged = [list(b) for b in params.bagged_features]
            if len(bagged) != self._trees or len({len(b) for b in bagged}) != 1:
                raise ValueError("ForestHParams.bagged_features must hold one list of "
                                 "the same length per tree (fill() makes it)")
        else:
            bagged = [list(range(self._features))] * self._trees
        self._bagged = bagged
        self._build_variables()

    # --- state --------------------------------------------------------------------------

    def _build_variables(self):
        t, n, s, c = self._trees, self._nodes, self._splits, self._classes

        def var(name, shape, dtype, value):
            return _v1.get_variable(name, shape=shape, dtype=dtype, trainable=False,
                                    initializer=_v1.constant_initializer(value),
                                    use_resource=True)

        with _v1.variable_scope(None, default_name="random_forest") as scope:
            self._scope = scope.name
            # The trees: a node's split feature (-1: a leaf), threshold, left child (the
            # right one follows it), and how many nodes each tree uses.
            self._feature = var("tree_feature", [t, n], tf.int32, -1)
            self._threshold = var("tree_threshold", [t, n], tf.float32, 0.0)
            self._left = var("tree_left_child", [t, n], tf.int32, 0)
            self._size = var("tree_size", [t], tf.int32, 1)
            self._counts = var("tree_leaf_counts", [t, n, c], tf.float32, 0.0)
            # The leaves' statistics: candidates drawn?, their features and thresholds, the
            # class counts since they were drawn and, per candidate, those that went left.
            self._ready = var("stats_ready", [t, n], tf.bool, False)
            self._cand_feature = var("stats_candidate_feature", [t, n, s], tf.int32, 0)
            self._cand_threshold = var("stats_candidate_threshold", [t, n, s], tf.float32, 0.0)
            self._fertile = var("stats_counts", [t, n, c], tf.float32, 0.0)
            self._cand_left = var("stats_left_counts", [t, n, c, s], tf.float32, 0.0)
            self._bagged_table = tf.constant(self._bagged, tf.int32, name="bagged_features")

    # --- routing ------------------------------------------------------------------------

    def _goes_left(self, values, thresholds):
        return values < thresholds if self._less else values <= thresholds

    def _leaves(self, data, feature, threshold, left):
        """``[num_trees, batch]`` int32: the leaf each sample reaches in each tree."""
        t = self._trees
        batch = tf.shape(data)[0]
        rows = tf.broadcast_to(tf.range(batch)[None, :], [t, batch])
        trees = tf.broadcast_to(tf.range(t)[:, None], [t, batch])

        def step(node):
            at = tf.stack([trees, node], -1)
            f = tf.gather_nd(feature, at)
            leaf = f < 0
            values = tf.gather_nd(data, tf.stack([rows, tf.maximum(f, 0)], -1))
            child = tf.gather_nd(left, at) + tf.cast(
                tf.logical_not(self._goes_left(values, tf.gather_nd(threshold, at))), tf.int32)
            return tf.where(leaf, node, child), tf.reduce_all(leaf)

        def cond(node, done):
            return tf.logical_not(done)

        def body(node, done):
            return step(node)

        start = tf.zeros([t, batch], tf.int32)
        node, _ = tf.while_loop(cond, body, (start, tf.constant(False)),
                                maximum_iterations=self._nodes,
                                name="route")
        return node

    # --- training -----------------------------------------------------------------------

    def training_graph(self, input_data, input_labels, num_trainers=1, trainer_id=0,
                       input_weights=None, **tree_kwargs):
        """The op that trains the forest on one batch.

        Args:
          input_data: ``[batch, num_features]`` tensor, or a dict of tensors (concatenated
            in sorted key order).
          input_labels: ``[batch]`` (or ``[batch, 1]``) class ids.
          num_trainers, trainer_id: only one trainer is supported.
          input_weights: optional ``[batch]`` example weights.

        Returns:
          An Operation (TF1's ``train`` group).
        """
        if num_trainers != 1 or trainer_id != 0:
            raise ValueError(f"training_graph(num_trainers={num_trainers!r}, trainer_id="
                             f"{trainer_id!r}): tf1mem's tensor_forest trains all trees in "
                             f"one trainer; leave the defaults")
        if tree_kwargs:
            raise ValueError(f"training_graph: unexpected arguments {sorted(tree_kwargs)}")
        with _v1.name_scope(None, "random_forest_training"):
            data = _dense_features(input_data)
            labels = _labels(input_labels)
            return self._train(data, labels, input_weights)

    def _random(self, shape, maxval):
        return tf.random.uniform(shape, maxval=maxval, dtype=tf.int32, seed=self._seed)

    def _train(self, data, labels, input_weights):
        t, n, s, c = self._trees, self._nodes, self._splits, self._classes
        reads = [v.read_value() for v in (
            self._feature, self._threshold, self._left, self._size, self._counts, self._ready,
            self._cand_feature, self._cand_threshold, self._fertile, self._cand_left)]
        (feature, threshold, left, size, counts, ready, cand_feature, cand_threshold, fertile,
         cand_left) = reads
        batch = tf.shape(data)[0]
        data = tf.ensure_shape(data, [None, self._features])
        checks = [tf.debugging.assert_less(
            labels, c, message=f"tensor_forest: a label is >= num_classes={c}"),
            tf.debugging.assert_non_negative(labels, message="tensor_forest: a negative label")]
        with tf.control_dependencies(checks):
            labels = tf.identity(labels)
        weights = tf.ones([t, batch], tf.float32)
        if self.params.bagging_fraction < 1.0:
            draw = tf.random.uniform([t, batch], seed=self._seed)
            weights *= tf.cast(draw < self.params.bagging_fraction, tf.float32)
        if input_weights is not None:
            weights *= tf.reshape(tf.cast(input_weights, tf.float32), [1, -1])
        leaf = self._leaves(data, feature, threshold, left)  # [t, batch]
        trees = tf.broadcast_to(tf.range(t)[:, None], [t, batch])
        segment = tf.reshape(trees * n + leaf, [-1])
        used = tf.reshape(weights > 0, [-1])
        seen = tf.reshape(tf.math.unsorted_segment_sum(
            tf.reshape(weights, [-1]), segment, t * n), [t, n])

        # New candidates where a leaf without them sees samples: random features of the
        # tree's bag; thresholds from a random sample of this batch at that leaf (the one
        # with the largest random key wins its segment).
        draw_new = tf.logical_and(tf.logical_not(ready), seen > 0)
        keys = tf.cast(self._random([t * batch, s], 1 << 30), tf.int64) * (1 << 32) + \
            tf.cast(tf.reshape(tf.broadcast_to(tf.range(batch)[None, :, None], [t, batch, 1]),
                               [-1, 1]), tf.int64)
        keys = tf.where(used[:, None], keys, tf.constant(-1, tf.int64))
        winner = tf.math.unsorted_segment_max(keys, segment, t * n)  # [t*n, s]
        winner_row = tf.reshape(tf.cast(tf.math.floormod(tf.maximum(winner, 0), 1 << 32),
                                        tf.int32), [t, n, s])
        new_feature = tf.gather(self._bagged_table, self._random(
            [t, n, s], len(self._bagged[0])), batch_dims=1)
        new_threshold = tf.gather_nd(data, tf.stack([winner_row, new_feature], -1))
        cand_feature = tf.where(draw_new[..., None], new_feature, cand_feature)
        cand_threshold = tf.where(draw_new[..., None], new_threshold, cand_threshold)

        # Statistics: every sample counts in its leaf; in the split statistics of a leaf
        # whose candidates were drawn before this batch, for each candidate, those going
        # left (the batch that draws them only draws them, as TF1's first samples at a leaf
        # only initialised its candidates).
        at = tf.stack([trees, leaf], -1)
        counting = tf.reshape(weights * tf.cast(tf.gather_nd(ready, at), tf.float32), [-1])
        ready = tf.logical_or(ready, draw_new)
        flat_labels = tf.reshape(tf.broadcast_to(labels[None, :], [t, batch]), [-1])
        cell = segment * c + flat_labels
        counts += tf.reshape(tf.math.unsorted_segment_sum(
            tf.reshape(weights, [-1]), cell, t * n * c), [t, n, c])
        fertile += tf.reshape(tf.math.unsorted_segment_sum(counting, cell, t * n * c), [t, n, c])
        sample_features = tf.gather_nd(cand_feature, at)  # [t, batch, s]
        rows = tf.broadcast_to(tf.range(batch)[None, :, None], [t, batch, s])
        values = tf.gather_nd(data, tf.stack([rows, sample_features], -1))
        went_left = tf.cast(self._goes_left(values, tf.gather_nd(cand_threshold, at)),
                            tf.float32)
        cand_left += tf.reshape(tf.math.unsorted_segment_sum(
            tf.reshape(went_left, [-1, s]) * counting[:, None], cell, t * n * c), [t, n, c, s])

        # Splits: leaves with enough samples, on the candidate of least weighted Gini; only
        # those leaves' statistics are read (a few per tree and step).
        total = tf.reduce_sum(fertile, -1)  # [t, n]
        due = tf.logical_and(tf.logical_and(ready, feature < 0), total >= self._split_after)
        due_at = tf.cast(tf.where(due), tf.int32)  # [k, 2]: (tree, leaf)
        due_left = tf.gather_nd(cand_left, due_at)  # [k, c, s]
        due_counts = tf.gather_nd(fertile, due_at)  # [k, c]
        due_right = due_counts[..., None] - due_left
        n_left = tf.reduce_sum(due_left, 1)
        n_right = tf.reduce_sum(due_right, 1)
        score = (tf.math.divide_no_nan(tf.reduce_sum(tf.square(due_left), 1), n_left)
                 + tf.math.divide_no_nan(tf.reduce_sum(tf.square(due_right), 1), n_right))
        valid = tf.logical_and(n_left > 0, n_right > 0)
        score = tf.where(valid, score, tf.fill(tf.shape(score), -1.0))  # [k, s]
        best = tf.argmax(score, -1, output_type=tf.int32)  # [k]
        parent = tf.math.divide_no_nan(tf.reduce_sum(tf.square(due_counts), -1),
                                       tf.reduce_sum(due_counts, -1))
        improves = tf.reduce_max(score, -1) > parent * (1.0 + 1e-6)  # [k]
        wanted = tf.scatter_nd(due_at, tf.cast(improves, tf.int32), [t, n]) > 0
        rank = tf.cumsum(tf.cast(wanted, tf.int32), axis=1, exclusive=True)
        child = size[:, None] + 2 * rank
        split = tf.logical_and(wanted, child + 2 <= n)
        new_size = size + 2 * tf.reduce_sum(tf.cast(split, tf.int32), 1)
        # Per due leaf: does it split, its chosen feature, threshold and children.
        splits = tf.gather_nd(split, due_at)  # [k]
        best_at = tf.concat([due_at, best[:, None]], -1)  # [k, 3]
        first = tf.gather_nd(child, due_at)
        parents = tf.boolean_mask(due_at, splits)
        chosen = tf.boolean_mask(best_at, splits)
        first = tf.boolean_mask(first, splits)
        feature = tf.tensor_scatter_nd_update(feature, parents, tf.gather_nd(cand_feature,
                                                                             chosen))
        threshold = tf.tensor_scatter_nd_update(threshold, parents,
                                                tf.gather_nd(cand_threshold, chosen))
        left = tf.tensor_scatter_nd_update(left, parents, first)
        # The children start with the chosen candidate's left and right counts.
        best_left = tf.gather(due_left, best, batch_dims=1, axis=2)  # [k, c]
        chosen_left = tf.boolean_mask(best_left, splits)
        child_at = tf.concat([tf.stack([parents[:, 0], first], -1),
                              tf.stack([parents[:, 0], first + 1], -1)], 0)
        child_counts = tf.concat(
            [chosen_left, tf.boolean_mask(due_counts, splits) - chosen_left], 0)
        counts = tf.tensor_scatter_nd_update(counts, child_at, child_counts)
        # Leaves that split or found no useful split forget their candidates.
        reset = tf.logical_or(splits, tf.logical_not(improves))
        reset_at = tf.boolean_mask(due_at, reset)
        ready = tf.tensor_scatter_nd_update(ready, reset_at,
                                            tf.zeros(tf.shape(reset_at)[:1], tf.bool))
        fertile = tf.tensor_scatter_nd_update(fertile, reset_at,
                                              tf.zeros([tf.shape(reset_at)[0], c]))
        cand_left = tf.tensor_scatter_nd_update(cand_left, reset_at,
                                                tf.zeros([tf.shape(reset_at)[0], c, s]))

        news = (feature, threshold, left, new_size, counts, ready, cand_feature, cand_threshold,
                fertile, cand_left)
        with tf.control_dependencies(reads):
            assigns = [v.assign(value, read_value=False) for v, value in zip((
                self._feature, self._threshold, self._left, self._size, self._counts,
                self._ready, self._cand_feature, self._cand_threshold, self._fertile,
                self._cand_left), news)]
        return tf.group(*assigns, name="train")

    # --- inference ----------------------------------------------------------------------

    def inference_graph(self, input_data, **inference_args):
        """``(probabilities, tree_paths, variance)`` for a batch.

        Returns:
          probabilities: ``[batch, num_classes]`` float32, the trees' normalised leaf
            counts averaged; tree_paths: ``[0, num_trees]`` string (TF1's, empty unless
            ``inference_tree_paths``, which is not supported); variance: ``[batch,
            num_classes]`` float32, the variance over the trees.
        """
        if inference_args:
            raise ValueError(f"inference_graph: unexpected arguments {sorted(inference_args)}")
        if self.params.inference_tree_paths:
            raise ValueError("ForestHParams(inference_tree_paths=True) is not supported by "
                             "tf1mem's tensor_forest: leave it False")
        with _v1.name_scope(None, "random_forest_inference"):
            data = tf.ensure_shape(_dense_features(input_data), [None, self._features])
            leaf = self._leaves(data, self._feature.read_value(),
                                self._threshold.read_value(), self._left.read_value())
            trees = tf.broadcast_to(tf.range(self._trees)[:, None], tf.shape(leaf))
            counts = tf.gather_nd(self._counts.read_value(), tf.stack([trees, leaf], -1))
            total = tf.reduce_sum(counts, -1, keepdims=True)
            probs = tf.where(total > 0, tf.math.divide_no_nan(counts, total),
                             tf.fill(tf.shape(counts), 1.0 / self._classes))  # [t, b, c]
            average = tf.reduce_mean(probs, 0, name="probabilities")
            variance = tf.maximum(0.0, tf.reduce_mean(tf.square(probs), 0) - tf.square(average))
            paths = tf.fill([0, self._trees], "")
            return average, paths, variance

    # --- summaries ----------------------------------------------------------------------

    def average_size(self):
        """Scalar float32: the mean number of nodes per tree."""
        return tf.reduce_mean(tf.cast(self._size.read_value(), tf.float32))

    def training_loss(self, features=None, labels=None, name="training_loss"):
        """TF1's training loss: minus the average tree size (features, labels unused)."""
        return tf.negative(self.average_size(), name=name)

    def validation_loss(self, features=None, labels=None):
        return tf.negative(self.average_size())

    def feature_importances(self):
        """``[num_features]`` float32: how often each feature splits a node, normalised."""
        used = tf.reshape(self._feature.read_value(), [-1])
        used = tf.boolean_mask(used, used >= 0)
        counts = tf.cast(tf.math.bincount(used, minlength=self._features,
                                          maxlength=self._features), tf.float32)
        return counts / tf.reduce_sum(counts)
