"""The observe wing: what a session run did, read from TensorFlow's ``RunMetadata``.

- :mod:`~tf1mem.observe.placement`: node -> device of each run (partition graphs),
  as a table, CSV or JSON.

Memory (per-device peaks from step stats) goes here next. It imports no other wing
(only :mod:`tf1mem.errors` and :mod:`tf1mem._atomic`), and TensorFlow only when asked
to run something.
"""
