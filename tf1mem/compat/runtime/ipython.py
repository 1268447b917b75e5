"""``%load_ext tf1mem``: an IPython shell's cells get the TF1 module and the legacy views.

:func:`load` installs the shim as ``python -m tf1mem.run`` does (lazily, with the
per-module user-code hook, NumPy 1.x's and Python 3.7's removed names) unless it is in
already (a kernel started by ``python -m tf1mem.run notebook.ipynb`` runs under the
runner), and gives the shell's user namespace the user builtins
(:func:`~tf1mem.compat.runtime.hooks.user_globals`), so ``import tensorflow as tf`` in
a cell gives the TF1 module; the notebook's own modules (in its folder) get it through
the hook. IPython puts its own builtins back after ``%run``: a ``pre_execute``
callback gives them again before each execution, and the script of ``%run script.py``
gets them too (the shell's ``safe_execfile`` is wrapped). :func:`unload` removes the
callback and the wrapper, puts the builtins module back and uninstalls what
:func:`load` installed. Nothing here
imports IPython or TensorFlow.

Names a cell bound before (``tf`` imported before ``%load_ext tf1mem``, or the TF1
module still bound after unloading) keep what they were: a note on stderr names them.
"""

import builtins
import sys

from tf1mem.compat.runtime import hooks, lifecycle
from tf1mem.compat.runtime import state as state_lib

__all__ = ["load", "unload"]

_LOADED = {}  # id(shell) -> _Loaded


class _Loaded:
    """What :func:`load` did to one shell, for :func:`unload`."""

    def __init__(self, shell, installed_here, user_builtins, callback, execfile):
        self.shell = shell
        self.installed_here = installed_here
        self.user_builtins = user_builtins
        self.callback = callback
        self.execfile = execfile  # (the wrapper, the instance attribute it replaced)


def _bound_to(namespace, module):
    if module is None:
        return []
    return sorted(name for name, value in list(namespace.items())
                  if value is module and not name.startswith("_"))


def load(shell):
    """Puts the TF1 surface into ``shell``'s cells (an IPython ``InteractiveShell``)."""
    if id(shell) in _LOADED:
        return
    installed_here = False
    if not lifecycle.is_installed():
        lifecycle.install(import_hook="modules", lazy=True, numpy_compat=True,
                          python_compat=True)
        installed_here = True
    user_builtins = hooks.user_globals().get("__builtins__")
    namespace = shell.user_global_ns
    if user_builtins is not None:  # else the process-wide hook (tf1mem.install()) serves
        namespace["__builtins__"] = user_builtins

    def give_builtins():
        if namespace.get("__builtins__") is not user_builtins and \
                state_lib.current is not None and user_builtins is not None:
            namespace["__builtins__"] = user_builtins

    shell.events.register("pre_execute", give_builtins)
    execfile = _wrap_execfile(shell, user_builtins) if user_builtins is not None else None
    _LOADED[id(shell)] = _Loaded(shell, installed_here, user_builtins, give_builtins, execfile)
    stale = _bound_to(namespace, sys.modules.get("tensorflow"))
    if stale:
        print(f"tf1mem: {', '.join(stale)} still name(s) TensorFlow 2's module, imported "
              f"before %load_ext tf1mem: run their import again (import tensorflow as "
              f"{stale[0]}) to get TF 1.x's API.", file=sys.stderr)


def _wrap_execfile(shell, user_builtins):
    """``%run script.py`` runs the script with the user builtins too.

    IPython runs it with ``shell.safe_execfile(name, globals, ...)``, in a fresh
    namespace that would get the real builtins; the instance's method is wrapped
    (undone by :func:`unload`).
    """
    replaced = shell.__dict__.get("safe_execfile")
    inner = shell.safe_execfile

    def safe_execfile(fname, *where, **kwargs):
        if where and isinstance(where[0], dict) and id(shell) in _LOADED \
                and state_lib.current is not None \
                and where[0].get("__builtins__", builtins) is builtins:
            where[0]["__builtins__"] = user_builtins
        return inner(fname, *where, **kwargs)

    shell.safe_execfile = safe_execfile
    return safe_execfile, replaced


def unload(shell):
    """Undoes :func:`load` for ``shell``; a no-op if it was not loaded."""
    loaded = _LOADED.pop(id(shell), None)
    if loaded is None:
        return
    namespace = shell.user_global_ns
    try:
        shell.events.unregister("pre_execute", loaded.callback)
    except ValueError:  # unregistered by someone else already
        pass
    if loaded.user_builtins is not None and namespace.get("__builtins__") is loaded.user_builtins:
        namespace["__builtins__"] = builtins
    if loaded.execfile is not None and shell.__dict__.get("safe_execfile") is loaded.execfile[0]:
        if loaded.execfile[1] is None:
            del shell.safe_execfile
        else:
            shell.safe_execfile = loaded.execfile[1]
    proxy = state_lib.current.proxy if state_lib.current is not None else None
    if loaded.installed_here:
        lifecycle.uninstall()
    stale = _bound_to(namespace, proxy) if proxy is not None else []
    if stale:
        print(f"tf1mem: {', '.join(stale)} still name(s) the TF1 module: run their "
              f"import again (import tensorflow as {stale[0]}) to get TensorFlow 2's.",
              file=sys.stderr)
