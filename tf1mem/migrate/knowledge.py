"""What one TF1 (or NumPy) name becomes under tf1mem.run and on TF 2: the scanner's judge.

This module owns the verdict for a single dotted name such as
``tensorflow.contrib.factorization.KMeans`` or ``numpy.float``, from data only: removed
and mapped ``tf.contrib`` modules from :mod:`tf1mem.compat.table` (``CONTRIB_MODULES``,
``REMOVED_CONTRIB``, ``REMOVED_SYMBOLS``, the module aliases; the very objects the shim
raises from); what user code's ``tensorflow`` holds under the shim, and whether
TensorFlow 2's own ``tensorflow`` has the same path ("TF1-only"), from
:mod:`tf1mem.migrate.tf_names` (written from the installed TensorFlow by
:mod:`tf1mem.migrate.snapshot`; ``tests/commands/test_scan_quick.py`` fails when it is stale,
``tests/commands/test_scan.py`` and ``tests/corpus/test_scan_corpus.py`` check the verdicts
against what the runner does); ``tensorflow.python.*`` from
the table's internal modules and TensorFlow's installed files. NumPy names are asked of
NumPy (what it no longer has, with its own advice; a removed name that resolves under the
shim is tf1mem's); the legacy views' names (``time.clock``, ``scipy.misc.imread``,
``Image.ANTIALIAS``, ``sklearn.cross_validation``) are judged from the views' own tables
(:mod:`tf1mem.compat.legacy.stdlib_view`, :mod:`tf1mem.compat.legacy.stack_view`) when the
installed module lacks them. Each TF 2 form is one name's (:mod:`tf1mem.migrate.forms`).

Guarantee: judging imports neither TensorFlow nor the scanned code (NumPy and the
installed stack modules are asked directly). Nothing is imported at import time.
"""

import dataclasses
import importlib
import re
import types
from typing import Optional

__all__ = ["CATEGORIES", "STOPPING", "Verdict", "Knowledge"]

