"""The TF1-aware ``__import__``: user code's ``import tensorflow`` (and ``numpy``,
``inspect``, ...) answered with the shim's modules."""

from tf1mem.compat import table
from tf1mem.compat.runtime import state as state_lib
from tf1mem.compat.runtime.usercode import is_user_code

__all__ = ["tf1_import"]


def tf1_import(state, original, check_caller):
    """An ``__import__`` that answers user code's ``import tensorflow`` with the proxy.

    ``check_caller``: whether to ask :func:`is_user_code` of the importing module
    (needed when every module in the process shares this function).
    """

    def tf1mem_import(name, globals=None, locals=None, fromlist=(), level=0):
        if (level == 0 and name[:17] == "tensorflow.compat"
                and (len(name) == 17 or name[17] == ".")
                and state_lib.current is state and (not check_caller or is_user_code(globals))):
            return _compat_import(state, original, name, globals, locals, fromlist)
        module = original(name, globals, locals, fromlist, level)
        if (level == 0 and name[:10] == "tensorflow"
                and (name == "tensorflow" or (name[10:11] == "." and not fromlist))
                and state_lib.current is state and (not check_caller or is_user_code(globals))):
            # TensorFlow is imported now: a lazy install has completed (or raised).
            return state.proxy if state.active else state.activate()
        if (state.options.numpy_compat and level == 0 and name[:5] == "numpy"
                and (name == "numpy" or (name[5:6] == "." and not fromlist))
                and state_lib.current is state and (not check_caller or is_user_code(globals))):
            return _legacy_numpy(state)
        if (state.options.python_compat and level == 0 and name in _LEGACY_STDLIB
                and state_lib.current is state and (not check_caller or is_user_code(globals))):
            return _legacy_stdlib(state, module)
        return module

    return tf1mem_import


def _compat_estimator_target(name):
    """The module user code's ``tensorflow.compat.vN.estimator[.X]`` import stands for.

    ``v1``'s is ``tensorflow.estimator[.X]`` (the shim's finder: tf1mem's, with its
    errors for what it lacks); ``v2``'s is :mod:`tf1mem.compat.tf.estimator.api_v2`, whose
    ``export`` is tf.estimator's (TF 1.15's held the same names).
    """
    version, rest = name[18:20], name[len("tensorflow.compat.v1.estimator"):]
    if version == "v1":
        return "tensorflow.estimator" + rest
    if rest == "":
        return table.COMPAT_ESTIMATOR["v2"]
    if rest == ".export" or rest.startswith(".export."):
        return "tensorflow.estimator" + rest
    raise ModuleNotFoundError(
        f"No module named {name!r}: tf1mem's tensorflow.compat.v2.estimator has only the "
        f"submodule export (TF 1.15's had no inputs, and an experimental unlike "
        f"tf.estimator's); use tensorflow.compat.v1.estimator{rest} instead.", name=name)


def _compat_import(state, original, name, globals, locals, fromlist):
    """User code's ``import tensorflow.compat[...]`` and ``from tensorflow.compat[...] import``.

    Answers with the shim's views (see :class:`tf1mem.compat.runtime.views._CompatView`), so that
    ``from tensorflow.compat.v1 import estimator`` and ``from
    tensorflow.compat.v1.estimator import Estimator`` work as in TF 1.15. The real modules
    are imported first (TensorFlow, completing a lazy install), as without the shim, and
    never changed; the shim adds no ``tensorflow.compat.*`` entry to ``sys.modules``.
    """
    parts = name.split(".")
    estimator = len(parts) > 3 and parts[2] in table.COMPAT_ESTIMATOR and parts[3] == "estimator"
    module = original(".".join(parts[:3]) if estimator else name, globals, locals,
                      () if estimator else fromlist, 0)
    proxy = state.proxy if state.active else state.activate()
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
    """The NumPy user code gets with ``numpy_compat`` (see :mod:`tf1mem.compat.legacy.numpy_view`)."""
    if state.numpy is None:
        from tf1mem.compat.legacy import numpy_view as legacy_numpy

        with state_lib.LOCK:
            if state.numpy is None:
                state.numpy = legacy_numpy.make_module()
                state.undo.append(legacy_numpy.reset_notes)
    return state.numpy


# Standard-library modules whose Python 3.7 names user code gets with python_compat.
_LEGACY_STDLIB = frozenset({"inspect", "time", "collections", "fractions", "base64", "cgi"})


def _legacy_stdlib(state, module):
    """The view of ``module`` user code gets (see :mod:`tf1mem.compat.legacy.stdlib_view`)."""
    view = state.stdlib.get(module.__name__)
    if view is None:
        from tf1mem.compat.legacy import stdlib_view as legacy_python

        with state_lib.LOCK:
            view = state.stdlib.get(module.__name__)
            if view is None:
                if not state.stdlib:
                    state.undo.append(legacy_python.reset_notes)
                view = state.stdlib[module.__name__] = legacy_python.make_module(module)
    return view
