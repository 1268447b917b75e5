"""The explicit, undoable install of the TF1 surface: :func:`install`, :func:`uninstall`,
:func:`legacy`.

While installed, user code's ``import tensorflow`` gives the TF1 module (``tf.compat.v1``
plus ``tf.contrib``; :mod:`~tf1mem.compat.runtime.views`), third-party libraries keep
real TF 2, and ``sys.modules["tensorflow"]`` is never replaced. How user code is told
from library code is :mod:`~tf1mem.compat.runtime.usercode` and
:mod:`~tf1mem.compat.runtime.hooks`; ``tensorflow.contrib`` / ``tensorflow.examples``
come from :mod:`~tf1mem.compat.runtime.finder`, which reads tf1mem's table. With
``lazy=True`` nothing here imports TensorFlow: the TensorFlow part (TF 2 behaviour off,
the finder, TF 1.15's op seeds, the internal aliases, the handed features: session
hooks and the server guard) is put in by the program's first ``import tensorflow``,
whoever makes it, before that import returns.

:func:`uninstall` puts back exactly what :func:`install` changed: the environment
variable, ``builtins.__import__``, ``sys.meta_path``, ``sys.path_hooks`` and the
finders cached for user folders, the ``sys.modules`` entries and ``tensorflow``
attributes the shim created, TF 2 behaviour and the Session class. Modules really
imported meanwhile (TensorFlow itself, tf-slim) stay loaded: Python cannot unload an
extension module. The TF1 default graph is released (TF refuses eager mode while one
exists); graphs and sessions still referenced stay usable. A second install is a no-op.
"""

import contextlib
import os
import sys
import warnings

from tf1mem import errors
from tf1mem.compat.runtime import after_import
from tf1mem.compat.runtime import features as features_lib
from tf1mem.compat.runtime import finder, hooks, patches, views
from tf1mem.compat.runtime import state as state_lib
from tf1mem.compat.runtime.options import IMPORT_HOOKS, ShimOptions

__all__ = ["LEGACY_KERAS_ENV", "IMPORT_HOOKS", "install", "uninstall", "legacy",
           "is_installed", "write_placement_report", "write_memory_report",
           "tf1_packages"]


LEGACY_KERAS_ENV = "TF_USE_LEGACY_KERAS"


def _snapshot_env(state, name, value):
    had = name in os.environ
    old = os.environ.get(name)

    def restore():
        if had:
            os.environ[name] = old
        else:
            os.environ.pop(name, None)

    os.environ[name] = value
    state.undo.append(restore)


