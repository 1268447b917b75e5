"""TF 1.15's ``tf.contrib.layers`` feature columns that the contrib.learn estimators take.

Owns the column records (named, printed and sorted as TF 1.15's: ``real_valued_column``,
``sparse_column_with_keys``, ``sparse_column_with_hash_bucket``, ``bucketized_column``,
``embedding_column``), ``infer_real_valued_columns`` (one column per feature of a Tensor
or a dict of them), and how the contrib.learn canned models read them: the input layer
of a DNN (:func:`dnn_input`: dense values, one-hot buckets, embeddings of sparse ids
under ``<column>_embedding/weights``) and the weighted sum of a linear model
(:func:`linear_logits`: ``<column>/weight`` for dense columns, ``<column>/weights`` rows
for sparse ids, ``bias_weight``), built from the same ops in the same order as TF 1.15
(its seeded initial embeddings depend on that). ``crossed_column`` is not provided: TF
1.15 hashed crosses with a contrib kernel TF 2 does not have. Nothing here imports
TensorFlow at import time.
"""

import collections

__all__ = ["real_valued_column", "sparse_column_with_keys", "sparse_column_with_hash_bucket",
           "bucketized_column", "embedding_column", "infer_real_valued_columns", "dnn_input",
           "linear_logits"]


def _tf():
    import tensorflow as tf

    return tf


def _key(column, leave_out=()):
    """TF 1.15's sort key of a column: its fields as ``name=str(value)``."""
    fields = ", ".join(f"{name}={value}" for name, value in zip(column._fields, column)
                       if name not in leave_out)
    return f"{type(column).__name__}({fields})"


class _RealValuedColumn(collections.namedtuple(
        "_RealValuedColumn",
        ["column_name", "dimension", "default_value", "dtype", "normalizer"])):
    """A dense feature of ``dimension`` floats (TF 1.15's contrib ``_RealValuedColumn``)."""

    @property
    def name(self):
        return self.column_name

    @property
    def key(self):
        """What TF 1.15 sorted the columns of an input layer by (the normalizer aside)."""
        return _key(self, ("normalizer",))

    def dnn_tensor(self, features):
        return self.dense_tensor(features)

    def dense_tensor(self, features):
        """The column's ``[batch, dimension]`` float32 input from ``features``.

        Raises:
          ValueError: the feature is missing or is a SparseTensor.
        """
        tf = _tf()
        if self.column_name not in features:
            raise ValueError(f"feature column {self.column_name!r} is not among the features "
                             f"{sorted(features)}: the input must provide it (x given as one "
                             f"array is the feature '')")
        value = features[self.column_name]
        if isinstance(value, tf.SparseTensor):
            raise ValueError(f"real_valued_column {self.column_name!r} got a SparseTensor; "
                             f"feed a dense Tensor")
        if self.normalizer is not None:
            value = self.normalizer(value)
        if value.shape.rank == 1:
            value = tf.expand_dims(value, -1)
        elif value.shape.rank is not None and value.shape.rank > 2:
            value = tf.reshape(value, [-1, self.dimension])
        if value.dtype != tf.float32:
            value = tf.cast(value, tf.float32)
        return value


class _SparseIdLookupConfig(collections.namedtuple(
        "_SparseIdLookupConfig",
        ["vocabulary_file", "keys", "num_oov_buckets", "vocab_size", "default_value"])):
    """The vocabulary of a ``sparse_column_with_keys``."""


