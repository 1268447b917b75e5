"""How user modules get the TF1-aware ``__import__`` (:mod:`~tf1mem.compat.runtime.imports`).

Two hooks (``import_hook=``): ``"modules"`` decides once per folder, through a
``sys.path_hooks`` entry, and gives user modules builtins of their own, so library code
imports exactly as without the shim (a TF1 package's top-level module, which its parent
folder's finder would load, is found by a ``sys.meta_path`` entry for those names
only); ``"builtins"`` wraps ``builtins.__import__`` for the whole process, since code
that already exists must see it too. Both also set which packages are TF1 code
(:func:`~tf1mem.compat.runtime.usercode.use_tf1_packages`).
"""

import builtins
import contextlib
import importlib.abc
import importlib.machinery
import os
import sys

from tf1mem.compat.runtime import foreign_loaders, imports
from tf1mem.compat.runtime import state as state_lib
from tf1mem.compat.runtime.usercode import is_user_file, use_tf1_packages

__all__ = ["install_import_hook", "install_module_hook", "user_globals"]


def install_import_hook(state):
    """``import_hook="builtins"``: every import statement in the process is hooked."""
    state.undo.append(use_tf1_packages(state.options.tf1_packages))
    original = builtins.__import__
    tf1mem_import = imports.tf1_import(state, original, check_caller=True)
    builtins.__import__ = tf1mem_import

    def restore():
        if builtins.__import__ is tf1mem_import:
            builtins.__import__ = original
        # else: someone wrapped our hook; it turns pass-through once state_lib.current changes.

    state.undo.append(restore)


class _UserBuiltins(dict):
    """The builtins of user code under ``import_hook="modules"``.

    Holds only ``__import__`` (the TF1-aware one); every other name is looked up
    live in the real builtins, so what a program adds there later (``gettext``'s
    ``_``, say) is seen as usual.
    """

    def __missing__(self, key):
        return builtins.__dict__[key]


class _UserSourceLoader(importlib.machinery.SourceFileLoader):
    """A user module's loader: the module runs with :class:`_UserBuiltins`.

    Subclassed per install with the class attribute ``tf1mem_builtins`` set.
    """

    tf1mem_builtins = None

    def exec_module(self, module):
        module.__dict__["__builtins__"] = self.tf1mem_builtins
        super().exec_module(module)


class _UserSourcelessLoader(importlib.machinery.SourcelessFileLoader):
    """As :class:`_UserSourceLoader`, for a user module shipped as ``.pyc`` only."""

    tf1mem_builtins = None

    def exec_module(self, module):
        module.__dict__["__builtins__"] = self.tf1mem_builtins
        super().exec_module(module)


class _UserFileFinder(importlib.machinery.FileFinder):
    """The finder of one user folder (a ``sys.path`` entry or a package's)."""


class _TF1PackageFinder(importlib.abc.MetaPathFinder):
    """Finds the top-level modules of TF1 packages, loaded as user modules.

    Their folders below are user folders (the path hook serves them), but the top-level
    module itself would be loaded by the finder of the folder it is installed in,
    ``site-packages`` say, which stays a library folder.
    """

    def __init__(self, state, names, loaders):
        self._state = state
        self._names = frozenset(names)
        self._loaders = dict(loaders)  # Python's loader class -> the user loader class

    def find_spec(self, fullname, path=None, target=None):
        if path is not None or fullname not in self._names or state_lib.current is not self._state:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        user_loader = self._loaders.get(type(spec.loader)) if spec is not None else None
        if user_loader is not None:
            spec.loader = user_loader(fullname, spec.origin)
        return spec


def install_module_hook(state):
    """``import_hook="modules"``: only user modules get the TF1-aware ``__import__``.

    The decision is made once per folder, by a ``sys.path_hooks`` entry: a folder
    outside the library folders gets a finder whose loaders run its modules with
    :class:`_UserBuiltins`; any other folder is declined, and Python's own finder
    serves it, so library imports run exactly as without the shim. The builtins of
    the ``__main__`` code come from :func:`user_globals`; user modules that another
    tool's loader runs itself (pytest's assertion rewriter) get them from
    :mod:`~tf1mem.compat.runtime.foreign_loaders`.
    """
    state.undo.append(use_tf1_packages(state.options.tf1_packages))
    hook = imports.tf1_import(state, builtins.__import__, check_caller=False)
    state.user_builtins = _UserBuiltins(__import__=hook)
    namespace = {"tf1mem_builtins": state.user_builtins}
    source_loader = type("UserSourceLoader", (_UserSourceLoader,), namespace)
    sourceless_loader = type("UserSourcelessLoader", (_UserSourcelessLoader,), namespace)
    loaders = (
        (source_loader, importlib.machinery.SOURCE_SUFFIXES),
        (sourceless_loader, importlib.machinery.BYTECODE_SUFFIXES),
        (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
    )
    if state.options.tf1_packages:
        top_finder = _TF1PackageFinder(
            state, [p.name for p in state.options.tf1_packages],
            {importlib.machinery.SourceFileLoader: source_loader,
             importlib.machinery.SourcelessFileLoader: sourceless_loader})
        sys.meta_path.insert(0, top_finder)

        def remove_top_finder():
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(top_finder)

        state.undo.append(remove_top_finder)

    def user_folder_hook(path):
        folder = path or os.getcwd()
        if state_lib.current is not state or not os.path.isdir(folder) \
                or not is_user_file(os.path.join(folder, "__init__.py")):
            raise ImportError("not a user folder: Python's own finder serves it")
        return _UserFileFinder(path, *loaders)

    # Folders already served by Python's finder would keep it: forget those that are
    # the user's, so that the next import from them comes through the hook.
    forgotten = {}
    for key, finder in list(sys.path_importer_cache.items()):
        if type(finder) is importlib.machinery.FileFinder and is_user_file(
                os.path.join(key or os.getcwd(), "__init__.py")):
            forgotten[key] = sys.path_importer_cache.pop(key)
    sys.path_hooks.insert(0, user_folder_hook)

    def restore():
        with contextlib.suppress(ValueError):
            sys.path_hooks.remove(user_folder_hook)
        for key, finder in list(sys.path_importer_cache.items()):
            if isinstance(finder, _UserFileFinder):
                del sys.path_importer_cache[key]
        for key, finder in forgotten.items():
            sys.path_importer_cache.setdefault(key, finder)

    state.undo.append(restore)
    foreign_loaders.install(state)


def user_globals():
    """Globals to run ``__main__`` code with under ``import_hook="modules"``.

    Returns:
      ``{"__builtins__": ...}`` for ``runpy``'s ``init_globals``; ``{}`` when the
      shim is not installed, or installed with the process-wide hook.
    """
    with state_lib.LOCK:
        if state_lib.current is None or state_lib.current.user_builtins is None:
            return {}
        return {"__builtins__": state_lib.current.user_builtins}
