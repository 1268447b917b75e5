"""The TF1 compatibility layer: an explicit, undoable install of the TF1 API.

While installed:

- ``import tensorflow`` in *user code* (the ``__main__`` script and any module whose
  file lies outside the interpreter's stdlib and site-packages) gives a module that
  is ``tf.compat.v1`` plus ``tf.contrib`` (see :mod:`tf1mem.compat.contrib`); third-party
  libraries importing tensorflow keep the real TF 2 module, and
  ``sys.modules["tensorflow"]`` is never replaced. Two ways to tell user code
  (``import_hook=``): the runner's ``"modules"`` decides once per folder, through a
  ``sys.path_hooks`` entry, and gives user modules builtins of their own whose
  ``__import__`` knows the TF1 API, so library code imports exactly as without the
  shim (``scripts/bench_shim_import.py``: within noise of no shim); the in-process
  ``"builtins"`` (``tf1mem.legacy()``, ``tf1mem.v1``) wraps ``builtins.__import__``,
  since code that already exists must see it too, and every import statement in the
  process then pays a Python call (measured: importing tf_keras about 20 % slower).
  Under ``"modules"``, a user module's ``__builtins__`` is a dict that holds only
  that ``__import__`` and reads every other name live from the real builtins (in
  ``__main__`` too, where Python would give the ``builtins`` module itself).
- user code's ``tf.compat``, ``tf.compat.v1`` and ``tf.compat.v2`` (also as ``import
  tensorflow.compat.v1 as tf`` and ``from tensorflow.compat[.vN] import ...``) are views of
  TF 2.21's modules with what TF 1.15's had: ``estimator`` (tf1mem's; ``v2``'s is
  :mod:`tf1mem.compat.estimator.api_v2`), also importable as
  ``tensorflow.compat.vN.estimator[.X]`` from user code. The real ``tensorflow.compat``
  modules, which libraries see, are never changed, and the shim adds no
  ``tensorflow.compat.*`` entry to ``sys.modules``: uninstall has nothing there to undo.
- ``tensorflow.examples.tutorials.mnist`` (``input_data`` and ``mnist``) and
  ``tensorflow.contrib.*`` import, from :mod:`tf1mem.data.input_data`,
  :mod:`tf1mem.compat.tutorial_mnist`, tf-slim and TF's v1 modules.
- the runner installs it with ``lazy=True``: nothing here imports TensorFlow, and
  everything below that needs it is put in by the program's first ``import
  tensorflow`` (whoever makes it), before that import returns.
- with ``numpy_compat=True`` (the runner's default), user code's ``import numpy``
  gets :class:`tf1mem.compat.legacy_numpy.LegacyNumPy`: NumPy with the names NumPy 2
  removed (``np.float``, ``np.asscalar``, ``np.reshape(newshape=)`` ...) as NumPy 1.18
  had them; the real ``numpy`` module, which libraries see, is never changed. NumPy's
  print option ``legacy="1.25"`` is set (process state, put back by uninstall), so
  NumPy scalars print as ``0.5``, as under TF 1.15, not ``np.float32(0.5)``.
- a random op with a graph seed and no op seed of its own takes TF 1.15's op seed
  (the graph's op count; TF 2.21 counts calls instead), so ``tf.set_random_seed(N)``
  draws TF1's numbers (:mod:`tf1mem.compat.op_seeds`).
- with ``python_compat=True`` (the runner's default), user code's ``import inspect``,
  ``time``, ``collections``, ``fractions``, ``base64`` and ``cgi`` get views with the
  names Python 3.7 had and Python removed since (``inspect.getargspec``,
  ``time.clock``, ``collections.Iterable`` ...: :mod:`tf1mem.compat.legacy_python`);
  the real modules are never changed.
- TF 2 behaviour is disabled (graph mode, as in TF 1.x); a script may still call
  ``tf.enable_eager_execution()`` first thing, as in TF 1.x.
- ``TF_USE_LEGACY_KERAS=1`` is set, so ``tf.layers`` and tf-slim layers work with
  tf-keras (it must be set before TensorFlow first resolves Keras).
- every Session is noted for the GPU-options-ignored warning and, optionally, gets
  the given config options and a placement report (see :mod:`tf1mem.compat.session_hooks`).
- while ``tensorflow.contrib`` or ``tensorflow.examples`` has been imported, Python
  also sets it as an attribute of the real ``tensorflow`` module (uninstall removes
  it): third-party code testing ``hasattr(tf, "contrib")`` sees it meanwhile.

:func:`uninstall` puts back exactly what :func:`install` changed: the environment
variable, ``builtins.__import__``, ``sys.meta_path``, ``sys.path_hooks`` and the
finders cached for user folders, the ``sys.modules`` entries and
``tensorflow`` attributes the shim created, TF 2 behaviour and the Session class.
Modules that were really imported meanwhile (TensorFlow itself, tf-slim) stay
loaded: Python cannot unload an extension module. The TF1 default graph is released
(TF refuses eager mode while one exists); graphs and sessions still referenced stay
usable. A second install is a no-op. TF-internal names that TF 2.21 moved and TF1-era
code still uses (``ops.Tensor``, ``control_flow_ops.cond`` for tf-slim 1.1) are added
back only while installed.
"""

import builtins
import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import threading
import types
import warnings

from tf1mem import _net, errors
from tf1mem.compat import contrib

__all__ = [
    "LEGACY_KERAS_ENV",
    "install",
    "uninstall",
    "write_memory_report",
    "is_installed",
    "legacy",
    "is_user_code",
    "user_globals",
    "IMPORT_HOOKS",
]

