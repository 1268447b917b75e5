"""``tf.app`` for user code: TF 2.21's ``tf.compat.v1.app`` (``run``, ...), with ``flags``
being :mod:`tf1mem.compat.tf.flags`, so that ``tf.app.flags.FLAGS`` is the same object as
``tf.flags.FLAGS`` (TF <= 1.4's ``_parse_flags()`` and ``__flags`` included)."""

import tensorflow as _tf

from tf1mem import _lazy
from tf1mem.compat.tf import flags

__all__ = ["flags"]

_REAL = _tf.compat.v1.app


# Every other name is TF 2.21's ``tf.compat.v1.app`` (``run`` is absl's, as in TF 1.15).
__getattr__ = _lazy.attach(__name__, {name: f"tensorflow:compat.v1.app.{name}"
                                      for name in dir(_REAL) if not name.startswith("__")})[0]


def __dir__():
    return sorted(set(dir(_REAL)) | set(__all__))
