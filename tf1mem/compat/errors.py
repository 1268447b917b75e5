"""The errors of TF1 names that TF 2 dropped: a leaf every module of tf1mem may import.

:class:`RemovedModuleError` and :class:`RemovedAttributeError` (both
:class:`tf1mem.ShimError`, and ``ImportError`` / ``AttributeError`` as Python expects), the
one wording every "removed" message uses, and :func:`removed_names`, the module
``__getattr__`` that raises it for the TF1 names the table lists as removed. It imports
only :mod:`tf1mem.errors` and the data of :mod:`tf1mem.compat.table`, so no import circle
forms around it.
"""

from tf1mem import errors
from tf1mem.compat import table

__all__ = ["RemovedModuleError", "RemovedAttributeError", "removed_message",
           "removed_names"]


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


def removed_names(qualified, module_name, replacements=None, *, default=None,
                  message=removed_message, unknown=None):
    """The module ``__getattr__`` of a tf1mem module standing for TF1's module ``qualified``,
    for the TF1 names it does not provide: each raises :class:`RemovedAttributeError`
    naming what to use instead; any other name, an AttributeError. The one such
    ``__getattr__`` of tf1mem (alone, or as :func:`tf1mem._lazy.attach`'s ``fallback``).

    Args:
      qualified: TF1's dotted name of the module, e.g. ``"tf.contrib.learn.monitors"``.
      module_name: ``__name__`` of the calling module (Python's AttributeError names it).
      replacements: what to use instead of each removed name, a dict of
        :mod:`tf1mem.compat.table`; None: the entries of
        :data:`tf1mem.compat.table.REMOVED_SYMBOLS` under ``qualified`` (which then starts
        with ``tf.contrib.``), read when a name is asked for.
      default: the replacement of every other name but dunders (all of the module's other
        TF1 names are removed); None: the other names are unknown.
      message: ``message(qualified name, replacement)``, the error's text (default: the
        one wording of :func:`removed_message`).
      unknown: the AttributeError's text for an unknown name: a format string of
        ``name`` (``"... has no attribute {name!r}"``) or a function of it; None:
        Python's.

    Returns:
      ``__getattr__(name)``, which always raises.
    """
    if replacements is None and not qualified.startswith("tf.contrib."):
        raise ValueError(f"removed_names: {qualified!r} is not below tf.contrib; give its "
                         f"replacements")
    key = qualified[len("tf.contrib."):]

    def __getattr__(name):
        if replacements is None:
            replacement = table.REMOVED_SYMBOLS.get(f"{key}.{name}")
        else:
            replacement = replacements.get(name)
        if replacement is None and not name.startswith("__"):
            replacement = default
        if replacement is None:
            if unknown is None:
                text = f"module {module_name!r} has no attribute {name!r}"
            else:
                text = unknown(name) if callable(unknown) else unknown.format(name=name)
            raise AttributeError(text)
        raise RemovedAttributeError(message(f"{qualified}.{name}", replacement))

    return __getattr__
