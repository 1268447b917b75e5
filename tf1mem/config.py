"""Session configs for GPU memory: build, validate, merge, describe, and warn.

This module owns everything about the ``tf.compat.v1.ConfigProto`` that tf1mem's
commands (``tf1mem.train``, ``tf1mem.run``, ``tf1mem.cluster``) give to sessions:

- :class:`SessionOptions`: a frozen, validated set of options; ``None`` in a field
  means "not set". Commands parse their flags into one of these once and pass it
  down.
- :func:`session_config`: a ``ConfigProto`` from keyword options and environment
  variables.
- :func:`options_from_env`: the validated options the environment asks for.
- :func:`merge_config`: a new ``ConfigProto`` with options applied onto a script's
  own config; the script's explicit values win unless ``force=True``.
- :func:`describe_config`: one line per option, saying what is in force and what
  has no effect (GPU options on a machine without a GPU).
- :func:`note_session_config`: a process-wide registry that warns
  (:class:`GpuOptionsIgnoredWarning`) when a session asks for GPU options that
  TensorFlow will silently ignore because GPU devices already exist.
- :func:`add_argparse_flags` / :func:`options_from_args`: the command-line flags.

Options, flags and environment variables
========================================

Each option is a ``ConfigProto`` field (GPU ones under ``gpu_options``), a flag of
every tf1mem command, and an environment variable:

- ``allow_growth`` (GPU): ``--[no-]allow-growth``, ``TF1MEM_ALLOW_GROWTH``
- ``per_process_gpu_memory_fraction`` (GPU): ``--gpu-memory-fraction F``,
  ``TF1MEM_GPU_MEMORY_FRACTION``
- ``visible_device_list`` (GPU): ``--visible-devices LIST``,
  ``TF1MEM_VISIBLE_DEVICES``
- ``log_device_placement``: ``--[no-]log-device-placement``,
  ``TF1MEM_LOG_DEVICE_PLACEMENT``
- ``allow_soft_placement``: ``--[no-]allow-soft-placement``,
  ``TF1MEM_ALLOW_SOFT_PLACEMENT``
- ``inter_op_parallelism_threads``: ``--inter-op-threads N``,
  ``TF1MEM_INTER_OP_THREADS``
- ``intra_op_parallelism_threads``: ``--intra-op-threads N``,
  ``TF1MEM_INTRA_OP_THREADS``

The flags' argparse destinations are the option names; an absent flag is ``None``.

Accepted values: booleans are ``True``/``False`` in Python (nothing else); in
environment variables ``1/0/true/false/yes/no/on/off`` in any case. The memory
fraction is a finite real number in (0, 1]. A device list is a string such as
``"0,1"`` or a sequence of distinct non-negative ints; it indexes the GPUs that
``CUDA_VISIBLE_DEVICES`` leaves visible. Thread counts are non-negative ints (0 lets
TensorFlow choose). An empty environment variable counts as unset.

TensorFlow's own ``TF_FORCE_GPU_ALLOW_GROWTH`` (``true`` or ``false``, exactly, as
TensorFlow's C++ reads it) is honoured too: TensorFlow applies it to every session
whatever the config says, so tf1mem reads it as ``allow_growth`` and
:func:`describe_config` reports it. Any other value is a :class:`ConfigError`
(TensorFlow itself would log an error and ignore it). If it and
``TF1MEM_ALLOW_GROWTH`` disagree, that is a :class:`ConfigError` too.

Precedence
==========

For :func:`session_config`: an explicit keyword argument beats the environment,
which beats TensorFlow's default. Passing ``None`` explicitly means "leave this
option at TensorFlow's default even if the environment sets it". The one exception
is ``TF_FORCE_GPU_ALLOW_GROWTH``, which TensorFlow applies below Python; an explicit
``allow_growth`` that disagrees with it has no effect, and :func:`describe_config`
says so.

For :func:`merge_config`: a field that the script's config sets explicitly wins over
the options, unless ``force=True``.

"Explicitly set" in a proto3 ``ConfigProto``
============================================

The fields used here are proto3 scalars without presence: ``HasField`` is not
available for them, and a field holding its default (``False``, ``0``, ``""``) is
indistinguishable from one never assigned. tf1mem therefore treats a field as
explicitly set exactly when it holds a non-default value: ``allow_growth=True``,
``per_process_gpu_memory_fraction > 0`` (0 means "unset", i.e. TensorFlow's own
default of nearly all memory), a non-empty ``visible_device_list``, a non-zero
thread count. A script that writes ``allow_growth = False`` is thus seen as not
setting it, and ``merge_config`` may apply ``allow_growth=True`` over it; that is the
only reading the proto allows. Conversely, the options a config receives from tf1mem
are only written when given, so a config from :func:`session_config` carries
exactly the non-default options asked for.

Why the GPU-options warning
===========================

TensorFlow creates GPU devices, and their allocators, once per process: at the
first session or the first eager op. The GPU options (``allow_growth``,
``per_process_gpu_memory_fraction``, ``visible_device_list``) of every later config
are silently ignored. :func:`note_session_config` (called by tf1mem's session hook
for every session) remembers what the first session asked for and warns once for
each distinct later request that differs. It also notices when TensorFlow's eager
runtime created devices before any session; it checks
``tensorflow.python.eager.context.context_safe()._initialized`` (private; TF 2.21
has no public query, and the public ``tf.config`` setters that raise "cannot be
modified after being initialized" would change state to find out). It never creates
devices itself.
"""

