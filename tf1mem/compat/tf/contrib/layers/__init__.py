"""``tf.contrib.layers``: what tf-slim did not keep.

``encoders.py`` (``embed_sequence``) and ``feature_column.py`` (the contrib feature
columns the contrib.learn estimators take, with ``input_from_feature_columns`` and
``weighted_sum_from_feature_columns``); tf1mem's table serves the rest from tf-slim.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'l2_normalize': 'tensorflow:compat.v1.nn.l2_normalize',
    'embed_sequence': '.encoders',
    'real_valued_column': '.feature_column',
    'sparse_column_with_keys': '.feature_column',
    'sparse_column_with_hash_bucket': '.feature_column',
    'sparse_column_with_integerized_feature': '.feature_column',
    'sparse_column_with_vocabulary_file': '.feature_column',
    'weighted_sparse_column': '.feature_column',
    'bucketized_column': '.feature_column',
    'crossed_column': '.feature_column',
    'one_hot_column': '.feature_column',
    'embedding_column': '.feature_column',
    'shared_embedding_columns': '.feature_column',
    'infer_real_valued_columns': '.feature_column',
    'input_from_feature_columns': '.feature_column_ops',
    'weighted_sum_from_feature_columns': '.feature_column_ops',
})
