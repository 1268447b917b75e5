"""``tf.contrib.tfprof.tfprof_logger``: ``write_op_log``, TF's own
(``tf.compat.v1.profiler.write_op_log``, the same signature), for scripts that logged extra
op types (``OpLogProto``) for tfprof before TF 2 dropped contrib."""

__all__ = ["write_op_log"]


def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
    """Writes ``op_log`` (with the graph's shapes) to ``log_dir/tfprof_log``."""
    import tensorflow as tf

    return tf.compat.v1.profiler.write_op_log(graph, log_dir, op_log=op_log,
                                              run_meta=run_meta, add_trace=add_trace)