import argparse
import dataclasses
import functools
import math
import numbers
import os
import sys
import threading
import warnings
from collections.abc import Mapping
from typing import Optional

from tf1mem.errors import ConfigError

__all__ = [
    "UNSET",
    "OPTION_NAMES",
    "GPU_OPTION_NAMES",
    "ENV_VARS",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "SessionOptions",
    "GpuOptionsIgnoredWarning",
    "session_config",
    "options_from_env",
    "resolve_options",
    "merge_config",
    "explicit_options",
    "describe_config",
    "gpu_available",
    "eager_devices_initialized",
    "note_session_config",
    "reset_registry",
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

# Order matters: it is the order of describe_config()'s lines and of the flags.
OPTION_NAMES = (
    "allow_growth",
    "per_process_gpu_memory_fraction",
    "visible_device_list",
    "log_device_placement",
    "allow_soft_placement",
    "inter_op_parallelism_threads",
    "intra_op_parallelism_threads",
)

# Options that live in ConfigProto.gpu_options and are fixed at the first session.
GPU_OPTION_NAMES = (
    "allow_growth",
    "per_process_gpu_memory_fraction",
    "visible_device_list",
)

ENV_VARS = {
    "allow_growth": "TF1MEM_ALLOW_GROWTH",
    "per_process_gpu_memory_fraction": "TF1MEM_GPU_MEMORY_FRACTION",
    "visible_device_list": "TF1MEM_VISIBLE_DEVICES",
    "log_device_placement": "TF1MEM_LOG_DEVICE_PLACEMENT",
    "allow_soft_placement": "TF1MEM_ALLOW_SOFT_PLACEMENT",
    "inter_op_parallelism_threads": "TF1MEM_INTER_OP_THREADS",
    "intra_op_parallelism_threads": "TF1MEM_INTRA_OP_THREADS",
}

TF_FORCE_GPU_ALLOW_GROWTH = "TF_FORCE_GPU_ALLOW_GROWTH"

_FLAGS = {
    "allow_growth": "--allow-growth",
    "per_process_gpu_memory_fraction": "--gpu-memory-fraction",
    "visible_device_list": "--visible-devices",
    "log_device_placement": "--log-device-placement",
    "allow_soft_placement": "--allow-soft-placement",
    "inter_op_parallelism_threads": "--inter-op-threads",
    "intra_op_parallelism_threads": "--intra-op-threads",
}

_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class GpuOptionsIgnoredWarning(UserWarning):
    """A session asked for GPU options that TensorFlow will silently ignore."""


# --------------------------------------------------------------------------------
# Validation. Each checker takes the value and a label for messages (an option
# name, a flag, or "environment variable X") and returns the normalized value.


def _check_bool(value, label):
    if not isinstance(value, bool):
        raise ConfigError(
            f"{label} must be True or False, got {value!r} "
            f"({type(value).__name__})"
        )
    return value


def _check_fraction(value, label):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ConfigError(
            f"{label} must be a real number in (0, 1], got {value!r} "
            f"({type(value).__name__})"
        )
    fraction = float(value)
    if not math.isfinite(fraction) or not 0.0 < fraction <= 1.0:
        raise ConfigError(
            f"{label} must be a real number in (0, 1] (the share of each GPU's "
            f"memory to reserve), got {value!r}"
        )
    return fraction


def _check_device_index(item, label, value):
    if isinstance(item, bool) or not isinstance(item, numbers.Integral) or item < 0:
        raise ConfigError(
            f"{label} must be a string like '0,1' or a sequence of distinct "
            f"non-negative ints, got {value!r} (bad entry {item!r})"
        )
    return int(item)


def _check_device_list(value, label):
    if isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isdigit() and part.isascii() for part in parts):
            raise ConfigError(
                f"{label} must be a string like '0,1' (comma-separated "
                f"non-negative GPU indices) or a sequence of ints, got {value!r}; "
                f"omit it to leave all GPUs visible"
            )
        indices = [int(part) for part in parts]
    elif isinstance(value, (list, tuple, range)):
        if not value:
            raise ConfigError(
                f"{label} must name at least one GPU, got {value!r}; omit it to "
                f"leave all GPUs visible"
            )
        indices = [_check_device_index(item, label, value) for item in value]
    else:
        raise ConfigError(
            f"{label} must be a string like '0,1' or a sequence of distinct "
            f"non-negative ints, got {value!r} ({type(value).__name__})"
        )
    if len(set(indices)) != len(indices):
        raise ConfigError(
            f"{label} must not name a GPU twice, got {value!r}"
        )
    return ",".join(str(index) for index in indices)


