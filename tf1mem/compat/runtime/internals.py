"""User code's ``tensorflow.python.*``: TF1's internal modules as TF1-era code imported them.

tf1mem's table says which internal module paths user code gets differently
(:data:`~tf1mem.compat.table.INTERNAL_MODULES`, :data:`~tf1mem.compat.table.INTERNAL_PREFIXES`):
``tensorflow.python.util.nest`` is TF 1.15's nest, ``tensorflow.python.keras.*`` is
tf_keras, ``tensorflow.python.layers.core`` is the module ``tf.layers.Dense`` comes from.
User code's imports of ``tensorflow.python...`` come here (from tf1mem's ``__import__``,
:mod:`~tf1mem.compat.runtime.imports`): a mapped path is answered with its source; a
package above one (``tensorflow.python.util``) with a :class:`InternalView` of the real
package that serves the mapped names in place of the real ones; anything else with the
real module. Nothing here enters ``sys.modules`` or changes a real module, so libraries
importing the same paths get TensorFlow's own modules.
"""

import importlib
import types

from tf1mem.compat import table
from tf1mem.compat.runtime import composite

__all__ = ["InternalView", "internal_import", "is_mapped", "resolve"]

ROOT = "tensorflow.python"


def _prefixes():
    # Longest first, should one prefix lie below another.
    return sorted(table.INTERNAL_PREFIXES.items(), key=lambda item: -len(item[0]))


def _source(fullname):
    """``(source, prefix)`` the table gives ``fullname`` (prefix None for an exact
    entry), or None when ``fullname`` is TensorFlow's own for user code too."""
    if fullname in table.INTERNAL_MODULES:
        return table.INTERNAL_MODULES[fullname], None
    for prefix, target in _prefixes():
        if fullname.startswith(prefix + "."):
            return target + fullname[len(prefix):], prefix
    return None


def _above_mapped(fullname):
    """Whether a mapped module lies below ``fullname`` (it then needs a view)."""
    head = fullname + "."
    return any(key.startswith(head) for key in table.INTERNAL_MODULES) or any(
        key.startswith(head) for key in table.INTERNAL_PREFIXES)


def is_mapped(fullname):
    """Whether user code's ``import fullname`` is answered differently from TensorFlow's."""
    return _source(fullname) is not None or _above_mapped(fullname)


class InternalView(types.ModuleType):
    """A real ``tensorflow.python`` package as user code sees it: the table's modules in
    place of the real ones below it, everything else the real package's."""

    def __init__(self, fullname, real, cache):
        super().__init__(fullname, getattr(real, "__doc__", None))
        self.__dict__["_tf1mem_real"] = real  # None where TF 2.21 has no such package
        self.__dict__["_tf1mem_cache"] = cache

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = f"{self.__name__}.{name}"
        real = self.__dict__["_tf1mem_real"]
        if is_mapped(child):
            value = resolve(child, self.__dict__["_tf1mem_cache"])
        elif real is not None and hasattr(real, name):
            value = getattr(real, name)
        else:
            try:  # a real submodule not imported yet, as `from package import module` does
                value = importlib.import_module(child)
            except ModuleNotFoundError as e:
                if e.name != child:
                    raise
                raise AttributeError(f"module {self.__name__!r} has no attribute "
                                     f"{name!r}") from None
        self.__dict__[name] = value  # later lookups are plain dict hits
        return value

    def __dir__(self):
        real = self.__dict__["_tf1mem_real"]
        names = set(dir(real)) if real is not None else set()
        head = self.__name__ + "."
        for key in (*table.INTERNAL_MODULES, *table.INTERNAL_PREFIXES):
            if key.startswith(head):
                names.add(key[len(head):].split(".")[0])
        return sorted(names)


def resolve(fullname, cache):
    """The module user code's ``fullname`` is.

    Args:
      fullname: a module path at or below ``tensorflow.python``.
      cache: a dict kept for one installation (fullname -> module), so that a path is
        the same object wherever user code reaches it.

    Raises:
      ModuleNotFoundError: neither TensorFlow nor the table's source has the module.
    """
    module = cache.get(fullname)
    if module is not None:
        return module
    found = _source(fullname)
    if found is not None:
        source, prefix = found
        # One module per source: tensorflow.python.ops.rnn_cell_impl is the same object
        # as tensorflow.python.ops.rnn.rnn_cell_impl.
        module = cache.get(("source", source))
        if module is None:
            try:
                module = composite.load(
                    source, fullname, f"{fullname} (TF1's) under tf1mem: {source}.")
            except ModuleNotFoundError as e:
                if prefix is None or not e.name or not source.startswith(e.name):
                    raise
                home = table.INTERNAL_PREFIXES[prefix]
                raise ModuleNotFoundError(
                    f"No module named {fullname!r}: under tf1mem, user code's {prefix} is "
                    f"{home}, which has no {source[len(home) + 1:]!r}.",
                    name=fullname) from None
            cache[("source", source)] = module
    elif _above_mapped(fullname):
        try:
            real = importlib.import_module(fullname)
        except ModuleNotFoundError as e:
            if e.name != fullname:
                raise
            real = None
        module = InternalView(fullname, real, cache)
    else:
        module = importlib.import_module(fullname)
    cache[fullname] = module
    return module


def internal_import(original, proxy, cache, name, globals=None, locals=None, fromlist=()):
    """User code's ``import tensorflow.python...`` / ``from tensorflow.python... import``.

    Args:
      original: Python's ``__import__``.
      proxy: the TF1 module, what ``import tensorflow.python.x`` binds (``tensorflow``).
      cache: the installation's dict of resolved modules (see :func:`resolve`).
      name, globals, locals, fromlist: the import statement's (level 0).

    Returns:
      What the import statement binds.
    """
    if not is_mapped(name):
        module = original(name, globals, locals, fromlist, 0)
        return module if fromlist else proxy
    module = resolve(name, cache)
    if fromlist and hasattr(module, "__path__") and module.__name__ != name:
        # A real package stands for it (tf_keras.src.applications): import the submodules
        # the statement names, as Python does for `from package import module`.
        original(module.__name__, globals, locals, fromlist, 0)
    return module if fromlist else proxy
