"""TF 1.15's ``tf.contrib.layers`` feature columns that the contrib.learn estimators take.

Owns the column records (named, printed and sorted as TF 1.15's: ``real_valued_column``,
``sparse_column_with_keys``, ``sparse_column_with_hash_bucket``,
``sparse_column_with_integerized_feature``, ``sparse_column_with_vocabulary_file``,
``weighted_sparse_column``, ``bucketized_column``, ``crossed_column``, ``one_hot_column``,
``embedding_column``, ``shared_embedding_columns``), ``infer_real_valued_columns`` (one
column per feature of a Tensor or a dict of them), and the ops each column builds
(dense values, one-hot buckets and ids, embeddings of sparse ids), in the same order as
TF 1.15 (its seeded initial embeddings depend on that); how models read them is
``feature_column_ops.py``. Crosses give TF 1.15's bucket
ids: TF 2 has no SparseFeatureCross kernel, so its legacy hash is rebuilt from
``tf.fingerprint`` and 64-bit integer ops (:func:`_legacy_cross`). Nothing here imports
TensorFlow at import time.
"""

import collections

__all__ = ["real_valued_column", "sparse_column_with_keys", "sparse_column_with_hash_bucket",
           "sparse_column_with_integerized_feature", "sparse_column_with_vocabulary_file",
           "weighted_sparse_column", "bucketized_column", "crossed_column", "one_hot_column",
           "embedding_column", "shared_embedding_columns", "infer_real_valued_columns"]


def _tf():
    import tensorflow as tf

    return tf


def _key(column, leave_out=()):
    """TF 1.15's sort key of a column: its fields as ``name=str(value)``."""
    fields = ", ".join(f"{name}={value}" for name, value in zip(column._fields, column)
                       if name not in leave_out)
    return f"{type(column).__name__}({fields})"


def _cached(cache, key, build):
    """``build()`` once per layer: what TF 1.15's transformer did for a column that two
    columns of one input layer or weighted sum read (its lookup ops are built once)."""
    if cache is None:
        return build()
    if key not in cache:
        cache[key] = build()
    return cache[key]


def _feature(features, name, what=""):
    if name not in features:
        raise ValueError(f"feature column {name!r} is not among the features "
                         f"{sorted(features)}: the input must provide it{what}")
    return features[name]


def _dense_to_sparse(value, ignore):
    """A 2-D dense Tensor as a SparseTensor without its ``ignore`` entries (TF 1.15's
    DenseToSparseTensor)."""
    tf = _tf()
    with tf.compat.v1.name_scope("DenseToSparseTensor"):
        ignore = tf.cast(ignore, value.dtype, name="ignore_value")
        indices = tf.compat.v1.where(tf.not_equal(value, ignore), name="indices")
        return tf.SparseTensor(indices, tf.gather_nd(value, indices, name="values"),
                               tf.shape(value, out_type=tf.int64, name="dense_shape"))


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

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        return self.dense_tensor(features)

    def dense_tensor(self, features):
        """The column's ``[batch, dimension]`` float32 input from ``features``.

        Raises:
          ValueError: the feature is missing or is a SparseTensor.
        """
        tf = _tf()
        value = _feature(features, self.column_name, " (x given as one array is the feature "
                                                     "'')")
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
    """The vocabulary of a ``sparse_column_with_keys`` or ``_with_vocabulary_file``."""


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
            self.lookup_config.vocab_size + self.lookup_config.num_oov_buckets)

    @property
    def key(self):
        return repr(self)

    def _sparse_input(self, features):
        """The feature as a SparseTensor: a dense one without its empty entries ("" for
        strings, -1 for numbers), as TF 1.15's DenseToSparseTensor."""
        tf = _tf()
        value = _feature(features, self.column_name)
        if isinstance(value, tf.SparseTensor):
            return value
        value = tf.convert_to_tensor(value)
        if value.shape.rank == 1:
            value = tf.expand_dims(value, -1)
        return _dense_to_sparse(value, "" if value.dtype == tf.string else -1)

    def sparse_ids(self, features, cache=None):
        """The feature's ids, a SparseTensor of int64 in ``[0, length)`` (-1: unknown)."""
        return _cached(cache, self, lambda: self._ids(self._sparse_input(features)))

    def sparse_weights(self, features, cache=None):
        """The ids' weights: None (each id counts once)."""
        return None

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        raise ValueError(f"SparseColumn is not supported in DNN. Please use embedding_column "
                         f"or one_hot_column: tf.contrib.layers.embedding_column("
                         f"{self.column_name!r} column, dimension=...). column: {self}")

    def _compatible(self, other):
        """TF 1.15's test for sharing an embedding: equal vocabularies, or (when either has
        none) the same length and dtype (any two integer dtypes match)."""
        if not isinstance(other, _SparseColumn):
            return False
        if self.lookup_config and other.lookup_config:
            return self.lookup_config == other.lookup_config
        return self.length == other.length and (
            self.dtype == other.dtype or (self.dtype.is_integer and other.dtype.is_integer))


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