def _check_threads(value, label):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ConfigError(
            f"{label} must be a non-negative int (0 lets TensorFlow choose), "
            f"got {value!r}"
        )
    return int(value)


_CHECKERS = {
    "allow_growth": _check_bool,
    "per_process_gpu_memory_fraction": _check_fraction,
    "visible_device_list": _check_device_list,
    "log_device_placement": _check_bool,
    "allow_soft_placement": _check_bool,
    "inter_op_parallelism_threads": _check_threads,
    "intra_op_parallelism_threads": _check_threads,
}


# Parsers of text (environment variables, flags) into Python values, before the
# checkers above. Each raises ConfigError naming the label.


def _parse_bool_text(text, label):
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ConfigError(
        f"{label} must be one of 1/0/true/false/yes/no/on/off, got {text!r}"
    )


def _parse_fraction_text(text, label):
    try:
        number = float(text.strip())
    except ValueError:
        raise ConfigError(
            f"{label} must be a number in (0, 1], got {text!r}"
        ) from None
    try:
        return _check_fraction(number, label)
    except ConfigError:
        raise ConfigError(
            f"{label} must be a number in (0, 1] (the share of each GPU's memory "
            f"to reserve), got {text!r}"
        ) from None


def _parse_threads_text(text, label):
    try:
        number = int(text.strip())
    except ValueError:
        raise ConfigError(
            f"{label} must be a non-negative int (0 lets TensorFlow choose), "
            f"got {text!r}"
        ) from None
    try:
        return _check_threads(number, label)
    except ConfigError:
        raise ConfigError(
            f"{label} must be a non-negative int (0 lets TensorFlow choose), "
            f"got {text!r}"
        ) from None


_TEXT_PARSERS = {
    "allow_growth": _parse_bool_text,
    "per_process_gpu_memory_fraction": _parse_fraction_text,
    "visible_device_list": _check_device_list,
    "log_device_placement": _parse_bool_text,
    "allow_soft_placement": _parse_bool_text,
    "inter_op_parallelism_threads": _parse_threads_text,
    "intra_op_parallelism_threads": _parse_threads_text,
}


# --------------------------------------------------------------------------------
# SessionOptions


