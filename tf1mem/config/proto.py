"""``tf.compat.v1.ConfigProto``: build from options, read back, merge, describe.

"Explicitly set" in a proto3 ``ConfigProto``: the fields used here are proto3
scalars without presence, so a field holding its default (``False``, ``0``, ``""``)
cannot be told from one never assigned. tf1mem treats a field as explicitly set
exactly when it holds a non-default value (``allow_growth=True``, a fraction > 0, a
non-empty device list, a non-zero thread count). A script that writes
``allow_growth = False`` is thus seen as not setting it, and :func:`merge_config` may
apply ``allow_growth=True`` over it; that is the only reading the proto allows.
"""

import functools
import inspect
import os

from tf1mem.config import options as _options
from tf1mem.config.options import (BY_NAME, OPTIONS, OPTION_NAMES, TF_FORCE_GPU_ALLOW_GROWTH,
                                   UNSET, SessionOptions)
from tf1mem.errors import ConfigError

__all__ = [
    "session_config",
    "merge_config",
    "explicit_options",
    "describe_config",
    "gpu_available",
]


def config_proto_class():
    """``tf.compat.v1.ConfigProto`` (imports TensorFlow on first use)."""
    import tensorflow as tf  # pylint: disable=g-import-not-at-top

    return tf.compat.v1.ConfigProto


def check_config(config, label):
    """Returns ``config``; ConfigError naming ``label`` unless it is a ConfigProto."""
    if not isinstance(config, config_proto_class()):
        raise ConfigError(
            f"{label} must be a tf.compat.v1.ConfigProto, got {config!r} "
            f"({type(config).__name__})")
    return config


def session_config(*, use_env=True, environ=None, **options):
    """Returns a new ``tf.compat.v1.ConfigProto`` with only the options asked for.

    Keyword options are :data:`tf1mem.config.OPTION_NAMES` (``allow_growth``,
    ``per_process_gpu_memory_fraction``, ``visible_device_list``,
    ``log_device_placement``, ``allow_soft_placement``,
    ``inter_op_parallelism_threads``, ``intra_op_parallelism_threads``). Each option
    left out is taken from the environment (when ``use_env``) or else left at
    TensorFlow's default; passing ``None`` leaves it at the default even if the
    environment sets it.

    Args:
      use_env: whether ``TF1MEM_*`` and ``TF_FORCE_GPU_ALLOW_GROWTH`` are read.
      environ: a mapping to read instead of ``os.environ``.
      **options: option name to value (see :class:`SessionOptions`).

    Returns:
      A ``tf.compat.v1.ConfigProto``.

    Raises:
      ConfigError: an unknown option or an invalid value, naming the option or
        environment variable.
    """
    _options.check_names(options)
    _options._check_bool(use_env, "use_env")
    passed = {name: value for name, value in options.items() if value is not UNSET}
    # Validate explicit values first, so a bad argument is reported even when the
    # environment is bad too.
    explicit = SessionOptions(**passed)
    env = _options.options_from_env(environ, skip=passed) if use_env else {}
    return SessionOptions(**env).overridden_by(explicit).to_config()


# The keywords are the table's: shown by help() and inspect like real parameters.
session_config.__signature__ = inspect.Signature(
    [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=UNSET)
     for name in OPTION_NAMES]
    + [inspect.Parameter("use_env", inspect.Parameter.KEYWORD_ONLY, default=True),
       inspect.Parameter("environ", inspect.Parameter.KEYWORD_ONLY, default=None)])


def explicit_options(config):
    """Returns the options a ``ConfigProto`` sets explicitly (non-default values).

    Args:
      config: a ``tf.compat.v1.ConfigProto``.

    Returns:
      A dict of option name to value, only for the options set.
    """
    check_config(config, "config")
    found = {}
    for name in OPTION_NAMES:
        value = BY_NAME[name].read(config)
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
    proto_class = config_proto_class()
    if base is not None:
        check_config(base, "base")
    _options._check_bool(force, "force")
    merged_options = _options.as_options(options).overridden_by(
        SessionOptions.from_mapping(option_kwargs))
    merged = proto_class()
    base_set = {}
    if base is not None:
        merged.CopyFrom(base)
        base_set = explicit_options(base)
    for name, value in merged_options.as_dict().items():
        if name in base_set and not force:
            continue
        BY_NAME[name].write(merged, value)
    return merged


@functools.lru_cache(maxsize=1)
def gpu_available():
    """Returns whether TensorFlow sees a GPU; cached for the process.

    Uses ``tf.config.list_physical_devices('GPU')``, which enumerates physical
    devices only: in TF 2.21 it does not initialize the eager context or create
    logical devices, so GPU options given later still take effect.
    """
    import tensorflow as tf  # pylint: disable=g-import-not-at-top

    return bool(tf.config.list_physical_devices("GPU"))


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
        config = config_proto_class()()
    set_options = explicit_options(config)
    if environ is None:
        environ = os.environ
    forced = _options.read_tf_force_allow_growth(environ)
    if gpu_present is None:
        gpu_present = gpu_available()
    lines = []
    for option in OPTIONS:
        name = option.name
        value = option.read(config)
        notes = []
        if name == "allow_growth" and forced is not None:
            if forced != bool(value):
                notes.append(
                    f"forced to {forced} by {TF_FORCE_GPU_ALLOW_GROWTH}="
                    f"{environ[TF_FORCE_GPU_ALLOW_GROWTH]!r}; TensorFlow overrides "
                    f"the config's {bool(value)}")
            else:
                notes.append(f"also forced by {TF_FORCE_GPU_ALLOW_GROWTH}")
            value = forced
        elif name not in set_options:
            notes.append(f"default: {option.default_note}")
        if option.gpu and not gpu_present and (
                name in set_options or (name == "allow_growth" and forced)):
            notes.append("no GPU visible: has no effect")
        shown = repr(value) if isinstance(value, str) else str(value)
        lines.append(f"{name}: {shown}" + (f" ({'; '.join(notes)})" if notes else ""))
    return lines
