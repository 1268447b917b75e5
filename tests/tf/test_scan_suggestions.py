"""Every TF 2 form the scanner can print names something the installed packages have.

Walks the whole table (each removed module's, symbol's and estimator name's advice, each
provided module's note), every form of :mod:`tf1mem.migrate.forms` and the verdict of
every name the scanner's data knows (:mod:`tf1mem.migrate.tf_names`), and resolves each
``tf.X`` / ``tf_slim.X`` / ``tf_keras.X`` name a suggestion prints: in TensorFlow 2's own
``tensorflow`` (and tf-slim, tf-keras), or, for ``tf.contrib.*`` / ``tf.estimator.*`` that
TF 2 removed, under tf1mem's shim (a ``tf.contrib`` name with the suggestion saying it is
tf1mem's; ``tf.estimator`` advice is printed for code on tf1mem's tf.estimator). A suggestion
naming ``tf.compat.v1.estimator`` / ``tf.compat.v2.estimator`` (which TF 2.16+ lack) fails.
``test_the_checker_reports_a_wrong_entry`` shows the check failing on injected entries.

The tests here: TensorFlow in the test process; the scanner's commands:
tests/commands/test_scan_quick.py.
"""

import importlib
import re
import warnings

import pytest

from tf1mem.compat import table
from tf1mem.migrate import forms, knowledge, tf_names

_NAME = re.compile(r"(?<![\w.])(?:tf|tf_slim|tf_keras)(?:\.[A-Za-z_]\w*)+")
# TF 2 removed these; a suggestion may name them only as what tf1mem provides.
_TF1MEM_ONLY = ("tf.contrib.", "tf.estimator.", "tf.estimator")
# Never a replacement: TF 2.16+ has no estimator under tf.compat.
_NEVER = ("tf.compat.v1.estimator", "tf.compat.v2.estimator")
KERAS_FIRST = "Keras 3 was imported before tf1mem's shim"


def _chain(obj, parts):
    for part in parts:
        obj = getattr(obj, part)
    return obj


@pytest.fixture(scope="module")
def resolvers():
    """(resolve in TF 2 and its packages, resolve under the shim)."""
    import tensorflow as real_tf

    from tf1mem import compat

    def tf2(name):
        root, *rest = name.split(".")
        if root == "tf":
            return _chain(real_tf, rest)
        for cut in range(len(rest), -1, -1):  # the longest module path, then attributes
            try:
                module = importlib.import_module(".".join([root, *rest[:cut]]))
            except ImportError:
                continue
            return _chain(module, rest[cut:])
        raise ImportError(name)

    legacy = compat.legacy(import_hook="modules",
                           forbid_servers="the suggestion test starts no server")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=KERAS_FIRST, category=RuntimeWarning)
        shim = legacy.__enter__()
    try:
        yield tf2, lambda name: _chain(shim, name.split(".")[1:])
    finally:
        legacy.__exit__(None, None, None)


def check(suggestions, resolvers):
    """``[(where, name, problem)]`` for each name a suggestion prints that is wrong.

    Args:
      suggestions: ``(where, text)`` pairs, ``where`` saying which entry printed it.
    """
    tf2, under_shim = resolvers
    problems = []
    for where, text, *subject in suggestions:
        for name in _NAME.findall(text):
            if subject and (subject[0] + ".").startswith(name + "."):
                continue  # the name being explained, not a suggestion
            if name.startswith(_NEVER):
                problems.append((where, name, "TF 2.16+ has no estimator under tf.compat"))
                continue
            tf1mem_only = name.startswith(_TF1MEM_ONLY)
            try:
                (under_shim if tf1mem_only else tf2)(name)
            except Exception as exc:  # noqa: BLE001 - any failure to resolve is the finding
                problems.append((where, name, f"does not resolve: {type(exc).__name__}: "
                                              f"{' '.join(str(exc).split())[:120]}"))
                continue
            if name.startswith("tf.contrib.") and "tf1mem" not in text:
                problems.append((where, name, "TF 2 removed it and the suggestion does not "
                                              "say it is tf1mem's"))
    return problems


