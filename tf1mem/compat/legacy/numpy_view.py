"""The NumPy of TF 1.x's time, for the user's own code only.

TF 1.15 ran with NumPy 1.16-1.19, and TF1 scripts used names that NumPy has since
removed (``np.float``, ``np.int``, ``np.asscalar``, ``np.reshape(a, newshape=...)``,
``np.product``, ``np.NaN`` ...) or given another meaning (``np.bool`` and ``np.long``
are NumPy scalar types in NumPy 2; in 1.18 they were Python's ``bool`` and ``int``).

This module owns :data:`ALIASES` (the table: name, what it was in NumPy 1.18, the
NumPy release that removed it, what to write instead) and :class:`LegacyNumPy`,
the module object that the shim's import hook gives *user code* for ``import
numpy`` (see :mod:`tf1mem.compat`, ``install(numpy_compat=True)``). Every
other name is read live from the real ``numpy`` module, which is never changed:
third-party libraries see NumPy exactly as installed, and user code gets the same
functions, types and arrays (``np.ndarray is numpy.ndarray``).

Each legacy name, the first time user code uses it, prints one note to stderr
that names it and what to write instead. ``np.fromstring``'s binary mode
(``sep=""``, deprecated since NumPy 1.14 and an error in 2.4) reads bytes as NumPy 1.x did,
``np.array(x, copy=False)`` copies only where it must, as in NumPy 1.x; with
:func:`install_print_legacy` NumPy scalars print as ``1.5``, not ``np.float32(1.5)``.
Not provided: methods of ``ndarray``
that NumPy removed (``a.tostring()``: use ``a.tobytes()``), since a method of a C
type cannot change for some callers only; and ``np.find_common_type``, whose
rules have no exact modern equivalent (use ``np.result_type``).

Nothing here imports NumPy at import time.
"""

import builtins

from tf1mem.compat.legacy import module_view

__all__ = ["ALIASES", "BEHAVIOURS", "LegacyNumPy", "install_print_legacy", "make_module",
           "noted_names"]


def _np():
    import numpy

    return numpy


def _real(name):
    return lambda: getattr(_np(), name)


def _const(value):
    return lambda: value


def _asscalar():
    def asscalar(a):
        """NumPy 1.18's ``np.asscalar(a)``: ``a.item()``."""
        return a.item()

    return asscalar


def _asfarray():
    np = _np()

    def asfarray(a, dtype=np.float64):
        """NumPy 1.18's ``np.asfarray``: an array of a floating type (float64 unless
        ``dtype`` is inexact)."""
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        return np.asarray(a, dtype=dtype)

    return asfarray


def _msort():
    np = _np()

    def msort(a):
        """NumPy 1.18's ``np.msort(a)``: a sorted copy along the first axis."""
        b = np.array(a, subok=True, copy=True)
        b.sort(0)
        return b

    return msort


def _in1d():
    np = _np()

    def in1d(ar1, ar2, assume_unique=False, invert=False):
        """NumPy 1.18's ``np.in1d``: ``np.isin`` on the flattened first array."""
        return np.isin(np.asarray(ar1).ravel(), ar2, assume_unique=assume_unique,
                       invert=invert)

    return in1d


def _row_stack():
    np = _np()

    def row_stack(tup):
        """NumPy 1.18's ``np.row_stack``: ``np.vstack``."""
        return np.vstack(tup)

    return row_stack


def _trapz():
    np = _np()
    return getattr(np, "trapezoid", None) or np.trapz


