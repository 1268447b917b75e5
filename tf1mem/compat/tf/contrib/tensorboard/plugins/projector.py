"""``tf.contrib.tensorboard.plugins.projector``: the embedding projector's config.

TF1 code (the word2vec tutorial, MNIST embedding demos) wrote::

    from tensorflow.contrib.tensorboard.plugins import projector
    config = projector.ProjectorConfig()
    embedding = config.embeddings.add()
    embedding.tensor_name = embedding_var.name
    embedding.metadata_path = 'metadata.tsv'
    projector.visualize_embeddings(summary_writer, config)

TF 2 dropped the module and TensorBoard no longer ships with TensorFlow, so that import
stopped the whole script. Here ``ProjectorConfig``, ``EmbeddingInfo`` and
``SpriteMetadata`` are protocol-buffer messages with TF 1.15's schema (package
``tensorflow``, the same field names and numbers, proto3), built when the module loads
(from protobuf alone: TensorFlow is imported by ``visualize_embeddings``) in a descriptor
pool of their own, and ``visualize_embeddings`` writes
``projector_config.pbtxt`` into the writer's log directory as TF 1.15 did: a later
``pip install tensorboard`` shows the embeddings from it. Checked against TF 1.15.5 by the
corpus script ``contrib_projector.py``.
"""

import os

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["ProjectorConfig", "EmbeddingInfo", "SpriteMetadata", "visualize_embeddings",
           "PROJECTOR_FILENAME"]

PROJECTOR_FILENAME = "projector_config.pbtxt"


def _json_name(name):
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _file_descriptor():
    """TF 1.15's ``projector_config.proto``, a FileDescriptorProto written out field by
    field."""
    field = descriptor_pb2.FieldDescriptorProto
    string, uint32, message = field.TYPE_STRING, field.TYPE_UINT32, field.TYPE_MESSAGE
    single, repeated = field.LABEL_OPTIONAL, field.LABEL_REPEATED
    schema = {
        "SpriteMetadata": [("image_path", 1, string, single, None),
                           ("single_image_dim", 2, uint32, repeated, None)],
        "EmbeddingInfo": [("tensor_name", 1, string, single, None),
                          ("metadata_path", 2, string, single, None),
                          ("bookmarks_path", 3, string, single, None),
                          ("tensor_shape", 4, uint32, repeated, None),
                          ("sprite", 5, message, single, ".tensorflow.SpriteMetadata"),
                          ("tensor_path", 6, string, single, None)],
        "ProjectorConfig": [("model_checkpoint_path", 1, string, single, None),
                            ("embeddings", 2, message, repeated, ".tensorflow.EmbeddingInfo"),
                            ("model_checkpoint_dir", 3, string, single, None)],
    }
    proto = descriptor_pb2.FileDescriptorProto(
        name="tensorflow/contrib/tensorboard/plugins/projector/projector_config.proto",
        package="tensorflow", syntax="proto3")
    for name, fields in schema.items():
        msg = proto.message_type.add(name=name)
        for fname, number, ftype, label, type_name in fields:
            f = msg.field.add(name=fname, number=number, type=ftype, label=label,
                              json_name=_json_name(fname))
            if type_name:
                f.type_name = type_name
    return proto


# The three message classes, in a descriptor pool of their own.
_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file_descriptor())
ProjectorConfig = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName("tensorflow.ProjectorConfig"))
EmbeddingInfo = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName("tensorflow.EmbeddingInfo"))
SpriteMetadata = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName("tensorflow.SpriteMetadata"))


def visualize_embeddings(summary_writer, config):
    """Writes ``config`` as ``projector_config.pbtxt`` in ``summary_writer``'s log dir.

    Args:
      summary_writer: a ``tf.summary.FileWriter`` (anything with ``get_logdir()``).
      config: a ``ProjectorConfig`` (this module's, or TensorBoard's own).

    Raises:
      TypeError: ``summary_writer`` has no ``get_logdir`` or ``config`` is not a
        protocol-buffer message.
      ValueError: the writer has no log directory.
    """
    from google.protobuf import message as pb_message
    from google.protobuf import text_format

    get_logdir = getattr(summary_writer, "get_logdir", None)
    if get_logdir is None:
        raise TypeError(f"visualize_embeddings: summary_writer must be a "
                        f"tf.summary.FileWriter (it has get_logdir()); got "
                        f"{type(summary_writer).__name__}")
    if not isinstance(config, pb_message.Message):
        raise TypeError(f"visualize_embeddings: config must be a projector.ProjectorConfig; "
                        f"got {type(config).__name__}")
    logdir = get_logdir()
    if not logdir:
        raise ValueError("visualize_embeddings: the summary writer has no log directory; "
                         "create it as tf.summary.FileWriter(logdir)")
    import tensorflow as tf

    with tf.io.gfile.GFile(os.path.join(logdir, PROJECTOR_FILENAME), "w") as f:
        f.write(text_format.MessageToString(config))