class _SparseColumnIntegerized(_SparseColumn):
    """``sparse_column_with_integerized_feature``: the values are the ids, modulo the
    bucket size."""

    def _ids(self, sparse):
        tf = _tf()
        if not sparse.values.dtype.is_integer:
            raise ValueError(f"sparse_column_with_integerized_feature({self.column_name!r}) "
                             f"got {sparse.values.dtype.name} values; feed integers")
        ids = tf.math.floormod(sparse.values, self.bucket_size, name="mod")
        return tf.SparseTensor(sparse.indices, ids, sparse.dense_shape)


class _SparseColumnVocabulary(_SparseColumn):
    """``sparse_column_with_vocabulary_file``: ids are line numbers in the file; a value
    not there gets one of ``num_oov_buckets`` hashed ids after them, or ``default_value``."""

    def _ids(self, sparse):
        from tensorflow.python.ops import lookup_ops

        tf = _tf()
        if sparse.values.dtype.is_integer:
            sparse = tf.SparseTensor(sparse.indices, tf.strings.as_string(sparse.values),
                                     sparse.dense_shape)
        config = self.lookup_config
        table = lookup_ops.index_table_from_file(
            vocabulary_file=config.vocabulary_file, num_oov_buckets=config.num_oov_buckets,
            vocab_size=config.vocab_size, default_value=config.default_value,
            name=self.name + "_lookup")
        return table.lookup(sparse)


class _WeightedSparseColumn(collections.namedtuple(
        "_WeightedSparseColumn", ["sparse_id_column", "weight_column_name", "dtype"])):
    """A sparse column whose ids carry the weights of feature ``weight_column_name``."""

    @property
    def name(self):
        return f"{self.sparse_id_column.name}_weighted_by_{self.weight_column_name}"

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def combiner(self):
        return self.sparse_id_column.combiner

    @property
    def key(self):
        return repr(self)

    def sparse_ids(self, features, cache=None):
        return self.sparse_id_column.sparse_ids(features, cache)

    def sparse_weights(self, features, cache=None):
        """The weight feature as a float32 SparseTensor (a dense one without its zeros)."""
        def build():
            tf = _tf()
            value = _feature(features, self.weight_column_name,
                             f" (the weights of {self.name})")
            if not isinstance(value, tf.SparseTensor):
                value = tf.convert_to_tensor(value)
                if value.shape.rank == 1:
                    value = tf.expand_dims(value, -1)
                value = _dense_to_sparse(value, 0)
            if not self.dtype.is_floating:
                value = tf.SparseTensor(value.indices, tf.cast(value.values, tf.float32),
                                        value.dense_shape)
            return value

        return _cached(cache, self, build)

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        raise ValueError(f"WeightedSparseColumn is not supported in DNN. Please use "
                         f"embedding_column or one_hot_column. column: {self}")

    def _compatible(self, other):
        return isinstance(other, _WeightedSparseColumn) and \
            self.sparse_id_column._compatible(other.sparse_id_column)


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

    def _buckets(self, features, cache=None):
        def build():
            tf = _tf()
            value = self.source_column.dense_tensor(features)
            return tf.raw_ops.Bucketize(
                input=value, boundaries=[float(b) for b in self.boundaries], name="bucketize")

        return _cached(cache, self, build)

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        tf = _tf()
        one_hot = tf.one_hot(tf.cast(self._buckets(features, cache), tf.int64), self.length,
                             1., 0., name="one_hot")
        return tf.reshape(one_hot, [-1, self.length * self.source_column.dimension],
                          name="reshape")

    def sparse_ids(self, features, cache=None):
        """Bucket ``b`` of dimension ``d`` is id ``d * length + b``."""
        tf = _tf()
        buckets = tf.cast(self._buckets(features, cache), tf.int64)
        dimension = self.source_column.dimension
        rows = tf.shape(buckets, out_type=tf.int64)[0]
        ids = buckets + tf.range(dimension, dtype=tf.int64) * self.length
        row_index = tf.reshape(tf.tile(tf.expand_dims(tf.range(rows), 1), [1, dimension]),
                               [-1])
        dim_index = tf.tile(tf.range(dimension, dtype=tf.int64), [rows])
        return tf.SparseTensor(tf.stack([row_index, dim_index], 1), tf.reshape(ids, [-1]),
                               tf.stack([rows, dimension]))

    def sparse_weights(self, features, cache=None):
        return None

    def vocab_size(self):
        return self.length * self.source_column.dimension


