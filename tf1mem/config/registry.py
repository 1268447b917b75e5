"""The GPU options in force for the process, and the warning for those ignored.

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

import os
import sys
import threading
import warnings

from tf1mem.config import proto
from tf1mem.config.options import ENV_VARS, GPU_OPTION_NAMES, read_tf_force_allow_growth
from tf1mem.errors import ConfigError

__all__ = [
    "GpuOptionsIgnoredWarning",
    "eager_devices_initialized",
    "gpu_memory_limit",
    "note_session_config",
    "note_session_devices",
    "reset_registry",
]


class GpuOptionsIgnoredWarning(UserWarning):
    """A session asked for GPU options that TensorFlow will silently ignore."""


class _Registry:
    """What the first session (or the eager runtime) fixed for the process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.in_force = None  # dict of GPU option name -> value, once known
        self.source = None  # "the first session" or "TensorFlow's eager runtime"
        self.warned = set()
        self.gpu_limits = None  # {"GPU:0": bytes} from the session that created them


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
        return _gpu_values(proto.config_proto_class()().gpu_options)


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
        config = proto.config_proto_class()()
    proto.check_config(config, "config")
    if environ is None:
        environ = os.environ
    try:
        forced = read_tf_force_allow_growth(environ)
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
            name for name in GPU_OPTION_NAMES
            if requested[name]  # set explicitly (non-default)
            and requested[name] != in_force[name]
            and not (name == "allow_growth" and forced is not None))
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
        stacklevel=_caller_stacklevel())
    return differing


def _caller_stacklevel():
    """The warnings stacklevel of the first frame outside tf1mem and TensorFlow.

    Sessions are often created deep inside TF (MonitoredTrainingSession) or through
    tf1mem's session hook; the warning should point at the user's line.
    """
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    skip = (package + os.sep,)
    tf_module = sys.modules.get("tensorflow")
    if tf_module is not None and getattr(tf_module, "__file__", None):
        skip += (os.path.dirname(os.path.abspath(tf_module.__file__)) + os.sep,)
    frame, level = sys._getframe(2), 2  # 1 is note_session_config's own frame
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(skip):
        frame, level = frame.f_back, level + 1
    return level if frame is not None else 2


def note_session_devices(session):
    """Records the GPU memory limits of the session that created the GPU devices.

    Called by tf1mem's session hook after each local session is created. The first
    session in the process creates the GPU devices and their allocators (unless an
    eager op did before it); its ``list_devices()`` report each allocator's limit
    (``memory_limit_bytes``, after ``per_process_gpu_memory_fraction``). Later
    sessions' devices share those allocators but report limits computed afresh, so
    only the first is kept. Nothing is recorded for a remote session (``target``
    set) or where the eager runtime created the devices.
    """
    if getattr(session, "sess_str", "") or eager_devices_initialized_first():
        return
    with _REGISTRY.lock:
        if _REGISTRY.gpu_limits is not None:
            return
        try:
            devices = session.list_devices()
        except Exception:  # pylint: disable=broad-except
            return  # the limit stays unknown (BytesLimit says so); the session works
        _REGISTRY.gpu_limits = {_short(d.name): int(d.memory_limit_bytes)
                                for d in devices if d.device_type.upper() == "GPU"}


def eager_devices_initialized_first():
    """Whether TensorFlow's eager runtime, not a session, created the devices."""
    with _REGISTRY.lock:
        source = _REGISTRY.source
    if source is not None:
        return source.startswith("TensorFlow's eager runtime")
    return bool(eager_devices_initialized())


def gpu_memory_limit(device):
    """The bytes the allocator of GPU ``device`` ("GPU:0") may hand out, or None.

    The limit recorded by :func:`note_session_devices`; where the eager runtime
    created the devices, its own device list's (the device that created the
    allocator reports its limit). None where neither is known.
    """
    with _REGISTRY.lock:
        limits = _REGISTRY.gpu_limits
    if limits is not None:
        return limits.get(device)
    if not eager_devices_initialized_first():
        return None
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.client import pywrap_tf_session
    from tensorflow.python.eager import context

    devices = pywrap_tfe.TFE_ContextListDevices(context.context()._context_handle)
    try:
        for i in range(pywrap_tf_session.TF_DeviceListCount(devices)):
            if _short(pywrap_tf_session.TF_DeviceListName(devices, i)) == device:
                return int(pywrap_tf_session.TF_DeviceListMemoryBytes(devices, i))
    finally:
        pywrap_tfe.TF_DeleteDeviceList(devices)
    return None


def _short(name):
    """``"/job:localhost/replica:0/task:0/device:GPU:0"`` -> ``"GPU:0"``."""
    return name.rsplit("device:", 1)[-1]


def reset_registry():
    """Forgets the recorded GPU options, warnings given and the GPU-presence cache.

    For tests: TensorFlow itself cannot forget the devices it created.
    """
    with _REGISTRY.lock:
        _REGISTRY.in_force = None
        _REGISTRY.source = None
        _REGISTRY.warned.clear()
        _REGISTRY.gpu_limits = None
    proto.gpu_available.cache_clear()