# Category key -> what it means for a user, in report order.
CATEGORIES = {
    "as-is": "TF1-only, runs under tf1mem.run as is (tf.compat.v1 has it)",
    "mapped": "runs under tf1mem.run through a mapping to a maintained module",
    "reimplemented": "runs under tf1mem.run through tf1mem's re-implementation",
    "removed-replacement": "removed, with a replacement: stops the script",
    "removed-none": "removed, with no replacement: stops the script",
}
STOPPING = frozenset({"removed-replacement", "removed-none"})


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What one name is.

    Attributes:
      name: the name as TF1 users write it, e.g. ``tf.contrib.slim.conv2d``.
      category: a key of :data:`CATEGORIES`.
      tf2: the TF 2 form (or what to use instead).
      why: for a stopping category, the error the runner raises (its message).
      note_of: ``tf.contrib.M`` when ``tf2`` is that module's note rather than one name's
        hint (the scanner says a module's note once a file).
    """

    name: str
    category: str
    tf2: str
    why: str = ""
    note_of: str = ""  # set when tf2 is the note of this tf.contrib module (said once a file)


def _display(dotted):
    if dotted.startswith("tensorflow.compat.v1."):
        return "tf.compat.v1." + dotted[len("tensorflow.compat.v1."):]
    if dotted.startswith("tensorflow."):
        return "tf." + dotted[len("tensorflow."):]
    if dotted.startswith("numpy."):
        return "np." + dotted[len("numpy."):]
    return dotted


def _is_module(obj):
    return isinstance(obj, types.ModuleType)


def _entry(entry):
    """``(sources, note)`` of a CONTRIB_MODULES entry (a ``(sources, note)`` pair today;
    an object with ``sources`` / ``note`` attributes is read the same way)."""
    if isinstance(entry, (tuple, list)) and len(entry) == 2:
        sources, note = entry
    else:
        sources, note = getattr(entry, "sources", ()), getattr(entry, "note", str(entry))
    sources = (sources,) if isinstance(sources, str) or callable(sources) else tuple(sources)
    return sources, str(note)


class Knowledge:
    """Judges dotted names from data; caches each answer.

    A context manager for the callers that scan many files with one (``with
    Knowledge() as k:``); entering and leaving change nothing outside it.
    """

    def __init__(self):
        self._cache = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def judge(self, dotted: str, base: Optional[str] = None) -> Optional[Verdict]:
        """The verdict for ``dotted`` (a full name from ``tensorflow`` or ``numpy``).

        Args:
          dotted: e.g. ``"tensorflow.contrib.slim.conv2d"``.
          base: the part that was imported (``import`` semantics: submodules load);
            the rest is attribute access, as the scanned code does it. None: all of
            ``dotted`` is imported.

        Returns:
          A :class:`Verdict`, or None when the name is plain TF 2 (or NumPy) and needs
          nothing.
        """
        key = (dotted, base)
        if key not in self._cache:
            root = dotted.split(".")[0]
            if root == "numpy":
                self._cache[key] = self._numpy(dotted)
            elif root in _legacy_roots():
                self._cache[key] = _legacy(dotted)
            elif root == "tensorflow":
                self._cache[key] = _tensorflow(dotted, dotted if base is None else base)
            else:
                self._cache[key] = None
        return self._cache[key]

    # -- numpy -------------------------------------------------------------------------

    def _numpy(self, dotted):
        import numpy as np

        from tf1mem.compat.legacy import numpy_view as legacy_numpy

        parts = dotted.split(".")[1:]
        if not parts:
            return None
        if parts[0] in legacy_numpy.ALIASES:
            # tf1mem.run gives user code NumPy 1.18's meaning of it (legacy NumPy,
            # on unless --no-numpy-compat): runs, with a note naming the new spelling.
            _, removed_in, instead = legacy_numpy.ALIASES[parts[0]]
            return Verdict("np." + parts[0], "reimplemented",
                           f"write {instead} (np.{parts[0]} was removed in NumPy "
                           f"{removed_in}; tf1mem.run's legacy NumPy provides it)")
        obj, walked = np, []
        for part in parts:
            walked.append(part)
            advice = _numpy_former(part) if obj is np else None
            try:
                obj = getattr(obj, part)
            except AttributeError as exc:
                name = "np." + ".".join(walked)
                if advice is None:
                    return Verdict(name, "removed-none", "no replacement", _one_line(exc))
                return Verdict(name, "removed-replacement", _numpy_advice(advice),
                               _one_line(exc))
            if advice is not None:
                # NumPy removed it, yet it resolves: tf1mem's legacy NumPy names put it back.
                return Verdict("np." + ".".join(walked), "reimplemented",
                               _numpy_advice(advice))
            if not _is_module(obj):
                return None
        return None


# -- the legacy views of the standard library and the scientific stack ---------------------

def _legacy_roots():
    from tf1mem.compat.legacy import table as legacy_table

    return legacy_table.STDLIB | legacy_table.STACK_ROOTS


def _real_has(module, name):
    """Whether the installed ``module`` has ``name`` (False when it does not import)."""
    try:
        return hasattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - not installed, or fails to import: judged by the table
        return False


def _legacy(dotted):
    """The verdict for a name of a module the shim gives user code a legacy view of."""
    from tf1mem.compat.legacy import stack_view, stdlib_view
    from tf1mem.compat.legacy import table as legacy_table

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module, rest = ".".join(parts[:cut]), parts[cut:]
        if module in stack_view.VIRTUAL:
            target, removed, instead = stack_view.VIRTUAL[module]
            return Verdict(module, "mapped", f"{instead} ({module} was removed in {removed}; "
                                             f"tf1mem.run gives the module {target})")
        virtual = legacy_table.STACK.get(module) == "virtual"
        names = stack_view.ALIASES.get(module) or stdlib_view.ALIASES.get(module) or {}
        if not names and not virtual:
            continue
        if not rest:
            if not virtual:
                return None
            return Verdict(module, "reimplemented",
                           f"write sklearn.model_selection ({module} was removed in "
                           f"{names[next(iter(names))][1]}; tf1mem.run's legacy view has "
                           f"its {', '.join(sorted(names))})")
        name = rest[0]
        if name in names and not _real_has(module, name):
            _, removed, instead = names[name]
            if module in legacy_table.STDLIB:
                removed = f"Python {removed}"
            return Verdict(f"{module}.{name}", "reimplemented",
                           f"write {instead} ({module}.{name} was removed in {removed}; "
                           f"tf1mem.run's legacy view provides it)")
        if virtual:
            try:
                stack_view.LegacyStackModule._tf1mem_legacy(module, name)
            except AttributeError as exc:
                advice = str(exc).partition(": use ")[2]
                return Verdict(f"{module}.{name}",
                               "removed-replacement" if advice else "removed-none",
                               advice or "no replacement", _one_line(exc))
        return None
    return None


def _one_line(exc):
    return " ".join(str(exc).split())


def _advice(parts):
    """The table's advice for a removed ``tensorflow.*`` name, or None."""
    from tf1mem.compat import table

    if parts[1:2] == ["contrib"] and len(parts) > 2:
        if len(parts) > 3 and f"{parts[2]}.{parts[3]}" in table.REMOVED_SYMBOLS:
            return table.REMOVED_SYMBOLS[f"{parts[2]}.{parts[3]}"]
        return table.REMOVED_CONTRIB.get(parts[2])
    if len(parts) > 1:
        return table.REMOVED_TOP_LEVEL.get(parts[1])
    return None


def _numpy_former(name):
    """NumPy's own advice for a top-level name it removed, or None."""
    import numpy as np

    advice = getattr(np, "__former_attrs__", {}).get(name)
    if advice is None:
        try:
            from numpy import _expired_attrs_2_0 as expired
        except ImportError:
            return None
        advice = expired.__expired_attributes__.get(name)
    return advice


_USE = re.compile(r"(?i)\buse (`[^`]+`[^.]*)")


def _numpy_advice(text):
    """NumPy's own advice, shortened to its "use ..." sentence."""
    match = _USE.search(text)
    return "use " + match.group(1).strip() if match else " ".join(text.split())


def _removed_category(advice):
    if not advice or advice.lower().startswith(("no replacement", "no direct replacement")):
        return "removed-none"
    return "removed-replacement"


def _contrib_tf2(sources, note):
    named = [s for s in sources if isinstance(s, str)]
    if len(sources) == 1 and named and not named[0].startswith("tf1mem."):
        return f"import {named[0]} ({note})"
    return note


# -- tensorflow ---------------------------------------------------------------------------

def _names():
    from tf1mem.migrate import tf_names

    return tf_names


def _module_names(path):
    """``{name: codes}`` of user code's module ``path`` under the shim, or None when the
    snapshot did not walk it."""
    cache = _MODULE_CACHE
    if path not in cache:
        text = _names().MODULES.get(path)
        cache[path] = None if text is None else dict(
            item.split(":", 1) for item in text.split())
    return cache[path]


_MODULE_CACHE = {}


def _homes(path):
    """``{name: home}`` of a provided tf.contrib module (empty when not walked)."""
    key = ("homes", path)
    if key not in _MODULE_CACHE:
        text = _names().HOMES.get(path, "")
        _MODULE_CACHE[key] = dict(item.split("=", 1) for item in text.split())
    return _MODULE_CACHE[key]


def _missing(path, name):
    template = _names().MISSING.get(path) or f"module {path!r} has no attribute '{{}}'"
    return template.replace("{}", name)


def _tensorflow(dotted, base):
    from tf1mem.compat import table

    parts = dotted.split(".")
    private = next((i for i, part in enumerate(parts) if part.startswith("_")), None)
    if private is not None:  # a module's own attributes (__name__, _impl): not TF1 API
        parts = parts[:private]
        dotted = ".".join(parts)
        base = ".".join(base.split(".")[:private])
    if (parts[1:3] == ["compat", "v2"] and parts[3:4] != ["estimator"]) \
            or parts[1:] == ["compat"] or len(parts) == 1:
        return None  # plain TF 2 (TF 2.21 has no tf.compat.v2.estimator: judged below)
    if parts[1] == "contrib":
        return _contrib(parts, base)
    if parts[1] == "examples":
        return _examples(parts)
    if parts[1] == "python":
        return _internal(parts, base)
    if parts[1:3] == ["compat", "v1"]:
        if len(parts) == 3:
            return None
        if parts[3] in table.NOT_IN_COMPAT_V1:
            why = (f"{_missing('tensorflow.compat.v1', parts[3])} "
                   f"({table.NOT_IN_COMPAT_V1[parts[3]]})")
            return Verdict(_display(".".join(parts[:4])), "removed-none",
                           "no TF 2 form", why)
        start, inner, lead = "tensorflow", parts[3:], parts[:3]
    elif parts[1:4] == ["compat", "v2", "estimator"]:
        start, inner, lead = "tensorflow.compat.v2.estimator", parts[4:], parts[:4]
        if not inner:
            return Verdict(_display(dotted), "reimplemented", _tf2_hint("tf.estimator"))
    else:
        start, inner, lead = "tensorflow", parts[1:], parts[:1]
    module, walked, codes, all_tf2, all_v1 = start, [], "", start == "tensorflow", True
    for name in inner:
        names = _module_names(module)
        if names is None:
            break  # below what the snapshot walked (all of it is TF 2's): nothing to say
        if name not in names:
            advice = _advice(parts)
            return Verdict(_display(".".join(lead + walked + [name])),
                           _removed_category(advice) if advice else "removed-none",
                           advice or "no TF 2 form", _missing(module, name))
        codes = names[name]
        walked.append(name)
        all_tf2 = all_tf2 and "2" in codes
        all_v1 = all_v1 and "1" in codes
        if "m" not in codes:
            break
        module = f"{module}.{name}"
    if not walked:
        return None
    shown = _display(".".join(lead + walked))
    tf1_name = "tf." + ".".join(walked) if start == "tensorflow" else \
        "tf.estimator." + ".".join(walked)
    if "o" in codes or start != "tensorflow" or not (all_v1 or all_tf2):
        # tf1mem's own code, or a name only tf1mem's module has (tf.compat.v1 lacks it)
        return Verdict(shown, "reimplemented", _tf2_hint(tf1_name, in_compat_v1=all_v1))
    if all_tf2:
        return None
    return Verdict(shown, "as-is", _tf2_hint(tf1_name, in_compat_v1=all_v1))


def _tf2_hint(tf1_name, in_compat_v1=True):
    from tf1mem.migrate import forms

    return forms.tf2_form(tf1_name, in_compat_v1=in_compat_v1)


def _exists_v1(name):
    """Whether ``tf.compat.v1.<path>`` names something in TF 2.21 (from the data)."""
    parts = name.split(".")[3:] if name.startswith("tf.compat.v1.") else None
    module, codes = "tensorflow", ""
    for part in parts or ():
        names = _module_names(module)
        if names is None or part not in names or "1" not in names[part]:
            return False
        codes = names[part]
        module = f"{module}.{part}"
    return bool(parts) and bool(codes)


def _removed_symbol(parts):
    """``(qualified, advice)`` of the longest REMOVED_SYMBOLS key naming ``parts``, or None."""
    from tf1mem.compat import table

    for cut in range(len(parts), 3, -1):
        key = ".".join(parts[2:cut])
        if key in table.REMOVED_SYMBOLS:
            return "tf." + ".".join(parts[1:cut]), table.REMOVED_SYMBOLS[key]
    return None


def _is_module_path(fullname):
    """Whether the shim's finder serves ``fullname`` as a module (the table's paths)."""
    from tf1mem.compat import table

    keys = (*table.MODULE_ALIASES, *(f"tensorflow.contrib.{k}" for k in (
        *table.CONTRIB_SUBMODULES, *table.CONTRIB_PACKAGES)))
    if any(k == fullname or k.startswith(fullname + ".") for k in keys):
        return True
    for prefix, real in table.MODULE_PREFIX_ALIASES.items():
        if fullname == prefix or fullname.startswith(prefix + "."):
            return _source_exists(real + fullname[len(prefix):])
    return False


def _source_exists(module):
    """Whether an installed module's file exists, found without importing it."""
    import importlib.util
    import os

    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return spec is not None and not rest
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, *rest)
        if not rest or os.path.isdir(path) or os.path.isfile(path + ".py"):
            return True
        if any(f.startswith(rest[-1] + ".") and f.endswith((".so", ".pyd"))
               for f in _listdir(os.path.dirname(path))):
            return True
    return False