LEGACY_KERAS_ENV = "TF_USE_LEGACY_KERAS"

# Full module name -> the real module it stands for.
_MODULE_ALIASES = {
    "tensorflow.examples.tutorials.mnist.input_data": "tf1mem.data.input_data",
    "tensorflow.examples.tutorials.mnist.mnist": "tf1mem.compat.tutorial_mnist",
    "tensorflow.contrib.learn.python.learn.datasets.mnist": "tf1mem.data.input_data",
    "tensorflow.contrib.learn.datasets.mnist": "tf1mem.data.input_data",
    "tensorflow.contrib.learn.datasets": "tf1mem.compat.contrib_impl.learn.datasets",
    "tensorflow.contrib.learn.datasets.base": "tf1mem.compat.contrib_impl.learn.datasets_base",
    "tensorflow.contrib.learn.io": "tf1mem.compat.contrib_impl.learn.io",
    "tensorflow.contrib.learn.python.learn.learn_io": "tf1mem.compat.contrib_impl.learn.io",
    "tensorflow.contrib.learn.python.learn.datasets.base":
        "tf1mem.compat.contrib_impl.learn.datasets_base",
    "tensorflow.contrib.learn.preprocessing": "tf1mem.compat.contrib_impl.learn.preprocessing",
    "tensorflow.contrib.learn.monitors": "tf1mem.compat.contrib_impl.learn.monitors",
    "tensorflow.contrib.learn.python.learn.monitors":
        "tf1mem.compat.contrib_impl.learn.monitors",
    "tensorflow.contrib.learn.learn_runner": "tf1mem.compat.contrib_impl.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.learn_runner":
        "tf1mem.compat.contrib_impl.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.experiment":
        "tf1mem.compat.contrib_impl.learn.experiment",
    "tensorflow.contrib.learn.python.learn.utils.saved_model_export_utils":
        "tf1mem.compat.contrib_impl.learn.export_strategy",
    "tensorflow.contrib.learn.utils.saved_model_export_utils":
        "tf1mem.compat.contrib_impl.learn.export_strategy",
    "tensorflow.contrib.learn.utils": "tf1mem.compat.contrib_impl.learn.utils",
    "tensorflow.contrib.distributions.bijectors": "tf1mem.compat.contrib_impl.bijectors",
    "tensorflow.contrib.losses.metric_learning": "tf1mem.compat.contrib_impl.metric_learning",
    "tensorflow.contrib.losses.python.metric_learning.metric_loss_ops":
        "tf1mem.compat.contrib_impl.metric_learning",
    "tensorflow.estimator": "tf1mem.compat.estimator",
    "tensorflow.estimator.inputs": "tf1mem.compat.estimator.inputs",
    "tensorflow.estimator.export": "tf1mem.compat.estimator.export",
}
_VIRTUAL_ROOTS = ("tensorflow.contrib", "tensorflow.examples", "tensorflow.estimator")
# Top-level tf.X provided by a tf1mem module (TF 2 removed them).
_TOP_LEVEL_MODULES = {"estimator": "tf1mem.compat.estimator"}
_LOCK = threading.RLock()
_STATE = None  # the _Installation in force, or None


def _virtual_packages():
    names = set(_VIRTUAL_ROOTS)
    for alias in _MODULE_ALIASES:
        parts = alias.split(".")
        for i in range(2, len(parts)):
            names.add(".".join(parts[:i]))
    return frozenset(names)


_VIRTUAL_PACKAGES = _virtual_packages()


def _contrib_submodule(fullname):
    """For a ``tensorflow.contrib.<...>`` name: "module" when it is a key of
    :data:`contrib.CONTRIB_SUBMODULES`, "package" when it lies above one, else None."""
    rest = fullname[len("tensorflow.contrib."):] if fullname.startswith(
        "tensorflow.contrib.") else None
    if rest is None:
        return None
    if rest in contrib.CONTRIB_SUBMODULES:
        return "module"
    if any(key.startswith(rest + ".") for key in contrib.CONTRIB_SUBMODULES) \
            and "." in rest:
        return "package"
    return None


def _under_roots(fullname):
    return any(fullname == root or fullname.startswith(root + ".") for root in _VIRTUAL_ROOTS)


def _missing_module_error(fullname):
    parts = fullname.split(".")
    if parts[1] == "estimator":
        return contrib.RemovedModuleError(
            f"{fullname} is not provided by tf1mem's tf.estimator (it provides "
            f"tensorflow.estimator, tensorflow.estimator.inputs and .export; see "
            f"tf1mem.compat.estimator).", name=fullname)
    if parts[1] == "contrib":
        name = parts[2]
        if name in contrib.CONTRIB_MODULES:
            return contrib.RemovedModuleError(contrib.removed_message(
                "tf." + ".".join(parts[1:]),
                contrib.REMOVED_SYMBOLS.get(".".join(parts[2:4]))), name=fullname)
        return contrib.RemovedModuleError(contrib.removed_message(
            f"tf.contrib.{name}", contrib.REMOVED_CONTRIB.get(name)), name=fullname)
    return contrib.RemovedModuleError(
        f"{fullname} is not part of TensorFlow 2; of tensorflow.examples tf1mem "
        f"provides tensorflow.examples.tutorials.mnist (input_data, mnist).", name=fullname)