class _CrossedColumn(collections.namedtuple(
        "_CrossedColumn",
        ["columns", "hash_bucket_size", "hash_key", "combiner", "ckpt_to_load_from",
         "tensor_name_in_ckpt"])):
    """The hashed cross of sparse, bucketized and crossed columns: one id in
    ``[0, hash_bucket_size)`` per combination of an example's values."""

    @property
    def name(self):
        return "_X_".join(sorted(column.name for column in self.columns))

    @property
    def length(self):
        return self.hash_bucket_size

    @property
    def key(self):
        return repr(self)

    def _leaves(self):
        for column in self.columns:
            if isinstance(column, _CrossedColumn):
                yield from column._leaves()
            else:
                yield column

    def _source(self, column, features, cache):
        """What TF 1.15 crossed for a leaf: a sparse column's raw feature (strings or
        integers, dense or sparse, as given), a bucketized column's bucket ids (sparse)."""
        tf = _tf()
        if isinstance(column, _BucketizedColumn):
            return column.sparse_ids(features, cache)
        value = _feature(features, column.name, f" (crossed in {self.name})")
        if not isinstance(value, tf.SparseTensor):
            value = tf.convert_to_tensor(value)
            if value.shape.rank == 1:
                value = tf.expand_dims(value, -1)
        if value.dtype.is_integer and value.dtype != tf.int64:
            value = tf.cast(value, tf.int64)
        elif value.dtype != tf.string and value.dtype != tf.int64:
            raise ValueError(f"crossed_column {self.name!r}: feature {column.name!r} has "
                             f"{value.dtype.name} values; a cross takes strings or integers")
        return value

    def sparse_ids(self, features, cache=None):
        def build():
            tf = _tf()
            sources = [self._source(column, features, cache) for column in self._leaves()]
            # SparseFeatureCross took the sparse inputs first, then the dense ones.
            ordered = [s for s in sources if isinstance(s, tf.SparseTensor)] + [
                s for s in sources if not isinstance(s, tf.SparseTensor)]
            if self.hash_key is not None:
                # TF 2's SparseCross with a key is TF 1.15's FingerprintCat64 cross.
                return tf.sparse.cross_hashed(ordered, num_buckets=self.hash_bucket_size,
                                              hash_key=self.hash_key, name="cross")
            return _legacy_cross(ordered, self.hash_bucket_size)

        return _cached(cache, self, build)

    def sparse_weights(self, features, cache=None):
        return None

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        raise ValueError(f"CrossedColumn is not supported in DNN. Please use "
                         f"embedding_column or one_hot_column. column: {self}")


# TF 1.15's SparseFeatureCross without a hash key: a 64-bit hash seeded with this value,
# folding in each feature's hash (a string's Fingerprint64, an integer itself) by
# h ^ (v + _GOLDEN + (h << 10) + (h >> 4)), h's shift arithmetic, all wrapping at 2**64;
# the id is the unsigned hash modulo the bucket count.
_CROSS_SEED = 0xDECAFCAFFE
_GOLDEN = 0x9e3779b97f4a7800


