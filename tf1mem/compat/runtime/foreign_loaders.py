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
back and remove the watcher
(:mod:`~tf1mem.compat.runtime.after_import`).
"""

import functools
import sys

from tf1mem.compat.runtime import after_import
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
        after_import.watch(state, {
            module_name: functools.partial(_wrap_if_current, state, class_name=class_name)
            for module_name, class_name in pending.items()})


def _wrap_if_current(state, module, class_name):
    if state_lib.current is state:
        _wrap(state, module, class_name)


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
