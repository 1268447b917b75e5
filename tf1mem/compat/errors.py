"""The errors of TF1 names that TF 2 dropped: a leaf every module of tf1mem may import.

:class:`RemovedModuleError` and :class:`RemovedAttributeError` (both
:class:`tf1mem.ShimError`, and ``ImportError`` / ``AttributeError`` as Python expects), and
the one wording every "removed" message uses. It imports only :mod:`tf1mem.errors` and
the data of :mod:`tf1mem.compat.table`, so no import circle forms around it.
"""

from tf1mem import errors
from tf1mem.compat import table

__all__ = ["RemovedModuleError", "RemovedAttributeError", "removed_message",
           "raise_removed_attribute"]


class RemovedModuleError(errors.ShimError, ImportError):
    """Importing a TF1 module that TF 2 no longer has and tf1mem does not map."""


class RemovedAttributeError(errors.ShimError, AttributeError):
    """Using a TF1 symbol that TF 2 no longer has and tf1mem does not map."""


def removed_message(qualified, replacement=None):
    """The one wording every "removed" error uses.

    Args:
      qualified: the TF1 name, e.g. ``"tf.contrib.factorization.KMeans"``.
      replacement: what to use instead, or None when there is nothing to name.
    """
    msg = (f"{qualified} was removed with TensorFlow 2 (tf.contrib and the other "
           f"TF1-only APIs are gone) and tf1mem does not provide it.")
    if replacement:
        msg += f" Use instead: {replacement}."
    return msg


def raise_removed_attribute(prefix, module_name, name):
    """For a tf1mem module standing for ``tf.contrib.<prefix>``: raises the "removed"
    error for a TF1 name of :data:`tf1mem.compat.table.REMOVED_SYMBOLS`, else Python's
    AttributeError."""
    replacement = table.REMOVED_SYMBOLS.get(f"{prefix}.{name}")
    if replacement is None:
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
    raise RemovedAttributeError(removed_message(f"tf.contrib.{prefix}.{name}", replacement))
