"""What user code sees as ``tensorflow`` and ``tensorflow.compat[.v1|.v2]``: views of TF 2.21's
modules with what TF 1.15's had. The real modules, which libraries see, are not changed."""

import importlib
import types

from tf1mem.compat import errors, table
from tf1mem.compat.runtime import internals

__all__ = ["TF1Module"]


class _CompatView(types.ModuleType):
    """User code's ``tf.compat``, ``tf.compat.v1`` or ``tf.compat.v2``.

    TF 2.21's module, with what TF 1.15's had and TF 2.21's lacks: ``estimator`` (tf1mem's,
    see :data:`table.COMPAT_ESTIMATOR`) under ``v1`` and ``v2``, and ``v1`` / ``v2`` / ``compat``
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
                hint = (f" ({table.NOT_IN_COMPAT_V1[name]})"
                        if self.__name__ == "tensorflow.compat.v1" and name in table.NOT_IN_COMPAT_V1
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
        return lambda: importlib.import_module(table.COMPAT_ESTIMATOR[version])

    views["compat"] = _CompatView(real_compat, "tensorflow.compat", {
        "v1": lambda: views["v1"], "v2": lambda: views["v2"]})
    for version in ("v1", "v2"):
        views[version] = _CompatView(
            getattr(real_compat, version), f"tensorflow.compat.{version}",
            {"estimator": estimator(version), "compat": lambda: views["compat"]})
    return views["compat"]


class TF1Module(types.ModuleType):
    """What ``import tensorflow`` gives user code: ``tf.compat.v1`` plus contrib.

    Its ``python`` is user code's view of ``tensorflow.python``
    (:class:`~tf1mem.compat.runtime.internals.InternalView`), so that
    ``import tensorflow.python.util.nest as nest`` reaches TF 1.15's nest.
    """

    def __init__(self, real, internals=None):
        super().__init__("tensorflow", "TensorFlow's TF1 API (tf.compat.v1) under tf1mem.")
        self.__dict__["_tf1mem_real"] = real
        self.__dict__["_tf1mem_internals"] = {} if internals is None else internals
        self.__dict__["__version__"] = real.__version__
        self.__dict__["compat"] = _compat_views(real.compat)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        real = self.__dict__["_tf1mem_real"]
        if name == "python":
            value = internals.resolve(internals.ROOT, self.__dict__["_tf1mem_internals"])
        elif name in ("contrib", "examples"):
            value = importlib.import_module(f"tensorflow.{name}")
        elif name in table.TOP_LEVEL_MODULES:
            value = importlib.import_module(table.TOP_LEVEL_MODULES[name])
        elif name in table.REMOVED_TOP_LEVEL:
            raise errors.RemovedAttributeError(
                errors.removed_message(f"tf.{name}", table.REMOVED_TOP_LEVEL[name]))
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
                      | set(table.TOP_LEVEL_MODULES))
