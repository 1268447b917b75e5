"""Changes to TensorFlow itself while the shim is installed, each undone by uninstall:
TF 2 behaviour off, and the TF-internal names TF 2.21 moved added back where TF1-era
code looks for them (:data:`tf1mem.compat.table.INTERNAL_ALIASES`)."""

import importlib

from tf1mem.compat import table

__all__ = ["disable_v2", "install_internal_aliases"]


def install_internal_aliases(state):
    """Adds the moved names back where TF1-era code looks for them (only if absent)."""
    added = []
    for module_name, name, source_name, source_attr in table.INTERNAL_ALIASES:
        try:
            module = importlib.import_module(module_name)
            source = importlib.import_module(source_name)
        except ImportError:  # another TF version: nothing to alias
            continue
        if hasattr(module, name) or not hasattr(source, source_attr):
            continue
        setattr(module, name, getattr(source, source_attr))
        added.append((module, name))

    def restore():
        for module, name in added:
            module.__dict__.pop(name, None)

    state.undo.append(restore)


def disable_v2(state):
    from tensorflow.python import tf2
    from tensorflow.python.eager import context

    import tensorflow as tf

    if tf2.enabled() or context.executing_eagerly():
        from tensorflow.python.util import deprecation

        # TF logs a deprecation notice for its own call inside; python SCRIPT
        # under TF 1.x printed nothing of the sort.
        with deprecation.silence():
            tf.compat.v1.disable_v2_behavior()

        def restore():
            from tensorflow.python.framework import ops

            # enable_v2_behavior refuses ("must be called at program startup") once a
            # global default graph exists. That graph is the TF1 code's: release it
            # (graphs and sessions the code still holds stay usable).
            ops._default_graph_stack._global_default_graph = None
            tf.compat.v1.enable_v2_behavior()

        state.undo.append(restore)
