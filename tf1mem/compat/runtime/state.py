"""The installation in force: what one install changed, so that uninstall can put it back.

:data:`current` is the :class:`Installation` in force, or None; every hook checks that
it is still its own before acting, so a hook left behind by someone else's wrapper
turns pass-through once the shim is uninstalled. :data:`LOCK` guards installs.
"""

import threading

__all__ = ["Installation", "LOCK", "current", "run_undo", "run_undo_steps"]

LOCK = threading.RLock()
current = None  # the Installation in force, or None


class Installation:
    """What one install changed, so that uninstall can put it back.

    Attributes:
      options: the frozen :class:`tf1mem.compat.runtime.options.ShimOptions`.
      features: the feature objects handed to the install (session hooks, server
        guard), activated with TensorFlow.
      undo: callables, run last-first by uninstall.
      proxy: the TF1 module user code gets, once TensorFlow is in.
    """

    def __init__(self, options, features=()):
        self.options = options
        self.features = tuple(features)
        self.undo = []  # callables, run last-first
        self.proxy = None
        self.user_builtins = None  # with import_hook="modules"
        self.active = False  # the TensorFlow part is installed (at once, or lazily)
        self.on_tensorflow = []  # callables(proxy), run once that part is in
        self.numpy = None  # user code's legacy NumPy module, made at its first import
        self.stdlib = {}  # module name -> legacy standard-library view, made at first use
        self.stack = {}  # module name -> legacy scientific-stack view, made at first use
        self.stack_started = False  # the stack views' notes are reset by uninstall
        self.internals = {}  # user code's tensorflow.python.* modules, made at first use

    def feature(self, kind):
        """The handed feature of class ``kind``, or None."""
        for feature in self.features:
            if isinstance(feature, kind):
                return feature
        return None


def run_undo(state):
    """Runs and empties ``state.undo``, last first."""
    steps, state.undo = state.undo, []
    run_undo_steps(steps)


def run_undo_steps(steps):
    """Runs every step (last first) even when some fail; raises ShimError at the end."""
    from tf1mem import errors

    failures = []
    while steps:
        step = steps.pop()
        try:
            step()
        except Exception as exc:  # keep undoing the rest; report at the end
            failures.append(exc)
    if failures:
        raise errors.ShimError(f"undoing the shim failed halfway: {failures!r}")
