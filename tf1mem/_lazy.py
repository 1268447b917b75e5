"""The one lazy mechanism: a module's public names, each imported on first use.

In the spirit of TensorFlow's ``LazyLoader`` (and PEP 562): a package ``__init__`` that
only names its public symbols writes::

    __getattr__, __dir__, __all__ = _lazy.attach(__name__, {
        "LSTMBlockCell": ".cells",               # the attribute of that name in .cells
        "static_rnn": "tensorflow:compat.v1.nn.static_rnn",  # an attribute path of a module
        "grid": ".grid:",                         # the module .grid itself
    })

and nothing is imported until a name is used; the value is then cached in the module's
namespace, so later lookups are plain dict hits. A name that is not listed goes to the
optional ``fallback(name)``, which raises (tf1mem's "removed" error for a TF1 name the
table lists: :func:`tf1mem.compat.errors.removed_names`), else Python's AttributeError. A target is ``MODULE`` (the attribute
of the public name in ``MODULE``), ``MODULE:ATTR.PATH`` (that attribute path) or
``MODULE:`` (the module itself); a ``MODULE`` starting with ``.`` is relative to the
package that calls :func:`attach`. This module imports nothing heavy and is leaf: every
wing may use it.
"""

import importlib
import sys

__all__ = ["attach", "resolve"]


def resolve(target, name=None, package=None):
    """The object a target names (see the module docstring).

    Args:
      target: ``"MODULE"``, ``"MODULE:ATTR.PATH"`` or ``"MODULE:"``.
      name: the attribute read from ``MODULE`` when the target has no ``:``.
      package: the package a relative ``MODULE`` is relative to.

    Raises:
      ImportError / AttributeError: what importing ``MODULE`` or reading the path raised.
    """
    module_name, colon, path = target.partition(":")
    value = importlib.import_module(module_name, package)
    if not colon:
        return getattr(value, name)
    for part in filter(None, path.split(".")):
        value = getattr(value, part)
    return value


def attach(module_name, names, fallback=None):
    """``(__getattr__, __dir__, __all__)`` for a module whose public names load lazily.

    Args:
      module_name: ``__name__`` of the calling module.
      names: public name -> target (see the module docstring).
      fallback: called with a name that is not in ``names``; it raises (an
        AttributeError, or a subclass naming what to use instead). None: Python's
        AttributeError.

    Returns:
      The module-level ``__getattr__`` and ``__dir__`` (PEP 562) and a sorted ``__all__``.
    """
    names = dict(names)
    package = module_name if _is_package(module_name) else module_name.rpartition(".")[0]

    def __getattr__(name):
        target = names.get(name)
        if target is None:
            if fallback is not None:
                fallback(name)
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = resolve(target, name, package)
        setattr(sys.modules[module_name], name, value)  # later lookups: plain dict hits
        return value

    def __dir__():
        return sorted(set(names) | set(vars(sys.modules[module_name])))

    return __getattr__, __dir__, sorted(names)


def _is_package(module_name):
    module = sys.modules.get(module_name)
    return module is not None and hasattr(module, "__path__")
