"""The session options: one record per option, and what is derived from the records.

Each :class:`Option` carries everything tf1mem knows about one ``ConfigProto`` field:
the field (and whether it lives in ``gpu_options``; :meth:`Option.read` and
:meth:`Option.write` follow it), its environment variable, its command-line flag, its
validator and text parser (through its :class:`_Kind`), its help text and what
TensorFlow does when it is unset. :data:`OPTIONS` is the table; :class:`SessionOptions`
(with its ``to_config``), the flags, the environment reading and
:mod:`tf1mem.config.proto`'s build, merge and describe all derive from it, so a new
option is one entry here.

A leaf of the wing: this module imports no other ``tf1mem.config`` module
(:mod:`~tf1mem.config.proto` and :mod:`~tf1mem.config.registry` import it).
"""

import argparse
import dataclasses
import math
import numbers
import os
from collections.abc import Mapping
from typing import Callable, Optional

from tf1mem import _tf
from tf1mem.errors import ConfigError

__all__ = [
    "UNSET",
    "Option",
    "OPTIONS",
    "OPTION_NAMES",
    "GPU_OPTION_NAMES",
    "ENV_VARS",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "SessionOptions",
    "options_from_env",
    "resolve_options",
    "add_argparse_flags",
    "options_from_args",
]


class _Unset:
    """Type of :data:`UNSET`: tells "argument not passed" from ``None``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "UNSET"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_Unset, ())


UNSET = _Unset()

TF_FORCE_GPU_ALLOW_GROWTH = "TF_FORCE_GPU_ALLOW_GROWTH"

_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


# --------------------------------------------------------------------------------
# Validation. Each checker takes the value and a label for messages (an option
# name, a flag, or "environment variable X") and returns the normalized value; each
# text parser takes the text of an environment variable or flag.


def _check_bool(value, label):
    if not isinstance(value, bool):
        raise ConfigError(
            f"{label} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def _check_fraction(value, label):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ConfigError(
            f"{label} must be a real number in (0, 1], got {value!r} "
            f"({type(value).__name__})")
    fraction = float(value)
    if not math.isfinite(fraction) or not 0.0 < fraction <= 1.0:
        raise ConfigError(
            f"{label} must be a real number in (0, 1] (the share of each GPU's "
            f"memory to reserve), got {value!r}")
    return fraction


def _check_device_index(item, label, value):
    if isinstance(item, bool) or not isinstance(item, numbers.Integral) or item < 0:
        raise ConfigError(
            f"{label} must be a string like '0,1' or a sequence of distinct "
            f"non-negative ints, got {value!r} (bad entry {item!r})")
    return int(item)


def _check_device_list(value, label):
    if isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isdigit() and part.isascii() for part in parts):
            raise ConfigError(
                f"{label} must be a string like '0,1' (comma-separated "
                f"non-negative GPU indices) or a sequence of ints, got {value!r}; "
                f"omit it to leave all GPUs visible")
        indices = [int(part) for part in parts]
    elif isinstance(value, (list, tuple, range)):
        if not value:
            raise ConfigError(
                f"{label} must name at least one GPU, got {value!r}; omit it to "
                f"leave all GPUs visible")
        indices = [_check_device_index(item, label, value) for item in value]
    else:
        raise ConfigError(
            f"{label} must be a string like '0,1' or a sequence of distinct "
            f"non-negative ints, got {value!r} ({type(value).__name__})")
    if len(set(indices)) != len(indices):
        raise ConfigError(f"{label} must not name a GPU twice, got {value!r}")
    return ",".join(str(index) for index in indices)


def _check_threads(value, label):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ConfigError(
            f"{label} must be a non-negative int (0 lets TensorFlow choose), got {value!r}")
    return int(value)


def _parse_bool_text(text, label):
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ConfigError(f"{label} must be one of 1/0/true/false/yes/no/on/off, got {text!r}")


def _parse_fraction_text(text, label):
    try:
        return _check_fraction(float(text.strip()), label)
    except (ValueError, ConfigError):  # ConfigError is a ValueError too
        raise ConfigError(
            f"{label} must be a number in (0, 1] (the share of each GPU's memory "
            f"to reserve), got {text!r}") from None


def _parse_threads_text(text, label):
    try:
        return _check_threads(int(text.strip()), label)
    except (ValueError, ConfigError):
        raise ConfigError(
            f"{label} must be a non-negative int (0 lets TensorFlow choose), "
            f"got {text!r}") from None


@dataclasses.dataclass(frozen=True)
class _Kind:
    """How values of one type of option are checked and read from text.

    Attributes:
      check: ``check(value, label) -> normalized value``; raises ConfigError.
      parse: ``parse(text, label) -> normalized value``; raises ConfigError.
      metavar: the flag's metavar; None for a boolean ``--[no-]flag``.
      type: the Python type of a normalized value.
    """

    check: Callable
    parse: Callable
    metavar: Optional[str]
    type: type


_BOOL = _Kind(_check_bool, _parse_bool_text, None, bool)
_FRACTION = _Kind(_check_fraction, _parse_fraction_text, "F", float)
_DEVICES = _Kind(_check_device_list, _check_device_list, "LIST", str)
_THREADS = _Kind(_check_threads, _parse_threads_text, "N", int)


@dataclasses.dataclass(frozen=True)
class Option:
    """One session option.

    Attributes:
      name: the ``ConfigProto`` field (under ``gpu_options`` when ``gpu``); also
        the keyword of :func:`tf1mem.config.session_config`, the field of
        :class:`SessionOptions` and the flag's argparse destination.
      gpu: the field lives in ``ConfigProto.gpu_options``; TensorFlow fixes it when
        the first session or eager op creates the GPU devices.
      env_var: the ``TF1MEM_*`` environment variable.
      flag: the command-line flag of every tf1mem command.
      kind: how values are checked and parsed (:class:`_Kind`).
      help: the flag's help text (the environment variable is appended).
      default_note: what TensorFlow does while the option is unset.
    """

    name: str
    gpu: bool
    env_var: str
    flag: str
    kind: _Kind
    help: str
    default_note: str

    def check(self, value, label=None):
        """Returns ``value`` validated and normalized; ConfigError naming ``label``."""
        return self.kind.check(value, label or self.name)

    def parse(self, text, label):
        """Returns the value that ``text`` (an env variable or flag) stands for."""
        return self.kind.parse(text, label)

    def read(self, config):
        """Returns the option's field in ``config``, a ``tf.compat.v1.ConfigProto``."""
        return getattr(config.gpu_options if self.gpu else config, self.name)

    def write(self, config, value):
        """Sets the option's field in ``config``, a ``tf.compat.v1.ConfigProto``."""
        setattr(config.gpu_options if self.gpu else config, self.name, value)


