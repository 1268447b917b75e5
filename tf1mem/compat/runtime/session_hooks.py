"""Session-config injection and placement collection for sessions we do not create.

:class:`SessionHooks` wraps ``BaseSession.__init__`` and ``BaseSession.run`` (the base
of ``tf.compat.v1.Session``, ``InteractiveSession`` and the sessions that
``MonitoredTrainingSession`` makes), so that every session a legacy script creates

- gets the runner's :class:`tf1mem.config.SessionOptions` merged into its own
  ConfigProto (the script's explicit values win unless ``force``), and is noted in
  :func:`tf1mem.config.note_session_config`, which warns when GPU options come too
  late to take effect;
- optionally reports where each node ran: the first run of each distinct
  (session, fetches, feeds) signature asks TensorFlow for its partition graphs
  (``RunOptions.output_partition_graphs``), whose nodes carry their assigned
  devices. This works where TF's C-level placement log is invisible;
- optionally records memory per run label (``memory_log``, a
  :class:`tf1mem.observe.run_memory.RunMemoryLog`): the first runs of each label are
  traced with ``FULL_TRACE`` and their step stats swept, one run at a time: TensorFlow
  allows one tracing run per process ("Another profiling session active"), so a run made
  while another is traced (a queue runner's enqueue beside the training step) is not
  traced, and its label is traced at a later run;
- notes, on a ``ResourceExhaustedError``, the graph, the batch fed and the
  device's limit, so that :func:`oom_context` can explain it if the script does not
  catch it; with ``oom_tensors`` every run also asks for TensorFlow's live-tensor
  list on out-of-memory (``report_tensor_allocations_upon_oom``). That is not the
  default: TensorFlow then tracks every allocation of every run, which measured
  120-170 us more per step of the article's softmax (about 30 %).

Only :mod:`tf1mem.compat` installs these hooks; :meth:`SessionHooks.uninstall` puts
the original methods back.
"""

import itertools
import threading
import weakref

from tf1mem import config

__all__ = ["SessionHooks", "oom_context"]

_OOM_ATTR = "_tf1mem_oom_context"


