"""How TF 1.15's contrib models read feature columns: ``input_from_feature_columns`` and
``weighted_sum_from_feature_columns`` (TF1's ``feature_column_ops``).

Owns the input layer of a DNN (:func:`input_from_feature_columns`, :func:`dnn_input`:
dense values, one-hot buckets and ids, embeddings of sparse ids under
``<column>_embedding/weights``) and the weighted sum of a linear model
(:func:`weighted_sum_from_feature_columns`, :func:`linear_logits`: ``<column>/weight``
for dense columns, ``<column>/weights`` rows for sparse ids, ``bias_weight``), built
from the same ops in the same order as TF 1.15 (its seeded initial embeddings depend on
that). A sparse column read by two columns of one layer is looked up once, as TF 1.15's
transformer did. The columns themselves are :mod:`.feature_column`.
"""

from tf1mem.compat.tf.contrib.layers.feature_column import (
    _COLUMN_TYPES, _BucketizedColumn, _EmbeddingColumn, _OneHotColumn, _RealValuedColumn,
    _check_size, _safe_embedding_lookup_sparse, _tf)

__all__ = ["input_from_feature_columns", "weighted_sum_from_feature_columns", "dnn_input",
           "linear_logits", "check_columns"]



def check_columns(columns):
    """The columns, each once, in TF 1.15's order (by key).

    Raises:
      ValueError: not a tf.contrib.layers column.
    """
    for column in columns:
        if not isinstance(column, _COLUMN_TYPES):
            raise ValueError(
                f"tf.contrib.learn's estimators under tf1mem take tf.contrib.layers columns "
                f"(real_valued_column, sparse_column_with_*, weighted_sparse_column, "
                f"bucketized_column, crossed_column, one_hot_column, embedding_column); got "
                f"{column!r}. Use tf.estimator's canned estimators for tf.feature_column "
                f"columns")
    return sorted(set(columns), key=lambda c: c.key)


def _input_layer(features, columns, scope, default_name, collections, trainable,
                 cols_to_outs=None):
    tf = _tf()
    v1 = tf.compat.v1
    with v1.variable_scope(scope, default_name=default_name,
                           values=tuple(features.values())):
        tensors = []
        cache = {}
        for column in check_columns(columns):
            with v1.variable_scope(None, default_name=column.name,
                                   values=tuple(features.values())):
                tensors.append(column.dnn_tensor(features, cache, collections, trainable))
            if cols_to_outs is not None:
                cols_to_outs[column] = tensors[-1]
        return tf.concat(tensors, 1)


def dnn_input(features, columns, scope):
    """The ``[batch, width]`` input of a DNN, built in variable scope ``scope`` (TF 1.15's
    ``input_from_feature_columns``: each column in its own scope, key order, then the
    concat)."""
    return _input_layer(features, columns, scope, None, ["dnn"], True)


def _features(columns_to_tensors, what):
    if not isinstance(columns_to_tensors, dict):
        raise TypeError(f"{what}: columns_to_tensors must be a dict of feature name to "
                        f"Tensor or SparseTensor, got {columns_to_tensors!r}")
    return dict(columns_to_tensors)


def _columns_list(feature_columns, what):
    if feature_columns is None or isinstance(feature_columns, (str, bytes)) or not hasattr(
            feature_columns, "__iter__"):
        raise ValueError(f"{what}: feature_columns must be a list of tf.contrib.layers "
                         f"columns, got {feature_columns!r}")
    columns = list(feature_columns)
    if not columns:
        raise ValueError(f"{what}: feature_columns must not be empty")
    return columns


def input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=None,
                               trainable=True, scope=None, cols_to_outs=None):
    """TF 1.15's ``tf.contrib.layers.input_from_feature_columns``: the DNN input layer.

    Args:
      columns_to_tensors: dict of feature name to Tensor or SparseTensor.
      feature_columns: real_valued, bucketized, one_hot and embedding columns.
      weight_collections: collections the embedding variables are also added to.
      trainable: False makes the embeddings not trainable.
      scope: the variable scope (default ``input_from_feature_columns``, made unique).
      cols_to_outs: None, or a dict that gets each column's output Tensor.

    Returns:
      A float32 Tensor ``[batch, sum of the columns' widths]``, the columns in TF 1.15's
      order (by their key).

    Raises:
      ValueError / TypeError: bad arguments, a column a DNN cannot take.
    """
    what = "input_from_feature_columns"
    features = _features(columns_to_tensors, what)
    columns = _columns_list(feature_columns, what)
    if cols_to_outs is not None and not isinstance(cols_to_outs, dict):
        raise ValueError(f"{what}: cols_to_outs must be a dict unless None, got "
                         f"{cols_to_outs!r}")
    return _input_layer(features, columns, scope, "input_from_feature_columns",
                        list(weight_collections or []), trainable, cols_to_outs)


