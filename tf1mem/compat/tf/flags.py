"""``tf.flags`` (and ``tf.app.flags``) for user code: TF 1.15's absl flags, plus TF <= 1.4's
``FLAGS._parse_flags()`` and ``FLAGS.__flags``.

Up to TF 1.4, ``tf.flags`` was TensorFlow's own small wrapper around ``argparse``:
``FLAGS._parse_flags(args=None)`` parsed the known flags of ``args`` (``sys.argv[1:]``
when None), stored their values and returned the arguments it did not know, and
``FLAGS.__flags`` was the dict of those values (name -> value, only the flags defined
through ``tf.flags``; empty until a parse). TF 1.5 moved ``tf.flags`` onto absl: the
method is gone (``AttributeError: _parse_flags`` in TF 1.15.5) and ``FLAGS.__flags`` is
absl's own dict of ``Flag`` objects. Public copies of 2017 codebases still call both
(the text CNN's ``eval.py``), so tf1mem answers them, beyond TF 1.15:

- ``FLAGS._parse_flags(args=None)`` parses ``args`` with absl, known flags only, marks
  the flags parsed and returns the arguments it did not know, as TF 1.4's did;
- ``FLAGS.__flags``, once ``_parse_flags()`` has been called (only TF <= 1.4 code calls
  it), is TF 1.4's dict: name -> value of the flags the program defined (absl's,
  TensorFlow's and tf1mem's own flags left out), a new dict at each read. Until then
  it is what TF 1.5-1.15 gave, absl's name -> ``Flag`` dict, so code written for those
  releases (``FLAGS.__flags[name].value``) runs as it did;
- ``FLAGS.flag_name`` for a flag defined as ``"flag-name"`` (argparse's spelling in TF
  <= 1.4; an AttributeError since TF 1.5).

Each prints one note to stderr, once per process, naming the TF 1.15 spelling. Everything
else is TF 2.21's ``tf.compat.v1.flags`` (absl), with its implicit parse of ``sys.argv``
on the first read of a flag; the parsing itself (flag syntax, booleans) is absl's, as in
TF 1.15. :data:`FLAGS` wraps the same absl ``FlagValues`` libraries use, which is never
changed: the shim gives this module to user code as ``tf.flags`` (``tf.app.flags``
through :mod:`tf1mem.compat.tf.app`).
"""

import sys
import threading

import tensorflow as _tf

from tf1mem import _lazy

__all__ = ["FLAGS", "LegacyFlagValues", "LIBRARY_MODULES"]

_REAL = _tf.compat.v1.flags  # TF 2.21's absl router; its FLAGS wraps absl's FlagValues

# Flags registered by modules under these prefixes are the libraries' (absl's logging and
# app flags, TensorFlow's own), which TF 1.4's argparse wrapper never held.
LIBRARY_MODULES = ("absl.", "tensorflow.", "tensorflow_estimator.", "tf_keras.", "keras.",
                   "tf1mem.")

_NOTED = set()
_LOCK = threading.Lock()


def _note(key, text):
    with _LOCK:
        if key in _NOTED:
            return
        _NOTED.add(key)
    print(f"tf1mem: {text}", file=sys.stderr, flush=True)


def _absl_values(wrapped):
    """The absl ``FlagValues`` behind TF's wrapper (or ``wrapped`` itself)."""
    return wrapped.__dict__.get("__wrapped", wrapped)