def oom_context(exc):
    """``(exc, graph, batch_size, limit)`` of the first out-of-memory error in
    ``exc``'s chain (cause, context), or None; graph, batch and limit are None
    where no hooked run noted them."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if type(exc).__name__ == "ResourceExhaustedError":
            noted = getattr(exc, _OOM_ATTR, None)
            if noted is not None:
                return (exc, *noted)
            graph = getattr(getattr(exc, "op", None), "graph", None)
            return exc, graph, None, None
        exc = exc.__cause__ or exc.__context__
    return None


def _name_of(item):
    return getattr(item, "name", None) or repr(item)


class SessionHooks:
    """Wraps the TF Session base class for config merging and placement reports."""

    def __init__(self, session_options=None, *, force=False, placement=False,
                 memory_log=None, oom_tensors=False):
        self._options = session_options
        self._oom_tensors = bool(oom_tensors)
        self._memory = memory_log
        self._force = force
        self._placement = placement
        self._originals = None
        self._lock = threading.Lock()
        self._tracing = threading.Lock()  # held by the one run being traced for memory
        self._seen = weakref.WeakKeyDictionary()  # session -> run signatures reported
        self._numbers = weakref.WeakKeyDictionary()  # session -> number, in creation order
        self._counter = itertools.count()
        self.runs = []  # [(label, [PlacementRow, ...])]
        self.memory_log = memory_log

    def install(self):
        """Wraps the Session methods; call :meth:`uninstall` to restore them."""
        from tensorflow.python.client import session as session_lib

        base = session_lib.BaseSession
        original_init, original_run = base.__init__, base.run
        hooks = self

        def __init__(self, target="", graph=None, config=None):
            config = hooks._config_for(config)
            original_init(self, target, graph, config)
            hooks._numbers[self] = next(hooks._counter)
            hooks._note_devices(self)

        from tensorflow.core.protobuf import config_pb2

        oom_options = config_pb2.RunOptions(report_tensor_allocations_upon_oom=True)
        full_trace = config_pb2.RunOptions.FULL_TRACE

        def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
            # With oom_tensors every run asks for the live-tensor list on
            # out-of-memory; a copy when the script gave options of its own.
            if not hooks._oom_tensors or (options is not None and
                                          options.report_tensor_allocations_upon_oom):
                run_options = options
            elif options is None:
                run_options = oom_options
            else:
                run_options = config_pb2.RunOptions()
                run_options.CopyFrom(options)
                run_options.report_tensor_allocations_upon_oom = True
            metadata = run_metadata
            key = hooks._signature(self, fetches, feed_dict) if hooks._placement else None
            if key is not None:
                run_options = _writable(run_options, oom_options, options)
                run_options.output_partition_graphs = True
            free = hooks._memory is not None and hooks._tracing.acquire(blocking=False)
            traced = hooks._trace(self, fetches, feed_dict, options, free)
            if free and traced is None:
                hooks._tracing.release()
            if traced is not None and (run_options is None
                                       or run_options.trace_level != full_trace):
                run_options = _writable(run_options, oom_options, options)
                run_options.trace_level = full_trace
            if (key is not None or traced is not None) and metadata is None:
                metadata = config_pb2.RunMetadata()
            try:
                try:
                    result = original_run(self, fetches, feed_dict, run_options, metadata)
                except Exception as exc:
                    if type(exc).__name__ == "ResourceExhaustedError":
                        hooks._note_oom(self, exc, feed_dict)
                    raise
                if key is not None:
                    hooks._record(self, key, metadata)
                if traced is not None:
                    hooks._memory.record(traced[0], traced[1], metadata, self.graph,
                                         feed_dict)
                    if run_metadata is not None and (options is None
                                                     or options.trace_level == 0):
                        run_metadata.ClearField("step_stats")  # as the script asked
                return result
            finally:
                if traced is not None:
                    hooks._tracing.release()

        __init__.__wrapped__ = original_init
        run.__wrapped__ = original_run
        self._originals = (base, original_init, original_run)
        base.__init__ = __init__
        base.run = run

    def uninstall(self):
        """Puts the original Session methods back."""
        if self._originals is None:
            return
        base, original_init, original_run = self._originals
        base.__init__, base.run = original_init, original_run
        self._originals = None

    def _config_for(self, script_config):
        if self._options is None:
            # Pass the script's config through untouched: a None config makes TF use
            # the eager context's (tf.config.*) settings, which a copy would drop.
            config.note_session_config(
                script_config if script_config is not None else config.SessionOptions().to_config())
            return script_config
        merged = config.merge_config(script_config, self._options, force=self._force)
        config.note_session_config(merged)
        return merged

    @staticmethod
    def _note_devices(session):
        # The first local session creates the GPU allocators: keep their limits
        # (tf.contrib.memory_stats.BytesLimit reads them).
        config.note_session_devices(session)

    def _trace(self, session, fetches, feed_dict, options, can_trace):
        """(session number, label) when this run is to be traced for memory, else None;
        ``can_trace``: no other run is being traced."""
        if self._memory is None:
            return None
        if options is not None and options.trace_level not in (0, options.FULL_TRACE):
            return None  # the script asked for another trace: give it that one
        from tf1mem.observe import run_memory

        number = self._numbers.get(session, -1)
        label = run_memory.fetch_label(fetches)
        if not self._memory.should_trace(number, label, feed_dict, can_trace):
            return None
        return number, label

    def _note_oom(self, session, exc, feed_dict):
        from tf1mem.observe import caps, oom, run_memory

        try:
            device = oom.explain_oom(exc).device
            limit = caps.device_memory_limit(session, device) if device else None
        except Exception:  # noting must never hide the script's own error
            limit = None
        try:
            setattr(exc, _OOM_ATTR, (session.graph, run_memory.feed_batch_size(feed_dict),
                                     limit))
        except AttributeError:
            pass

    def _signature(self, session, fetches, feed_dict):
        import tensorflow as tf

        try:
            fetch_names = tuple(_name_of(f) for f in tf.nest.flatten(fetches))
        except (TypeError, ValueError):
            fetch_names = (repr(fetches),)
        feed_names = tuple(sorted(_name_of(k) for k in (feed_dict or {})))
        key = (session.graph.version, fetch_names, feed_names)
        with self._lock:
            seen = self._seen.setdefault(session, set())
            if key in seen:
                return None
            seen.add(key)
        return key

    def _record(self, session, key, metadata):
        from tf1mem.observe import placement

        rows = placement.rows_from_run_metadata(metadata)
        number = self._numbers.get(session, -1)
        with self._lock:
            # The run number is taken under the lock: two threads never share one,
            # so every label is unique and no run hides another in the report.
            label = (f"session {number} ({session.sess_str or 'local'}) "
                     f"run {len(self.runs)}: {', '.join(key[1])[:200]}")
            self.runs.append((label, rows))

    def write_report(self, path):
        """Writes every collected run's placement to ``path`` (.csv or .json)."""
        from tf1mem.observe import placement

        with self._lock:
            runs = list(self.runs)
        placement.write_report(path, runs)


def _writable(run_options, *shared):
    """A RunOptions the wrapper may change: a new one for None, a copy of a shared
    default or of the script's own (which must not change under it)."""
    if run_options is not None and not any(run_options is o for o in shared):
        return run_options
    from tensorflow.core.protobuf import config_pb2

    copy = config_pb2.RunOptions()
    if run_options is not None:
        copy.CopyFrom(run_options)
    return copy