# The table. Order matters: it is the order of describe_config()'s lines and of the flags.
OPTIONS = (
    Option("allow_growth", True, "TF1MEM_ALLOW_GROWTH", "--allow-growth", _BOOL,
           "allocate GPU memory as needed instead of nearly all at once",
           "TensorFlow reserves nearly all GPU memory at the first session"),
    Option("per_process_gpu_memory_fraction", True, "TF1MEM_GPU_MEMORY_FRACTION",
           "--gpu-memory-fraction", _FRACTION,
           "reserve at most this share of each GPU's memory, in (0, 1]",
           "no limit; see allow_growth"),
    Option("visible_device_list", True, "TF1MEM_VISIBLE_DEVICES", "--visible-devices",
           _DEVICES, "GPUs to use, e.g. 0,1 (indices into CUDA_VISIBLE_DEVICES)",
           "all GPUs in CUDA_VISIBLE_DEVICES"),
    Option("log_device_placement", False, "TF1MEM_LOG_DEVICE_PLACEMENT",
           "--log-device-placement", _BOOL, "log the device each op is placed on",
           "placements are not logged"),
    Option("allow_soft_placement", False, "TF1MEM_ALLOW_SOFT_PLACEMENT",
           "--allow-soft-placement", _BOOL,
           "move ops to an available device instead of failing",
           "an op on an unavailable device is an error"),
    Option("inter_op_parallelism_threads", False, "TF1MEM_INTER_OP_THREADS",
           "--inter-op-threads", _THREADS,
           "inter-op thread pool size, 0 lets TensorFlow choose", "TensorFlow chooses"),
    Option("intra_op_parallelism_threads", False, "TF1MEM_INTRA_OP_THREADS",
           "--intra-op-threads", _THREADS,
           "intra-op thread pool size, 0 lets TensorFlow choose", "TensorFlow chooses"),
)

BY_NAME = {option.name: option for option in OPTIONS}
OPTION_NAMES = tuple(option.name for option in OPTIONS)
GPU_OPTION_NAMES = tuple(option.name for option in OPTIONS if option.gpu)
ENV_VARS = {option.name: option.env_var for option in OPTIONS}


# --------------------------------------------------------------------------------
# SessionOptions, generated from the table


