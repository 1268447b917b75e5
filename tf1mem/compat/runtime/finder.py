"""The finder of ``tensorflow.contrib.*``, ``tensorflow.examples.*`` and ``tensorflow.estimator``.

It reads :mod:`tf1mem.compat.table`: a module path the table aliases is the module it
stands for (``tensorflow.examples.tutorials.mnist.input_data`` is
:mod:`tf1mem.data.input_data`), a provided ``tensorflow.contrib.<name>`` is the module
:mod:`~tf1mem.compat.runtime.composite` builds from its sources, the folders between are
packages that exist only under the shim, and anything else raises the "removed" error
with the table's replacement.
"""

import contextlib
import importlib
import importlib.abc
import importlib.util
import sys
import types

from tf1mem.compat import errors, table
from tf1mem.compat.runtime import composite

__all__ = ["Finder", "install_finder", "under_roots"]


def _virtual_packages():
    names = set(table.VIRTUAL_ROOTS)
    for alias in list(table.MODULE_ALIASES) + list(table.MODULE_PREFIX_ALIASES):
        parts = alias.split(".")
        for i in range(2, len(parts)):
            names.add(".".join(parts[:i]))
    return frozenset(names)


_VIRTUAL_PACKAGES = _virtual_packages()


def _prefix_target(fullname):
    """The real module a :data:`table.MODULE_PREFIX_ALIASES` subtree gives ``fullname``, or None."""
    for prefix, target in table.MODULE_PREFIX_ALIASES.items():
        if fullname == prefix or fullname.startswith(prefix + "."):
            return target + fullname[len(prefix):]
    return None


def _stand_in(fullname):
    """The module a :data:`table.CONTRIB_PACKAGES` package serves the names of, or None."""
    if not fullname.startswith("tensorflow.contrib."):
        return None
    return table.CONTRIB_PACKAGES.get(fullname[len("tensorflow.contrib."):])


def _contrib_submodule(fullname):
    """For a ``tensorflow.contrib.<...>`` name: "module" when it is a key of
    :data:`table.CONTRIB_SUBMODULES`, "package" when it lies above one, else None."""
    rest = fullname[len("tensorflow.contrib."):] if fullname.startswith(
        "tensorflow.contrib.") else None
    if rest is None:
        return None
    if rest in table.CONTRIB_SUBMODULES:
        return "module"
    if "." in rest and any(key.startswith(rest + ".")
                           for key in (*table.CONTRIB_SUBMODULES, *table.CONTRIB_PACKAGES)):
        return "package"
    return None


def under_roots(fullname):
    return any(fullname == root or fullname.startswith(root + ".") for root in table.VIRTUAL_ROOTS)


def _missing_module_error(fullname):
    parts = fullname.split(".")
    if parts[1] == "estimator":
        return errors.RemovedModuleError(
            f"{fullname} is not provided by tf1mem's tf.estimator (it provides "
            f"tensorflow.estimator, tensorflow.estimator.inputs and .export; see "
            f"tf1mem.compat.tf.estimator).", name=fullname)
    if parts[1] == "contrib":
        name = parts[2]
        if name in table.CONTRIB_MODULES:
            return errors.RemovedModuleError(errors.removed_message(
                "tf." + ".".join(parts[1:]),
                table.REMOVED_SYMBOLS.get(".".join(parts[2:4]))), name=fullname)
        return errors.RemovedModuleError(errors.removed_message(
            f"tf.contrib.{name}", table.REMOVED_CONTRIB.get(name)), name=fullname)
    return errors.RemovedModuleError(
        f"{fullname} is not part of TensorFlow 2; of tensorflow.examples tf1mem "
        f"provides tensorflow.examples.tutorials.mnist (input_data, mnist).", name=fullname)


class _VirtualPackage(types.ModuleType):
    """A package that exists only under the shim, e.g. ``tensorflow.examples``.

    One of :data:`table.CONTRIB_PACKAGES` serves its tf.contrib module's names first (as
    TF1's star imports did), then its submodules.
    """

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        fullname = f"{self.__name__}.{name}"
        stand_in = _stand_in(self.__name__)
        if stand_in is not None:
            served = importlib.import_module(
                stand_in if "." in stand_in else f"tensorflow.contrib.{stand_in}")
            try:
                return getattr(served, name)
            except AttributeError:
                if not _known(fullname):
                    raise
        if self.__name__ == "tensorflow.contrib":
            if name not in table.CONTRIB_MODULES and fullname not in _VIRTUAL_PACKAGES:
                raise errors.RemovedAttributeError(errors.removed_message(
                    f"tf.contrib.{name}", table.REMOVED_CONTRIB.get(name)))
        elif not _known(fullname):
            if self.__name__.startswith("tensorflow.contrib."):
                top = self.__name__.split(".")[2]
                raise errors.RemovedAttributeError(errors.removed_message(
                    "tf." + fullname[len("tensorflow."):], table.REMOVED_CONTRIB.get(top)))
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return importlib.import_module(fullname)

    def __setattr__(self, name, value):
        # The import system sets each submodule it loads on its package. On one of
        # CONTRIB_PACKAGES the served module's name wins, as TF1's star imports made it:
        # after `import ....framework.python.ops.arg_scope`, the package's arg_scope is
        # still the function (sys.modules holds the submodule).
        stand_in = _stand_in(self.__name__)
        if stand_in is not None and isinstance(value, types.ModuleType) \
                and value is sys.modules.get(f"{self.__name__}.{name}"):
            served = importlib.import_module(
                stand_in if "." in stand_in else f"tensorflow.contrib.{stand_in}")
            try:
                value = getattr(served, name)
            except AttributeError:
                pass
        super().__setattr__(name, value)


