"""The distributed wing: TensorFlow's gRPC runtime, kept on loopback unless asked.

- :mod:`~tf1mem.distributed.servers`: ports (free, busy) and ``tf.train.Server``
  start-up with clear errors, one per process per address (TF's gRPC server has no
  clean shutdown, so a second run in the same process reuses the first's);
- :mod:`~tf1mem.distributed.loopback`: the ``LD_PRELOAD`` bind shim that keeps
  servers on 127.0.0.1, and the re-exec under it;
- :mod:`~tf1mem.distributed.task`: what ONE task process of a data-parallel cluster
  does (ps or worker, between-graph replication, chief checkpoints);
- :mod:`~tf1mem.distributed.launcher`: starting, watching, restarting and stopping
  the task processes of a local run, and one task from ``TF_CONFIG`` / TF1 flags;
- :mod:`~tf1mem.distributed.two_task`: the article's example 2 (one model split
  over two in-process tasks).

It may use :mod:`tf1mem.config`, :mod:`tf1mem.data`, :mod:`tf1mem.observe` and
:mod:`tf1mem.models`; it never imports :mod:`tf1mem.compat` or a command module.
"""