def install(*, session_options=None, force_config=False, placement_report=None,
            forbid_servers=None, import_hook="builtins", allow_remote=False, lazy=False,
            on_tensorflow=None, numpy_compat=False, memory_report=None, oom_tensors=False,
            python_compat=False, stack_compat=False, tf1_packages=(),
            known_tf1_packages=True):
    """Installs the TF1 shim for the whole process (see the module docstring).

    Args:
      session_options: a :class:`tf1mem.config.SessionOptions` to apply to every
        Session the process creates, or None.
      force_config: the options override what a script's own ConfigProto sets.
      placement_report: a path; every session run's node -> device placement is
        collected and written there (``.csv`` or ``.json``) by :func:`uninstall`
        or :func:`write_placement_report`.
      forbid_servers: None, or why no gRPC server may start in this process (e.g.
        it could not be kept on loopback): every ``tf.train.Server(...)`` then
        raises :class:`tf1mem.ClusterError` with this text, at the caller's line.
      allow_remote: let ``tf.train.Server``s listen on other addresses than
        loopback. Without it, each server is checked with the kernel after it
        starts, and one listening elsewhere is shut down and raises
        :class:`tf1mem.ClusterError` (see :mod:`tf1mem._net`).
      import_hook: how user code's ``import tensorflow`` gets the TF1 API.
        ``"builtins"`` (in-process installs: ``tf1mem.legacy()``, ``tf1mem.v1``)
        wraps ``builtins.__import__``, so code that already exists sees it, and
        every import statement in the process pays one Python call.
        ``"modules"`` (the runner) decides once per module as it is first
        imported: user modules get builtins with the TF1-aware ``__import__``
        (``__main__`` through :func:`user_globals`), library code keeps Python's
        own, at no cost per import statement.

      lazy: with ``import_hook="modules"``, do not import TensorFlow now: what
        needs it (TF 2 behaviour off, the contrib/examples finder, session hooks,
        the server guard) is installed by the first import of ``tensorflow`` in
        the process, whoever makes it, before that import returns. A program that
        never imports TensorFlow never pays for it. Everything that does not need
        TensorFlow (``TF_USE_LEGACY_KERAS``, the user-module hook) is in at once.
        Ignored when TensorFlow is imported already.
      on_tensorflow: a callable given the TF1 module once the TensorFlow part is
        installed (at once, or at that first import).
      numpy_compat: user code's ``import numpy`` gets NumPy with the names and
        keywords of NumPy 1.18 that NumPy 2 removed (``np.float``, ``np.asscalar``,
        ``np.reshape(newshape=)``; :mod:`tf1mem.compat.legacy.numpy_view`), each noted
        once on stderr; the real ``numpy`` module, which libraries see, is not
        changed. The runner's default (``--no-numpy-compat`` turns it off).
      python_compat: user code's ``import inspect`` / ``time`` / ``collections`` /
        ``fractions`` / ``base64`` / ``cgi`` get the names Python 3.7 had and Python
        removed since (``inspect.getargspec``, ``time.clock``, ``collections.Iterable``
        ...; :mod:`tf1mem.compat.legacy.stdlib_view`), each noted once on stderr. The
        real modules are not changed. The runner's default (``--no-python-compat``).
      stack_compat: user code's imports of ``PIL.Image``, ``scipy.misc``,
        ``scipy.ndimage``, ``sklearn.cross_validation`` and ``sklearn.externals.joblib``
        get the names Pillow 6, SciPy 1.1 and scikit-learn 0.19 had and their libraries
        removed since (``Image.ANTIALIAS``, ``scipy.misc.imread`` / ``imresize``,
        ``cross_validation.KFold(n, n_folds)`` ...;
        :mod:`tf1mem.compat.legacy.stack_view`), each noted once on stderr, for the
        libraries that are installed. The real modules are not changed. The runner's
        default (``--no-stack-compat``).
      memory_report: a path (``.json`` / ``.csv``); every session run label's
        per-device peak and largest tensors are recorded from traced runs
        (:mod:`tf1mem.observe.run_memory`) and written by
        :func:`write_memory_report`.
      oom_tensors: every session run asks TensorFlow for its live-tensor list should
        it run out of memory (``report_tensor_allocations_upon_oom``), so the
        out-of-memory table lists the largest tensors in use. Off by default: it
        makes TensorFlow track every allocation of every run (about 30 % more per
        step of a small graph). Implied by ``memory_report``.
      tf1_packages: installed packages that are TF1 code: each gets what user code
        gets (TF1's ``tensorflow``, and the legacy NumPy and standard-library views
        where those are on), wherever it is installed; other packages are not
        affected. Top-level module names (``"stable_baselines"``) or distribution
        names (``"stable-baselines"``), found on ``sys.path`` now, or
        :class:`tf1mem.compat.runtime.packages.TF1Package` records.
      known_tf1_packages: also treat as TF1 code the TF1-era libraries tf1mem
        recognises when installed at a TF1-era version
        (:data:`tf1mem.compat.runtime.packages.KNOWN_TF1_DISTRIBUTIONS`).

    Returns:
      The module ``import tensorflow`` now gives user code; None after
      ``lazy=True`` until TensorFlow is imported.

    Raises:
      ShimError: the shim is installed already with other options, ``lazy``
        without ``import_hook="modules"``, or a TF1 package that is not installed.
    """
    if lazy and import_hook != "modules":
        raise errors.ShimError("lazy=True needs import_hook='modules' (the runner's): "
                               "the process-wide hook must see code that exists already")
    if isinstance(tf1_packages, str):
        raise errors.ShimError(f"tf1_packages must be a list of names, got the string "
                               f"{tf1_packages!r}; write [{tf1_packages!r}]")
    from tf1mem.compat.runtime import packages

    resolved = packages.resolve(
        [p if isinstance(p, packages.TF1Package) else (p, "install(tf1_packages=)")
         for p in tf1_packages], known=known_tf1_packages)
    options = ShimOptions(
        session_options=session_options, force_config=bool(force_config),
        placement_report=placement_report, forbid_servers=forbid_servers,
        import_hook=import_hook, allow_remote=bool(allow_remote),
        numpy_compat=bool(numpy_compat), memory_report=memory_report,
        oom_tensors=bool(oom_tensors), python_compat=bool(python_compat),
        stack_compat=bool(stack_compat), tf1_packages=resolved)
    with state_lib.LOCK:
        if state_lib.current is not None:
            if options.asks_for_something() and options != state_lib.current.options:
                raise errors.ShimError(
                    f"tf1mem's shim is installed already with other options "
                    f"({state_lib.current.options!r}); call tf1mem.uninstall() first.")
            return state_lib.current.proxy
        features = (
            features_lib.SessionFeatures(
                options.session_options, force_config=options.force_config,
                placement_report=options.placement_report,
                memory_report=options.memory_report, oom_tensors=options.oom_tensors),
            features_lib.ServerGuard(options.forbid_servers, options.allow_remote),
        )
        state = state_lib.Installation(options, features)
        state.activate = lambda: _activate(state)
        try:
            if "keras" in sys.modules and os.environ.get(LEGACY_KERAS_ENV) != "1":
                warnings.warn(
                    "Keras 3 was imported before tf1mem's shim: tf.layers and tf-slim "
                    "layers may fail with 'not available with Keras 3'. Install the shim "
                    "(or run under python -m tf1mem.run) before anything imports Keras.",
                    RuntimeWarning, stacklevel=2)
            _snapshot_env(state, LEGACY_KERAS_ENV, "1")
            if on_tensorflow is not None:
                state.on_tensorflow.append(on_tensorflow)
            if lazy and "tensorflow" not in sys.modules:
                _install_activation_finder(state)
            else:
                _activate(state)
            if import_hook == "modules":
                hooks.install_module_hook(state)
            else:
                hooks.install_import_hook(state)
        except BaseException:
            state_lib.run_undo(state)
            raise
        state_lib.current = state
        return state.proxy

