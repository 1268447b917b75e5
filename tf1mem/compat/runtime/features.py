"""Features handed to the runtime as objects: what sessions get, and the server guard.

The lifecycle knows them only through one protocol: ``activate(state)``, called once
TensorFlow is imported, appends its undo steps to ``state.undo``. They are built from
the install's options by :func:`tf1mem.compat.runtime.lifecycle.install`; the import
machinery never reads a report path or a server rule itself.
"""

import os

from tf1mem import _net, errors

__all__ = ["SessionFeatures", "ServerGuard"]


class SessionFeatures:
    """Every Session gets tf1mem's config options, is noted for the GPU-options warning
    and, when asked, feeds the placement and memory reports.

    Args:
      session_options: a :class:`tf1mem.config.SessionOptions`, or None.
      force_config: the options override what a script's own ConfigProto sets.
      placement_report: where the placement report goes, or None.
      memory_report: where the per-run memory report goes, or None.
      oom_tensors: every run asks for the live-tensor list on out-of-memory (implied by
        ``memory_report``).
    """

    def __init__(self, session_options=None, *, force_config=False, placement_report=None,
                 memory_report=None, oom_tensors=False):
        self.session_options = session_options
        self.force_config = bool(force_config)
        self.placement_report = placement_report
        self.memory_report = memory_report
        self.oom_tensors = bool(oom_tensors)
        self.hooks = None  # the SessionHooks, once active

    def activate(self, state):
        from tf1mem.compat.runtime import session_hooks

        memory_log = None
        if self.memory_report:
            from tf1mem.observe import run_memory

            memory_log = run_memory.RunMemoryLog(self.memory_report)
        # Always: even with no options, every session is noted, so that GPU options
        # coming too late to take effect are warned about.
        hooks = session_hooks.SessionHooks(
            self.session_options, force=self.force_config,
            placement=bool(self.placement_report), memory_log=memory_log,
            oom_tensors=self.oom_tensors or memory_log is not None)
        hooks.install()
        self.hooks = hooks

        def undo():
            self.hooks = None
            hooks.uninstall()

        state.undo.append(undo)

    def write_placement_report(self, path=None):
        """Writes the placement collected so far; returns the path, or None if none."""
        path = path or self.placement_report
        if not path:
            return None
        if self.hooks is not None:
            self.hooks.write_report(path)
        else:  # a lazy install whose program never imported TensorFlow: no runs
            from tf1mem.observe import placement

            placement.write_report(path, [])
        return path

    def write_memory_report(self, extra=None):
        """``(path, one-line summary)`` of the memory report, or None when none was asked.

        ``extra``: more top-level fields for a JSON report, or None.
        """
        if not self.memory_report:
            return None
        if self.hooks is not None and self.hooks.memory_log is not None:
            log = self.hooks.memory_log
        else:  # a lazy install whose program never imported TensorFlow: no runs
            from tf1mem.observe import run_memory

            log = run_memory.RunMemoryLog()
        log.write(self.memory_report, extra=extra)
        return self.memory_report, log.summary()


class ServerGuard:
    """Checks every ``tf.train.Server`` the process starts, failing closed.

    With ``forbid_reason``, constructing one raises ClusterError(forbid_reason).
    Otherwise, unless ``allow_remote``, the kernel is asked where the sockets that
    appeared while it started listen (:func:`tf1mem._net.check_loopback_only`): off
    loopback, they are shut down and ClusterError is raised at the caller's line.
    """

    def __init__(self, forbid_reason=None, allow_remote=False):
        self.forbid_reason = forbid_reason
        self.allow_remote = bool(allow_remote)

    def activate(self, state):
        from tensorflow.python.training import server_lib

        original = server_lib.Server.__init__
        forbid_reason, allow_remote = self.forbid_reason, self.allow_remote

        def __init__(self, *args, **kwargs):
            if forbid_reason is not None:
                raise errors.ClusterError(forbid_reason)
            before = {fd for _, _, fd in _net.listening_sockets()}
            original(self, *args, **kwargs)
            if allow_remote:
                return
            new = [entry for entry in _net.listening_sockets() if entry[2] not in before]
            why_not = ("tf1mem.run keeps servers on loopback through an LD_PRELOAD bind "
                       "shim, which is missing or did not take effect in this process."
                       if os.environ.get("TF1MEM_LOOPBACK_ONLY") == "1" else
                       "In-process code (tf1mem.legacy(), tf1mem.install(), tf1mem.v1) has "
                       "no bind shim: run the script under python -m tf1mem.run instead.")
            _net.check_loopback_only(new, f"the tf.train.Server at {self.target}", why_not)

        __init__.__wrapped__ = original
        server_lib.Server.__init__ = __init__

        def restore():
            server_lib.Server.__init__ = original

        state.undo.append(restore)