@dataclasses.dataclass(frozen=True)
class SessionOptions:
    """Validated session options; ``None`` in a field means "not set".

    Values are validated and normalized on construction: the fraction becomes a
    ``float``, a device list becomes a string such as ``"0,1"``, thread counts
    become ``int``. Invalid values raise :class:`ConfigError` naming the field.

    Attributes:
      allow_growth: ``GPUOptions.allow_growth``: allocate GPU memory as needed
        instead of nearly all of it at the first session.
      per_process_gpu_memory_fraction: ``GPUOptions.per_process_gpu_memory_fraction``,
        in (0, 1].
      visible_device_list: ``GPUOptions.visible_device_list``, e.g. ``"0,1"``.
      log_device_placement: ``ConfigProto.log_device_placement``.
      allow_soft_placement: ``ConfigProto.allow_soft_placement``.
      inter_op_parallelism_threads: ``ConfigProto.inter_op_parallelism_threads``.
      intra_op_parallelism_threads: ``ConfigProto.intra_op_parallelism_threads``.
    """

    allow_growth: Optional[bool] = None
    per_process_gpu_memory_fraction: Optional[float] = None
    visible_device_list: Optional[str] = None
    log_device_placement: Optional[bool] = None
    allow_soft_placement: Optional[bool] = None
    inter_op_parallelism_threads: Optional[int] = None
    intra_op_parallelism_threads: Optional[int] = None

    def __post_init__(self):
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _CHECKERS[name](value, name))

    @classmethod
    def from_mapping(cls, options):
        """Builds options from a mapping of option name to value.

        Args:
          options: a mapping whose keys are in :data:`OPTION_NAMES`; ``None``
            values mean "not set".

        Returns:
          A :class:`SessionOptions`.

        Raises:
          ConfigError: an unknown key or an invalid value.
        """
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise ConfigError(
                f"unknown session option(s) {', '.join(unknown)}; known options "
                f"are {', '.join(OPTION_NAMES)}"
            )
        return cls(**options)

    def as_dict(self):
        """Returns ``{name: value}`` for the options that are set."""
        return {
            name: getattr(self, name)
            for name in OPTION_NAMES
            if getattr(self, name) is not None
        }

    def overridden_by(self, other):
        """Returns these options with every option ``other`` sets replaced.

        Args:
          other: a :class:`SessionOptions` whose set options win.
        """
        return dataclasses.replace(self, **other.as_dict())

    def to_config(self):
        """Returns a new ``tf.compat.v1.ConfigProto`` with the set options."""
        return merge_config(None, self)


def _as_options(options, label="options"):
    if options is None:
        return SessionOptions()
    if isinstance(options, SessionOptions):
        return options
    if isinstance(options, Mapping):
        return SessionOptions.from_mapping(options)
    raise ConfigError(
        f"{label} must be a SessionOptions, a mapping of option names to values, "
        f"or None, got {options!r} ({type(options).__name__})"
    )


# --------------------------------------------------------------------------------
# Environment


def _read_tf_force_allow_growth(environ):
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
        f"'true' or 'false' (TensorFlow accepts nothing else), got {text!r}"
    )


def options_from_env(environ=None):
    """Returns the validated session options the environment asks for.

    Reads the ``TF1MEM_*`` variables in :data:`ENV_VARS` and TensorFlow's
    ``TF_FORCE_GPU_ALLOW_GROWTH`` (as ``allow_growth``). Empty variables count as
    unset.

    Args:
      environ: a mapping to read instead of ``os.environ``.

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
            f"{type(environ).__name__}"
        )
    found = {}
    for name in OPTION_NAMES:
        variable = ENV_VARS[name]
        text = environ.get(variable, "")
        if text.strip() == "":
            continue
        found[name] = _TEXT_PARSERS[name](text, f"environment variable {variable}")
    forced = _read_tf_force_allow_growth(environ)
    if forced is not None:
        if found.get("allow_growth", forced) != forced:
            raise ConfigError(
                f"environment variables {ENV_VARS['allow_growth']}="
                f"{environ[ENV_VARS['allow_growth']]!r} and "
                f"{TF_FORCE_GPU_ALLOW_GROWTH}={environ[TF_FORCE_GPU_ALLOW_GROWTH]!r} "
                f"disagree; TensorFlow would apply {TF_FORCE_GPU_ALLOW_GROWTH}. "
                f"Unset one of them"
            )
        found["allow_growth"] = forced
    return found


def resolve_options(explicit=None, *, use_env=True, environ=None):
    """Combines explicit options with the environment's; explicit ones win.

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
    explicit = _as_options(explicit, "explicit")
    if not use_env:
        return explicit
    return SessionOptions(**options_from_env(environ)).overridden_by(explicit)


