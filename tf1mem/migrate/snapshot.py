"""The scanner's data about TensorFlow, written once from the installed TensorFlow.

This module owns generating :mod:`tf1mem.migrate.tf_names`: what user code's
``tensorflow`` holds under ``tf1mem.run`` (the shim installed, as the runner does), module
by module, each name marked as a module, as tf1mem's own code, and whether TensorFlow 2's
own ``tensorflow`` has the same path; the message the shim raises for a name a module
lacks; and, for each provided ``tf.contrib`` name, the public name of the object it is
(its home, for the per-name hint). The scanner reads that file and never imports
TensorFlow; ``tests/commands/test_scan_quick.py`` fails when the file is stale (a new table
entry, another TensorFlow).

Regenerate with ``python -m tf1mem.migrate.snapshot > tf1mem/migrate/tf_names.py``, in a
fresh process: what a module lists can depend on what was imported before (a package
gains each submodule imported), so :func:`collect` is meant to run first in its process
(tests/commands/test_scan_quick.py runs it so and compares).
Importing this module imports nothing heavy; :func:`collect` imports TensorFlow.
"""

import types
import warnings

__all__ = ["collect", "render", "PROBE"]

# An attribute no module has: asking for it gives each module's "missing" message.
PROBE = "tf1mem_snapshot_probe"

# Top-level paths the walk leaves to the scanner's rules: the compat views, tf.contrib and
# tensorflow.examples (from the table), tensorflow.python (TF's internals).
_SKIP_TOP = ("compat", "contrib", "examples", "python")
# Modules the walk records but does not enter: TF 2.21 has every one of their names
# (tf.raw_ops: thirty thousand op wrappers).
_SKIP_ANY = ("raw_ops",)


# Modules of a public API: a module that holds one as a name serves it to user code.
_API_MODULES = ("tensorflow._api.", "tf_keras.api.", "keras.api.", "tf1mem.compat.tf.")


def _enters(child, parent, attr):
    """Whether the walk enters ``child``, ``parent.<attr>``: a submodule of it, or a
    module of a public API, held under its own name (never a module it merely imported
    for its own use)."""
    name = getattr(child, "__name__", "") or ""
    if name.rpartition(".")[2] != attr:
        return False  # held under another name: an implementation detail (estimator_lib)
    return name.startswith((getattr(parent, "__name__", "") or "") + ".") \
        or name.startswith(_API_MODULES)


def _is_module(obj):
    return isinstance(obj, types.ModuleType)


def _provider(obj):
    name = getattr(obj, "__name__", "") if _is_module(obj) else getattr(obj, "__module__", "")
    return name or ""


def _missing(module, path):
    try:
        getattr(module, PROBE)
    except AttributeError as exc:
        return " ".join(str(exc).split()).replace(PROBE, "{}")
    except Exception:  # noqa: BLE001 - a lazy module may raise more
        pass
    return f"module {path!r} has no attribute '{{}}'"


def _public_names(module):
    try:
        names = set(dir(module)) | set(getattr(module, "__all__", None) or ())
    except Exception:  # noqa: BLE001
        return []
    return sorted(n for n in names if not n.startswith("_"))


def _walk(module, path, real, modules, missing, ancestors=(), v1=None):
    """Records ``module`` (user code's, at ``path``) and its submodules (a module another
    merely imported is recorded as a name, not entered: no cycle)."""
    if path in modules:
        return
    entries = {}
    missing[path] = _missing(module, path)
    children = []
    for name in _public_names(module):
        try:
            obj = getattr(module, name)
        except Exception:  # noqa: BLE001 - dir() lists it, getattr refuses: not there
            continue
        if _is_module(obj) and _provider(module).startswith("tf1mem.") \
                and not _enters(obj, module, name) \
                and name not in (getattr(module, "__all__", None) or ()):
            continue  # a module tf1mem's code imported for itself (sys), not a TF1 name
        codes = ""
        if _is_module(obj):
            codes += "m"
        if _provider(obj).startswith("tf1mem."):
            codes += "o"
        if v1 is not None:
            try:
                getattr(v1, name)
                codes += "1"
            except Exception:  # noqa: BLE001 - tf.compat.v1 lacks it
                pass
        real_obj = None
        if real is not None:
            try:
                real_obj = getattr(real, name)
                codes += "2"
            except Exception:  # noqa: BLE001 - TF 2 lacks it (or its lazy import fails)
                real_obj = None
        entries[name] = codes
        v1_obj = getattr(v1, name, None) if v1 is not None else None
        if _is_module(obj) and name not in _SKIP_ANY \
                and not (path == "tensorflow" and name in _SKIP_TOP) \
                and obj not in ancestors and (path == "tensorflow" or _enters(obj, module, name)):
            children.append((name, obj, real_obj if _is_module(real_obj) else None,
                             v1_obj if _is_module(v1_obj) else None))
    modules[path] = entries
    for name, obj, real_obj, v1_obj in children:
        _walk(obj, f"{path}.{name}", real_obj, modules, missing, (*ancestors, module),
              v1_obj)