def _post_init(self):
    for option in OPTIONS:
        value = getattr(self, option.name)
        if value is not None:
            object.__setattr__(self, option.name, option.check(value))


@classmethod
def _from_mapping(cls, options):
    """Builds options from a mapping of option name to value.

    Args:
      options: a mapping whose keys are in :data:`OPTION_NAMES`; ``None``
        values mean "not set".

    Returns:
      A :class:`SessionOptions`.

    Raises:
      ConfigError: an unknown key or an invalid value.
    """
    check_names(options)
    return cls(**options)


def _as_dict(self):
    """Returns ``{name: value}`` for the options that are set."""
    return {name: getattr(self, name) for name in OPTION_NAMES
            if getattr(self, name) is not None}


def _overridden_by(self, other):
    """Returns these options with every option ``other`` sets replaced.

    Args:
      other: a :class:`SessionOptions` whose set options win.
    """
    return dataclasses.replace(self, **other.as_dict())


def _to_config(self):
    """Returns a new ``tf.compat.v1.ConfigProto`` with the set options."""
    config = _tf.v1().ConfigProto()
    for name, value in self.as_dict().items():
        BY_NAME[name].write(config, value)
    return config


SessionOptions = dataclasses.make_dataclass(
    "SessionOptions",
    [(option.name, Optional[option.kind.type], dataclasses.field(default=None))
     for option in OPTIONS],
    frozen=True,
    namespace={
        "__post_init__": _post_init,
        "from_mapping": _from_mapping,
        "as_dict": _as_dict,
        "overridden_by": _overridden_by,
        "to_config": _to_config,
    },
)
SessionOptions.__module__ = __name__  # make_dataclass(module=) is Python 3.12+
SessionOptions.__doc__ = (
    "Validated session options; ``None`` in a field means \"not set\".\n\n"
    "Values are validated and normalized on construction (the fraction becomes a "
    "``float``, a device list a string such as ``\"0,1\"``, thread counts ``int``); "
    "invalid values raise :class:`ConfigError` naming the field. The fields are "
    ":data:`OPTION_NAMES`:\n\n"
    + "\n".join(f"- ``{o.name}``: {o.help}." for o in OPTIONS))


def check_names(names):
    """Raises ConfigError if any of ``names`` is not an option."""
    unknown = sorted(set(names) - set(OPTION_NAMES))
    if unknown:
        raise ConfigError(
            f"unknown session option(s) {', '.join(unknown)}; known options are "
            f"{', '.join(OPTION_NAMES)}")


def as_options(options, label="options"):
    """``options`` as :class:`SessionOptions` (from None, a mapping or the class)."""
    if options is None:
        return SessionOptions()
    if isinstance(options, SessionOptions):
        return options
    if isinstance(options, Mapping):
        return SessionOptions.from_mapping(options)
    raise ConfigError(
        f"{label} must be a SessionOptions, a mapping of option names to values, "
        f"or None, got {options!r} ({type(options).__name__})")


# --------------------------------------------------------------------------------
# Environment


def read_tf_force_allow_growth(environ):
    """TensorFlow's ``TF_FORCE_GPU_ALLOW_GROWTH`` as True/False, None when unset."""
    text = environ.get(TF_FORCE_GPU_ALLOW_GROWTH, "")
    if text == "":
        return None
    # Exactly TensorFlow's C++ rule (gpu_device.cc): "true" or "false", nothing
    # else. Anything else TF logs and ignores, which is always a user mistake.
    if text == "true":
        return True
    if text == "false":
        return False
    raise ConfigError(
        f"environment variable {TF_FORCE_GPU_ALLOW_GROWTH} must be exactly "
        f"'true' or 'false' (TensorFlow accepts nothing else), got {text!r}")


