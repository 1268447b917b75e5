"""``tf.contrib.tfprof`` under tf1mem (the module object itself): TF 1.15's
``model_analyzer.print_model_analysis`` (the parameter count of 2017 training scripts) and
``tfprof_logger.write_op_log``, on TF 2.21's own profiler (``tf.compat.v1.profiler``), which
prints the same report; ``ProfileContext`` left TensorFlow and raises naming a replacement.
"""

from tf1mem.compat import errors
from tf1mem.compat.tf.contrib.tfprof import model_analyzer, tfprof_logger

__all__ = ["model_analyzer", "tfprof_logger"]

# ProfileContext: the table's replacement.
__getattr__ = errors.removed_names("tf.contrib.tfprof", __name__)
