"""``tensorflow.examples.tutorials.mnist``: ``mnist`` (the tutorial's model file:
``inference``, ``loss``, ``training``, ``evaluation``) is here; ``input_data`` is
:mod:`tf1mem.data.input_data`, TF 1.15's loader re-implemented, which tf1mem's table
maps to this path."""