class _VirtualPackage(types.ModuleType):
    """A package that exists only under the shim, e.g. ``tensorflow.examples``."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        fullname = f"{self.__name__}.{name}"
        if self.__name__ == "tensorflow.contrib":
            if name not in contrib.CONTRIB_MODULES and fullname not in _VIRTUAL_PACKAGES:
                raise contrib.RemovedAttributeError(contrib.removed_message(
                    f"tf.contrib.{name}", contrib.REMOVED_CONTRIB.get(name)))
        elif fullname not in _MODULE_ALIASES and fullname not in _VIRTUAL_PACKAGES \
                and _contrib_submodule(fullname) is None:
            if self.__name__.startswith("tensorflow.contrib."):
                top = self.__name__.split(".")[2]
                raise contrib.RemovedAttributeError(contrib.removed_message(
                    "tf." + fullname[len("tensorflow."):], contrib.REMOVED_CONTRIB.get(top)))
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return importlib.import_module(fullname)


class _Loader(importlib.abc.Loader):
    """Makes the modules of :class:`_Finder`'s specs."""

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


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``tensorflow.contrib.*`` and ``tensorflow.examples.*``."""

    def find_spec(self, fullname, path=None, target=None):
        if not _under_roots(fullname):
            return None
        if fullname in _MODULE_ALIASES:
            return importlib.util.spec_from_loader(
                fullname, _Loader(target=_MODULE_ALIASES[fullname]))
        parts = fullname.split(".")
        if len(parts) == 3 and parts[1] == "contrib" and parts[2] in contrib.CONTRIB_MODULES:
            # A provided module with aliases below it (tensorflow.contrib.learn) is the
            # table's module, not the virtual package those aliases would make.
            return self._contrib_module(fullname, parts[2])
        if fullname in _VIRTUAL_PACKAGES:
            module = _VirtualPackage(fullname, f"{fullname}, provided by tf1mem's TF1 shim.")
            return importlib.util.spec_from_loader(
                fullname, _Loader(module=module), is_package=True)
        submodule = _contrib_submodule(fullname)
        if submodule == "module":
            target = contrib.CONTRIB_SUBMODULES[fullname[len("tensorflow.contrib."):]]
            return importlib.util.spec_from_loader(
                fullname, _Loader(target=f"tensorflow.contrib.{target}"))
        if submodule == "package":
            module = _VirtualPackage(fullname, f"{fullname}, provided by tf1mem's TF1 shim.")
            return importlib.util.spec_from_loader(
                fullname, _Loader(module=module), is_package=True)
        name = parts[2]
        if name in contrib.CONTRIB_MODULES:
            sources = contrib.CONTRIB_MODULES[name][0]
            if isinstance(sources, str):  # e.g. tensorflow.contrib.slim.nets
                real = ".".join([sources] + parts[3:])
                if importlib.util.find_spec(real) is not None:
                    return importlib.util.spec_from_loader(fullname, _Loader(target=real))
        raise _missing_module_error(fullname)

    @staticmethod
    def _contrib_module(fullname, name):
        sources = contrib.CONTRIB_MODULES[name][0]
        if isinstance(sources, str):
            return importlib.util.spec_from_loader(fullname, _Loader(target=sources))
        return importlib.util.spec_from_loader(
            fullname, _Loader(module=contrib.make_composite(fullname, name)), is_package=True)


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
        roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tf1mem itself
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
    return _is_user_file(path)


def _is_user_file(path):
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


# What user code's tf.compat.v1 / tf.compat.v2 add to TF 2.21's (TF 1.15 had them,
# TF 2.16+ has no estimator): attribute -> module it is.
_COMPAT_ESTIMATOR = {
    "v1": "tf1mem.compat.estimator",
    "v2": "tf1mem.compat.estimator.api_v2",
}
# Attributes of TF1's top level that TF 1.15's tf.compat.v1 never had -> how to reach them.
_NOT_IN_COMPAT_V1 = {
    "contrib": "tf.contrib was never part of tf.compat.v1, in TF 1.15 either: write "
               "`import tensorflow as tf` and use tf.contrib",
    "examples": "tensorflow.examples was never part of tf.compat.v1, in TF 1.15 either: "
                "write `from tensorflow.examples.tutorials.mnist import input_data`",
}


class _CompatView(types.ModuleType):
    """User code's ``tf.compat``, ``tf.compat.v1`` or ``tf.compat.v2``.

    TF 2.21's module, with what TF 1.15's had and TF 2.21's lacks: ``estimator`` (tf1mem's,
    see :data:`_COMPAT_ESTIMATOR`) under ``v1`` and ``v2``, and ``v1`` / ``v2`` / ``compat``
    leading to these views rather than back to TF 2.21's modules. The real modules, which
    libraries see, are not changed.
    """

    def __init__(self, real, name, extra):
        super().__init__(name, getattr(real, "__doc__", None))
        self.__dict__["_tf1mem_real"] = real
        self.__dict__["_tf1mem_extra"] = extra  # attribute -> callable giving its value

    def __getattr__(self, name):
        real = self.__dict__["_tf1mem_real"]
        extra = self.__dict__["_tf1mem_extra"]
        if name == "__all__":  # `from tensorflow.compat.v1 import *` gets estimator too
            # (public names only: TF's own __all__ lists __path__, which a view lacks)
            names = getattr(real, "__all__", None) or dir(real)
            value = sorted(n for n in set(names) | set(extra) if not n.startswith("_"))
        elif name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        elif name in extra:
            value = extra[name]()
        else:
            try:
                value = getattr(real, name)
            except AttributeError:
                hint = (f" ({_NOT_IN_COMPAT_V1[name]})"
                        if self.__name__ == "tensorflow.compat.v1" and name in _NOT_IN_COMPAT_V1
                        else "")
                raise AttributeError(f"module {self.__name__!r} (TF 2.21's, under tf1mem) has "
                                     f"no attribute {name!r}{hint}") from None
        self.__dict__[name] = value  # later lookups are plain dict hits
        return value

    def __dir__(self):
        real = self.__dict__["_tf1mem_real"]
        return sorted(set(dir(real)) | set(self.__dict__["_tf1mem_extra"]))


def _compat_views(real_compat):
    """``tf.compat`` for user code, with its ``v1`` and ``v2`` views (nothing imported)."""
    views = {}

    def estimator(version):
        return lambda: importlib.import_module(_COMPAT_ESTIMATOR[version])

    views["compat"] = _CompatView(real_compat, "tensorflow.compat", {
        "v1": lambda: views["v1"], "v2": lambda: views["v2"]})
    for version in ("v1", "v2"):
        views[version] = _CompatView(
            getattr(real_compat, version), f"tensorflow.compat.{version}",
            {"estimator": estimator(version), "compat": lambda: views["compat"]})
    return views["compat"]


class _TF1Module(types.ModuleType):
    """What ``import tensorflow`` gives user code: ``tf.compat.v1`` plus contrib."""

    def __init__(self, real):
        super().__init__("tensorflow", "TensorFlow's TF1 API (tf.compat.v1) under tf1mem.")
        self.__dict__["_tf1mem_real"] = real
        self.__dict__["__version__"] = real.__version__
        self.__dict__["compat"] = _compat_views(real.compat)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        real = self.__dict__["_tf1mem_real"]
        if name in ("contrib", "examples"):
            value = importlib.import_module(f"tensorflow.{name}")
        elif name in _TOP_LEVEL_MODULES:
            value = importlib.import_module(_TOP_LEVEL_MODULES[name])
        elif name in contrib.REMOVED_TOP_LEVEL:
            raise contrib.RemovedAttributeError(
                contrib.removed_message(f"tf.{name}", contrib.REMOVED_TOP_LEVEL[name]))
        else:
            try:
                value = getattr(real.compat.v1, name)
            except AttributeError:
                try:
                    value = getattr(real, name)
                except AttributeError:
                    raise AttributeError(
                        f"module 'tensorflow' (the TF1 API under tf1mem) has no attribute "
                        f"{name!r}") from None
        self.__dict__[name] = value  # later lookups are plain dict hits
        return value

    def __dir__(self):
        real = self.__dict__["_tf1mem_real"]
        return sorted(set(dir(real.compat.v1)) | {"contrib", "examples", "compat"}
                      | set(_TOP_LEVEL_MODULES))


class _Installation:
    """What one install changed, so that uninstall can put it back."""

    def __init__(self, options):
        self.options = options
        self.undo = []  # callables, run last-first
        self.proxy = None
        self.session_hooks = None
        self.user_builtins = None  # with import_hook="modules"
        self.active = False  # the TensorFlow part is installed (at once, or lazily)
        self.on_tensorflow = []  # callables(proxy), run once that part is in
        self.numpy_compat = False  # user code's `import numpy` gets legacy_numpy's module
        self.numpy = None  # that module, made at the first such import
        self.python_compat = False  # user code's `import inspect` ... gets legacy_python's
        self.stdlib = {}  # module name -> that view, made at the first such import


def _snapshot_env(state, name, value):
    had = name in os.environ
    old = os.environ.get(name)

    def restore():
        if had:
            os.environ[name] = old
        else:
            os.environ.pop(name, None)

    os.environ[name] = value
    state.undo.append(restore)


IMPORT_HOOKS = ("builtins", "modules")


def _tf1_import(state, original, check_caller):
    """An ``__import__`` that answers user code's ``import tensorflow`` with the proxy.

    ``check_caller``: whether to ask :func:`is_user_code` of the importing module
    (needed when every module in the process shares this function).
    """

    def tf1mem_import(name, globals=None, locals=None, fromlist=(), level=0):
        if (level == 0 and name[:17] == "tensorflow.compat"
                and (len(name) == 17 or name[17] == ".")
                and _STATE is state and (not check_caller or is_user_code(globals))):
            return _compat_import(state, original, name, globals, locals, fromlist)
        module = original(name, globals, locals, fromlist, level)
        if (level == 0 and name[:10] == "tensorflow"
                and (name == "tensorflow" or (name[10:11] == "." and not fromlist))
                and _STATE is state and (not check_caller or is_user_code(globals))):
            # TensorFlow is imported now: a lazy install has completed (or raised).
            return state.proxy if state.active else _activate(state)
        if (state.numpy_compat and level == 0 and name[:5] == "numpy"
                and (name == "numpy" or (name[5:6] == "." and not fromlist))
                and _STATE is state and (not check_caller or is_user_code(globals))):
            return _legacy_numpy(state)
        if (state.python_compat and level == 0 and name in _LEGACY_STDLIB
                and _STATE is state and (not check_caller or is_user_code(globals))):
            return _legacy_stdlib(state, module)
        return module

    return tf1mem_import


def _compat_estimator_target(name):
    """The module user code's ``tensorflow.compat.vN.estimator[.X]`` import stands for.

    ``v1``'s is ``tensorflow.estimator[.X]`` (the shim's finder: tf1mem's, with its
    errors for what it lacks); ``v2``'s is :mod:`tf1mem.compat.estimator.api_v2`, whose
    ``export`` is tf.estimator's (TF 1.15's held the same names).
    """
    version, rest = name[18:20], name[len("tensorflow.compat.v1.estimator"):]
    if version == "v1":
        return "tensorflow.estimator" + rest
    if rest == "":
        return _COMPAT_ESTIMATOR["v2"]
    if rest == ".export" or rest.startswith(".export."):
        return "tensorflow.estimator" + rest
    raise ModuleNotFoundError(
        f"No module named {name!r}: tf1mem's tensorflow.compat.v2.estimator has only the "
        f"submodule export (TF 1.15's had no inputs, and an experimental unlike "
        f"tf.estimator's); use tensorflow.compat.v1.estimator{rest} instead.", name=name)


def _compat_import(state, original, name, globals, locals, fromlist):
    """User code's ``import tensorflow.compat[...]`` and ``from tensorflow.compat[...] import``.

    Answers with the shim's views (see :class:`_CompatView`), so that
    ``from tensorflow.compat.v1 import estimator`` and ``from
    tensorflow.compat.v1.estimator import Estimator`` work as in TF 1.15. The real modules
    are imported first (TensorFlow, completing a lazy install), as without the shim, and
    never changed; the shim adds no ``tensorflow.compat.*`` entry to ``sys.modules``.
    """
    parts = name.split(".")
    estimator = len(parts) > 3 and parts[2] in _COMPAT_ESTIMATOR and parts[3] == "estimator"
    module = original(".".join(parts[:3]) if estimator else name, globals, locals,
                      () if estimator else fromlist, 0)
    proxy = state.proxy if state.active else _activate(state)
    if estimator:
        target = original(_compat_estimator_target(name), globals, locals, fromlist, 0)
        return target if fromlist else proxy
    if not fromlist:
        return proxy
    if len(parts) > 3:  # tensorflow.compat.v1.<submodule>: TF 2.21's own, unchanged
        return module
    view = proxy
    for part in parts[1:]:
        view = getattr(view, part)
    return view


def _legacy_numpy(state):
    """The NumPy user code gets with ``numpy_compat`` (see :mod:`tf1mem.compat.legacy_numpy`)."""
    if state.numpy is None:
        from tf1mem.compat import legacy_numpy

        with _LOCK:
            if state.numpy is None:
                state.numpy = legacy_numpy.make_module()
                state.undo.append(legacy_numpy.reset_notes)
    return state.numpy


# Standard-library modules whose Python 3.7 names user code gets with python_compat.
_LEGACY_STDLIB = frozenset({"inspect", "time", "collections", "fractions", "base64", "cgi"})


def _legacy_stdlib(state, module):
    """The view of ``module`` user code gets (see :mod:`tf1mem.compat.legacy_python`)."""
    view = state.stdlib.get(module.__name__)
    if view is None:
        from tf1mem.compat import legacy_python

        with _LOCK:
            view = state.stdlib.get(module.__name__)
            if view is None:
                if not state.stdlib:
                    state.undo.append(legacy_python.reset_notes)
                view = state.stdlib[module.__name__] = legacy_python.make_module(module)
    return view


def _install_import_hook(state):
    """``import_hook="builtins"``: every import statement in the process is hooked."""
    original = builtins.__import__
    tf1mem_import = _tf1_import(state, original, check_caller=True)
    builtins.__import__ = tf1mem_import

    def restore():
        if builtins.__import__ is tf1mem_import:
            builtins.__import__ = original
        # else: someone wrapped our hook; it turns pass-through once _STATE changes.

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


def _install_module_hook(state):
    """``import_hook="modules"``: only user modules get the TF1-aware ``__import__``.

    The decision is made once per folder, by a ``sys.path_hooks`` entry: a folder
    outside the library folders gets a finder whose loaders run its modules with
    :class:`_UserBuiltins`; any other folder is declined, and Python's own finder
    serves it, so library imports run exactly as without the shim. The builtins of
    the ``__main__`` code come from :func:`user_globals`.
    """
    hook = _tf1_import(state, builtins.__import__, check_caller=False)
    state.user_builtins = _UserBuiltins(__import__=hook)
    namespace = {"tf1mem_builtins": state.user_builtins}
    loaders = (
        (type("UserSourceLoader", (_UserSourceLoader,), namespace),
         importlib.machinery.SOURCE_SUFFIXES),
        (type("UserSourcelessLoader", (_UserSourcelessLoader,), namespace),
         importlib.machinery.BYTECODE_SUFFIXES),
        (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
    )

    def user_folder_hook(path):
        folder = path or os.getcwd()
        if _STATE is not state or not os.path.isdir(folder) \
                or not _is_user_file(os.path.join(folder, "__init__.py")):
            raise ImportError("not a user folder: Python's own finder serves it")
        return _UserFileFinder(path, *loaders)

    # Folders already served by Python's finder would keep it: forget those that are
    # the user's, so that the next import from them comes through the hook.
    forgotten = {}
    for key, finder in list(sys.path_importer_cache.items()):
        if type(finder) is importlib.machinery.FileFinder and _is_user_file(
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


def user_globals():
    """Globals to run ``__main__`` code with under ``import_hook="modules"``.

    Returns:
      ``{"__builtins__": ...}`` for ``runpy``'s ``init_globals``; ``{}`` when the
      shim is not installed, or installed with the process-wide hook.
    """
    with _LOCK:
        if _STATE is None or _STATE.user_builtins is None:
            return {}
        return {"__builtins__": _STATE.user_builtins}


def _install_finder(state):
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    before = set(sys.modules)
    real_tf = sys.modules["tensorflow"]
    attrs = ("contrib", "examples", "estimator")
    had_attrs = {name: real_tf.__dict__[name] for name in attrs if name in real_tf.__dict__}

    def restore():
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        for name in [m for m in sys.modules if _under_roots(m) and m not in before]:
            del sys.modules[name]
        for name in attrs:
            if name in had_attrs:
                setattr(real_tf, name, had_attrs[name])
            else:
                real_tf.__dict__.pop(name, None)

    state.undo.append(restore)


# TF-internal names that TF1-era libraries (tf-slim 1.1.0 above all: batch_norm and
# dropout with a tensor is_training) and freeze scripts use, and that TF 2.21 moved.
# (module, missing name, module that has it now, its name there)
_INTERNAL_ALIASES = (
    ("tensorflow.python.framework.ops", "Tensor", "tensorflow.python.framework.tensor", "Tensor"),
    ("tensorflow.python.framework.ops", "IndexedSlices",
     "tensorflow.python.framework.indexed_slices", "IndexedSlices"),  # optimize_loss
    ("tensorflow.python.ops.control_flow_ops", "cond", "tensorflow.python.ops.cond", "cond"),
    ("tensorflow.python.ops.control_flow_ops", "case",
     "tensorflow.python.ops.control_flow_case", "case"),
    ("tensorflow.python.ops.control_flow_ops", "while_loop",
     "tensorflow.python.ops.while_loop", "while_loop"),
    ("tensorflow.python.ops.control_flow_ops", "Assert",
     "tensorflow.python.ops.control_flow_assert", "Assert"),
    ("tensorflow.python.framework.graph_util", "convert_variables_to_constants",
     "tensorflow.python.framework.convert_to_constants", "convert_variables_to_constants"),
)


def _install_internal_aliases(state):
    """Adds the moved names back where TF1-era code looks for them (only if absent)."""
    added = []
    for module_name, name, source_name, source_attr in _INTERNAL_ALIASES:
        try:
            module = importlib.import_module(module_name)
            source = importlib.import_module(source_name)
        except ImportError:  # another TF version: nothing to alias
            continue
        if hasattr(module, name) or not hasattr(source, source_attr):
            continue
        setattr(module, name, getattr(source, source_attr))
        added.append((module, name))

    def restore():
        for module, name in added:
            module.__dict__.pop(name, None)

    state.undo.append(restore)


def _disable_v2(state):
    from tensorflow.python import tf2
    from tensorflow.python.eager import context

    import tensorflow as tf

    if tf2.enabled() or context.executing_eagerly():
        from tensorflow.python.util import deprecation

        # TF logs a deprecation notice for its own call inside; python SCRIPT
        # under TF 1.x printed nothing of the sort.
        with deprecation.silence():
            tf.compat.v1.disable_v2_behavior()

        def restore():
            from tensorflow.python.framework import ops

            # enable_v2_behavior refuses ("must be called at program startup") once a
            # global default graph exists. That graph is the TF1 code's: release it
            # (graphs and sessions the code still holds stay usable).
            ops._default_graph_stack._global_default_graph = None
            tf.compat.v1.enable_v2_behavior()

        state.undo.append(restore)


def _install_server_guard(state, forbid_reason, allow_remote):
    """Checks every ``tf.train.Server`` the process starts, failing closed.

    With ``forbid_reason``, constructing one raises ClusterError(forbid_reason).
    Otherwise, unless ``allow_remote``, the kernel is asked where the sockets that
    appeared while it started listen (:func:`tf1mem._net.check_loopback_only`): off
    loopback, they are shut down and ClusterError is raised at the caller's line.
    """
    from tensorflow.python.training import server_lib

    original = server_lib.Server.__init__

    def __init__(self, *args, **kwargs):
        if forbid_reason is not None:
            raise errors.ClusterError(forbid_reason)
        before = {fd for _, _, fd in _net.listening_sockets()}
        original(self, *args, **kwargs)
        if allow_remote:
            return
        new = [entry for entry in _net.listening_sockets() if entry[2] not in before]
        why_not = ("tf1mem.run keeps servers on loopback through an LD_PRELOAD bind shim, "
                   "which is missing or did not take effect in this process."
                   if os.environ.get("TF1MEM_LOOPBACK_ONLY") == "1" else
                   "In-process code (tf1mem.legacy(), tf1mem.install(), tf1mem.v1) has no "
                   "bind shim: run the script under python -m tf1mem.run instead.")
        _net.check_loopback_only(new, f"the tf.train.Server at {self.target}", why_not)

    __init__.__wrapped__ = original
    server_lib.Server.__init__ = __init__

    def restore():
        server_lib.Server.__init__ = original

    state.undo.append(restore)


def install(*, session_options=None, force_config=False, placement_report=None,
            forbid_servers=None, import_hook="builtins", allow_remote=False, lazy=False,
            on_tensorflow=None, numpy_compat=False, memory_report=None, oom_tensors=False,
            python_compat=False):
    """Installs the TF1 shim for the whole process (see the module docstring).

    Args:
      session_options: a :class:`tf1mem.config.SessionOptions` to apply to every
        Session the process creates, or None.
      force_config: the options override what a script's own ConfigProto sets.
      placement_report: a path; every session run's node -> device placement is
        collected and written there (``.csv`` or ``.json``) by :func:`uninstall`
        or :func:`write_placement_report`.
      forbid_servers: None, or why no gRPC server may start in this process (e.g.
        it could not be kept on loopback): every ``tf.train.Server(...)`` then
        raises :class:`tf1mem.ClusterError` with this text, at the caller's line.
      allow_remote: let ``tf.train.Server``s listen on other addresses than
        loopback. Without it, each server is checked with the kernel after it
        starts, and one listening elsewhere is shut down and raises
        :class:`tf1mem.ClusterError` (see :mod:`tf1mem._net`).
      import_hook: how user code's ``import tensorflow`` gets the TF1 API.
        ``"builtins"`` (in-process installs: ``tf1mem.legacy()``, ``tf1mem.v1``)
        wraps ``builtins.__import__``, so code that already exists sees it, and
        every import statement in the process pays one Python call.
        ``"modules"`` (the runner) decides once per module as it is first
        imported: user modules get builtins with the TF1-aware ``__import__``
        (``__main__`` through :func:`user_globals`), library code keeps Python's
        own, at no cost per import statement.

      lazy: with ``import_hook="modules"``, do not import TensorFlow now: what
        needs it (TF 2 behaviour off, the contrib/examples finder, session hooks,
        the server guard) is installed by the first import of ``tensorflow`` in
        the process, whoever makes it, before that import returns. A program that
        never imports TensorFlow never pays for it. Everything that does not need
        TensorFlow (``TF_USE_LEGACY_KERAS``, the user-module hook) is in at once.
        Ignored when TensorFlow is imported already.
      on_tensorflow: a callable given the TF1 module once the TensorFlow part is
        installed (at once, or at that first import).
      numpy_compat: user code's ``import numpy`` gets NumPy with the names and
        keywords of NumPy 1.18 that NumPy 2 removed (``np.float``, ``np.asscalar``,
        ``np.reshape(newshape=)``; :mod:`tf1mem.compat.legacy_numpy`), each noted
        once on stderr; the real ``numpy`` module, which libraries see, is not
        changed. The runner's default (``--no-numpy-compat`` turns it off).
      python_compat: user code's ``import inspect`` / ``time`` / ``collections`` /
        ``fractions`` / ``base64`` / ``cgi`` get the names Python 3.7 had and Python
        removed since (``inspect.getargspec``, ``time.clock``, ``collections.Iterable``
        ...; :mod:`tf1mem.compat.legacy_python`), each noted once on stderr. The
        real modules are not changed. The runner's default (``--no-python-compat``).
      memory_report: a path (``.json`` / ``.csv``); every session run label's
        per-device peak and largest tensors are recorded from traced runs
        (:mod:`tf1mem.observe.run_memory`) and written by
        :func:`write_memory_report`.
      oom_tensors: every session run asks TensorFlow for its live-tensor list should
        it run out of memory (``report_tensor_allocations_upon_oom``), so the
        out-of-memory table lists the largest tensors in use. Off by default: it
        makes TensorFlow track every allocation of every run (about 30 % more per
        step of a small graph). Implied by ``memory_report``.

    Returns:
      The module ``import tensorflow`` now gives user code; None after
      ``lazy=True`` until TensorFlow is imported.

    Raises:
      ShimError: the shim is installed already with other options, or ``lazy``
        without ``import_hook="modules"``.
    """
    global _STATE
    if import_hook not in IMPORT_HOOKS:
        raise errors.ShimError(f"import_hook must be one of {IMPORT_HOOKS}, got {import_hook!r}")
    if lazy and import_hook != "modules":
        raise errors.ShimError("lazy=True needs import_hook='modules' (the runner's): "
                               "the process-wide hook must see code that exists already")
    options = (session_options, bool(force_config), placement_report, forbid_servers,
               import_hook, bool(allow_remote), bool(numpy_compat), memory_report,
               bool(oom_tensors), bool(python_compat))
    with _LOCK:
        if _STATE is not None:
            if (options[:4] != (None, False, None, None) or options[7] or options[8]) \
                    and options != _STATE.options:
                raise errors.ShimError(
                    f"tf1mem's shim is installed already with other options "
                    f"({_STATE.options!r}); call tf1mem.uninstall() first.")
            return _STATE.proxy
        state = _Installation(options)
        state.numpy_compat = bool(numpy_compat)
        state.python_compat = bool(python_compat)
        try:
            if "keras" in sys.modules and os.environ.get(LEGACY_KERAS_ENV) != "1":
                warnings.warn(
                    "Keras 3 was imported before tf1mem's shim: tf.layers and tf-slim "
                    "layers may fail with 'not available with Keras 3'. Install the shim "
                    "(or run under python -m tf1mem.run) before anything imports Keras.",
                    RuntimeWarning, stacklevel=2)
            _snapshot_env(state, LEGACY_KERAS_ENV, "1")
            if on_tensorflow is not None:
                state.on_tensorflow.append(on_tensorflow)
            if lazy and "tensorflow" not in sys.modules:
                _install_activation_finder(state)
            else:
                _activate(state)
            if import_hook == "modules":
                _install_module_hook(state)
            else:
                _install_import_hook(state)
        except BaseException:
            _run_undo(state)
            raise
        _STATE = state
        return state.proxy


def _activate(state):
    """Installs the part of the shim that needs TensorFlow, importing it; once.

    Called by :func:`install`, or, after ``install(lazy=True)``, by the first import
    of ``tensorflow`` in the process (:class:`_ActivationFinder`). On failure what it
    did is undone and the error propagates (from that import statement), so a later
    import may try again.
    """
    with _LOCK:
        if state.active:
            return state.proxy
        session_options, force_config, placement_report, forbid_servers = state.options[:4]
        allow_remote = state.options[5]
        done = len(state.undo)
        try:
            import tensorflow as real_tf

            _disable_v2(state)
            _install_internal_aliases(state)
            from tf1mem.compat import op_seeds

            state.undo.append(op_seeds.install())
            if state.numpy_compat:
                from tf1mem.compat import legacy_numpy

                state.undo.append(legacy_numpy.install_print_legacy())
            _install_finder(state)
            state.proxy = _TF1Module(real_tf)
            from tf1mem.compat import session_hooks

            # Always: even with no options, every session is noted, so that GPU
            # options coming too late to take effect are warned about.
            memory_log = None
            if state.options[7]:
                from tf1mem.observe import run_memory

                memory_log = run_memory.RunMemoryLog()
            state.session_hooks = session_hooks.SessionHooks(
                session_options, force=force_config, placement=bool(placement_report),
                memory_log=memory_log, oom_tensors=state.options[8] or memory_log is not None)
            state.session_hooks.install()
            state.undo.append(state.session_hooks.uninstall)
            _install_server_guard(state, forbid_servers, allow_remote)
        except BaseException:
            later, state.undo[done:] = state.undo[done:], []
            _run_undo_steps(later)
            state.proxy = state.session_hooks = None
            raise
        state.active = True
        for callback in state.on_tensorflow:
            callback(state.proxy)
        return state.proxy


class _ActivatingLoader(importlib.abc.Loader):
    """TensorFlow's own loader, followed by :func:`_activate` once it has run."""

    def __init__(self, inner, state):
        self._inner = inner
        self._state = state

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        # The module is TensorFlow's, loaded by its own loader: put that loader back
        # where introspection finds it, then finish the install (the import lock of
        # "tensorflow" is this thread's, so the install's imports of it return it).
        module.__loader__ = self._inner
        if module.__spec__ is not None:
            module.__spec__.loader = self._inner
        self._inner.exec_module(module)
        _activate(self._state)