def _resolve(home, tf1, tf2):
    """The object a public name ``home`` names (``tf.compat.v1.X`` as user code's
    ``tf.compat.v1`` gives it, ``tf.X`` in TF 2, else a module path then attributes)."""
    import importlib

    root, *rest = home.split(".")
    if root == "tf":
        obj = tf1 if rest[:2] == ["compat", "v1"] else tf2
        for part in rest:
            obj = getattr(obj, part)
        return obj
    for cut in range(len(rest), -1, -1):
        try:
            obj = importlib.import_module(".".join([root, *rest[:cut]]))
        except ImportError:
            continue
        for part in rest[cut:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(home)


def _verified_home(obj, name, module_path, tf1, tf2):
    """:func:`_home`, when it names this very object; "" otherwise."""
    home = _home(obj, name, module_path)
    try:
        return home if home and _resolve(home, tf1, tf2) is obj else ""
    except Exception:  # noqa: BLE001 - a name that does not resolve is no home
        return ""


def _home(obj, name, module_path):
    """The public name of a provided tf.contrib object, as a user would import it."""
    # A class's own export names only: a subclass inherits its base's attribute.
    own = vars(obj) if isinstance(obj, type) else {
        k: getattr(obj, k) for k in ("_tf_api_names_v1", "_tf_api_names") if hasattr(obj, k)}
    v1 = [n for n in own.get("_tf_api_names_v1") or () if "__" not in n]
    if v1:
        return "tf.compat.v1." + v1[0]
    v2 = [n for n in own.get("_tf_api_names") or () if "__" not in n]
    if v2:
        return "tf." + v2[0]
    if _is_module(obj):
        return obj.__name__
    module = getattr(obj, "__module__", "") or ""
    if module.startswith("tf_slim"):
        import tf_slim

        if getattr(tf_slim, name, None) is obj:
            return f"tf_slim.{name}"
    qual = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if module and qual and "<" not in qual:
        return f"{module}.{qual}"
    return ""  # a constant or an instance: no public name of its own


def collect():
    """Walks user code's ``tensorflow`` under the shim (installed here, uninstalled after).

    Returns:
      ``(tf_version, modules, missing, homes)``: module path -> {name: codes}; module path
      -> its "missing" message with ``{}`` for the name; ``tensorflow.contrib.M.name`` ->
      the object's public name (only one that names this very object).
    """
    import importlib

    from tf1mem import compat
    from tf1mem.compat import table

    modules, missing, homes = {}, {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with compat.legacy(import_hook="modules",
                           forbid_servers="the scanner's snapshot starts no server") as tf1:
            import tensorflow as tf2

            _walk(tf1, "tensorflow", tf2, modules, missing, v1=tf2.compat.v1)
            v1 = tf1.compat.v1  # the shim's views, as user code's import gives them
            missing["tensorflow.compat.v1"] = _missing(v1, "tensorflow.compat.v1")
            v2 = tf1.compat.v2
            missing["tensorflow.compat.v2"] = _missing(v2, "tensorflow.compat.v2")
            _walk(v2.estimator, "tensorflow.compat.v2.estimator", None, modules, missing)
            for name in sorted(table.CONTRIB_MODULES):
                path = f"tensorflow.contrib.{name}"
                try:
                    module = importlib.import_module(path)
                except Exception:  # noqa: BLE001 - recorded as having no names
                    continue
                missing[path] = _missing(module, path)
                entries = {}
                for attr in _public_names(module):
                    try:
                        obj = getattr(module, attr)
                    except Exception:  # noqa: BLE001
                        continue
                    entries[attr] = "m" if _is_module(obj) else ""
                    home = _verified_home(obj, attr, path, tf1, tf2)
                    if home:
                        homes[f"{path}.{attr}"] = home
                modules[path] = entries
            version = tf2.__version__
    return version, modules, missing, homes


def render(collected=None):
    """The text of ``tf1mem/migrate/tf_names.py``."""
    version, modules, missing, homes = collected or collect()
    out = ['"""What user code\'s ``tensorflow`` holds under tf1mem.run: the scanner\'s data.',
           "",
           "Generated by ``python -m tf1mem.migrate.snapshot > tf1mem/migrate/tf_names.py``",
           f"from TensorFlow {version}; do not edit (tests/commands/test_scan_quick.py fails when",
           "it is stale). MODULES: module path -> space-separated ``name:codes`` (m: a module,",
           "o: tf1mem's own code, 2: TensorFlow 2's own ``tensorflow`` has the same path, 1: its",
           "``tf.compat.v1`` has it).",
           "MISSING: module path -> the shim's message for a name it lacks ({} is the name).",
           "HOMES: a provided tf.contrib module -> space-separated ``name=home``, the public name",
           "of the object each name is.",
           '"""',
           "",
           '__all__ = ["TF_VERSION", "MODULES", "MISSING", "HOMES"]',
           "",
           f"TF_VERSION = {version!r}",
           "",
           "MODULES = {"]
    for path in sorted(modules):
        text = " ".join(f"{n}:{c}" for n, c in sorted(modules[path].items()))
        out.append(f"    {path!r}: {text!r},")
    out += ["}", "", "MISSING = {"]
    for path in sorted(missing):
        out.append(f"    {path!r}: {missing[path]!r},")
    out += ["}", "", "HOMES = {"]
    by_module = {}
    for key in sorted(homes):
        module, _, name = key.rpartition(".")
        by_module.setdefault(module, []).append(f"{name}={homes[key]}")
    for module, items in sorted(by_module.items()):
        out.append(f"    {module!r}: {' '.join(items)!r},")
    out += ["}", ""]
    return "\n".join(out)


if __name__ == "__main__":
    import sys

    sys.stdout.write(render())
