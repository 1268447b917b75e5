"""The observe wing: what a session run did, read from TensorFlow's ``RunMetadata``.

- :mod:`~tf1mem.observe.placement`: node -> device of each run (partition graphs),
  as a table, CSV or JSON.
- :mod:`~tf1mem.observe.step_memory`: per-device peak memory of a step from its step
  stats (an allocation/free sweep), split into persistent, activations, temporaries
  and fed inputs, as records and a table; :mod:`~tf1mem.observe.text` writes sizes
  and devices as text and reads sizes back.
- :mod:`~tf1mem.observe.oom`: the out-of-memory explanation and the batch predicted
  to fit; :mod:`~tf1mem.observe.batch_model`: the linear batch-size model;
  :mod:`~tf1mem.observe.caps`: TensorFlow's allocator limits (capped for a process,
  checked, read).
- :mod:`~tf1mem.observe.measure`: one training step measured in a fresh session;
  :mod:`~tf1mem.observe.sweep`: batch sizes measured one process each (table, CSV,
  plot); :mod:`~tf1mem.observe.fit`: the largest batch within a budget, measured.
  These three are what ``python -m tf1mem.memory`` delegates to.
- :mod:`~tf1mem.observe.run_memory`: per ``session.run`` label, the peak per device
  and the largest tensors of traced runs (``tf1mem.run --memory-report``).

It imports no other wing
(only :mod:`tf1mem.errors` and :mod:`tf1mem._atomic`), and TensorFlow only when asked
to run something.
"""