def options_from_env(environ=None, *, skip=()):
    """Returns the validated session options the environment asks for.

    Reads the ``TF1MEM_*`` variables in :data:`ENV_VARS` and TensorFlow's
    ``TF_FORCE_GPU_ALLOW_GROWTH`` (as ``allow_growth``). Empty variables count as
    unset.

    Args:
      environ: a mapping to read instead of ``os.environ``.
      skip: option names not to read (given some other way, e.g. a flag): their
        variables are not parsed, so a bad value there is not an error. TensorFlow
        applies ``TF_FORCE_GPU_ALLOW_GROWTH`` below Python whatever is skipped, so
        it is always read.

    Returns:
      A dict of option name to validated value, holding only the options found.

    Raises:
      ConfigError: a variable holds an invalid value (the message names it), or
        ``TF1MEM_ALLOW_GROWTH`` and ``TF_FORCE_GPU_ALLOW_GROWTH`` disagree.
    """
    if environ is None:
        environ = os.environ
    elif not isinstance(environ, Mapping):
        raise ConfigError(
            f"environ must be a mapping of variable names to strings, got "
            f"{type(environ).__name__}")
    found = {}
    for option in OPTIONS:
        text = environ.get(option.env_var, "")
        if option.name in skip or text.strip() == "":
            continue
        found[option.name] = option.parse(text, f"environment variable {option.env_var}")
    forced = read_tf_force_allow_growth(environ)
    if forced is not None:
        if found.get("allow_growth", forced) != forced:
            variable = ENV_VARS["allow_growth"]
            raise ConfigError(
                f"environment variables {variable}={environ[variable]!r} and "
                f"{TF_FORCE_GPU_ALLOW_GROWTH}={environ[TF_FORCE_GPU_ALLOW_GROWTH]!r} "
                f"disagree; TensorFlow would apply {TF_FORCE_GPU_ALLOW_GROWTH}. "
                f"Unset one of them")
        if "allow_growth" not in skip:
            found["allow_growth"] = forced
    return found


def resolve_options(explicit=None, *, use_env=True, environ=None):
    """Combines explicit options with the environment's; explicit ones win.

    A variable whose option is given explicitly is not read at all, so a bad value
    in it is no error (the flag that overrides it is what counts).

    Args:
      explicit: a :class:`SessionOptions` or mapping (e.g. from the command line);
        its set options beat the environment's.
      use_env: whether to read the environment at all.
      environ: a mapping to read instead of ``os.environ``.

    Returns:
      A :class:`SessionOptions`.

    Raises:
      ConfigError: an invalid option or environment variable.
    """
    explicit = as_options(explicit, "explicit")
    if not use_env:
        return explicit
    given = explicit.as_dict()
    return SessionOptions(**options_from_env(environ, skip=given)).overridden_by(explicit)


# --------------------------------------------------------------------------------
# Command line


def _flag_type(option):
    """Returns an argparse ``type=`` that validates with the option's rules."""

    def parse(text):
        try:
            # argparse prefixes "argument --flag: ", so the label is just "value".
            return option.parse(text, "value")
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = option.name  # argparse names the type in some messages
    return parse


def add_argparse_flags(parser, *, defaults=None):
    """Adds the session-config flags to an ``argparse`` parser.

    Flags (destinations are the :data:`OPTION_NAMES`; unset flags are ``None``):
    a boolean option is ``--[no-]FLAG``, the others take a value. Bad values make
    argparse exit with status 2 and a message naming the flag.

    Args:
      parser: an ``argparse.ArgumentParser``.
      defaults: a mapping of option name to what the command does while the flag
        and its variable are unset, shown in the flag's help as its default (the
        flag's value stays ``None``: the command applies its default itself).

    Returns:
      The argument group the flags were added to.
    """
    if not isinstance(parser, argparse.ArgumentParser):
        raise ConfigError(
            f"parser must be an argparse.ArgumentParser, got {type(parser).__name__}")
    defaults = dict(defaults or {})
    check_names(defaults)
    group = parser.add_argument_group(
        "session config",
        "GPU memory and placement options for every session; they beat the "
        "TF1MEM_* environment variables.")
    for option in OPTIONS:
        help_text = (f"{option.help} (default: {defaults[option.name]}; env {option.env_var})"
                     if option.name in defaults else f"{option.help} (env {option.env_var})")
        if option.kind.metavar is None:
            group.add_argument(option.flag, dest=option.name,
                               action=argparse.BooleanOptionalAction, default=None,
                               help=help_text)
        else:
            group.add_argument(option.flag, dest=option.name, type=_flag_type(option),
                               default=None, metavar=option.kind.metavar, help=help_text)
    return group


def options_from_args(namespace):
    """Returns the :class:`SessionOptions` given on the command line.

    Args:
      namespace: an ``argparse.Namespace`` from a parser that
        :func:`add_argparse_flags` was applied to; missing attributes count as
        unset.

    Returns:
      A :class:`SessionOptions` (environment variables not included; see
      :func:`resolve_options`).

    Raises:
      ConfigError: a value is invalid (the message names the flag).
    """
    values = {}
    for option in OPTIONS:
        value = getattr(namespace, option.name, None)
        if value is not None:
            values[option.name] = option.check(value, option.flag)
    return SessionOptions(**values)
