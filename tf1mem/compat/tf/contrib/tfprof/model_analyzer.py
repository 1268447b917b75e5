"""``tf.contrib.tfprof.model_analyzer``: ``print_model_analysis`` and TF 1.15's option sets.

2017 scripts counted their parameters with::

    param_stats = tf.contrib.tfprof.model_analyzer.print_model_analysis(
        tf.get_default_graph(),
        tfprof_options=tf.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
    print('total_params: %d' % param_stats.total_parameters)

TF 2.21 still has TF1's profiler as ``tf.compat.v1.profiler.profile``; it takes TF 1.15's
option dicts as they are and prints the same report (checked against TF 1.15.5 by the
corpus script ``contrib_tfprof.py``: the report's lines, totals and returned protos equal;
TF 1.15 printed one more line first, "Parsing Inputs...", which TF 2.21's profiler no
longer writes).
"""

from tf1mem import _lazy
from tf1mem.compat import errors

# TF's profiler and the logger, on first use; ProfileContext: the table's replacement.
__getattr__, __dir__, _LAZY = _lazy.attach(__name__, {
    "Profiler": "tensorflow:compat.v1.profiler.Profiler",
    "advise": "tensorflow:compat.v1.profiler.advise",
    "tfprof_logger": ".tfprof_logger:",
}, fallback=errors.removed_names("tf.contrib.tfprof", __name__))
__all__ = ["print_model_analysis", "TRAINABLE_VARS_PARAMS_STAT_OPTIONS",
           "FLOAT_OPS_OPTIONS", "PRINT_ALL_TIMING_MEMORY", "ALL_ADVICE", *_LAZY]


def _options(**changed):
    base = {"max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0,
            "min_float_ops": 0, "order_by": "name", "account_type_regexes": [".*"],
            "start_name_regexes": [".*"], "trim_name_regexes": [],
            "show_name_regexes": [".*"], "hide_name_regexes": [],
            "account_displayed_op_only": True, "select": [], "output": "stdout",
            "dump_to_file": ""}
    base.update(changed)
    return base


# TF 1.15's option sets (module-level dicts, as there: a script that edits one edits it
# for the rest of the run).
TRAINABLE_VARS_PARAMS_STAT_OPTIONS = _options(account_type_regexes=["_trainable_variables"],
                                              select=["params"])
FLOAT_OPS_OPTIONS = _options(min_float_ops=1, order_by="float_ops", select=["float_ops"])
PRINT_ALL_TIMING_MEMORY = _options(min_bytes=1, min_micros=1, select=["micros", "bytes"])
ALL_ADVICE = {"ExpensiveOperationChecker": {}, "AcceleratorUtilizationChecker": {},
              "JobChecker": {}, "OperationChecker": {}}
_COMMANDS = ("scope", "graph", "code", "op")


def print_model_analysis(graph, run_meta=None, op_log=None, tfprof_cmd="scope",
                         tfprof_options=None):
    """Profiles ``graph`` and prints the report (TF 1.15's signature).

    Args:
      graph: the ``tf.Graph`` to profile.
      run_meta: a ``RunMetadata`` for time and memory, or None.
      op_log: an ``OpLogProto`` with extra op types, or None.
      tfprof_cmd: "scope", "graph", "code" or "op".
      tfprof_options: an option dict (default: ``TRAINABLE_VARS_PARAMS_STAT_OPTIONS``).

    Returns:
      A ``GraphNodeProto`` ("scope", "graph") or ``MultiGraphNodeProto`` ("code", "op"):
      ``total_parameters``, ``total_float_ops``, ``children``, ...
    """
    if tfprof_cmd not in _COMMANDS:
        raise ValueError(f"print_model_analysis: tfprof_cmd={tfprof_cmd!r} is not one of "
                         f"{', '.join(_COMMANDS)}")
    if tfprof_options is None:
        tfprof_options = TRAINABLE_VARS_PARAMS_STAT_OPTIONS
    if not isinstance(tfprof_options, dict):
        raise TypeError(f"print_model_analysis: tfprof_options must be an option dict such "
                        f"as TRAINABLE_VARS_PARAMS_STAT_OPTIONS; got "
                        f"{type(tfprof_options).__name__}")
    import tensorflow as tf

    if graph is None or not isinstance(graph, tf.Graph):
        raise TypeError(f"print_model_analysis: graph must be a tf.Graph (e.g. "
                        f"tf.get_default_graph()); got {type(graph).__name__}")
    return tf.compat.v1.profiler.profile(graph, run_meta=run_meta, op_log=op_log,
                                         cmd=tfprof_cmd, options=tfprof_options)