def _known(fullname):
    """Whether the table names ``fullname`` or a module below it (below tensorflow.contrib)."""
    return (fullname in table.MODULE_ALIASES or fullname in _VIRTUAL_PACKAGES
            or _contrib_submodule(fullname) is not None or _stand_in(fullname) is not None
            or _prefix_target(fullname) is not None)


class _Loader(importlib.abc.Loader):
    """Makes the modules of :class:`Finder`'s specs."""

    def __init__(self, target=None, module=None):
        self._target = target  # name of a real module to stand for, or None
        self._module = module  # a module object built for this name, or None

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        if self._target is not None:
            # importlib re-reads sys.modules after exec_module, so the import
            # statement gets the real module itself, with its own __spec__.
            sys.modules[module.__name__] = importlib.import_module(self._target)


class Finder(importlib.abc.MetaPathFinder):
    """Finds ``tensorflow.contrib.*`` and ``tensorflow.examples.*``."""

    def find_spec(self, fullname, path=None, target=None):
        if not under_roots(fullname):
            return None
        if fullname in table.MODULE_ALIASES:
            return importlib.util.spec_from_loader(
                fullname, _Loader(target=table.MODULE_ALIASES[fullname]))
        real = _prefix_target(fullname)
        if real is not None:
            try:
                found = importlib.util.find_spec(real)
            except ModuleNotFoundError:  # a package above it is missing too
                found = None
            if found is None:
                raise _missing_module_error(fullname)
            return importlib.util.spec_from_loader(fullname, _Loader(target=real))
        parts = fullname.split(".")
        if len(parts) == 3 and parts[1] == "contrib" and parts[2] in table.CONTRIB_MODULES:
            # A provided module with aliases below it (tensorflow.contrib.learn) is the
            # table's module, not the virtual package those aliases would make.
            return self._contrib_module(fullname, parts[2])
        if fullname in _VIRTUAL_PACKAGES or _stand_in(fullname) is not None:
            module = _VirtualPackage(fullname, f"{fullname}, provided by tf1mem's TF1 shim.")
            return importlib.util.spec_from_loader(
                fullname, _Loader(module=module), is_package=True)
        submodule = _contrib_submodule(fullname)
        if submodule == "module":
            target = table.CONTRIB_SUBMODULES[fullname[len("tensorflow.contrib."):]]
            return importlib.util.spec_from_loader(
                fullname, _Loader(target=f"tensorflow.contrib.{target}"))
        if submodule == "package":
            module = _VirtualPackage(fullname, f"{fullname}, provided by tf1mem's TF1 shim.")
            return importlib.util.spec_from_loader(
                fullname, _Loader(module=module), is_package=True)
        name = parts[2]
        if name in table.CONTRIB_MODULES:
            sources = table.CONTRIB_MODULES[name][0]
            if isinstance(sources, str):  # e.g. tensorflow.contrib.slim.nets
                real = ".".join([sources] + parts[3:])
                if importlib.util.find_spec(real) is not None:
                    return importlib.util.spec_from_loader(fullname, _Loader(target=real))
        raise _missing_module_error(fullname)

    @staticmethod
    def _contrib_module(fullname, name):
        sources = table.CONTRIB_MODULES[name][0]
        if isinstance(sources, str):
            return importlib.util.spec_from_loader(fullname, _Loader(target=sources))
        return importlib.util.spec_from_loader(
            fullname, _Loader(module=composite.make_composite(fullname, name)), is_package=True)


def install_finder(state):
    finder = Finder()
    sys.meta_path.insert(0, finder)
    before = set(sys.modules)
    real_tf = sys.modules["tensorflow"]
    attrs = ("contrib", "examples", "estimator")
    had_attrs = {name: real_tf.__dict__[name] for name in attrs if name in real_tf.__dict__}

    def restore():
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        for name in [m for m in sys.modules if under_roots(m) and m not in before]:
            del sys.modules[name]
        for name in attrs:
            if name in had_attrs:
                setattr(real_tf, name, had_attrs[name])
            else:
                real_tf.__dict__.pop(name, None)

    state.undo.append(restore)
