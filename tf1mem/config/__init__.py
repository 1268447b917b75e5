"""Session configs for GPU memory: build, validate, merge, describe, and warn.

This wing owns everything about the ``tf.compat.v1.ConfigProto`` that tf1mem's
commands (``tf1mem.train``, ``tf1mem.run``, ``tf1mem.cluster``) give to sessions.
Its modules:

- :mod:`tf1mem.config.options`: the table of options, one :class:`Option` record
  each (proto field, environment variable, flag, validator, text parser, help), and
  what derives from it: :class:`SessionOptions` (frozen, validated; ``None`` means
  "not set"), :func:`options_from_env`, :func:`resolve_options`,
  :func:`add_argparse_flags`, :func:`options_from_args`. A new option is one entry.
- :mod:`tf1mem.config.proto`: :func:`session_config` (a ``ConfigProto`` from keyword
  options and environment variables), :func:`merge_config` (options applied onto a
  script's own config; the script's explicit values win unless ``force=True``),
  :func:`explicit_options`, :func:`describe_config` (one line per option, saying
  what is in force and what has no effect, e.g. GPU options without a GPU).
- :mod:`tf1mem.config.affinity`: ``--cpus LIST`` / ``TF1MEM_CPUS``, the CPUs a
  command's process and its children may run on, checked with the kernel.
- :mod:`tf1mem.config.registry`: :func:`note_session_config`, a process-wide record
  that warns (:class:`GpuOptionsIgnoredWarning`) when a session asks for GPU options
  that TensorFlow will silently ignore because GPU devices already exist, and
  (:func:`note_session_devices`, :func:`gpu_memory_limit`) the GPU allocators'
  limits as the session that created them reported them.

Options, flags and environment variables: each option is a ``ConfigProto`` field
(GPU ones under ``gpu_options``), a flag of every tf1mem command and an environment
variable, listed in :data:`OPTIONS`: ``allow_growth`` (``--[no-]allow-growth``,
``TF1MEM_ALLOW_GROWTH``), ``per_process_gpu_memory_fraction``
(``--gpu-memory-fraction F``), ``visible_device_list`` (``--visible-devices LIST``),
``log_device_placement``, ``allow_soft_placement``, ``inter_op_parallelism_threads``
and ``intra_op_parallelism_threads``. The flags' argparse destinations are the
option names; an absent flag is ``None``.

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

Precedence: for :func:`session_config`, an explicit keyword argument beats the
environment, which beats TensorFlow's default (an explicit ``None`` means "leave
this option at TensorFlow's default even if the environment sets it"). A flag beats
its environment variable, which is then not even read. The one exception is
``TF_FORCE_GPU_ALLOW_GROWTH``, which TensorFlow applies below Python; an explicit
``allow_growth`` that disagrees with it has no effect, and :func:`describe_config`
says so. For :func:`merge_config`: a field that the script's config sets explicitly
(see :mod:`tf1mem.config.proto` on proto3 presence) wins over the options, unless
``force=True``.

Nothing here imports TensorFlow until a ``ConfigProto`` is needed.
"""

from tf1mem.config.options import (
    ENV_VARS,
    GPU_OPTION_NAMES,
    OPTION_NAMES,
    OPTIONS,
    TF_FORCE_GPU_ALLOW_GROWTH,
    UNSET,
    Option,
    SessionOptions,
    add_argparse_flags,
    options_from_args,
    options_from_env,
    resolve_options,
)
from tf1mem.config.proto import (
    describe_config,
    explicit_options,
    gpu_available,
    merge_config,
    session_config,
)
from tf1mem.config.registry import (
    GpuOptionsIgnoredWarning,
    eager_devices_initialized,
    gpu_memory_limit,
    note_session_config,
    note_session_devices,
    reset_registry,
)

__all__ = [
    "UNSET",
    "Option",
    "OPTIONS",
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
    "note_session_devices",
    "gpu_memory_limit",
    "reset_registry",
    "add_argparse_flags",
    "options_from_args",
]
