"""What one TF1 (or NumPy) name becomes under tf1mem.run and on TF 2: the scanner's judge.

This module owns the verdict for a single dotted name such as
``tensorflow.contrib.factorization.KMeans`` or ``numpy.float``. It holds no list of
its own: removed and mapped ``tf.contrib`` modules come from
:mod:`tf1mem.compat.table` (``CONTRIB_MODULES``, ``REMOVED_CONTRIB``,
``REMOVED_SYMBOLS`` and ``REMOVED_TOP_LEVEL``,
the very objects the shim raises from); whether a name exists is asked of the shim
itself, installed for the scan (``tensorflow.contrib`` / ``tensorflow.examples`` through
its finder, ``tf.X`` through the module user code gets), compared with TensorFlow 2's own
``tensorflow`` module for "TF1-only"; NumPy names are asked of NumPy (what it no longer
has, with its own advice; a removed name that resolves under the shim is tf1mem's); the
legacy views' names (``time.clock``, ``scipy.misc.imread``, ``Image.ANTIALIAS``,
``sklearn.cross_validation``) are judged from the views' own tables
(:mod:`tf1mem.compat.legacy.stdlib_view`, :mod:`tf1mem.compat.legacy.stack_view`) when the
installed module lacks them. So a verdict is what the runner would do, by construction.

Guarantee: resolving a name imports TensorFlow (and, for a mapped contrib module, its
source such as tf-slim) in this process, never the scanned code; the shim is installed
only inside ``with Knowledge():`` and uninstalled on leaving. Nothing is imported
at import time.
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
    """

    name: str
    category: str
    tf2: str
    why: str = ""


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


def _provider(obj):
    """The module that defines ``obj`` ("" when unknown)."""
    if _is_module(obj):
        return getattr(obj, "__name__", "") or ""
    return getattr(obj, "__module__", "") or ""


def _tf2_hint(tf1_name):
    from tf1mem.migrate import forms

    return forms.tf2_form(tf1_name)


class Knowledge:
    """Resolves dotted names under the TF1 shim; caches each answer.

    Use as a context manager: entering installs the shim exactly as ``tf1mem.run`` does
    (no server may start), leaving uninstalls it again (unless it was installed
    before). Names are then resolved by what user code would see: the ``tensorflow``
    module the shim gives, ``tensorflow.contrib`` / ``tensorflow.examples`` through its
    finder, real TensorFlow 2.21 for ``tensorflow.python``.
    """

    def __init__(self):
        self._cache = {}
        self._tf = None
        self._tf1 = None
        self._legacy = None

    def __enter__(self):
        from tf1mem import compat

        self._legacy = compat.legacy(import_hook="modules",
                                   forbid_servers="the migration scanner starts no server")
        self._tf1 = self._legacy.__enter__()
        import tensorflow as tf

        self._tf = tf
        return self

    def __exit__(self, *exc):
        legacy, self._legacy = self._legacy, None
        return legacy.__exit__(*exc) if legacy is not None else False

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
                if self._legacy is None:
                    raise RuntimeError("Knowledge.judge needs `with Knowledge() as k:`")
                self._cache[key] = self._tensorflow(dotted, dotted if base is None else base)
            else:
                self._cache[key] = None
        return self._cache[key]

    # -- tensorflow --------------------------------------------------------------------

    def _import(self, dotted):
        """What ``import dotted`` / ``from parent import last`` gives user code."""
        if dotted == "tensorflow":
            return self._tf1
        compat = dotted.startswith("tensorflow.compat.") or dotted == "tensorflow.compat"
        try:
            if compat:
                return _user_import(dotted)
            return importlib.import_module(dotted)
        except ImportError as exc:
            parent, _, last = dotted.rpartition(".")
            # A tensorflow.compat.vN.estimator.X import names tensorflow.estimator.X
            # in its error: the leaf may still be an attribute of its parent.
            if (getattr(exc, "name", None) != dotted and not compat) or not parent:
                raise
            try:
                return getattr(self._import(parent), last)
            except AttributeError:
                raise exc from None

    def _tensorflow(self, dotted, base):
        from tf1mem.compat import errors as compat_errors
        from tf1mem.compat import table

        parts = dotted.split(".")
        shown = _display(dotted)
        if (parts[1:3] == ["compat", "v2"] and parts[3:4] != ["estimator"]) \
                or parts[1:] == ["compat"]:
            return None  # plain TF 2 (TF 2.21 has no tf.compat.v2.estimator: judged below)
        n_base = len(base.split("."))
        walked = n_base
        try:
            obj = self._import(base)
            for part in parts[n_base:]:
                if not _is_module(obj):
                    break
                obj = getattr(obj, part)
                walked += 1
        except (ImportError, AttributeError) as exc:
            advice = _advice(parts)
            if isinstance(exc, (compat_errors.RemovedModuleError, compat_errors.RemovedAttributeError)):
                return Verdict(shown, _removed_category(advice), advice or "no replacement",
                               _one_line(exc))
            return Verdict(shown, "removed-none", advice or "no TF 2 form", _one_line(exc))
        except Exception as exc:  # noqa: BLE001 - TensorFlow's lazy modules may raise more
            return Verdict(shown, "removed-none", "no TF 2 form",
                           f"resolving it under the shim raised {type(exc).__name__}: "
                           f"{_one_line(exc)}")
        own = _provider(obj).startswith("tf1mem.")
        if parts[1:2] == ["contrib"] and len(parts) > 2:
            entry = table.CONTRIB_MODULES.get(parts[2])
            if entry is None:  # importable, but not through the table: nothing to say
                return None
            sources, note = _entry(entry)
            own = own or any(isinstance(s, str) and s.startswith("tf1mem.") for s in sources)
            return Verdict(shown, "reimplemented" if own else "mapped",
                           _contrib_tf2(sources, note))
        if parts[1:2] == ["examples"]:
            return Verdict(shown, "mapped", "tensorflow_datasets or "
                           "tf.keras.datasets.mnist.load_data() (tf1mem maps it to "
                           f"{getattr(obj, '__name__', shown)})")
        inner = parts[1:walked]
        if inner[:2] in (["compat", "v1"], ["compat", "v2"]):
            inner = inner[2:]
        if not inner or parts[1] == "python":
            return None
        if own:  # a TF1 name the shim serves from tf1mem's own code (e.g. tf.estimator)
            return Verdict(_display(".".join(parts[:walked])), "reimplemented",
                           _tf2_hint("tf." + ".".join(inner)))
        # TF1-only when TensorFlow 2's own namespace lacks the same path.
        obj2 = self._tf
        for part in inner:
            if not hasattr(obj2, part):
                return Verdict(_display(".".join(parts[:walked])), "as-is",
                               _tf2_hint("tf." + ".".join(inner)))
            obj2 = getattr(obj2, part)
        return None

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


def _user_import(dotted):
    """``import dotted`` as user code under the installed shim does it, through the shim's
    import hook: ``tensorflow.compat[...]`` is then the shim's view, with
    ``tf.compat.v1.estimator`` (TF 2.21's own ``tensorflow.compat.v1`` has none)."""
    import builtins

    from tf1mem import compat

    user_builtins = compat.user_globals().get("__builtins__") or {}
    hook = user_builtins.get("__import__", builtins.__import__)
    # a non-empty fromlist makes __import__ return the module named, not the package
    return hook(dotted, {"__name__": "__main__"}, None, ("__doc__",), 0)


def _one_line(exc):
    return " ".join(str(exc).split())


def _advice(parts):
    """The table's advice for a removed ``tensorflow.*`` name, or None."""
    from tf1mem.compat import errors as compat_errors
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
