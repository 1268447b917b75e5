"""TF 1.15's ``tf.contrib.layers`` feature columns that the contrib.learn estimators take.

Owns ``real_valued_column`` (a ``_RealValuedColumn`` record printed as TF 1.15 printed
it), ``infer_real_valued_columns`` (one column per feature of a Tensor or a dict of
them), and how the contrib.learn canned models read the columns: the dense input layer
of a DNN (:func:`dnn_input`) and the weighted sum of a linear model
(:func:`linear_logits`), with TF 1.15's variable names (``linear/<column>/weight``,
``linear/bias_weight``). The sparse, embedding, bucketized and crossed columns are not
provided (named removed by :mod:`tf1mem.compat.contrib`). Nothing here imports TensorFlow
at import time.
"""

import collections

__all__ = ["real_valued_column", "infer_real_valued_columns", "dnn_input", "linear_logits"]


def _tf():
    import tensorflow as tf

    return tf


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
        return repr(self._replace(normalizer=None))

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


def _check(columns):
    for column in columns:
        if not isinstance(column, _RealValuedColumn):
            raise ValueError(
                f"tf.contrib.learn's estimators under tf1mem take tf.contrib.layers."
                f"real_valued_column columns; got {column!r}. Use tf.estimator's canned "
                f"estimators for tf.feature_column columns")
    return sorted(set(columns), key=lambda c: c.key)


def dnn_input(features, columns, scope):
    """The ``[batch, sum of dimensions]`` input of a DNN, built in variable scope ``scope``
    (TF 1.15's ``input_from_feature_columns``: the concat of the columns, key order)."""
    tf = _tf()
    with tf.compat.v1.variable_scope(scope, values=tuple(features.values())):
        tensors = [column.dense_tensor(features) for column in _check(columns)]
        return tf.concat(tensors, 1)


def linear_logits(features, columns, units, collection):
    """The weighted sum of the columns plus a bias, in the current variable scope.

    Each column gets the model variable ``<name>/weight`` of shape ``[dimension, units]``
    (zeros), the sum the bias ``bias_weight`` of shape ``[units]`` (zeros), all also in
    the collection ``collection``, as TF 1.15's ``weighted_sum_from_feature_columns``
    named them.

    Returns:
      The logits, ``[batch, units]`` float32.
    """
    import tf_slim

    tf = _tf()
    v1 = tf.compat.v1
    products = []
    for column in _check(columns):
        with v1.variable_scope(None, default_name=column.name, values=tuple(features.values())):
            tensor = column.dense_tensor(features)
            weight = tf_slim.model_variable(
                "weight", shape=[column.dimension, units], initializer=v1.zeros_initializer(),
                collections=[collection])
            products.append(tf.matmul(tensor, weight, name="matmul"))
    bias = tf_slim.model_variable("bias_weight", shape=[units],
                                  initializer=v1.zeros_initializer(), collections=[collection])
    return tf.nn.bias_add(tf.add_n(products), bias)
