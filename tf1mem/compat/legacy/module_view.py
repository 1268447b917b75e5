"""The views of real modules that the shim gives user code, and their one-time notes.

:class:`ModuleView` is a module object that reads every attribute through to a real
module (nothing is copied, so what the real module or the program sets later is seen)
and writes assignments there; a subclass's ``__getattr__`` answers the names the real
module lacks. :mod:`tf1mem.compat.legacy.numpy_view` (NumPy 1.18's names) and
:mod:`tf1mem.compat.legacy.stdlib_view` (Python 3.7's standard-library names) build on it.
:class:`Notes` prints each such name's note to stderr once per process.
"""

import sys
import threading
import types

__all__ = ["ModuleView", "Notes"]


class ModuleView(types.ModuleType):
    """A module named as ``real`` that reads and writes through to it.

    ``extra_names`` are listed by ``dir()`` beside the real module's (the names the
    subclass adds).
    """

    def __init__(self, real, extra_names=()):
        super().__init__(real.__name__, real.__doc__)
        self.__dict__["_tf1mem_real"] = real
        self.__dict__["_tf1mem_extra"] = frozenset(extra_names)
        for name in ("__file__", "__path__", "__spec__", "__loader__", "__package__",
                     "__version__"):
            if hasattr(real, name):
                self.__dict__[name] = getattr(real, name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_tf1mem_real"], name, value)

    def __delattr__(self, name):
        delattr(self.__dict__["_tf1mem_real"], name)

    def __dir__(self):
        return sorted(set(dir(self.__dict__["_tf1mem_real"])) | self.__dict__["_tf1mem_extra"])


class Notes:
    """Notes printed to stderr, each key once (until :meth:`reset`)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._noted = set()

    def note(self, key, text):
        with self._lock:
            if key in self._noted:
                return
            self._noted.add(key)
        print(f"tf1mem: {text}", file=sys.stderr, flush=True)

    def names(self):
        """The keys noted so far, sorted."""
        with self._lock:
            return sorted(self._noted)

    def reset(self):
        with self._lock:
            self._noted.clear()
