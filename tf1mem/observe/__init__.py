"""The observe wing: what a session run did, read from TensorFlow's ``RunMetadata``.

- :mod:`~tf1mem.observe.placement`: node -> device of each run (partition graphs),
  as a table, CSV or JSON.
- :mod:`~tf1mem.observe.memory`: per-device peak memory of a step from its step
  stats (an allocation/free sweep), split into persistent, activations, temporaries
  and fed inputs; the out-of-memory explanation; the linear batch-size model.
- :mod:`~tf1mem.observe.run_memory`: per ``session.run`` label, the peak per device
  and the largest tensors of traced runs (``tf1mem.run --memory-report``).

It imports no other wing
(only :mod:`tf1mem.errors` and :mod:`tf1mem._atomic`), and TensorFlow only when asked
to run something.
"""