def _legacy_cross(inputs, num_buckets):
    """TF 1.15's unkeyed hashed cross of ``inputs`` (SparseTensors first, then 2-D dense
    Tensors), as a SparseTensor of int64 ids in ``[0, num_buckets)``.

    TF's own SparseCross lays out the cross (which values of which inputs meet in which
    output entry); crossing each input's value positions as strings ("3_X_0") tells, for
    every output entry, which value of each input it combines; the hash is then folded
    over those values in input order.
    """
    tf = _tf()
    positions, hashes = [], []
    for value in inputs:
        if isinstance(value, tf.SparseTensor):
            flat = value.values
            count = tf.size(flat, out_type=tf.int64)
            positions.append(tf.SparseTensor(value.indices, tf.range(count), value.dense_shape))
        else:
            flat = tf.reshape(value, [-1])
            positions.append(tf.reshape(tf.range(tf.size(value, out_type=tf.int64)),
                                        tf.shape(value)))
        if flat.dtype == tf.string:
            hashes.append(tf.bitcast(tf.fingerprint(flat), tf.uint64))
        else:
            hashes.append(tf.bitcast(tf.cast(flat, tf.int64), tf.uint64))
    with tf.compat.v1.name_scope("cross"):
        layout = tf.sparse.cross(positions)
        picks = tf.reshape(tf.strings.to_number(
            tf.strings.split(layout.values, sep="_X_").flat_values, out_type=tf.int64),
            [-1, len(inputs)])
        hashed = tf.fill(tf.shape(layout.values), tf.constant(_CROSS_SEED, tf.uint64))
        for i, value_hashes in enumerate(hashes):
            feature = tf.gather(value_hashes, picks[:, i])
            shifted = tf.bitcast(tf.bitwise.right_shift(tf.bitcast(hashed, tf.int64),
                                                        tf.constant(4, tf.int64)), tf.uint64)
            mixed = feature + tf.constant(_GOLDEN, tf.uint64) + tf.bitwise.left_shift(
                hashed, tf.constant(10, tf.uint64)) + shifted
            hashed = tf.bitwise.bitwise_xor(hashed, mixed)
        ids = tf.cast(tf.math.floormod(hashed, tf.constant(num_buckets, tf.uint64)),
                      tf.int64)
        return tf.SparseTensor(layout.indices, ids, layout.dense_shape)


def _inner_flatten(sparse):
    """``sparse`` reshaped to rank 2 (tf-slim's, the ops TF 1.15 built there)."""
    import importlib

    return importlib.import_module("tf_slim.layers.layers")._inner_flatten(sparse, 2)


class _OneHotColumn(collections.namedtuple("_OneHotColumn", ["sparse_id_column"])):
    """A DNN input: a sparse column's ids as counts per id (weights, if weighted), width
    ``length``."""

    @property
    def name(self):
        return self.sparse_id_column.name + "_one_hot"

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def key(self):
        return repr(self)

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        tf = _tf()
        ids = _inner_flatten(self.sparse_id_column.sparse_ids(features, cache))
        weights = self.sparse_id_column.sparse_weights(features, cache)
        if weights is not None:
            merged = tf.compat.v1.sparse_merge(sp_ids=ids, sp_values=weights,
                                               vocab_size=self.length)
            # Drops the entries of unknown (-1) ids.
            merged = tf.sparse.slice(merged, tf.zeros_like(merged.dense_shape),
                                     merged.dense_shape)
            dense = tf.sparse.to_dense(merged)
            return tf.reshape(dense, tf.concat([tf.shape(dense)[:1], [self.length]], 0))
        dense_ids = tf.sparse.to_dense(ids, default_value=-1)
        # TF 1.15's one_hot made tensors of on_value and off_value to learn their dtype;
        # built again so that later seeded ops get TF 1.15's op seeds.
        tf.constant(1.0), tf.constant(0.0)
        one_hot = tf.one_hot(dense_ids, depth=self.length, on_value=1.0, off_value=0.0)
        return tf.reduce_sum(one_hot, axis=[1])