def _activate(state):
    """Installs the part of the shim that needs TensorFlow, importing it; once.

    Called by :func:`install`, or, after ``install(lazy=True)``, by the first import
    of ``tensorflow`` in the process (through
    :mod:`~tf1mem.compat.runtime.after_import`). On failure what it
    did is undone and the error propagates (from that import statement), so a later
    import may try again.
    """
    with state_lib.LOCK:
        if state.active:
            return state.proxy
        done = len(state.undo)
        try:
            import tensorflow as real_tf

            patches.disable_v2(state)
            patches.install_internal_aliases(state)
            from tf1mem.compat.runtime import op_seeds

            state.undo.append(op_seeds.install())
            if state.options.numpy_compat:
                from tf1mem.compat.legacy import numpy_view

                state.undo.append(numpy_view.install_print_legacy())
            finder.install_finder(state)
            state.proxy = views.TF1Module(real_tf, internals=state.internals)
            for feature in state.features:
                feature.activate(state)
        except BaseException:
            later, state.undo[done:] = state.undo[done:], []
            state_lib.run_undo_steps(later)
            state.proxy = None
            raise
        state.active = True
        for callback in state.on_tensorflow:
            callback(state.proxy)
        return state.proxy


def _install_activation_finder(state):
    # Under install(lazy=True): whoever imports tensorflow first (the script, one of its
    # modules, a library), its own loader loads it and the shim's TensorFlow part is
    # installed before the import statement returns (the import lock of "tensorflow" is
    # this thread's, so the install's imports of it return it).
    after_import.watch(state, {"tensorflow": lambda module: _activate(state)})


def write_placement_report(path=None):
    """Writes the placement collected so far; returns the path, or None if none."""
    with state_lib.LOCK:
        state = state_lib.current
        if state is None:
            return None
        return state.feature(features_lib.SessionFeatures).write_placement_report(path)


def write_memory_report(extra=None):
    """Writes the memory report collected so far (``install(memory_report=)``).

    Args:
      extra: more top-level fields for a JSON report (e.g. ``tf1_packages``), or None.

    Returns:
      ``(path, one-line summary)``, or None when no memory report was asked for.
    """
    with state_lib.LOCK:
        state = state_lib.current
        if state is None:
            return None
        return state.feature(features_lib.SessionFeatures).write_memory_report(extra)


def uninstall():
    """Undoes :func:`install` exactly; a no-op when the shim is not installed.

    Returns:
      True when something was uninstalled.
    """
    with state_lib.LOCK:
        state = state_lib.current
        if state is None:
            return False
        try:
            if state.options.placement_report:
                write_placement_report()
        finally:  # a report that cannot be written must not leave the shim half-on
            state_lib.current = None
            state_lib.run_undo(state)
        return True


def is_installed():
    """True while the shim is installed."""
    return state_lib.current is not None


def tf1_packages():
    """The packages the installed shim treats as TF1 code (TF1Package records); () if none."""
    with state_lib.LOCK:
        state = state_lib.current
        return () if state is None else state.options.tf1_packages


@contextlib.contextmanager
def legacy(**options):
    """``with tf1mem.legacy() as tf:`` runs its body under the TF1 shim.

    The shim is uninstalled on exit unless it was installed before the block, in
    which case the block changes nothing. Keyword options are :func:`install`'s.
    """
    installed_here = not is_installed()
    proxy = install(**options)
    try:
        yield proxy
    finally:
        if installed_here:
            uninstall()