def session_config(
    *,
    allow_growth=UNSET,
    per_process_gpu_memory_fraction=UNSET,
    log_device_placement=UNSET,
    allow_soft_placement=UNSET,
    visible_device_list=UNSET,
    inter_op_parallelism_threads=UNSET,
    intra_op_parallelism_threads=UNSET,
    use_env=True,
    environ=None,
):
    """Returns a new ``tf.compat.v1.ConfigProto`` with only the options asked for.

    Each option left out is taken from the environment (when ``use_env``) or else
    left at TensorFlow's default; passing ``None`` leaves it at the default even
    if the environment sets it. See the module docstring for accepted values.

    Args:
      allow_growth: bool, ``gpu_options.allow_growth``.
      per_process_gpu_memory_fraction: real in (0, 1].
      log_device_placement: bool.
      allow_soft_placement: bool.
      visible_device_list: str like ``"0,1"`` or a sequence of ints.
      inter_op_parallelism_threads: int >= 0.
      intra_op_parallelism_threads: int >= 0.
      use_env: whether ``TF1MEM_*`` and ``TF_FORCE_GPU_ALLOW_GROWTH`` are read.
      environ: a mapping to read instead of ``os.environ``.

    Returns:
      A ``tf.compat.v1.ConfigProto``.

    Raises:
      ConfigError: an invalid value, naming the option or environment variable.
    """
    given = {
        "allow_growth": allow_growth,
        "per_process_gpu_memory_fraction": per_process_gpu_memory_fraction,
        "visible_device_list": visible_device_list,
        "log_device_placement": log_device_placement,
        "allow_soft_placement": allow_soft_placement,
        "inter_op_parallelism_threads": inter_op_parallelism_threads,
        "intra_op_parallelism_threads": intra_op_parallelism_threads,
    }
    _check_bool(use_env, "use_env")
    passed = {name: value for name, value in given.items() if value is not UNSET}
    # Validate explicit values first, so a bad argument is reported even when the
    # environment is bad too.
    explicit = SessionOptions(**passed)
    env = options_from_env(environ) if use_env else {}
    for name in passed:
        env.pop(name, None)  # explicit, including an explicit None, wins
    return SessionOptions(**env).overridden_by(explicit).to_config()


# --------------------------------------------------------------------------------
# Reading and merging protos


def _config_proto_class():
    import tensorflow as tf  # pylint: disable=g-import-not-at-top

    return tf.compat.v1.ConfigProto


def _check_config(config, label):
    proto_class = _config_proto_class()
    if not isinstance(config, proto_class):
        raise ConfigError(
            f"{label} must be a tf.compat.v1.ConfigProto, got {config!r} "
            f"({type(config).__name__})"
        )
    return config


def _get_field(config, name):
    if name in GPU_OPTION_NAMES:
        return getattr(config.gpu_options, name)
    return getattr(config, name)


def _set_field(config, name, value):
    if name in GPU_OPTION_NAMES:
        setattr(config.gpu_options, name, value)
    else:
        setattr(config, name, value)


def explicit_options(config):
    """Returns the options a ``ConfigProto`` sets explicitly.

    A proto3 scalar counts as set when it holds a non-default value (see the
    module docstring): ``allow_growth=False`` reads as unset.

    Args:
      config: a ``tf.compat.v1.ConfigProto``.

    Returns:
      A dict of option name to value, only for the options set.
    """
    _check_config(config, "config")
    found = {}
    for name in OPTION_NAMES:
        value = _get_field(config, name)
        if value:  # False, 0, 0.0 and "" are the proto3 defaults
            found[name] = value
    return found