class _EmbeddingColumn(collections.namedtuple(
        "_EmbeddingColumn",
        ["sparse_id_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
         "tensor_name_in_ckpt", "shared_embedding_name", "shared_vocab_size", "max_norm",
         "trainable"])):
    """A DNN input: the ``combiner`` of learned ``dimension``-vectors of a sparse column's
    ids (``<sparse name>_embedding/weights``; a shared one ``<sparse
    name>_shared_embedding/<shared_embedding_name>``, one variable for all its columns)."""

    @property
    def name(self):
        if self.shared_embedding_name is not None:
            return self.sparse_id_column.name + "_shared_embedding"
        return self.sparse_id_column.name + "_embedding"

    @property
    def length(self):
        if self.shared_vocab_size is not None:
            return self.shared_vocab_size
        return self.sparse_id_column.length

    @property
    def key(self):
        return _key(self, ("initializer",))

    def _variable(self, collections, trainable):
        import tf_slim

        tf = _tf()
        shape = [self.length, self.dimension]
        trainable = trainable and self.trainable
        if self.shared_embedding_name is None:
            return tf_slim.model_variable(
                "weights", shape=shape, initializer=self.initializer, trainable=trainable,
                collections=list(collections or []) or None)
        graph = tf.compat.v1.get_default_graph()
        shared = graph.get_collection_ref(
            "SHARED_EMBEDDING_COLLECTION_" + self.shared_embedding_name.upper())
        if shared:
            existing = shared[0]
            if existing.get_shape() != shape:
                raise ValueError(f"the shared embedding {self.shared_embedding_name!r} has "
                                 f"shape {existing.get_shape()}, {self.name} needs {shape}: "
                                 f"make its columns with one shared_embedding_columns call")
            return existing
        weights = tf_slim.model_variable(
            self.shared_embedding_name, shape=shape, initializer=self.initializer,
            trainable=trainable, collections=list(collections or []) or None)
        shared.append(weights)
        return weights

    def dnn_tensor(self, features, cache=None, collections=("dnn",), trainable=True):
        tf = _tf()
        ids = _inner_flatten(self.sparse_id_column.sparse_ids(features, cache))
        weights = self.sparse_id_column.sparse_weights(features, cache)
        if weights is not None:
            weights = _inner_flatten(weights)
        variable = self._variable(collections, trainable)
        parts = list(variable) if not isinstance(variable, tf.Variable) else [variable]
        return _safe_embedding_lookup_sparse(parts, ids, self.combiner, self.name + "weights",
                                             self.max_norm, weights)


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


def _check_size(value, name, minimum, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{what}: {name} must be an integer >= {minimum}, got {value!r}")


def sparse_column_with_integerized_feature(column_name, bucket_size, combiner="sum",
                                           dtype=None):
    """TF 1.15's ``tf.contrib.layers.sparse_column_with_integerized_feature``: integer
    values that are their own ids, modulo ``bucket_size``.

    Args:
      column_name: the features key.
      bucket_size: the number of ids (an integer >= 1).
      combiner: how an example's ids are combined: 'sum', 'mean' or 'sqrtn'.
      dtype: an integer dtype (``tf.int64`` by default).

    Raises:
      ValueError: a bad name, size, combiner or dtype.
    """
    tf = _tf()
    what = f"sparse_column_with_integerized_feature({column_name!r})"
    _check_name(column_name, what)
    _check_size(bucket_size, "bucket_size", 1, what)
    dtype = tf.int64 if dtype is None else tf.as_dtype(dtype)
    if not dtype.is_integer:
        raise ValueError(f"{what}: dtype must be an integer dtype, got {dtype!r}")
    _check_combiner(combiner, what)
    return _SparseColumnIntegerized(column_name, True, bucket_size, None, combiner, dtype)


def sparse_column_with_vocabulary_file(column_name, vocabulary_file, num_oov_buckets=0,
                                       vocab_size=None, default_value=-1, combiner="sum",
                                       dtype=None):
    """TF 1.15's ``tf.contrib.layers.sparse_column_with_vocabulary_file``: the line number
    of the value in ``vocabulary_file`` (its first ``vocab_size`` lines) is its id.

    A value not there gets one of ``num_oov_buckets`` ids after the vocabulary (by its
    hash), or ``default_value`` (-1 drops it) when there are none. The file is read when
    the graph's tables are initialized.

    Raises:
      ValueError: a bad name, vocab_size, num_oov_buckets, combiner or dtype, or both
        num_oov_buckets and a default_value other than -1.
    """
    tf = _tf()
    what = f"sparse_column_with_vocabulary_file({column_name!r})"
    _check_name(column_name, what)
    if not isinstance(vocabulary_file, str) or not vocabulary_file:
        raise ValueError(f"{what}: vocabulary_file must be a file name, got "
                         f"{vocabulary_file!r}")
    if vocab_size is None:
        raise ValueError(f"{what}: vocab_size should be defined: the number of lines of "
                         f"{vocabulary_file!r} to use")
    _check_size(vocab_size, "vocab_size", 1, what)
    _check_size(num_oov_buckets, "num_oov_buckets", 0, what)
    if num_oov_buckets and default_value != -1:
        raise ValueError(f"{what}: give num_oov_buckets ({num_oov_buckets}) or "
                         f"default_value ({default_value!r}), not both")
    dtype = tf.string if dtype is None else tf.as_dtype(dtype)
    if dtype != tf.string and not dtype.is_integer:
        raise ValueError(f"{what}: dtype must be string or integer, got {dtype!r}")
    _check_combiner(combiner, what)
    config = _SparseIdLookupConfig(vocabulary_file, None, num_oov_buckets, vocab_size,
                                   default_value)
    return _SparseColumnVocabulary(column_name, False, None, config, combiner, dtype)


def weighted_sparse_column(sparse_id_column, weight_column_name, dtype=None):
    """TF 1.15's ``tf.contrib.layers.weighted_sparse_column``: a sparse column whose ids
    are weighted by feature ``weight_column_name`` (a SparseTensor with the ids' indices,
    or a dense Tensor whose zeros are no weight).

    Raises:
      TypeError: sparse_id_column is not a sparse_column_with_* column.
      ValueError: a bad weight_column_name or a dtype that is not a number.
    """
    tf = _tf()
    if not isinstance(sparse_id_column, _SparseColumn):
        raise TypeError(f"weighted_sparse_column: sparse_id_column must be a "
                        f"sparse_column_with_* column, got {sparse_id_column!r}")
    what = f"weighted_sparse_column({sparse_id_column.name!r})"
    if not isinstance(weight_column_name, str) or not weight_column_name:
        raise ValueError(f"{what}: weight_column_name must be a non-empty string, got "
                         f"{weight_column_name!r}")
    dtype = tf.float32 if dtype is None else tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"{what}: dtype is not convertible to float, got {dtype!r}")
    return _WeightedSparseColumn(sparse_id_column, weight_column_name, dtype)


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