def _weighted_sum(features, columns, units, collections, trainable):
    import tf_slim

    tf = _tf()
    v1 = tf.compat.v1
    collections = list(collections or []) or None
    products = []
    column_to_variable = {}
    cache = {}
    for column in check_columns(columns):
        if isinstance(column, (_EmbeddingColumn, _OneHotColumn)):
            raise ValueError(f"Column {column.name} is not supported in linear models. Please "
                             f"use its sparse_column_with_* column instead: "
                             f"{column.sparse_id_column}")
        with v1.variable_scope(None, default_name=column.name, values=tuple(features.values())):
            if isinstance(column, _RealValuedColumn):
                tensor = column.dense_tensor(features)
                weight = tf_slim.model_variable(
                    "weight", shape=[column.dimension, units],
                    initializer=v1.zeros_initializer(), trainable=trainable,
                    collections=collections)
                column_to_variable[column] = [weight]
                products.append(tf.matmul(tensor, weight, name="matmul"))
                continue
            ids = column.sparse_ids(features, cache)
            weights = column.sparse_weights(features, cache)
            size = column.vocab_size() if isinstance(column, _BucketizedColumn) else (
                column.length)
            combiner = "sum" if isinstance(column, _BucketizedColumn) else column.combiner
            variable = tf_slim.model_variable(
                "weights", shape=[size, units], initializer=v1.zeros_initializer(),
                trainable=trainable, collections=collections)
            parts = list(variable) if not isinstance(variable, tf.Variable) else [variable]
            column_to_variable[column] = parts
            products.append(_safe_embedding_lookup_sparse(parts, ids, combiner,
                                                          column.name + "_weights", None,
                                                          weights))
    bias = tf_slim.model_variable("bias_weight", shape=[units],
                                  initializer=v1.zeros_initializer(), trainable=trainable,
                                  collections=collections)
    return tf.nn.bias_add(tf.add_n(products), bias), column_to_variable, bias


def linear_logits(features, columns, units, collection):
    """The weighted sum of the columns plus a bias, in the current variable scope.

    A dense column gets the model variable ``<name>/weight`` of shape ``[dimension,
    units]``; a sparse, weighted, crossed or bucketized one ``<name>/weights`` of shape
    ``[length, units]`` whose rows its ids pick (times their weights, summed by its
    combiner); the sum gets ``bias_weight`` of shape ``[units]``; all zeros, all also in
    ``collection``, as TF 1.15's ``weighted_sum_from_feature_columns`` named them.

    Returns:
      The logits, ``[batch, units]`` float32.
    """
    return _weighted_sum(features, columns, units, [collection], True)[0]


def weighted_sum_from_feature_columns(columns_to_tensors, feature_columns, num_outputs,
                                      weight_collections=None, trainable=True, scope=None):
    """TF 1.15's ``tf.contrib.layers.weighted_sum_from_feature_columns``: a linear model.

    Args:
      columns_to_tensors: dict of feature name to Tensor or SparseTensor.
      feature_columns: real_valued, sparse, weighted, bucketized and crossed columns.
      num_outputs: the number of outputs (an integer >= 1).
      weight_collections: collections the variables are also added to.
      trainable: False makes the variables not trainable.
      scope: the variable scope (default ``weighted_sum_from_feature_columns``, made
        unique).

    Returns:
      ``(output, column_to_variable, bias)``: the float32 ``[batch, num_outputs]`` sum,
      a dict of each column to the list of its variables (zeros), and the bias variable
      ``bias_weight`` (zeros).

    Raises:
      ValueError / TypeError: bad arguments, a column a linear model cannot take.
    """
    tf = _tf()
    what = "weighted_sum_from_feature_columns"
    features = _features(columns_to_tensors, what)
    columns = _columns_list(feature_columns, what)
    _check_size(num_outputs, "num_outputs", 1, what)
    with tf.compat.v1.variable_scope(scope, default_name=what,
                                     values=tuple(features.values())):
        return _weighted_sum(features, columns, num_outputs, weight_collections, trainable)