# name -> (resolver of the NumPy 1.18 value, removed in, what to write instead)
ALIASES = {
    "float": (_const(builtins.float), "1.24", "float"),
    "int": (_const(builtins.int), "1.24", "int"),
    "bool": (_const(builtins.bool), "1.24; NumPy 2's np.bool is np.bool_", "bool"),
    "object": (_const(builtins.object), "1.24", "object"),
    "str": (_const(builtins.str), "1.24", "str"),
    "long": (_const(builtins.int), "1.24; NumPy 2's np.long is a C long", "int"),
    "unicode": (_const(builtins.str), "1.24", "str"),
    "complex": (_const(builtins.complex), "1.24", "complex"),
    "asscalar": (_asscalar, "1.23", "a.item()"),
    "float_": (_real("float64"), "2.0", "np.float64"),
    "complex_": (_real("complex128"), "2.0", "np.complex128"),
    "cfloat": (_real("complex128"), "2.0", "np.complex128"),
    "singlecomplex": (_real("complex64"), "2.0", "np.complex64"),
    "longfloat": (_real("longdouble"), "2.0", "np.longdouble"),
    "clongfloat": (_real("clongdouble"), "2.0", "np.clongdouble"),
    "longcomplex": (_real("clongdouble"), "2.0", "np.clongdouble"),
    "string_": (_real("bytes_"), "2.0", "np.bytes_"),
    "unicode_": (_real("str_"), "2.0", "np.str_"),
    "bool8": (_real("bool_"), "2.0", "np.bool_"),
    "int0": (_real("intp"), "2.0", "np.intp"),
    "uint0": (_real("uintp"), "2.0", "np.uintp"),
    "object0": (_real("object_"), "2.0", "np.object_"),
    "str0": (_real("str_"), "2.0", "np.str_"),
    "bytes0": (_real("bytes_"), "2.0", "np.bytes_"),
    "void0": (_real("void"), "2.0", "np.void"),
    "NaN": (_const(float("nan")), "2.0", "np.nan"),
    "Inf": (_const(float("inf")), "2.0", "np.inf"),
    "PINF": (_const(float("inf")), "2.0", "np.inf"),
    "infty": (_const(float("inf")), "2.0", "np.inf"),
    "Infinity": (_const(float("inf")), "2.0", "np.inf"),
    "NINF": (_const(float("-inf")), "2.0", "-np.inf"),
    "PZERO": (_const(0.0), "2.0", "0.0"),
    "NZERO": (_const(-0.0), "2.0", "-0.0"),
    "alltrue": (_real("all"), "2.0", "np.all"),
    "sometrue": (_real("any"), "2.0", "np.any"),
    "product": (_real("prod"), "2.0", "np.prod"),
    "cumproduct": (_real("cumprod"), "2.0", "np.cumprod"),
    "round_": (_real("round"), "2.0", "np.round"),
    "asfarray": (_asfarray, "2.0", "np.asarray(a, dtype=np.float64)"),
    "msort": (_msort, "2.0", "np.sort(a, axis=0)"),
    "mat": (_real("asmatrix"), "2.0", "np.asmatrix"),
    "trapz": (_trapz, "2.4", "np.trapezoid"),
    "in1d": (_in1d, "2.4", "np.isin(np.ravel(a), b)"),
    "row_stack": (_row_stack, "2.4, deprecated since 2.0", "np.vstack"),
}

# Functions whose removed keywords user code still passes: name -> {keyword: new}.
KEYWORDS = {"reshape": {"newshape": "shape"}}


def _fromstring(real):
    def fromstring(string, dtype=float, count=-1, *, sep="", **kwargs):
        """NumPy 1.x's ``np.fromstring``: with ``sep=""`` (the default) the bytes of
        ``string`` as an array of ``dtype`` (a copy), as ``np.frombuffer(...).copy()``."""
        if sep != "":
            return real(string, dtype, count, sep=sep, **kwargs)
        _note("fromstring", "np.fromstring's binary mode (sep='') is gone from NumPy 2.4 "
                            "(deprecated since 1.14); tf1mem reads the bytes as NumPy 1.x "
                            "did. Write "
                            "np.frombuffer(data, dtype).copy() instead.")
        if isinstance(string, str):
            string = string.encode("utf-8")  # NumPy 1.18 read a str's UTF-8 bytes
        return _np().frombuffer(string, dtype, count).copy()

    fromstring.__wrapped__ = real
    return fromstring