def crossed_column(columns, hash_bucket_size, combiner="sum", ckpt_to_load_from=None,
                   tensor_name_in_ckpt=None, hash_key=None):
    """TF 1.15's ``tf.contrib.layers.crossed_column``: one id in ``[0,
    hash_bucket_size)`` per combination of the columns' values in an example.

    The ids are TF 1.15's: sparse columns cross their raw values (strings or integers,
    not their ids), bucketized columns their bucket ids, crossed columns their own
    columns; a SparseTensor feature is crossed before a dense one, each group in column
    name order. ``hash_key`` (an integer) selects TF's FingerprintCat64 hash instead.

    Raises:
      TypeError: a column that is not sparse, bucketized or crossed.
      ValueError: fewer than 2 columns, hash_bucket_size below 2, a bad combiner or
        hash_key; NotImplementedError: checkpoint loading.
    """
    if isinstance(columns, (str, bytes) + _COLUMN_TYPES) or not hasattr(columns, "__iter__"):
        raise TypeError(f"crossed_column: columns must be a list of columns, got {columns!r}")
    columns = list(columns)
    for column in columns:
        if not isinstance(column, (_SparseColumn, _BucketizedColumn, _CrossedColumn)):
            raise TypeError(f"crossed_column: columns must be sparse_column_with_*, "
                            f"bucketized_column or crossed_column columns, got {column!r}")
    if len(columns) < 2:
        raise ValueError(f"crossed_column: columns must contain at least 2 elements, got "
                         f"{columns!r}")
    what = f"crossed_column({'_X_'.join(sorted(c.name for c in columns))!r})"
    _check_size(hash_bucket_size, "hash_bucket_size", 2, what)
    _check_combiner(combiner, what)
    if hash_key is not None and (isinstance(hash_key, bool) or not isinstance(hash_key, int)
                                 or not -1 << 63 <= hash_key < 1 << 63):
        raise ValueError(f"{what}: hash_key must be None or a 64-bit signed integer, got "
                         f"{hash_key!r}")
    if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None:
        raise NotImplementedError(f"{what}: ckpt_to_load_from is not provided by tf1mem: "
                                  f"restore the checkpoint with tf.train.init_from_checkpoint "
                                  f"after building the model")
    columns = tuple(sorted(columns, key=lambda column: column.name))
    return _CrossedColumn(columns, hash_bucket_size, hash_key, combiner, None, None)


def one_hot_column(sparse_id_column):
    """TF 1.15's ``tf.contrib.layers.one_hot_column``: a DNN input of ``length`` counts
    of a sparse column's ids (its weights, for a weighted_sparse_column)."""
    if not isinstance(sparse_id_column, (_SparseColumn, _WeightedSparseColumn,
                                         _CrossedColumn)):
        raise TypeError(f"one_hot_column: sparse_id_column must be a sparse_column_with_*, "
                        f"weighted_sparse_column or crossed_column column, got "
                        f"{sparse_id_column!r}")
    return _OneHotColumn(sparse_id_column)


