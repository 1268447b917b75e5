"""The ``tf.contrib.<name>`` module (or another TF1 module) built from the sources
:mod:`tf1mem.compat.table` names.

A single source is the module itself (``tf.contrib.slim is tf_slim``); several give a
new module whose attributes are looked up lazily, first source first. A tf1mem module
serves the names of its ``__all__``; TensorFlow's and tf-slim's modules serve every
public attribute. A name no source has raises the "removed" error, with the table's
replacement when it names one.
"""

import types

from tf1mem import _lazy
from tf1mem.compat import errors, table

__all__ = ["load", "make_composite", "make_module", "source_names"]


def _load(source):
    """The module (or object) a source string names."""
    module_name, colon, path = source.partition(":")
    return _lazy.resolve(module_name + ":" + path) if colon else _lazy.resolve(source + ":")


def _serves(source, obj, name):
    if source.startswith("tf1mem."):
        return name in getattr(obj, "__all__", ())
    return not name.startswith("_") and hasattr(obj, name)


def source_names(source):
    """The public names one source serves (what TF 1.15's ``dir()`` listed)."""
    obj = _load(source)
    if source.startswith("tf1mem."):
        return set(obj.__all__)
    return {n for n in dir(obj) if not n.startswith("_")}


def _lookup(sources, name):
    for source in sources:
        obj = _load(source)
        if _serves(source, obj, name):
            return getattr(obj, name)
    raise KeyError(name)


def make_composite(fullname, contrib_name):
    """Builds the module object for ``tf.contrib.<contrib_name>``.

    Returns:
      A module. Raises KeyError when ``contrib_name`` is not in the table.
    """
    sources, note = table.CONTRIB_MODULES[contrib_name]
    if isinstance(sources, str):
        return _load(sources)

    def missing(name):
        key = f"{contrib_name}.{name}"
        return errors.RemovedAttributeError(errors.removed_message(
            f"tf.contrib.{key}", table.REMOVED_SYMBOLS.get(key)))

    return make_module(fullname, sources, f"tf.contrib.{contrib_name} under tf1mem: {note}.",
                       missing)


def load(sources, fullname, doc):
    """The module one table entry names: its single source, or a module built from several.

    Args:
      sources: a source string, or a tuple of them (see the module docstring).
      fullname: the module's TF1 name (the built module's ``__name__``).
      doc: the built module's docstring.
    """
    if isinstance(sources, str):
        return _load(sources)
    return make_module(fullname, sources, doc)


def make_module(fullname, sources, doc, missing=None):
    """A module whose attributes are looked up lazily in ``sources``, first source first.

    Args:
      fullname: the module's ``__name__``.
      sources: source strings (see the module docstring).
      doc: its docstring.
      missing: called with a name no source has, returns the exception to raise
        (default: an AttributeError naming the module).
    """
    module = types.ModuleType(fullname, doc)

    def __getattr__(name):
        if name == "__all__":
            # `from tensorflow.contrib.rnn import *` reads __all__ (else only the names
            # already used would be in __dict__): every public name a source offers.
            value = [n for n in __dir__() if not n.startswith("_")]
            module.__dict__[name] = value
            return value
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            value = _lookup(sources, name)
        except KeyError:
            if missing is not None:
                raise missing(name) from None
            raise AttributeError(f"module {fullname!r} (TF1's, under tf1mem) has no "
                                 f"attribute {name!r}") from None
        module.__dict__[name] = value  # cache: later lookups are plain dict hits
        return value

    def __dir__():
        """Every name a source offers (what TF 1.15's dir() listed), not only those used."""
        names = set(module.__dict__)
        for source in sources:
            names.update(source_names(source))
        return sorted(names)

    module.__getattr__ = __getattr__
    module.__dir__ = __dir__
    module.__path__ = []  # a package, so `import tensorflow.contrib.rnn.x` reaches the finder
    return module
