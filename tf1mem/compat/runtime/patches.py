"""Changes to TensorFlow itself while the shim is installed, each undone by uninstall:
TF 2 behaviour off, and the TF-internal names TF 2.21 moved added back where TF1-era
code looks for them (:data:`tf1mem.compat.table.INTERNAL_ALIASES`)."""

import importlib
import importlib.machinery
import importlib.util

from tf1mem.compat import table

__all__ = ["disable_v2", "install_internal_aliases"]


def _locatable(name):
    """Whether module ``name`` exists, found on disk without importing it or its packages."""
    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])  # a top-level name: nothing is imported
    except (ImportError, ValueError):
        return False
    for i in range(1, len(parts)):
        if spec is None or not spec.submodule_search_locations:
            return False
        spec = importlib.machinery.PathFinder.find_spec(
            ".".join(parts[:i + 1]), spec.submodule_search_locations)
    return spec is not None


def _fix_lazy_module(module, name, source_name):
    """Where ``module.name`` is a TF lazy loader of a module that does not exist, puts a
    loader of ``source_name`` (imported on first use, as TF meant). Returns the old value,
    or None when nothing was changed."""
    from tensorflow.python.util import lazy_loader

    old = module.__dict__.get(name)
    if not isinstance(old, lazy_loader.LazyLoader) or _locatable(old.__name__) \
            or not _locatable(source_name):
        return None
    module.__dict__[name] = lazy_loader.LazyLoader(name, module.__dict__, source_name)
    return old


def install_internal_aliases(state):
    """Adds the moved names back where TF1-era code looks for them.

    A name is added only where the module lacks it. An entry whose source attribute is
    None names a module: where TF holds a lazy loader of a module that does not exist
    (``tensorflow.python.layers.normalization``'s), the loader is pointed at the module
    that does, still loaded on first use. Uninstall puts back exactly what was there.
    """
    changed = []
    for module_name, name, source_name, source_attr in table.INTERNAL_ALIASES:
        try:
            module = importlib.import_module(module_name)
            if source_attr is None:
                old = _fix_lazy_module(module, name, source_name)
                if old is not None:
                    changed.append((module, name, True, old))
                continue
            source = importlib.import_module(source_name)
        except ImportError:  # another TF or tf_keras version: nothing to alias
            continue
        if hasattr(module, name) or not hasattr(source, source_attr):
            continue
        setattr(module, name, getattr(source, source_attr))
        changed.append((module, name, False, None))

    def restore():
        for module, name, had, old in reversed(changed):
            if had:
                module.__dict__[name] = old
            else:
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