def merge_config(base, options=None, *, force=False, **option_kwargs):
    """Returns a new ``ConfigProto``: ``base`` with the options applied.

    The caller's ``base`` is never modified. A field ``base`` sets explicitly
    (holds a non-default value) keeps its value unless ``force`` is true; this is
    the runner's "the script's own value wins unless --force-config" rule::

        config = merge_config(script_config_or_none, options, force=force_config)

    Args:
      base: a ``tf.compat.v1.ConfigProto``, or ``None`` for an empty one.
      options: a :class:`SessionOptions` or mapping of option names to values;
        ``None`` values are not applied.
      force: whether the options beat the values ``base`` sets.
      **option_kwargs: more options by name; they beat those in ``options``.

    Returns:
      A new ``tf.compat.v1.ConfigProto``.

    Raises:
      ConfigError: ``base`` is not a ConfigProto, or an option is invalid.
    """
    proto_class = _config_proto_class()
    if base is not None:
        _check_config(base, "base")
    _check_bool(force, "force")
    merged_options = _as_options(options).overridden_by(
        SessionOptions.from_mapping(option_kwargs)
    )
    merged = proto_class()
    if base is not None:
        merged.CopyFrom(base)
        base_set = explicit_options(base)
    else:
        base_set = {}
    for name, value in merged_options.as_dict().items():
        if name in base_set and not force:
            continue
        _set_field(merged, name, value)
    return merged


# --------------------------------------------------------------------------------
# Describing


@functools.lru_cache(maxsize=1)
def gpu_available():
    """Returns whether TensorFlow sees a GPU; cached for the process.

    Uses ``tf.config.list_physical_devices('GPU')``, which enumerates physical
    devices only: in TF 2.21 it does not initialize the eager context or create
    logical devices, so GPU options given later still take effect.
    """
    import tensorflow as tf  # pylint: disable=g-import-not-at-top

    return bool(tf.config.list_physical_devices("GPU"))


_DEFAULT_NOTES = {
    "allow_growth": "TensorFlow reserves nearly all GPU memory at the first session",
    "per_process_gpu_memory_fraction": "no limit; see allow_growth",
    "visible_device_list": "all GPUs in CUDA_VISIBLE_DEVICES",
    "log_device_placement": "placements are not logged",
    "allow_soft_placement": "an op on an unavailable device is an error",
    "inter_op_parallelism_threads": "TensorFlow chooses",
    "intra_op_parallelism_threads": "TensorFlow chooses",
}


def describe_config(config, *, environ=None, gpu_present=None):
    """Describes, one line per option, what a ``ConfigProto`` puts in force.

    Args:
      config: a ``tf.compat.v1.ConfigProto``, or ``None`` for TensorFlow's
        defaults.
      environ: a mapping to read ``TF_FORCE_GPU_ALLOW_GROWTH`` from instead of
        ``os.environ``.
      gpu_present: whether a GPU is visible; ``None`` asks :func:`gpu_available`.

    Returns:
      A list of str, one per option in :data:`OPTION_NAMES` order, e.g.
      ``"allow_growth: True (no GPU visible: has no effect)"``.

    Raises:
      ConfigError: ``config`` is not a ConfigProto, or
        ``TF_FORCE_GPU_ALLOW_GROWTH`` is invalid.
    """
    if config is None:
        config = _config_proto_class()()
    set_options = explicit_options(config)
    if environ is None:
        environ = os.environ
    forced = _read_tf_force_allow_growth(environ)
    if gpu_present is None:
        gpu_present = gpu_available()
    lines = []
    for name in OPTION_NAMES:
        value = _get_field(config, name)
        notes = []
        if name == "allow_growth" and forced is not None:
            if forced != bool(value):
                notes.append(
                    f"forced to {forced} by {TF_FORCE_GPU_ALLOW_GROWTH}="
                    f"{environ[TF_FORCE_GPU_ALLOW_GROWTH]!r}; TensorFlow overrides "
                    f"the config's {bool(value)}"
                )
            else:
                notes.append(f"also forced by {TF_FORCE_GPU_ALLOW_GROWTH}")
            value = forced
        elif name not in set_options:
            notes.append(f"default: {_DEFAULT_NOTES[name]}")
        if name in GPU_OPTION_NAMES and not gpu_present and (
            name in set_options or (name == "allow_growth" and forced)
        ):
            notes.append("no GPU visible: has no effect")
        shown = repr(value) if isinstance(value, str) else str(value)
        lines.append(f"{name}: {shown}" + (f" ({'; '.join(notes)})" if notes else ""))
    return lines


# --------------------------------------------------------------------------------
# Registry of the GPU options in force


