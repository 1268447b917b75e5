"""TF2-native twins of the article's two examples, proven equal to the TF1 graphs.

:mod:`~tf1mem.examples.softmax_tf2` is example 1 (softmax regression) as a
``tf.Module`` trained by a ``tf.function``; :mod:`~tf1mem.examples.placement_tf2` is
example 2 as TF 2 device placement and as a ``tf.distribute.MirroredStrategy``
data-parallel run. Each takes the same initialisation, batches (``DataSet.next_batch``
with the same seed) and learning rate as the TF1 code, and returns the loss of every
step; ``tests/commands/test_twins.py`` checks them against the TF1 graphs step by step.
docs/MIGRATION.md shows the two forms side by side. Nothing runs at import time.
"""
