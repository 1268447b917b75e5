"""``tf.contrib.layers.embed_sequence``, which tf-slim did not keep, written for tf1mem.

(``optimize_loss`` and the rest of ``tf.contrib.layers`` are tf-slim's, which kept
them.) Checked against TF 1.15.5 by the corpus script ``contrib_optimize_loss.py``.
"""

from tf1mem._tf import v1 as _v1

__all__ = ["embed_sequence"]


def _lookup_unique(params, ids):
    """``embedding_lookup`` that gathers each distinct id once (TF1's ``unique=True``)."""
    tf = _v1()
    ids = tf.convert_to_tensor(ids)
    flat = tf.reshape(ids, [-1])
    distinct, index = tf.unique(flat)
    rows = tf.gather(tf.nn.embedding_lookup(params, distinct), index)
    out = tf.reshape(rows, tf.concat([tf.shape(ids), tf.shape(rows)[1:]], 0))
    out.set_shape(ids.get_shape().concatenate(params.get_shape()[1:]))
    return out


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
    """Maps a ``[batch, time]`` tensor of ids to ``[batch, time, embed_dim]`` embeddings.

    The matrix is the model variable ``<scope or "EmbedSequence">/embeddings`` of shape
    ``[vocab_size, embed_dim]``; with ``reuse=True`` an existing one is looked up (and
    the sizes may be omitted). ``unique=True`` gathers each distinct id once.

    Raises:
      ValueError: no ``vocab_size`` / ``embed_dim`` when the matrix is created.
    """
    import tf_slim

    tf = _v1()
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not "
                         "reusing. Got vocab_size=%s and embed_dim=%s" % (vocab_size, embed_dim))
    with tf.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = [vocab_size, embed_dim] if vocab_size and embed_dim else None
        embeddings = tf_slim.model_variable("embeddings", shape=shape, initializer=initializer,
                                            regularizer=regularizer, trainable=trainable)
        if unique:
            return _lookup_unique(embeddings, ids)
        return tf.nn.embedding_lookup(embeddings, ids)