_ID_COLUMN_TYPES = (_SparseColumn, _WeightedSparseColumn, _CrossedColumn)


def _embedding_arguments(what, dimension, combiner, initializer, stddev_length,
                         ckpt_to_load_from, tensor_name_in_ckpt):
    import math

    tf = _tf()
    _check_size(dimension, "dimension", 1, what)
    _check_combiner(combiner, what)
    if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None:
        raise NotImplementedError(f"{what}: ckpt_to_load_from is not provided by tf1mem: "
                                  f"restore the checkpoint with tf.train.init_from_checkpoint "
                                  f"after building the model")
    if initializer is None:
        return tf.compat.v1.truncated_normal_initializer(
            mean=0.0, stddev=1 / math.sqrt(stddev_length))
    if not callable(initializer):
        raise ValueError(f"{what}: initializer must be callable, got {initializer!r}")
    return initializer


def embedding_column(sparse_id_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
    """TF 1.15's ``tf.contrib.layers.embedding_column``: learned vectors for a sparse,
    weighted or crossed column's ids (truncated normal, stddev 1/sqrt(the column's
    length), unless ``initializer``)."""
    if not isinstance(sparse_id_column, _ID_COLUMN_TYPES):
        raise ValueError(f"embedding_column: sparse_id_column must be a sparse_column_with_* "
                         f"column (or weighted_sparse_column, crossed_column), got "
                         f"{sparse_id_column!r}")
    initializer = _embedding_arguments(
        f"embedding_column({sparse_id_column.name!r})", dimension, combiner, initializer,
        sparse_id_column.length, ckpt_to_load_from, tensor_name_in_ckpt)
    return _EmbeddingColumn(sparse_id_column, dimension, combiner, initializer, None, None,
                            None, None, max_norm, trainable)


def shared_embedding_columns(sparse_id_columns, dimension, combiner="mean",
                             shared_embedding_name=None, initializer=None,
                             ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                             max_norm=None, trainable=True):
    """TF 1.15's ``tf.contrib.layers.shared_embedding_columns``: one embedding_column per
    sparse (or weighted) column, all reading one variable named ``shared_embedding_name``
    (by default the sorted column names joined by "_", then "_shared_embedding").

    Returns:
      A list for one column, else a tuple, of embedding columns, in the given order.

    Raises:
      TypeError: a column that is not sparse or weighted; ValueError: no columns, columns
        of different vocabularies (lengths, dtypes), a bad dimension, combiner or
        initializer.
    """
    if isinstance(sparse_id_columns, (str, bytes) + _COLUMN_TYPES) or not hasattr(
            sparse_id_columns, "__iter__"):
        raise TypeError(f"shared_embedding_columns: sparse_id_columns must be a list of "
                        f"sparse columns, got {sparse_id_columns!r}")
    columns = list(sparse_id_columns)
    for column in columns:
        if not isinstance(column, (_SparseColumn, _WeightedSparseColumn)):
            raise TypeError(f"shared_embedding_columns: elements of sparse_id_columns must "
                            f"be sparse_column_with_* or weighted_sparse_column columns, got "
                            f"{column!r}")
    if not columns:
        raise ValueError("shared_embedding_columns: sparse_id_columns should have at least "
                         "one element")
    what = f"shared_embedding_columns({[c.name for c in columns]})"
    for column in columns[1:]:
        if not columns[0]._compatible(column):
            raise ValueError(f"{what}: the columns are not compatible: {columns[0].name} and "
                             f"{column.name} must have the same vocabulary (or length and "
                             f"dtype), and be both weighted or both not")
    if shared_embedding_name is None:
        shared_embedding_name = "_".join(sorted(c.name for c in columns)) + (
            "_shared_embedding")
    elif not isinstance(shared_embedding_name, str) or not shared_embedding_name:
        raise ValueError(f"{what}: shared_embedding_name must be None or a non-empty "
                         f"string, got {shared_embedding_name!r}")
    length = columns[0].length
    initializer = _embedding_arguments(what, dimension, combiner, initializer, length,
                                       ckpt_to_load_from, tensor_name_in_ckpt)
    embedded = [_EmbeddingColumn(column, dimension, combiner, initializer, None, None,
                                 shared_embedding_name, length, max_norm, trainable)
                for column in columns]
    return embedded if len(embedded) == 1 else tuple(embedded)


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


def _safe_embedding_lookup_sparse(params, sparse_ids, combiner, name, max_norm=None,
                                  sparse_weights=None):
    """The ``combiner`` of the rows of ``params`` each example's ids pick, each row times
    its weight in ``sparse_weights`` if given (zeros for an example without valid ids),
    ``[batch, width]``.

    TF 1.15's ``safe_embedding_lookup_sparse`` with the lookup it made: unique ids
    gathered, then a sparse segment reduction over int32 segment ids (with weights: the
    rows gathered back, weighted and segment-summed). TF 2 reduces over the variable
    directly, with fewer ops; the seeded initializers built after an embedding take the
    number of ops before them as their seed, so the ops are TF 1.15's.
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
        if sparse_weights is not None:
            sparse_weights = tf.SparseTensor(sparse_ids.indices, sparse_weights.values,
                                             sparse_ids.dense_shape)
        valid = tf.greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            # TF 1.15's ones_like: the shape (a constant when known), then a fill.
            values = sparse_weights.values
            size = (tf.constant(values.shape.as_list(), tf.int32)
                    if values.shape.is_fully_defined() else tf.shape(values))
            valid = tf.logical_and(valid, tf.fill(size, True))
        sparse_ids = tf.sparse.retain(sparse_ids, valid)
        if sparse_weights is not None:
            sparse_weights = tf.sparse.retain(sparse_weights, valid)
            if combiner != "sum":
                # Only positive weights count towards a mean or sqrtn.
                positive = tf.greater(sparse_weights.values, 0)
                sparse_ids = tf.sparse.retain(sparse_ids, positive)
                sparse_weights = tf.sparse.retain(sparse_weights, positive)
        sparse_ids, row_empty = tf.sparse.fill_empty_rows(sparse_ids, 0)
        if sparse_weights is not None:
            sparse_weights, _ = tf.sparse.fill_empty_rows(sparse_weights, 1.0)
        with v1.name_scope(None, "embedding_lookup_sparse", params + [sparse_ids]) as inner:
            segment_ids = tf.cast(sparse_ids.indices[:, 0], tf.int32)
            ids, positions = tf.unique(sparse_ids.values)
            rows = v1.nn.embedding_lookup(params, ids, max_norm=max_norm)
            if sparse_weights is None:
                result = reduce(rows, positions, segment_ids, name=inner)
            else:
                result = _weighted_segments(rows, positions, segment_ids, sparse_weights.values,
                                            combiner, inner)
        row_empty = tf.tile(tf.reshape(row_empty, [-1, 1]), tf.stack([1, tf.shape(result)[1]]))
        result = v1.where(row_empty, tf.zeros_like(result), result, name=scope)
        final = tf.reshape(result, tf.concat([
            tf.slice(tf.cast(shape, tf.int32), [0], [rank - 1]),
            tf.slice(tf.shape(result), [1], [-1])], 0))
        final.set_shape(tf.TensorShape([None] * (rank - 1) if isinstance(rank, int) else None)
                        .concatenate(result.get_shape()[1:]))
        return final


def _weighted_segments(rows, positions, segment_ids, weights, combiner, name):
    """Each example's looked-up rows times their weights, summed (``sum``), over the sum
    of the weights (``mean``) or over the root of the sum of their squares (``sqrtn``)."""
    tf = _tf()
    if weights.dtype != rows.dtype:
        weights = tf.cast(weights, rows.dtype)
    rows = tf.gather(rows, positions)
    ones = tf.fill(tf.expand_dims(tf.rank(rows) - 1, 0), 1)
    static_shape = weights.get_shape()
    weights = tf.reshape(weights, tf.concat([tf.shape(weights), ones], 0))
    if rows.get_shape().ndims is not None:
        weights.set_shape(static_shape.concatenate([1] * (rows.get_shape().ndims - 1)))
    rows = rows * weights
    if combiner == "sum":
        return tf.math.segment_sum(rows, segment_ids, name=name)
    total = tf.math.segment_sum(rows, segment_ids)
    if combiner == "mean":
        return tf.compat.v1.div(total, tf.math.segment_sum(weights, segment_ids), name=name)
    norm = tf.sqrt(tf.math.segment_sum(tf.pow(weights, 2), segment_ids))
    return tf.compat.v1.div(total, norm, name=name)


_COLUMN_TYPES = (_RealValuedColumn, _SparseColumn, _WeightedSparseColumn, _BucketizedColumn,
                 _CrossedColumn, _OneHotColumn, _EmbeddingColumn)