class _SparseColumn(collections.namedtuple(
        "_SparseColumn",
        ["column_name", "is_integerized", "bucket_size", "lookup_config", "combiner",
         "dtype"])):
    """A feature of ids or strings mapped to ids ``[0, length)`` (TF 1.15's record)."""

    @property
    def name(self):
        return self.column_name

    @property
    def length(self):
        return self.bucket_size if self.bucket_size is not None else (
            self.lookup_config.vocab_size)

    @property
    def key(self):
        return repr(self)

    def _sparse_input(self, features):
        """The feature as a SparseTensor: a dense one without its empty entries ("" for
        strings, -1 for numbers), as TF 1.15's DenseToSparseTensor."""
        tf = _tf()
        if self.column_name not in features:
            raise ValueError(f"feature column {self.column_name!r} is not among the features "
                             f"{sorted(features)}: the input must provide it")
        value = features[self.column_name]
        if isinstance(value, tf.SparseTensor):
            return value
        value = tf.convert_to_tensor(value)
        if value.shape.rank == 1:
            value = tf.expand_dims(value, -1)
        with tf.compat.v1.name_scope("DenseToSparseTensor"):
            ignore = tf.cast("" if value.dtype == tf.string else -1, value.dtype,
                             name="ignore_value")
            indices = tf.compat.v1.where(tf.not_equal(value, ignore), name="indices")
            return tf.SparseTensor(indices, tf.gather_nd(value, indices, name="values"),
                                   tf.shape(value, out_type=tf.int64, name="dense_shape"))

    def sparse_ids(self, features):
        """The feature's ids, a SparseTensor of int64 in ``[0, length)`` (-1: unknown)."""
        return self._ids(self._sparse_input(features))

    def dnn_tensor(self, features):
        raise ValueError(f"SparseColumn is not supported in DNN. Please use embedding_column: "
                         f"tf.contrib.layers.embedding_column({self.column_name!r} column, "
                         f"dimension=...). column: {self}")


class _SparseColumnHashed(_SparseColumn):
    """``sparse_column_with_hash_bucket``: ids are hashes of the strings."""

    def _ids(self, sparse):
        tf = _tf()
        values = sparse.values
        if values.dtype.is_integer:
            values = tf.strings.as_string(values)
        ids = tf.strings.to_hash_bucket_fast(values, self.bucket_size, name="lookup")
        return tf.SparseTensor(sparse.indices, ids, sparse.dense_shape)


class _SparseColumnKeys(_SparseColumn):
    """``sparse_column_with_keys``: ids are positions in the keys (-1 when absent)."""

    def _ids(self, sparse):
        from tensorflow.python.ops import lookup_ops

        table = lookup_ops.index_table_from_tensor(
            vocabulary_list=tuple(self.lookup_config.keys),
            default_value=self.lookup_config.default_value, dtype=self.dtype, name="lookup")
        return table.lookup(sparse)


class _BucketizedColumn(collections.namedtuple(
        "_BucketizedColumn", ["source_column", "boundaries"])):
    """A real-valued column cut at ``boundaries`` into ``len(boundaries) + 1`` buckets."""

    @property
    def name(self):
        return self.source_column.name + "_bucketized"

    @property
    def length(self):
        return len(self.boundaries) + 1

    @property
    def key(self):
        return repr(self)

    def _buckets(self, features):
        tf = _tf()
        value = self.source_column.dense_tensor(features)
        return tf.raw_ops.Bucketize(input=value, boundaries=[float(b) for b in self.boundaries],
                                    name="bucketize")

    def dnn_tensor(self, features):
        tf = _tf()
        one_hot = tf.one_hot(tf.cast(self._buckets(features), tf.int64), self.length, 1., 0.,
                             name="one_hot")
        return tf.reshape(one_hot, [-1, self.length * self.source_column.dimension],
                          name="reshape")

    def sparse_ids(self, features):
        """Bucket ``b`` of dimension ``d`` is id ``d * length + b``."""
        tf = _tf()
        buckets = tf.cast(self._buckets(features), tf.int64)
        dimension = self.source_column.dimension
        rows = tf.shape(buckets, out_type=tf.int64)[0]
        ids = buckets + tf.range(dimension, dtype=tf.int64) * self.length
        row_index = tf.reshape(tf.tile(tf.expand_dims(tf.range(rows), 1), [1, dimension]),
                               [-1])
        dim_index = tf.tile(tf.range(dimension, dtype=tf.int64), [rows])
        return tf.SparseTensor(tf.stack([row_index, dim_index], 1), tf.reshape(ids, [-1]),
                               tf.stack([rows, dimension]))

    def vocab_size(self):
        return self.length * self.source_column.dimension


class _EmbeddingColumn(collections.namedtuple(
        "_EmbeddingColumn",
        ["sparse_id_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
         "tensor_name_in_ckpt", "shared_embedding_name", "shared_vocab_size", "max_norm",
         "trainable"])):
    """A DNN input: the ``combiner`` of learned ``dimension``-vectors of a sparse column's
    ids (``<sparse name>_embedding/weights``)."""

    @property
    def name(self):
        return self.sparse_id_column.name + "_embedding"

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def key(self):
        return _key(self, ("initializer",))

    def dnn_tensor(self, features, collection="dnn"):
        import importlib

        import tf_slim

        tf = _tf()
        ids = self.sparse_id_column.sparse_ids(features)
        ids = importlib.import_module("tf_slim.layers.layers")._inner_flatten(ids, 2)
        weights = tf_slim.model_variable(
            "weights", shape=[self.length, self.dimension], initializer=self.initializer,
            trainable=self.trainable, collections=[collection])
        parts = list(weights) if not isinstance(weights, tf.Variable) else [weights]
        return _safe_embedding_lookup_sparse(parts, ids, self.combiner, self.name + "weights",
                                             self.max_norm)