def _array(real):
    def array(object, dtype=None, *, copy=True, **kwargs):
        """NumPy 1.x's ``np.array``: ``copy=False`` copies only where it must (NumPy 2's
        ``copy=None``; NumPy 2 raises instead)."""
        if copy is False:
            _note("array(copy=False)",
                  "np.array(..., copy=False) copied only where needed in NumPy 1.x and "
                  "raises in NumPy 2 where a copy is needed; tf1mem passes copy=None, as "
                  "NumPy 1.x did. Write np.asarray(...) instead.")
            copy = None
        return real(object, dtype, copy=copy, **kwargs)

    array.__wrapped__ = real
    return array


# Functions NumPy 2 still has but with a behaviour TF1 code relied on removed:
# name -> wrapper factory taking the real function.
BEHAVIOURS = {"fromstring": _fromstring, "array": _array}

_NOTES = module_view.Notes()  # names noted in this process (one note each)
_note = _NOTES.note


def noted_names():
    """The legacy names (and ``reshape(newshape=)``) noted so far, sorted."""
    return _NOTES.names()


def _with_old_keywords(name, function, renames):
    def wrapper(*args, **kwargs):
        for old, new in renames.items():
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"np.{name}() got both {old}= (NumPy 1.x) and {new}=; "
                                    f"give only {new}=")
                _note(f"{name}({old}=)",
                      f"np.{name}(..., {old}=) is NumPy 1.x's keyword (removed in NumPy "
                      f"2.4); tf1mem passes it as {new}=. Write np.{name}(..., {new}=...).")
                kwargs[new] = kwargs.pop(old)
        return function(*args, **kwargs)

    wrapper.__name__ = name
    wrapper.__qualname__ = name
    wrapper.__doc__ = function.__doc__
    wrapper.__wrapped__ = function
    return wrapper


class LegacyNumPy(module_view.ModuleView):
    """What ``import numpy`` gives user code under the shim's NumPy compatibility.

    Attribute reads go to the real ``numpy`` (nothing is copied, so what NumPy or
    the program sets there later is seen), except the names of :data:`ALIASES`,
    which have their NumPy 1.18 value, and :data:`KEYWORDS`' functions, which also
    accept the old keyword. Assignments go to the real module.
    """

    def __init__(self, real):
        super().__init__(real, extra_names=ALIASES)

    def __getattr__(self, name):
        real = self.__dict__["_tf1mem_real"]
        if name in ALIASES:
            resolve, removed, instead = ALIASES[name]
            value = resolve()
            if isinstance(value, type) and getattr(builtins, value.__name__, None) is value:
                shown = f" (the builtin {value.__name__})"
            elif isinstance(value, float):
                shown = f" ({value!r})"
            else:
                shown = ""
            _note(name, f"np.{name} was removed in NumPy {removed}; tf1mem gives it as "
                        f"NumPy 1.18 had it{shown}. Write {instead} instead.")
        elif name in KEYWORDS:
            value = _with_old_keywords(name, getattr(real, name), KEYWORDS[name])
        elif name in BEHAVIOURS:
            value = BEHAVIOURS[name](getattr(real, name))
        else:
            return getattr(real, name)
        self.__dict__[name] = value  # later reads are plain dict hits
        return value



def install_print_legacy():
    """Prints NumPy scalars as NumPy 1.x did (``1.5``, not ``np.float32(1.5)``).

    NumPy 2 writes a scalar's type into its repr, so a TF1 script's
    ``print(sess.run([loss, step]))`` printed ``[np.float32(0.25), np.int64(3)]`` where
    TF 1.15 printed ``[0.25, 3]``. NumPy's own ``legacy="1.25"`` print option restores
    the old reprs (and nothing else NumPy 2 changed in printing). Print options are
    process state (per thread, in NumPy 2): called by the shim's install when it gives
    user code this module's NumPy; returns a function that restores the option.
    """
    np = _np()
    before = np.get_printoptions()["legacy"]
    np.set_printoptions(legacy="1.25")

    def restore():
        np.set_printoptions(legacy=before)

    return restore


def make_module():
    """A new :class:`LegacyNumPy` over the real ``numpy`` (imported now)."""
    return LegacyNumPy(_np())


def reset_notes():
    """Forgets which names were noted (an uninstall does this)."""
    _NOTES.reset()
