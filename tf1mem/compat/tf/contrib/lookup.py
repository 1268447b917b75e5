"""``tf.contrib.lookup``'s own signatures over TF's v1 lookup tables.

TF 1.15's contrib functions named their vocabulary ``mapping`` where TF's core ones (which
tf.contrib.lookup otherwise maps to) say ``vocabulary_list``: ``index_table_from_tensor``
and ``index_to_string_table_from_tensor`` keep contrib's names, and the deprecated
``string_to_index``, ``index_to_string``, ``string_to_index_table_from_file`` and
``string_to_index_table_from_tensor`` are here too (the Cloud ML census sample called
``index_to_string(tf.to_int64(indices), mapping=...)``). Checked against TF 1.15.5 by the
corpus script ``contrib_lookup.py``. TensorFlow is imported when a function runs.
"""

__all__ = ["index_table_from_tensor", "index_to_string_table_from_tensor",
           "string_to_index_table_from_file", "string_to_index_table_from_tensor",
           "string_to_index", "index_to_string"]


def _ops():
    from tensorflow.python.ops import lookup_ops

    return lookup_ops


def _require(mapping):
    if mapping is None:
        raise ValueError("mapping must be specified.")


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1, hasher_spec=None,
                            dtype=None, name=None):
    """A table from the strings (or integers) of ``mapping`` to their int64 indices."""
    import tensorflow as tf

    ops = _ops()
    _require(mapping)
    return ops.index_table_from_tensor(
        vocabulary_list=mapping, num_oov_buckets=num_oov_buckets,
        default_value=default_value, hasher_spec=hasher_spec or ops.FastHashSpec,
        dtype=dtype or tf.string, name=name)


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
    """A table from int64 indices to the strings of ``mapping``."""
    _require(mapping)
    return _ops().index_to_string_table_from_tensor(
        vocabulary_list=mapping, default_value=default_value, name=name)


def string_to_index_table_from_file(vocabulary_file=None, num_oov_buckets=0,
                                    vocab_size=None, default_value=-1, hasher_spec=None,
                                    name=None):
    """TF 1.0's name of ``index_table_from_file`` for string keys."""
    import tensorflow as tf

    ops = _ops()
    return ops.index_table_from_file(
        vocabulary_file, num_oov_buckets, vocab_size, default_value,
        hasher_spec or ops.FastHashSpec, key_dtype=tf.string, name=name)


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                                      hasher_spec=None, name=None):
    """TF 1.0's name of ``index_table_from_tensor`` for string keys.

    Raises:
      ValueError: ``mapping`` is not a string tensor.
    """
    import tensorflow as tf

    with tf.compat.v1.name_scope(name, "string_to_index") as scope:
        mapping = tf.convert_to_tensor(mapping)
    if mapping.dtype.base_dtype != tf.string:
        raise ValueError("string_to_index_table_from_tensor requires string.")
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                   name=scope)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """The int64 indices of ``tensor``'s strings in ``mapping`` (``default_value`` if
    absent); the table must be initialised (``tf.tables_initializer()``)."""
    return index_table_from_tensor(mapping=mapping, default_value=default_value,
                                   name=name).lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    """The strings of ``mapping`` at ``tensor``'s int64 indices (``default_value`` out
    of range); the table must be initialised (``tf.tables_initializer()``)."""
    return index_to_string_table_from_tensor(mapping=mapping, default_value=default_value,
                                             name=name).lookup(tensor)
