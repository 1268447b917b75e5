"""``tf.contrib.learn.utils``: ``make_export_strategy`` and ``saved_model_export_utils``
(the module :mod:`~tf1mem.compat.tf.contrib.learn.export_strategy` stands for); the
rest of TF 1.15's learn utils (input_fn_utils, gc) left with the contrib Estimator."""

from tf1mem.compat.tf.contrib.learn import export_strategy as saved_model_export_utils
from tf1mem.compat.tf.contrib.learn.export_strategy import make_export_strategy

__all__ = ["make_export_strategy", "saved_model_export_utils"]

__path__ = []  # a package to the import system: ``...learn.utils.saved_model_export_utils``