class _Registry:
    """What the first session (or the eager runtime) fixed for the process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.in_force = None  # dict of GPU option name -> value, once known
        self.source = None  # "the first session" or "TensorFlow's eager runtime"
        self.warned = set()


_REGISTRY = _Registry()


def eager_devices_initialized():
    """Returns whether TensorFlow's eager runtime has already created devices.

    Never imports TensorFlow or creates devices to find out: if TensorFlow's eager
    context module was never imported, or no context object exists, the answer is
    ``False``.

    Returns:
      ``True`` or ``False``; ``None`` if this TensorFlow does not expose the
      (private) ``Context._initialized`` flag checked here.
    """
    context_module = sys.modules.get("tensorflow.python.eager.context")
    if context_module is None:
        return False
    context_safe = getattr(context_module, "context_safe", None)
    if context_safe is None:
        return None
    ctx = context_safe()
    if ctx is None:
        return False
    initialized = getattr(ctx, "_initialized", None)
    return None if initialized is None else bool(initialized)


def _gpu_values(gpu_options):
    return {name: getattr(gpu_options, name) for name in GPU_OPTION_NAMES}


def _eager_gpu_values():
    # Only called once the eager context is initialized, so reading its config
    # (which enumerates physical devices) creates nothing new.
    try:
        ctx = sys.modules["tensorflow.python.eager.context"].context_safe()
        return _gpu_values(ctx.config.gpu_options)
    except Exception:  # pylint: disable=broad-except
        # Private API: if it changes, compare against TensorFlow's defaults.
        return _gpu_values(_config_proto_class()().gpu_options)


def _format_gpu_values(values):
    return ", ".join(f"{name}={values[name]!r}" for name in GPU_OPTION_NAMES)


def note_session_config(config, *, environ=None):
    """Records a new session's config; warns if its GPU options will be ignored.

    The first call records the GPU options in force for the process (those of
    this config, or of the eager runtime if it created devices first). Later
    calls compare the GPU options the config sets explicitly with those in force
    and, where they differ, warn once per distinct difference with
    :class:`GpuOptionsIgnoredWarning`. ``allow_growth`` is not compared while
    ``TF_FORCE_GPU_ALLOW_GROWTH`` is set, since TensorFlow applies it to every
    session anyway.

    Args:
      config: the session's ``tf.compat.v1.ConfigProto``, or ``None`` (defaults).
      environ: a mapping to read ``TF_FORCE_GPU_ALLOW_GROWTH`` from instead of
        ``os.environ``.

    Returns:
      A tuple of the names of the GPU options that are ignored; empty if none.
    """
    if config is None:
        config = _config_proto_class()()
    _check_config(config, "config")
    if environ is None:
        environ = os.environ
    try:
        forced = _read_tf_force_allow_growth(environ)
    except ConfigError:
        forced = None  # reported by session_config/describe_config, not here
    requested = _gpu_values(config.gpu_options)
    with _REGISTRY.lock:
        if _REGISTRY.in_force is None:
            if eager_devices_initialized():
                _REGISTRY.in_force = _eager_gpu_values()
                _REGISTRY.source = "TensorFlow's eager runtime (an eager op ran first)"
            else:
                _REGISTRY.in_force = requested
                _REGISTRY.source = "the first session"
                return ()
        in_force = _REGISTRY.in_force
        differing = tuple(
            name
            for name in GPU_OPTION_NAMES
            if requested[name]  # set explicitly (non-default)
            and requested[name] != in_force[name]
            and not (name == "allow_growth" and forced is not None)
        )
        if not differing:
            return ()
        key = tuple((name, requested[name]) for name in differing)
        if key in _REGISTRY.warned:
            return differing
        _REGISTRY.warned.add(key)
        source = _REGISTRY.source
    asked = ", ".join(f"{name}={requested[name]!r}" for name in differing)
    warnings.warn(
        f"TensorFlow ignores this session's GPU options ({asked}): GPU devices are "
        f"created once per process, by {source}, and keep its options "
        f"({_format_gpu_values(in_force)}). Set GPU options before the first "
        f"session or eager op, or with environment variables "
        f"{ENV_VARS['allow_growth']}, {ENV_VARS['per_process_gpu_memory_fraction']} "
        f"and {ENV_VARS['visible_device_list']}.",
        GpuOptionsIgnoredWarning,
        stacklevel=_caller_stacklevel(),
    )
    return differing


def _caller_stacklevel():
    """The warnings stacklevel of the first frame outside tf1mem and TensorFlow.

    Sessions are often created deep inside TF (MonitoredTrainingSession) or through
    tf1mem's session hook; the warning should point at the user's line.
    """
    skip = (os.path.dirname(os.path.abspath(__file__)) + os.sep,)
    tf_module = sys.modules.get("tensorflow")
    if tf_module is not None and getattr(tf_module, "__file__", None):
        skip += (os.path.dirname(os.path.abspath(tf_module.__file__)) + os.sep,)
    frame, level = sys._getframe(2), 2  # 1 is note_session_config's own frame
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(skip):
        frame, level = frame.f_back, level + 1
    return level if frame is not None else 2


def reset_registry():
    """Forgets the recorded GPU options, warnings given and the GPU-presence cache.

    For tests: TensorFlow itself cannot forget the devices it created.
    """
    with _REGISTRY.lock:
        _REGISTRY.in_force = None
        _REGISTRY.source = None
        _REGISTRY.warned.clear()
    gpu_available.cache_clear()


# --------------------------------------------------------------------------------
# Command line


def _flag_type(name):
    """Returns an argparse ``type=`` that validates with the option's rules."""

    def parse(text):
        try:
            # argparse prefixes "argument --flag: ", so the label is just "value".
            return _TEXT_PARSERS[name](text, "value")
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def add_argparse_flags(parser):
    """Adds the session-config flags to an ``argparse`` parser.

    Flags (destinations are the :data:`OPTION_NAMES`; unset flags are ``None``):
    ``--[no-]allow-growth``, ``--gpu-memory-fraction F``, ``--visible-devices
    LIST``, ``--[no-]log-device-placement``, ``--[no-]allow-soft-placement``,
    ``--inter-op-threads N``, ``--intra-op-threads N``. Bad values make argparse
    exit with status 2 and a message naming the flag.

    Args:
      parser: an ``argparse.ArgumentParser``.

    Returns:
      The argument group the flags were added to.
    """
    if not isinstance(parser, argparse.ArgumentParser):
        raise ConfigError(
            f"parser must be an argparse.ArgumentParser, got {type(parser).__name__}"
        )
    group = parser.add_argument_group(
        "session config",
        "GPU memory and placement options for every session; they beat the "
        "TF1MEM_* environment variables.",
    )
    bool_help = {
        "allow_growth": "allocate GPU memory as needed instead of nearly all at once",
        "log_device_placement": "log the device each op is placed on",
        "allow_soft_placement": "move ops to an available device instead of failing",
    }
    for name in OPTION_NAMES:
        flag = _FLAGS[name]
        if name in bool_help:
            group.add_argument(
                flag,
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{bool_help[name]} (env {ENV_VARS[name]})",
            )
    group.add_argument(
        _FLAGS["per_process_gpu_memory_fraction"],
        dest="per_process_gpu_memory_fraction",
        type=_flag_type("per_process_gpu_memory_fraction"),
        default=None,
        metavar="F",
        help="reserve at most this share of each GPU's memory, in (0, 1] "
        f"(env {ENV_VARS['per_process_gpu_memory_fraction']})",
    )
    group.add_argument(
        _FLAGS["visible_device_list"],
        dest="visible_device_list",
        type=_flag_type("visible_device_list"),
        default=None,
        metavar="LIST",
        help="GPUs to use, e.g. 0,1 (indices into CUDA_VISIBLE_DEVICES) "
        f"(env {ENV_VARS['visible_device_list']})",
    )
    for name, which in (
        ("inter_op_parallelism_threads", "inter-op"),
        ("intra_op_parallelism_threads", "intra-op"),
    ):
        group.add_argument(
            _FLAGS[name],
            dest=name,
            type=_flag_type(name),
            default=None,
            metavar="N",
            help=f"{which} thread pool size, 0 lets TensorFlow choose "
            f"(env {ENV_VARS[name]})",
        )
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
    for name in OPTION_NAMES:
        value = getattr(namespace, name, None)
        if value is None:
            continue
        values[name] = _CHECKERS[name](value, _FLAGS[name])
    return SessionOptions(**values)
