"""Running code right after a module's own loader has run it, wherever it is imported from.

The runtime needs this twice: the lazy install finishes as soon as ``tensorflow`` has
loaded (:mod:`~tf1mem.compat.runtime.lifecycle`), and pytest's assertion rewriter is
wrapped once its module has loaded (:mod:`~tf1mem.compat.runtime.foreign_loaders`).
:class:`AfterImportFinder` sits first on ``sys.meta_path`` for a few names: it asks the
finders after it for the module's spec, keeps that spec and its loader, and only adds a
step after the loader's ``exec_module``. The module's ``__loader__`` and
``__spec__.loader`` are the module's own loader again before it runs, so introspection
sees no trace of tf1mem. The finder leaves ``sys.meta_path`` once every name has been
imported, and does nothing while its install is not the current one.
"""

import contextlib
import importlib.abc
import sys

from tf1mem.compat.runtime import state as state_lib

__all__ = ["AfterImportFinder", "watch"]


class _ThenLoader(importlib.abc.Loader):
    """The module's own loader, then ``after(module)``."""

    def __init__(self, inner, after):
        self._inner = inner
        self._after = after

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self._inner
        if module.__spec__ is not None:
            module.__spec__.loader = self._inner
        self._inner.exec_module(module)
        self._after(module)


class AfterImportFinder(importlib.abc.MetaPathFinder):
    """Calls ``after[name](module)`` once the module ``name`` has been executed.

    Args:
      state: the install this finder belongs to; while another install (or none) is
        current, the finder finds nothing and calls nothing.
      after: ``{module name: callable(module)}``; each is called at most once.
    """

    def __init__(self, state, after):
        self._state = state
        self._pending = dict(after)
        self._busy = False

    def find_spec(self, fullname, path=None, target=None):
        after = self._pending.get(fullname)
        if after is None or self._busy or state_lib.current is not self._state:
            return None
        self._busy = True  # the finders below may import; they must not find us again
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
            self.remove()
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ThenLoader(spec.loader, after)
        return spec

    def remove(self):
        """Leaves ``sys.meta_path`` (no-op when already gone)."""
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)


def watch(state, after):
    """Puts an :class:`AfterImportFinder` first on ``sys.meta_path``, its removal on ``state.undo``."""
    finder = AfterImportFinder(state, after)
    sys.meta_path.insert(0, finder)
    state.undo.append(finder.remove)
    return finder