def real_valued_column(column_name, dimension=1, default_value=None, dtype=None,
                       normalizer=None):
    """TF 1.15's ``tf.contrib.layers.real_valued_column``: a dense feature.

    Args:
      column_name: the features key ('' is the whole ``x`` of ``fit(x=...)``).
      dimension: the number of floats per example (an integer >= 1).
      default_value: a number or a list of ``dimension`` numbers, or None.
      dtype: ``tf.float32`` (default) or another float or integer dtype.
      normalizer: a function applied to the feature's Tensor, or None.

    Raises:
      TypeError / ValueError: a bad dimension, dtype or default_value.
    """
    tf = _tf()
    dtype = tf.float32 if dtype is None else tf.as_dtype(dtype)
    if not isinstance(column_name, str):
        raise TypeError(f"real_valued_column: column_name must be a string, got "
                        f"{column_name!r}")
    if isinstance(dimension, bool) or not isinstance(dimension, int) or dimension < 1:
        raise ValueError(f"real_valued_column({column_name!r}): dimension must be an integer "
                         f">= 1, got {dimension!r}")
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"real_valued_column({column_name!r}): dtype must be an integer or "
                         f"float dtype, got {dtype!r}")
    if default_value is not None:
        values = list(default_value) if isinstance(default_value, (list, tuple)) else [
            default_value] * dimension
        if len(values) != dimension:
            raise ValueError(f"real_valued_column({column_name!r}): default_value has "
                             f"{len(values)} entries, dimension is {dimension}")
        cast = float if dtype.is_floating else int
        default_value = tuple(cast(v) for v in values)
    return _RealValuedColumn(column_name, dimension, default_value, dtype, normalizer)


def _check_name(column_name, what):
    if not isinstance(column_name, str) or not column_name:
        raise ValueError(f"{what}: column_name must be a non-empty string, got {column_name!r}")


def _check_combiner(combiner, what):
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(f"{what}: combiner must be 'sum', 'mean' or 'sqrtn', got {combiner!r}")


def sparse_column_with_hash_bucket(column_name, hash_bucket_size, combiner="sum", dtype=None,
                                   hash_keys=None):
    """TF 1.15's ``tf.contrib.layers.sparse_column_with_hash_bucket``: string (or integer)
    values hashed into ``hash_bucket_size`` ids.

    Raises:
      ValueError: a bad size, combiner or dtype; NotImplementedError: hash_keys.
    """
    tf = _tf()
    what = f"sparse_column_with_hash_bucket({column_name!r})"
    _check_name(column_name, what)
    dtype = tf.string if dtype is None else tf.as_dtype(dtype)
    if isinstance(hash_bucket_size, bool) or not isinstance(hash_bucket_size, int) or \
            hash_bucket_size < 1:
        raise ValueError(f"{what}: hash_bucket_size must be an integer >= 1, got "
                         f"{hash_bucket_size!r}")
    if dtype != tf.string and not dtype.is_integer:
        raise ValueError(f"{what}: dtype must be string or integer, got {dtype!r}")
    _check_combiner(combiner, what)
    if hash_keys:
        raise NotImplementedError(f"{what}: hash_keys is not provided by tf1mem; leave it "
                                  f"None")
    return _SparseColumnHashed(column_name, False, hash_bucket_size, None, combiner, dtype)


def sparse_column_with_keys(column_name, keys, default_value=-1, combiner="sum", dtype=None):
    """TF 1.15's ``tf.contrib.layers.sparse_column_with_keys``: the position of the value
    in ``keys`` is its id (``default_value``, -1, drops an unknown value)."""
    tf = _tf()
    what = f"sparse_column_with_keys({column_name!r})"
    _check_name(column_name, what)
    dtype = tf.string if dtype is None else tf.as_dtype(dtype)
    keys = tuple(keys)
    if not keys:
        raise ValueError(f"{what}: keys must not be empty")
    _check_combiner(combiner, what)
    config = _SparseIdLookupConfig(None, keys, 0, len(keys), default_value)
    return _SparseColumnKeys(column_name, False, None, config, combiner, dtype)