def _table_suggestions():
    out = [(f"REMOVED_CONTRIB[{k}]", v) for k, v in table.REMOVED_CONTRIB.items()]
    out += [(f"REMOVED_SYMBOLS[{k}]", v) for k, v in table.REMOVED_SYMBOLS.items()]
    out += [(f"REMOVED_TOP_LEVEL[{k}]", v) for k, v in table.REMOVED_TOP_LEVEL.items()]
    out += [(f"ESTIMATOR_REMOVED[{k}]", v) for k, v in table.ESTIMATOR_REMOVED.items()]
    out += [(f"ESTIMATOR_EXPERIMENTAL_REMOVED[{k}]", v)
            for k, v in table.ESTIMATOR_EXPERIMENTAL_REMOVED.items()]
    out += [(f"ESTIMATOR_V2_ABSENT[{k}]", v) for k, v in table.ESTIMATOR_V2_ABSENT.items()]
    out += [(f"NOT_IN_COMPAT_V1[{k}]", v) for k, v in table.NOT_IN_COMPAT_V1.items()]
    out += [(f"CONTRIB_MODULES[{k}] note", v[1], f"tf.contrib.{k}")
            for k, v in table.CONTRIB_MODULES.items()]
    return out


def _forms_suggestions():
    out = [(f"IDIOMS[{k}]", v[0]) for k, v in forms.IDIOMS.items()]
    out += [(f"CONTRIB_HINTS[{k}]", " ".join(v)) for k, v in forms.CONTRIB_HINTS.items()]
    out.append(("ESTIMATOR", forms.ESTIMATOR))
    out += [(f"CHANGED_IN_TF2[{k}]", v[1], k) for k, v in forms.CHANGED_IN_TF2.items()]
    return out


def _verdict_suggestions():
    """The verdict of every name the scanner's data knows, and of every table name."""
    k = knowledge.Knowledge()
    names = [f"{path}.{item.split(':')[0]}" for path, text in tf_names.MODULES.items()
             for item in text.split()]
    names += [f"tensorflow.contrib.{n}" for n in (*table.CONTRIB_MODULES, *table.REMOVED_CONTRIB)]
    names += [f"tensorflow.contrib.{n}" for n in table.REMOVED_SYMBOLS]
    names += [f"tensorflow.compat.v1.{n}" for n in table.NOT_IN_COMPAT_V1]
    out = []
    for name in names:
        verdict = k.judge(name)
        if verdict is not None:
            out.append((f"verdict of {verdict.name}", verdict.tf2, verdict.name))
    return out


def test_every_suggestion_resolves_in_the_installed_packages(resolvers):
    suggestions = _table_suggestions() + _forms_suggestions() + _verdict_suggestions()
    assert len(suggestions) > 1000, len(suggestions)
    problems = check(suggestions, resolvers)
    assert not problems, "\n".join(f"{w}: {n}: {p}" for w, n, p in sorted(set(problems)))


def test_the_checker_reports_a_wrong_entry(resolvers, monkeypatch):
    """Injected wrong entries fail the check: a TF 2 name that does not exist, the
    estimator under tf.compat that TF 2.21 lacks, a removed name not said to be tf1mem's."""
    bogus = [("probe 1", "tf.compat.v1.estimator.DNNClassifier"),
             ("probe 2", "tf.keras.layers.NoSuchLayerAnywhere"),
             ("probe 3", "tf.contrib.layers.fully_connected"),
             ("probe 4", "tf_slim.no_such_function")]
    got = {where for where, _, _ in check(bogus, resolvers)}
    assert got == {"probe 1", "probe 2", "probe 3", "probe 4"}, got
    assert check([("good", "tf.keras.layers.Dense or tf_slim.conv2d; tf.contrib.layers."
                           "fully_connected under tf1mem")], resolvers) == []
    # A wrong table entry flows into the walk over the whole table.
    monkeypatch.setitem(table.REMOVED_SYMBOLS, "layers.bogus_entry",
                        "tf.compat.v1.estimator.DNNClassifier")
    problems = check(_table_suggestions(), resolvers)
    assert [(w, n) for w, n, _ in problems] == [
        ("REMOVED_SYMBOLS[layers.bogus_entry]", "tf.compat.v1.estimator.DNNClassifier")]


def test_a_hint_that_says_the_same_object_names_the_same_object(resolvers):
    """A provided tf.contrib name's hint "X (the same object ...)" names the very object
    the name is under tf1mem (not, say, a base class of it)."""
    tf2, under_shim = resolvers
    k = knowledge.Knowledge()
    wrong, checked = [], 0
    for path in tf_names.HOMES:
        for item in tf_names.HOMES[path].split():
            name = item.split("=", 1)[0]
            verdict = k.judge(f"{path}.{name}")
            if verdict is None or "(the same object" not in verdict.tf2:
                continue
            home = verdict.tf2.split(" ", 1)[0]
            obj = under_shim(verdict.name)
            try:
                same = (under_shim(home) if home.startswith("tf.compat.v1.") else
                        tf2(home)) is obj
            except Exception as exc:  # noqa: BLE001 - a home that does not resolve is wrong
                same = exc
            checked += 1
            if same is not True:
                wrong.append((verdict.name, home, same))
    assert checked > 100, checked
    assert not wrong, wrong
