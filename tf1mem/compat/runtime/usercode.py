"""Which code is the user's: the ``__main__`` module and any module whose file lies
outside the interpreter's stdlib and site-packages folders (see :func:`is_user_code`)."""

import os
import sys
import sysconfig

__all__ = ["is_user_code", "is_user_file"]


_LIBRARY_ROOTS = None


def _library_roots():
    global _LIBRARY_ROOTS
    if _LIBRARY_ROOTS is None:
        paths = sysconfig.get_paths()
        roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
        try:
            import site

            roots.update(site.getsitepackages())
            roots.add(site.getusersitepackages())
        except AttributeError:  # site trimmed down, e.g. in some embedded interpreters
            pass
        # Any other install folder too: venvs, `pip install --target`, distro Pythons.
        roots.update(p for p in sys.path
                     if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages"))
        roots.add(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))))  # tf1mem itself (the package, not its checkout)
        # Each root as given and resolved: a path is matched without resolving it
        # first where it can be.
        _LIBRARY_ROOTS = tuple(sorted(
            {os.path.realpath(r) + os.sep for r in roots if r}
            | {os.path.abspath(r) + os.sep for r in roots if r}))
    return _LIBRARY_ROOTS


_USER_FILE_CACHE = {}


def is_user_code(module_globals):
    """True when the module owning ``module_globals`` is the user's own code.

    User code is the ``__main__`` module and any module whose file is outside the
    interpreter's stdlib and site-packages folders (and any ``site-packages`` or
    ``dist-packages`` folder on ``sys.path``, and tf1mem itself). It gets the
    TF1 API from ``import tensorflow``; every other module gets real TF 2.
    """
    if not module_globals:
        return False
    if module_globals.get("__name__") == "__main__":
        return True
    path = module_globals.get("__file__")
    if not path:
        return False
    return is_user_file(path)


def is_user_file(path):
    """Whether a module file lies outside the library folders (see is_user_code).

    Decided once per folder (modules of a package share one), and without resolving
    symlinks where the path as given already lies in a library folder: resolving
    costs a system call per path component.
    """
    folder = os.path.dirname(path)
    verdict = _USER_FILE_CACHE.get(folder)
    if verdict is None:
        roots = _library_roots()
        if (folder + os.sep).startswith(roots):
            verdict = False
        else:
            verdict = not (os.path.realpath(folder) + os.sep).startswith(roots)
        _USER_FILE_CACHE[folder] = verdict
    return verdict
