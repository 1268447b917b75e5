"""Other tools' loaders that run user modules themselves: they give them user builtins too.

Under ``import_hook="modules"`` a user module gets the TF1-aware ``__import__`` from the
loader of its folder's finder (:mod:`~tf1mem.compat.runtime.hooks`). A tool that puts its
own finder first on ``sys.meta_path`` and executes modules with its own loader bypasses
that finder: pytest's assertion rewriter (``_pytest.assertion.rewrite.
AssertionRewritingHook``) loads every test module and ``conftest.py`` that way, so under
``python -m tf1mem.run -m pytest`` they got TF 2. For each loader class of
:data:`FOREIGN_LOADERS`, :func:`install` wraps the class's ``exec_module`` (once the
class's module is imported: at once, or when the program imports it, through a
``sys.meta_path`` watcher): a module whose file is the user's (:func:`is_user_file`) is
given the user builtins, then the tool's own ``exec_module`` runs unchanged (pytest
still rewrites the asserts, caches its ``.pyc`` and executes it). Modules of libraries
and the tool's own are left alone. The undo steps put the class's own ``exec_module``
back and remove the watcher.
"""

import contextlib
import importlib.abc
import sys

from tf1mem.compat.runtime import state as state_lib
from tf1mem.compat.runtime.usercode import is_user_file

__all__ = ["FOREIGN_LOADERS", "install"]

# (module, class): loaders known to execute user modules past sys.path_hooks.
FOREIGN_LOADERS = (
    ("_pytest.assertion.rewrite", "AssertionRewritingHook"),
)


def install(state):
    """Wraps each :data:`FOREIGN_LOADERS` class now, or when its module is imported."""
    pending = {}
    for module_name, class_name in FOREIGN_LOADERS:
        module = sys.modules.get(module_name)
        if module is not None:
            _wrap(state, module, class_name)
        else:
            pending[module_name] = class_name
    if pending:
        watcher = _Watcher(state, pending)
        sys.meta_path.insert(0, watcher)

        def remove_watcher():
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(watcher)

        state.undo.append(remove_watcher)


def _module_file(module):
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) if spec is not None else None
    return origin or getattr(module, "__file__", None)


def _wrap(state, module, class_name):
    """Wraps ``module.<class_name>.exec_module``; no-op for a version without it."""
    cls = getattr(module, class_name, None)
    original = getattr(cls, "__dict__", {}).get("exec_module")
    if original is None:
        return  # another version of the tool: nothing of ours to wrap

    def exec_module(self, target):
        if state_lib.current is state and state.user_builtins is not None:
            path = _module_file(target)
            if path and path.endswith(".py") and is_user_file(path):
                target.__dict__["__builtins__"] = state.user_builtins
        return original(self, target)

    exec_module.__wrapped__ = original
    exec_module.__doc__ = getattr(original, "__doc__", None)
    with state_lib.LOCK:
        cls.exec_module = exec_module

        def restore():
            if cls.__dict__.get("exec_module") is exec_module:
                cls.exec_module = original

        state.undo.append(restore)


class _NotifyingLoader(importlib.abc.Loader):
    """The watched module's own loader, then :func:`_wrap` once the module has run."""

    def __init__(self, inner, state, class_name):
        self._inner = inner
        self._state = state
        self._class_name = class_name

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self._inner  # introspection finds the module's own loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._inner
        self._inner.exec_module(module)
        if state_lib.current is self._state:
            _wrap(self._state, module, self._class_name)


class _Watcher(importlib.abc.MetaPathFinder):
    """Notices the first import of a :data:`FOREIGN_LOADERS` module; leaves when all are in."""

    def __init__(self, state, pending):
        self._state = state
        self._pending = dict(pending)
        self._busy = False

    def find_spec(self, fullname, path=None, target=None):
        class_name = self._pending.get(fullname)
        if class_name is None or self._busy or state_lib.current is not self._state:
            return None
        self._busy = True
        try:
            spec = None
            for other in sys.meta_path[sys.meta_path.index(self) + 1:]:
                find = getattr(other, "find_spec", None)
                spec = find(fullname, path, target) if find is not None else None
                if spec is not None:
                    break
        finally:
            self._busy = False
        del self._pending[fullname]
        if not self._pending:
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(self)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _NotifyingLoader(spec.loader, self._state, class_name)
        return spec