def bucketized_column(source_column, boundaries):
    """TF 1.15's ``tf.contrib.layers.bucketized_column`` of a real_valued_column."""
    if not isinstance(source_column, _RealValuedColumn):
        raise TypeError(f"bucketized_column: source_column must be a real_valued_column, got "
                        f"{source_column!r}")
    if not isinstance(boundaries, (list, tuple)) or not boundaries:
        raise ValueError(f"bucketized_column({source_column.name!r}): boundaries must be a "
                         f"non-empty sorted list, got {boundaries!r}")
    if list(boundaries) != sorted(boundaries):
        raise ValueError(f"bucketized_column({source_column.name!r}): boundaries must be a "
                         f"sorted list, got {boundaries!r}")
    sanitized = tuple(sorted(set(boundaries)))
    return _BucketizedColumn(source_column, sanitized)


def embedding_column(sparse_id_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
    """TF 1.15's ``tf.contrib.layers.embedding_column``: learned vectors for a sparse
    column's ids (truncated normal, stddev 1/sqrt(the sparse column's length), unless
    ``initializer``)."""
    import math

    tf = _tf()
    if not isinstance(sparse_id_column, _SparseColumn):
        raise ValueError(f"embedding_column: sparse_id_column must be a sparse_column_with_* "
                         f"column, got {sparse_id_column!r}")
    if isinstance(dimension, bool) or not isinstance(dimension, int) or dimension < 1:
        raise ValueError(f"embedding_column({sparse_id_column.name!r}): dimension must be an "
                         f"integer >= 1, got {dimension!r}")
    _check_combiner(combiner, f"embedding_column({sparse_id_column.name!r})")
    if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None:
        raise NotImplementedError("embedding_column(ckpt_to_load_from=...) is not provided "
                                  "by tf1mem: restore the checkpoint with "
                                  "tf.train.init_from_checkpoint after building the model")
    if initializer is None:
        initializer = tf.compat.v1.truncated_normal_initializer(
            mean=0.0, stddev=1 / math.sqrt(sparse_id_column.length))
    elif not callable(initializer):
        raise ValueError(f"embedding_column: initializer must be callable, got "
                         f"{initializer!r}")
    return _EmbeddingColumn(sparse_id_column, dimension, combiner, initializer, None, None,
                            None, None, max_norm, trainable)


def infer_real_valued_columns(features):
    """One real_valued_column per feature: ``''`` for a Tensor, each key of a dict.

    A column has its feature's dtype, as in TF 1.15.
    """
    if not isinstance(features, dict):
        features = {"": features}
    columns = []
    for key in sorted(features):
        value = features[key]
        dimension = 1
        for size in value.shape[1:]:
            dimension *= int(size)
        columns.append(real_valued_column(key, dimension=dimension,
                                          dtype=value.dtype.base_dtype))
    return columns


def _safe_embedding_lookup_sparse(params, sparse_ids, combiner, name, max_norm=None):
    """The ``combiner`` of the rows of ``params`` each example's ids pick (zeros for an
    example without valid ids), ``[batch, width]``.

    TF 1.15's ``safe_embedding_lookup_sparse`` with the lookup it made: unique ids
    gathered, then a sparse segment reduction over int32 segment ids. TF 2 reduces over
    the variable directly, with fewer ops; the seeded initializers built after an
    embedding take the number of ops before them as their seed, so the ops are TF 1.15's.
    """
    tf = _tf()
    v1 = tf.compat.v1
    reduce = {"sum": v1.sparse_segment_sum, "mean": v1.sparse_segment_mean,
              "sqrtn": v1.sparse_segment_sqrt_n}[combiner]
    with v1.name_scope(name, "embedding_lookup", params + [sparse_ids]) as scope:
        shape = sparse_ids.dense_shape
        rank = tf.compat.dimension_value(shape.get_shape()[0])
        rank = tf.size(shape) if rank is None else rank
        sparse_ids = tf.sparse.reshape(sparse_ids, [
            tf.reduce_prod(tf.slice(shape, [0], [rank - 1])), tf.gather(shape, rank - 1)])
        sparse_ids = tf.sparse.retain(sparse_ids, tf.greater_equal(sparse_ids.values, 0))
        sparse_ids, row_empty = tf.sparse.fill_empty_rows(sparse_ids, 0)
        with v1.name_scope(None, "embedding_lookup_sparse", params + [sparse_ids]) as inner:
            segment_ids = tf.cast(sparse_ids.indices[:, 0], tf.int32)
            ids, positions = tf.unique(sparse_ids.values)
            rows = v1.nn.embedding_lookup(params, ids, max_norm=max_norm)
            result = reduce(rows, positions, segment_ids, name=inner)
        row_empty = tf.tile(tf.reshape(row_empty, [-1, 1]), tf.stack([1, tf.shape(result)[1]]))
        result = v1.where(row_empty, tf.zeros_like(result), result, name=scope)
        final = tf.reshape(result, tf.concat([
            tf.slice(tf.cast(shape, tf.int32), [0], [rank - 1]),
            tf.slice(tf.shape(result), [1], [-1])], 0))
        final.set_shape(tf.TensorShape([None] * (rank - 1) if isinstance(rank, int) else None)
                        .concatenate(result.get_shape()[1:]))
        return final


_COLUMN_TYPES = (_RealValuedColumn, _SparseColumn, _BucketizedColumn, _EmbeddingColumn)


def _check(columns):
    for column in columns:
        if not isinstance(column, _COLUMN_TYPES):
            raise ValueError(
                f"tf.contrib.learn's estimators under tf1mem take tf.contrib.layers columns "
                f"(real_valued_column, sparse_column_with_keys / _with_hash_bucket, "
                f"bucketized_column, embedding_column); got {column!r}. Use tf.estimator's "
                f"canned estimators for tf.feature_column columns")
    return sorted(set(columns), key=lambda c: c.key)


def dnn_input(features, columns, scope):
    """The ``[batch, width]`` input of a DNN, built in variable scope ``scope`` (TF 1.15's
    ``input_from_feature_columns``: each column in its own scope, key order, then the
    concat)."""
    tf = _tf()
    v1 = tf.compat.v1
    with v1.variable_scope(scope, values=tuple(features.values())):
        tensors = []
        for column in _check(columns):
            with v1.variable_scope(None, default_name=column.name,
                                   values=tuple(features.values())):
                tensors.append(column.dnn_tensor(features))
        return tf.concat(tensors, 1)


def linear_logits(features, columns, units, collection):
    """The weighted sum of the columns plus a bias, in the current variable scope.

    A dense column gets the model variable ``<name>/weight`` of shape ``[dimension,
    units]``; a sparse or bucketized one ``<name>/weights`` of shape ``[length, units]``
    whose rows its ids pick (summed by its combiner); the sum gets ``bias_weight`` of shape
    ``[units]``; all zeros, all also in ``collection``, as TF 1.15's
    ``weighted_sum_from_feature_columns`` named them.

    Returns:
      The logits, ``[batch, units]`` float32.
    """
    import tf_slim

    tf = _tf()
    v1 = tf.compat.v1
    products = []
    for column in _check(columns):
        if isinstance(column, _EmbeddingColumn):
            raise ValueError(f"Column {column.name} is not supported in linear models. Please "
                             f"use sparse_column.")
        with v1.variable_scope(None, default_name=column.name, values=tuple(features.values())):
            if isinstance(column, _RealValuedColumn):
                tensor = column.dense_tensor(features)
                weight = tf_slim.model_variable(
                    "weight", shape=[column.dimension, units],
                    initializer=v1.zeros_initializer(), collections=[collection])
                products.append(tf.matmul(tensor, weight, name="matmul"))
                continue
            ids = column.sparse_ids(features)
            size = column.vocab_size() if isinstance(column, _BucketizedColumn) else (
                column.length)
            combiner = "sum" if isinstance(column, _BucketizedColumn) else column.combiner
            weights = tf_slim.model_variable(
                "weights", shape=[size, units], initializer=v1.zeros_initializer(),
                collections=[collection])
            parts = list(weights) if not isinstance(weights, tf.Variable) else [weights]
            products.append(_safe_embedding_lookup_sparse(parts, ids, combiner,
                                                          column.name + "_weights"))
    bias = tf_slim.model_variable("bias_weight", shape=[units],
                                  initializer=v1.zeros_initializer(), collections=[collection])
    return tf.nn.bias_add(tf.add_n(products), bias)