def _module_file(module):
    """The ``.py`` file of an installed module, found without importing it, or None."""
    import importlib.util
    import os

    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for path in (os.path.join(folder, *rest, "__init__.py"),
                     os.path.join(folder, *rest) + ".py"):
            if os.path.isfile(path):
                return path
    return None


def _module_defines(module, name):
    """Whether the installed module's source binds ``name`` at its top level (read with
    ``ast``, never imported); None when that cannot be told (no source, a star import,
    a module ``__getattr__``, a submodule of that name)."""
    import ast
    import os

    path = _module_file(module)
    if path is None:
        return None
    if os.path.basename(path) == "__init__.py" and _source_exists(f"{module}.{name}"):
        return True
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    bound = set()
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for part in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, part, []) or [])
        elif isinstance(node, ast.ExceptHandler):
            stack.extend(node.body)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        bound.add(sub.id)
    if "__getattr__" in bound:
        return None
    return name in bound


def _listdir(folder):
    import os

    try:
        return os.listdir(folder)
    except OSError:
        return []


def _contrib(parts, base):
    from tf1mem.compat import errors as compat_errors
    from tf1mem.compat import table

    if len(parts) == 2:
        return None  # tensorflow.contrib itself: its modules carry the findings
    module = parts[2]
    entry = table.CONTRIB_MODULES.get(module)
    if entry is None:
        advice = table.REMOVED_CONTRIB.get(module)
        return Verdict(_display(".".join(parts)), _removed_category(advice),
                       advice or "no replacement",
                       compat_errors.removed_message(f"tf.contrib.{module}", advice))
    sources, note = _entry(entry)
    own = any(isinstance(s, str) and s.startswith("tf1mem.") for s in sources)
    category = "reimplemented" if own else "mapped"
    if len(parts) == 3:
        return Verdict(f"tf.contrib.{module}", category, _contrib_tf2(sources, note),
                       note_of=f"tf.contrib.{module}")
    path = f"tensorflow.contrib.{module}"
    names = _module_names(path)
    name = parts[3]
    shown = f"tf.contrib.{module}.{name}"
    removed = _removed_symbol(parts)
    # (a name the table lists as removed that tf1mem's module has after all is provided)
    if removed is not None and not (names and name in names and removed[0] == shown):
        qualified, advice = removed
        return Verdict(qualified, _removed_category(advice), advice or "no replacement",
                       compat_errors.removed_message(qualified, advice))
    if names is not None and name not in names:
        deeper = ".".join(parts[:4])
        if not _is_module_path(deeper) and not (
                len(sources) == 1 and isinstance(sources[0], str)
                and _source_exists(".".join([sources[0], *parts[3:4]]))):
            return Verdict(shown, "removed-none", "no replacement", _missing(path, name))
        return Verdict(_display(".".join(parts)), category, _contrib_tf2(sources, note),
                       note_of=f"tf.contrib.{module}")
    from tf1mem.migrate import forms

    home = _homes(path).get(name, "")
    return Verdict(_display(".".join(parts)), category,
                   forms.contrib_hint(shown, home, exists=_exists_v1))


