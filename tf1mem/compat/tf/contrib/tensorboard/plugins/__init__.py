"""``tf.contrib.tensorboard.plugins`` under tf1mem: the package that
``from tensorflow.contrib.tensorboard.plugins import projector`` reads; it owns the
projector module (``projector.py``: the config messages and ``visualize_embeddings``);
TF 1.15's ``trace`` plugin is not provided."""

from tf1mem.compat.tf.contrib.tensorboard.plugins import projector

__all__ = ["projector"]
