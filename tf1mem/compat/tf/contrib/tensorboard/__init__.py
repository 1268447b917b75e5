"""``tf.contrib.tensorboard`` under tf1mem (the module object itself, for
``tf.contrib.tensorboard.plugins.projector`` and its imports): of TF 1.15's module, the one
part real TF1 code used, the embedding projector's config, lives in
``plugins/projector.py`` (its messages built from protobuf when it loads; TensorFlow is
imported when ``visualize_embeddings`` writes)."""

from tf1mem.compat.tf.contrib.tensorboard import plugins

__all__ = ["plugins"]