class _ActivationFinder(importlib.abc.MetaPathFinder):
    """Under ``install(lazy=True)``: notices the first import of ``tensorflow``.

    Whoever imports it (the script, one of its modules, a library), it is found by
    the finders after this one and loaded by its own loader; the shim's TensorFlow
    part is installed as soon as it has loaded, before the import statement
    returns. The finder then leaves ``sys.meta_path``.
    """

    def __init__(self, state):
        self._state = state
        self._busy = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "tensorflow" or self._busy or _STATE is not self._state:
            return None
        self._busy = True
        try:
            spec = None
            for finder in sys.meta_path[sys.meta_path.index(self) + 1:]:
                find = getattr(finder, "find_spec", None)
                spec = find(fullname, path, target) if find is not None else None
                if spec is not None:
                    break
        finally:
            self._busy = False
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ActivatingLoader(spec.loader, self._state)
        return spec


def _install_activation_finder(state):
    finder = _ActivationFinder(state)
    sys.meta_path.insert(0, finder)

    def restore():
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)

    state.undo.append(restore)


def _run_undo(state):
    steps, state.undo = state.undo, []
    _run_undo_steps(steps)


def _run_undo_steps(steps):
    failures = []
    while steps:
        step = steps.pop()
        try:
            step()
        except Exception as exc:  # keep undoing the rest; report at the end
            failures.append(exc)
    if failures:
        raise errors.ShimError(f"undoing the shim failed halfway: {failures!r}")