def _examples(parts):
    from tf1mem.compat import table

    fullname = ".".join(parts)
    if len(parts) == 2 or any(k == fullname or k.startswith(fullname + ".")
                              or fullname.startswith(k + ".")
                              for k in table.MODULE_ALIASES if k.startswith(
                                  "tensorflow.examples.")):
        target = table.MODULE_ALIASES.get(fullname)
        return Verdict(_display(fullname), "mapped", "tensorflow_datasets or "
                       "tf.keras.datasets.mnist.load_data()" + (
                           f" (tf1mem maps it to {target})" if target else ""))
    return Verdict(_display(fullname), "removed-none", "no TF 2 form",
                   f"{fullname} is not part of TensorFlow 2; of tensorflow.examples tf1mem "
                   f"provides tensorflow.examples.tutorials.mnist (input_data, mnist).")


def _internal(parts, base):
    """``tensorflow.python.*``: the table's internal modules, else TF's installed files."""
    from tf1mem.compat import table

    base_parts = base.split(".")
    for cut in range(len(base_parts), 1, -1):
        module = ".".join(base_parts[:cut])
        if module in table.INTERNAL_MODULES or any(
                module == p or module.startswith(p + ".") for p in table.INTERNAL_PREFIXES):
            return None
        if _source_exists(module):
            if cut < len(base_parts) - 1:  # a module path below a module file: not there
                missing = ".".join(base_parts[:cut + 1])
                return Verdict(_display(missing), "removed-none", "no TF 2 form",
                               f"No module named {missing!r}")
            if cut == len(base_parts) - 1:  # ``from module import name``
                name = base_parts[-1]
                moved = any(m == module and n == name for m, n, *_ in table.INTERNAL_ALIASES)
                if not moved and _module_defines(module, name) is False:
                    return Verdict(_display(".".join(base_parts)), "removed-none",
                                   "no TF 2 form",
                                   f"cannot import name {name!r} from {module!r}")
            return None
    return Verdict(_display(".".join(base_parts[:3])), "removed-none", "no TF 2 form",
                   f"No module named {'.'.join(base_parts[:3])!r}")