class LegacyFlagValues:
    """User code's ``tf.flags.FLAGS``: TF 1.15's (absl's) with TF 1.4's idioms on top.

    Every read, write, call and item access goes to ``wrapped`` (TF's ``FLAGS``);
    ``_parse_flags``, ``__flags`` and the dashed-name reads are this class's own.
    """

    def __init__(self, wrapped):
        self.__dict__["_tf1mem_wrapped"] = wrapped
        self.__dict__["_tf1mem_tf14"] = False  # _parse_flags() was called

    def _parse_flags(self, args=None):
        """TF <= 1.4's parse: ``args`` (default ``sys.argv[1:]``), known flags only.

        Returns:
          The arguments that are not known flags, in their order (TF 1.4's ``unparsed``).
        """
        _note("_parse_flags",
              "FLAGS._parse_flags() is TF <= 1.4's (TF 1.5-1.15 have no such method: "
              "AttributeError); tf1mem parses the known flags of sys.argv as TF 1.4 did. "
              "Write FLAGS(sys.argv, known_only=True) instead.")
        program = sys.argv[0] if sys.argv else ""
        argv = sys.argv[1:] if args is None else list(args)
        rest = self.__dict__["_tf1mem_wrapped"]([program, *argv], known_only=True)
        self.__dict__["_tf1mem_tf14"] = True
        return list(rest[1:])

    def _tf14_flags(self):
        if not self.__dict__["_tf1mem_tf14"]:
            # TF 1.5-1.15: absl's own dict of Flag objects.
            return getattr(self.__dict__["_tf1mem_wrapped"], "__flags")
        _note("__flags",
              "FLAGS.__flags held the flags' values in TF <= 1.4 (absl Flag objects in "
              "TF 1.5-1.15); tf1mem gives TF 1.4's name -> value dict after "
              "FLAGS._parse_flags(). Write FLAGS.flag_values_dict() instead.")
        values = _absl_values(self.__dict__["_tf1mem_wrapped"])
        result = {}
        for module, flags in values.flags_by_module_dict().items():
            if module.startswith(LIBRARY_MODULES):
                continue
            for flag in flags:
                result[flag.name.replace("-", "_")] = flag.value
        return result

    def __getattr__(self, name):
        wrapped = self.__dict__["_tf1mem_wrapped"]
        try:
            return getattr(wrapped, name)
        except AttributeError:
            if "_" not in name or name.startswith("__"):
                raise
            values = _absl_values(wrapped)
            dashed = [flag for flag in values if flag.replace("-", "_") == name and flag != name]
            if not dashed:
                raise
        _note(f"dashed:{dashed[0]}",
              f"FLAGS.{name} read the flag defined as {dashed[0]!r} in TF <= 1.4 (argparse "
              f"turned '-' into '_'; an AttributeError since TF 1.5); tf1mem gives its "
              f"value. Write FLAGS[{dashed[0]!r}].value, or define it as {name!r}.")
        return values[dashed[0]].value

    def __setattr__(self, name, value):
        setattr(self.__dict__["_tf1mem_wrapped"], name, value)

    def __delattr__(self, name):
        delattr(self.__dict__["_tf1mem_wrapped"], name)

    def __dir__(self):
        return sorted(set(dir(self.__dict__["_tf1mem_wrapped"])) | {"_parse_flags"})

    def __getitem__(self, name):
        return self.__dict__["_tf1mem_wrapped"][name]

    def __setitem__(self, name, flag):
        self.__dict__["_tf1mem_wrapped"][name] = flag

    def __contains__(self, name):
        return name in _absl_values(self.__dict__["_tf1mem_wrapped"])

    def __len__(self):
        return len(self.__dict__["_tf1mem_wrapped"])

    def __iter__(self):
        return iter(self.__dict__["_tf1mem_wrapped"])

    def __str__(self):
        return str(self.__dict__["_tf1mem_wrapped"])

    def __call__(self, *args, **kwargs):
        return self.__dict__["_tf1mem_wrapped"](*args, **kwargs)


# `FLAGS.__flags` outside a class body is not name-mangled: a property of that very name.
setattr(LegacyFlagValues, "__flags", property(LegacyFlagValues._tf14_flags,
                                              doc="TF 1.4's FLAGS.__flags (see the module)."))

FLAGS = LegacyFlagValues(_REAL.FLAGS)


# Every other name is TF 2.21's ``tf.compat.v1.flags`` (absl's DEFINE_*, ...).
__getattr__ = _lazy.attach(__name__, {name: f"tensorflow:compat.v1.flags.{name}"
                                      for name in dir(_REAL) if not name.startswith("__")})[0]


def __dir__():
    return sorted(set(dir(_REAL)) | set(__all__))
