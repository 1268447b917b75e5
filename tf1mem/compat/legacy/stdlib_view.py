"""The standard library of TF 1.x's time (Python 3.5-3.7), for the user's own code only.

TF 1.15 ran on Python 3.5-3.7, and TF1 scripts used standard-library names that
Python has since removed: ``inspect.getargspec`` (3.11), ``time.clock`` (3.8),
``collections.Iterable`` and the other ABCs (3.10), ``fractions.gcd`` (3.9),
``base64.encodestring`` / ``decodestring`` (3.9) and ``cgi.escape`` (3.8).
(``xml.etree.cElementTree``, which Pascal VOC annotation readers imported, is still
in Python 3.11.)

This module owns :data:`ALIASES` (module -> name -> what it was in Python 3.7, the
release that removed it, what to write instead) and :class:`LegacyModule`, the view
of a standard-library module that the shim's import hook gives *user code* for
``import inspect`` / ``from collections import Iterable`` (see
:mod:`tf1mem.compat`, ``install(python_compat=True)``). Every other name is read
live from the real module, which is never changed: libraries see the standard library
as installed. Each legacy name, the first time user code uses it, prints one note to
stderr naming what to write instead.

Nothing here imports anything at import time beyond the standard library.
"""

from tf1mem.compat.legacy import module_view

__all__ = ["ALIASES", "LegacyModule", "make_module", "reset_notes"]


def _getargspec():
    import collections
    import inspect

    ArgSpec = collections.namedtuple("ArgSpec", "args varargs keywords defaults")

    def getargspec(func):
        """Python 3.7's ``inspect.getargspec``: ``(args, varargs, keywords, defaults)``."""
        spec = inspect.getfullargspec(func)
        if spec.kwonlyargs or spec.annotations:
            raise ValueError("Function has keyword-only parameters or annotations, use "
                             "inspect.signature() API which can support them")
        return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)

    return getargspec


def _clock():
    import time

    def clock():
        """Python 3.7's ``time.clock`` on Unix: the process's CPU time, in seconds."""
        return time.process_time()

    return clock


def _gcd():
    def gcd(a, b):
        """Python 3.7's ``fractions.gcd``: Euclid's algorithm; the result has the sign of
        ``b`` (of ``a`` when ``b`` is 0), unlike ``math.gcd``."""
        while b:
            a, b = b, a % b
        return a

    return gcd


def _cgi_escape():
    def escape(s, quote=None):
        """Python 3.7's ``cgi.escape``: ``&``, ``<``, ``>`` as entities; with ``quote``,
        ``"`` too (not ``'``, which ``html.escape`` also replaces)."""
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if quote:
            s = s.replace('"', "&quot;")
        return s

    return escape


def _attr(module, name):
    def resolve():
        import importlib

        return getattr(importlib.import_module(module), name)

    return resolve


_ABCS = ("Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator",
         "Hashable", "Iterable", "Iterator", "Generator", "Reversible", "Sized",
         "Container", "Callable", "Collection", "Set", "MutableSet", "Mapping",
         "MutableMapping", "MappingView", "KeysView", "ItemsView", "ValuesView",
         "Sequence", "MutableSequence", "ByteString")

# module -> {name: (resolver of the Python 3.7 value, removed in, what to write instead)}
ALIASES = {
    "inspect": {"getargspec": (_getargspec, "3.11", "inspect.getfullargspec(f) or "
                                                    "inspect.signature(f)")},
    "time": {"clock": (_clock, "3.8", "time.process_time() (CPU time) or "
                                      "time.perf_counter() (wall time)")},
    "collections": {name: (_attr("collections.abc", name), "3.10",
                           f"collections.abc.{name}") for name in _ABCS},
    "fractions": {"gcd": (_gcd, "3.9", "math.gcd (always >= 0)")},
    "base64": {"encodestring": (_attr("base64", "encodebytes"), "3.9", "base64.encodebytes"),
               "decodestring": (_attr("base64", "decodebytes"), "3.9", "base64.decodebytes")},
    "cgi": {"escape": (_cgi_escape, "3.8", "html.escape(s, quote=False)")},
}

_NOTES = module_view.Notes()


def reset_notes():
    """Forgets which names were noted (an uninstall does this)."""
    _NOTES.reset()


class LegacyModule(module_view.ModuleView):
    """A standard-library module with the names Python 3.7 had and Python removed.

    Attribute reads go to the real module, except the names of :data:`ALIASES` that
    the real module lacks, which get their Python 3.7 value (noted once on stderr).
    Assignments go to the real module.
    """

    def __init__(self, real):
        super().__init__(real, extra_names=ALIASES.get(real.__name__, ()))

    def __getattr__(self, name):
        real = self.__dict__["_tf1mem_real"]
        try:
            return getattr(real, name)
        except AttributeError:
            table = ALIASES.get(real.__name__, {})
            if name not in table:
                raise
        resolve, removed, instead = table[name]
        value = resolve()
        _NOTES.note(f"{real.__name__}.{name}",
              f"{real.__name__}.{name} was removed in Python {removed}; tf1mem gives it as "
              f"Python 3.7 had it. Write {instead} instead.")
        self.__dict__[name] = value  # later reads are plain dict hits
        return value



def make_module(real):
    """A new :class:`LegacyModule` over the real module ``real``."""
    return LegacyModule(real)
