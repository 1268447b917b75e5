"""Which code is the user's, and so gets TF1's ``tensorflow`` (see :func:`is_user_code`).

The rule, decided once per folder:

1. ``__main__`` is user code, and so is every module of a TF1 package
   (:mod:`~tf1mem.compat.runtime.packages`: named by the user, or recognised), wherever
   it is installed.
2. A module in a library folder is not: the interpreter's standard library, every
   ``site-packages`` / ``dist-packages`` folder (the interpreter's, the user's, and any on
   ``sys.path``), tf1mem's own folder, and every *install folder*: a ``sys.path`` entry
   that holds a ``*.dist-info`` folder (pip's record of a distribution installed there,
   as ``pip install --target DIR`` leaves) or is an ``.egg``. The script's folder
   (``sys.path[0]``) and the current folder are never install folders.
3. Any other module is user code: the script's folder and the folders below it, the
   current folder, and ``PYTHONPATH`` entries that are not install folders (a project's
   ``src/`` folder, say).
"""

import os
import sys
import sysconfig

__all__ = ["is_user_code", "is_user_file", "use_tf1_packages"]


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


_USER_FILE_CACHE = {}  # folder -> verdict
_INSTALL_FOLDER_CACHE = {}  # sys.path entry -> holds installed distributions
_TF1_FOLDERS = ()  # the TF1 packages' folders, each ending in os.sep, as given and resolved
_TF1_MODULES = frozenset()  # TF1 packages that are one module file (their folder is shared)


def use_tf1_packages(packages):
    """Makes the modules of ``packages`` user code; returns the callable that undoes it.

    Args:
      packages: :class:`tf1mem.compat.runtime.packages.TF1Package` records.
    """
    global _TF1_FOLDERS, _TF1_MODULES
    saved = (_TF1_FOLDERS, _TF1_MODULES)
    folders, modules = set(), set()
    for package in packages:
        for location in package.locations:
            if os.path.isdir(location):
                folders.update({os.path.abspath(location) + os.sep,
                                os.path.realpath(location) + os.sep})
            else:
                modules.add(package.name)
    _TF1_FOLDERS, _TF1_MODULES = tuple(sorted(folders)), frozenset(modules)
    _USER_FILE_CACHE.clear()

    def undo():
        global _TF1_FOLDERS, _TF1_MODULES
        _TF1_FOLDERS, _TF1_MODULES = saved
        _USER_FILE_CACHE.clear()

    return undo


def is_user_code(module_globals):
    """True when the module owning ``module_globals`` is the user's own code.

    User code (the module docstring has the rule) gets the TF1 API from ``import
    tensorflow``; every other module gets real TF 2.
    """
    if not module_globals:
        return False
    name = module_globals.get("__name__")
    if name == "__main__":
        return True
    if _TF1_MODULES and name and name.partition(".")[0] in _TF1_MODULES:
        return True
    path = module_globals.get("__file__")
    if not path:
        return False
    return is_user_file(path)


def is_user_file(path):
    """Whether a module file is user code by its folder (see the module docstring).

    Decided once per folder (modules of a package share one), and without resolving
    symlinks where the path as given already lies in a library folder: resolving
    costs a system call per path component.
    """
    folder = os.path.dirname(path)
    verdict = _USER_FILE_CACHE.get(folder)
    if verdict is None:
        verdict = _USER_FILE_CACHE[folder] = _decide(folder)
    return verdict


def _decide(folder):
    given = folder + os.sep
    if _TF1_FOLDERS and given.startswith(_TF1_FOLDERS):
        return True
    roots = _library_roots()
    if given.startswith(roots):
        return False
    real = os.path.realpath(folder) + os.sep
    if _TF1_FOLDERS and real.startswith(_TF1_FOLDERS):
        return True
    if real.startswith(roots):
        return False
    return not _in_install_folder(os.path.abspath(folder))


def _in_install_folder(folder):
    """Whether the ``sys.path`` entry ``folder`` lies in holds installed distributions."""
    entries = {os.path.abspath(p or os.curdir) for p in sys.path}
    exempt = {os.path.abspath(os.curdir)}
    if sys.path:
        exempt.add(os.path.abspath(sys.path[0] or os.curdir))
    while True:
        if folder in entries:
            return folder not in exempt and _is_install_folder(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def _is_install_folder(entry):
    verdict = _INSTALL_FOLDER_CACHE.get(entry)
    if verdict is None:
        try:
            names = os.listdir(entry)
        except OSError:
            names = ()
        verdict = entry.endswith(".egg") or any(n.endswith(".dist-info") for n in names)
        _INSTALL_FOLDER_CACHE[entry] = verdict
    return verdict
