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
  devices. This works where TF's C-level placement log is invisible.

Only :mod:`tf1mem.compat.shim` installs these hooks; :meth:`SessionHooks.uninstall` puts
the original methods back.
"""

import itertools
import threading
import weakref

from tf1mem import config

__all__ = ["SessionHooks"]


def _name_of(item):
    return getattr(item, "name", None) or repr(item)


class SessionHooks:
    """Wraps the TF Session base class for config merging and placement reports."""

    def __init__(self, session_options=None, *, force=False, placement=False):
        self._options = session_options
        self._force = force
        self._placement = placement
        self._originals = None
        self._lock = threading.Lock()
        self._seen = weakref.WeakKeyDictionary()  # session -> run signatures reported
        self._numbers = weakref.WeakKeyDictionary()  # session -> number, in creation order
        self._counter = itertools.count()
        self.runs = []  # [(label, [PlacementRow, ...])]

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

        def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
            if not hooks._placement:
                return original_run(self, fetches, feed_dict, options, run_metadata)
            key = hooks._signature(self, fetches, feed_dict)
            if key is None:
                return original_run(self, fetches, feed_dict, options, run_metadata)
            from tensorflow.core.protobuf import config_pb2

            run_options = config_pb2.RunOptions()
            if options is not None:
                run_options.CopyFrom(options)
            run_options.output_partition_graphs = True
            metadata = run_metadata if run_metadata is not None else config_pb2.RunMetadata()
            result = original_run(self, fetches, feed_dict, run_options, metadata)
            hooks._record(self, key, metadata)
            return result

        __init__.__wrapped__ = original_init
        run.__wrapped__ = original_run
        self._originals = (base, original_init, original_run)
        base.__init__ = __init__
        if self._placement:  # otherwise every run would pay a Python call for nothing
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