def write_placement_report(path=None):
    """Writes the placement collected so far; returns the path, or None if none."""
    with _LOCK:
        state = _STATE
        if state is None:
            return None
        path = path or state.options[2]
        if not path:
            return None
        if state.session_hooks is not None:
            state.session_hooks.write_report(path)
        else:  # a lazy install whose program never imported TensorFlow: no runs
            from tf1mem.observe import placement

            placement.write_report(path, [])
        return path


def write_memory_report():
    """Writes the memory report collected so far (``install(memory_report=)``).

    Returns:
      ``(path, one-line summary)``, or None when no memory report was asked for.
    """
    with _LOCK:
        state = _STATE
        if state is None or not state.options[7]:
            return None
        path = state.options[7]
        hooks = state.session_hooks
        if hooks is not None and hooks.memory_log is not None:
            log = hooks.memory_log
        else:  # a lazy install whose program never imported TensorFlow: no runs
            from tf1mem.observe import run_memory

            log = run_memory.RunMemoryLog()
        log.write(path)
        return path, log.summary()


def uninstall():
    """Undoes :func:`install` exactly; a no-op when the shim is not installed.

    Returns:
      True when something was uninstalled.
    """
    global _STATE
    with _LOCK:
        state = _STATE
        if state is None:
            return False
        try:
            if state.options[2]:
                write_placement_report()
        finally:  # a report that cannot be written must not leave the shim half-on
            _STATE = None
            _run_undo(state)
        return True


def is_installed():
    """True while the shim is installed."""
    return _STATE is not None


@contextlib.contextmanager
def legacy(**options):
    """``with tf1mem.legacy() as tf:`` runs its body under the TF1 shim.

    The shim is uninstalled on exit unless it was installed before the block, in
    which case the block changes nothing. Keyword options are :func:`install`'s.
    """
    installed_here = not is_installed()
    proxy = install(**options)
    try:
        yield proxy
    finally:
        if installed_here:
            uninstall()
