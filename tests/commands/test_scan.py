"""``python -m tf1mem.scan``: findings on a fixture tree, aliasing, notebooks, bad files,
``--json`` / ``--fail-on`` / ``--rewrite``, and agreement with the runner on the table.

The fixture tree is written by the tests from compat/table.py (names picked
from it at test time), so the expected counts follow the table as it grows.

The tests here: the commands in subprocesses; the rest: tests/unit/test_scan.py.
"""

import json
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tf1mem
from tests._subproc import describe, run
from tf1mem.compat import errors as compat_errors
from tf1mem.compat import table
from tf1mem.migrate import knowledge

pytestmark = pytest.mark.slow


def _removed_with_replacement():
    """A tf.contrib module the table says is removed, with a replacement."""
    return next(name for name, advice in table.REMOVED_CONTRIB.items()
                if name not in table.CONTRIB_MODULES
                and not advice.lower().startswith("no"))


REMOVED = _removed_with_replacement()
MAPPED = next(name for name, entry in table.CONTRIB_MODULES.items()
              if isinstance(entry[0], str) and not entry[0].startswith("tf1mem."))

FILES = {
    "pkg/aliases.py": f"""\
        import tensorflow as tf
        import tensorflow.contrib.{MAPPED} as m1
        from tensorflow.contrib import {MAPPED} as m2
        from tensorflow import contrib
        import numpy as np
        x = tf.placeholder(tf.float32, [None, 3])
        y = m1.__name__, m2.__name__
        m3 = contrib.{MAPPED}
        z = m3.__name__
        a = np.zeros(3, dtype=np.float32)
        sess = tf.Session()
        b = tf.reduce_sum(x)
        """,
    "pkg/stops.py": f"""\
        import tensorflow as tf
        try:
            from tensorflow.contrib import {REMOVED}
        except ImportError:
            {REMOVED} = None
        print("before")
        k = tf.contrib.{REMOVED}
        q = tf.contrib.no_such_module_in_any_table
        """,
    "pkg/legacy_numpy.py": """\
        import numpy as onp
        v = onp.float(2)
        w = onp.safe_eval("1")
        """,
    "pkg/broken.py": """\
        def f(:
            pass
        """,
    "pkg/side_effects.py": """\
        import pathlib
        import helper_mod
        import tensorflow as tf
        pathlib.Path(__file__).with_name("RAN_side_effects").write_text("ran")
        tf.constant(1.0)
        """,
    "pkg/helper_mod.py": """\
        import pathlib
        pathlib.Path(__file__).with_name("RAN_helper_mod").write_text("imported")
        """,
    "plain.py": """\
        import os
        import tensorflow as tf
        print(tf.constant(1.0), os.sep)
        """,
}

NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import tensorflow as tf\n"]},
        {"cell_type": "markdown", "source": ["tf.contrib.nothing_here"]},
        {"cell_type": "code", "source": "!pip install foo\nsess = tf.Session()\n"},
        {"cell_type": "code", "source": "def broken(:\n"},
        {"cell_type": "code", "source": f"m = tf.contrib.{REMOVED}\n"},
        {"cell_type": "code", "source": "%%bash\nls | grep 'tf.contrib.x' (\n"},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 4,
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("scan_tree")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    (root / "nb.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skipped.py").write_text("import tensorflow as tf\ntf.Session()\n")
    return root


@pytest.fixture(scope="module")
def scanned(tree):
    proc = run(["-m", "tf1mem.scan", "--json", "--fail-on", "removed-none", str(tree)],
               timeout=180)
    assert proc.returncode == 1, describe(proc, "--fail-on removed-none must exit 1")
    assert "found removed-none (--fail-on)" in proc.stderr, describe(proc)
    data = json.loads(proc.stdout)
    return {str(f["path"]).replace(str(tree) + "/", ""): f for f in data["files"]}, data


def _cats(entry):
    return [(f["line"], f["category"], f["name"]) for f in entry["findings"]]


def test_every_file_is_found_and_hidden_folders_are_skipped(scanned):
    files, _ = scanned
    assert sorted(files) == sorted([*FILES, "nb.ipynb"])


def test_the_scanned_code_is_never_run_nor_imported(tree, scanned):
    files, _ = scanned
    assert files["pkg/side_effects.py"]["runs"]
    assert not list(tree.rglob("RAN_*"))


def test_aliases_are_followed(scanned):
    files, _ = scanned
    entry = files["pkg/aliases.py"]
    assert _cats(entry) == [
        (2, "mapped", f"tf.contrib.{MAPPED}"),
        (3, "mapped", f"tf.contrib.{MAPPED}"),
        (6, "as-is", "tf.placeholder"),
        (8, "mapped", f"tf.contrib.{MAPPED}"),
        (11, "as-is", "tf.Session"),
    ], entry
    assert entry["runs"] and entry["verdict"] == "runs under tf1mem.run"
    placeholder = entry["findings"][2]
    assert "tf.function" in placeholder["tf2"] and "MIGRATION.md" in placeholder["tf2"]


def test_first_unguarded_removed_use_is_the_stop(scanned):
    files, _ = scanned
    entry = files["pkg/stops.py"]
    advice = table.REMOVED_CONTRIB[REMOVED]
    assert _cats(entry) == [
        (3, "removed-replacement", f"tf.contrib.{REMOVED}"),
        (7, "removed-replacement", f"tf.contrib.{REMOVED}"),
        (8, "removed-none", "tf.contrib.no_such_module_in_any_table"),
    ], entry
    assert entry["findings"][0]["guarded"] and not entry["findings"][0]["stops"]
    assert entry["stop_line"] == 7 and not entry["runs"]
    assert entry["verdict"] == ("will stop at line 7 because "
                                + compat_errors.removed_message(f"tf.contrib.{REMOVED}", advice))
    assert entry["findings"][1]["tf2"] == advice


def test_numpy_alias_removed_from_numpy_is_reported_with_numpys_advice(scanned):
    """A name legacy NumPy gives back runs (with its new spelling); any other removed
    name stops the file, with NumPy's own advice."""
    files, _ = scanned
    entry = files["pkg/legacy_numpy.py"]
    alias, gone = entry["findings"]
    assert (alias["line"], alias["name"], alias["category"]) == (2, "np.float", "reimplemented")
    assert "write float" in alias["tf2"], alias
    assert (gone["line"], gone["name"], gone["category"]) == (
        3, "np.safe_eval", "removed-replacement")
    assert "literal_eval" in gone["tf2"], gone
    assert entry["stop_line"] == 3


def test_a_file_that_does_not_parse_is_reported_not_fatal(scanned):
    files, _ = scanned
    entry = files["pkg/broken.py"]
    assert not entry["runs"] and entry["findings"] == []
    assert re.search(r"does not parse \(line 1: ", entry["errors"][0]), entry
    assert files["plain.py"]["runs"] and files["plain.py"]["findings"] == []


def test_notebook_code_cells_share_aliases_and_skip_magics(scanned):
    files, _ = scanned
    entry = files["nb.ipynb"]
    got = [(f["cell"], f["line"], f["category"], f["name"]) for f in entry["findings"]]
    # cells are numbered among code cells: the markdown cell is not one
    assert got == [(2, 2, "as-is", "tf.Session"),
                   (4, 1, "removed-replacement", f"tf.contrib.{REMOVED}")], entry
    assert entry["errors"] == ["does not parse (cell 3 line 1: invalid syntax)"], entry
    assert not entry["runs"]


def test_totals_count_every_finding(scanned):
    files, data = scanned
    counts = {key: 0 for key in knowledge.CATEGORIES}
    for entry in files.values():
        for finding in entry["findings"]:
            counts[finding["category"]] += 1
    assert data["totals"] == counts
    assert counts == {"as-is": 3, "mapped": 3, "reimplemented": 1,
                      "removed-replacement": 4, "removed-none": 1}


def test_text_report_and_fail_on_clean_category(tree):
    proc = run(["-m", "tf1mem.scan", "--fail-on", "reimplemented", str(tree / "plain.py"),
                str(tree / "pkg" / "aliases.py")], timeout=120, check_rc=0)
    assert "plain.py: runs under tf1mem.run" in proc.stdout, describe(proc)
    assert re.search(r"aliases\.py:6: \[as-is\] tf\.placeholder -> ", proc.stdout)
    assert re.search(r"2 files: 2 run under tf1mem.run, 0 will stop", proc.stdout)
    assert re.search(r"^  mapped +3 ", proc.stdout, re.M), describe(proc)


def test_usage_errors_name_the_value(tmp_path):
    proc = run(["-m", "tf1mem.scan", str(tmp_path / "missing.py")], timeout=60)
    assert proc.returncode == 2
    assert "tf1mem.scan: error: " in proc.stderr and "missing.py: no such file" in proc.stderr
    proc = run(["-m", "tf1mem.scan", "--fail-on", "bogus", str(tmp_path)], timeout=60)
    assert proc.returncode == 2 and "bogus" in proc.stderr


@pytest.mark.parametrize("where", ["same", "inside", "nonempty"])
def test_rewrite_refuses_in_place_and_non_empty(tree, tmp_path, where):
    out = {"same": tree, "inside": tree / "pkg" / "out",
           "nonempty": tmp_path}[where]
    (tmp_path / "keep.txt").write_text("x")
    proc = run(["-m", "tf1mem.scan", "--rewrite", str(out), str(tree)], timeout=60)
    assert proc.returncode == 2, describe(proc)
    assert "tf1mem.scan: error: --rewrite" in proc.stderr
    assert not (tree / "pkg" / "out").exists()


def test_rewrite_runs_tf_upgrade_v2_then_lists_what_is_left(tree, tmp_path):
    out = tmp_path / "upgraded"
    proc = run(["-m", "tf1mem.scan", "--json", "--rewrite", str(out), str(tree / "pkg")],
               timeout=300, check_rc=0)
    data = json.loads(proc.stdout)
    rewritten = (out / "pkg" / "aliases.py").read_text()
    assert "tf.compat.v1.placeholder" in rewritten and "tf.compat.v1.Session" in rewritten
    assert (out / "tf_upgrade_v2_report.txt").is_file()
    files = {f["path"].replace(str(out) + "/", ""): f for f in data["files"]}
    names = {(f["name"], f["category"]) for f in files["pkg/aliases.py"]["findings"]}
    # tf_upgrade_v2 spelled them tf.compat.v1.X: still TF1-only, still listed
    assert ("tf.compat.v1.placeholder", "as-is") in names, files["pkg/aliases.py"]
    assert files["pkg/stops.py"]["stop_line"] is not None  # removed APIs stay removed
    assert data["rewrite"]["out_dir"] == str(out)
    # the input is untouched
    assert "tf.placeholder(" in (tree / "pkg" / "aliases.py").read_text()


def test_rewrite_copies_what_it_cannot_rewrite_unchanged_and_names_it(tmp_path):
    """A file with a syntax error and a latin-1 file with a coding cookie (python runs
    both) are copied byte for byte and listed with their reason; the rest is rewritten;
    nothing is left empty."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "good.py").write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    broken = b"import tensorflow as tf\ndef f(:\n    pass\n"
    (src / "broken.py").write_bytes(broken)
    latin = "# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = 'caf\xe9'\n".encode(
        "latin-1")
    (src / "latin.py").write_bytes(latin)
    out = tmp_path / "upgraded"
    proc = run(["-m", "tf1mem.scan", "--json", "--rewrite", str(out), str(src)],
               timeout=600)
    assert proc.returncode in (0, 1), describe(proc)
    data = json.loads(proc.stdout)
    assert (out / "src" / "broken.py").read_bytes() == broken
    assert (out / "src" / "latin.py").read_bytes() == latin
    assert "tf.compat.v1.placeholder" in (out / "src" / "good.py").read_text()
    skipped = {Path(item["path"]).name: item["reason"]
               for item in data["rewrite"]["copied_unchanged"]}
    assert "does not parse (line 2" in skipped["broken.py"]
    assert "iso-8859-1" in skipped["latin.py"] and "UTF-8 only" in skipped["latin.py"]
    assert not [p for p in out.rglob("*.py") if p.stat().st_size == 0]
    # no temporary build folder is left beside the output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src", "upgraded"]


def test_a_failing_rewrite_leaves_no_output_folder(tmp_path, monkeypatch):
    from tf1mem.migrate import rewrite

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(rewrite, "UPGRADE_MODULE", "tf1mem_no_such_module_anywhere")
    out = tmp_path / "out"
    with pytest.raises(tf1mem.Error, match=r"tf_upgrade_v2 failed on .*src .*nothing was "
                                           r"written"):
        rewrite.upgrade([str(src)], out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


def _agreement_script():
    """Touches every name of the table, each in its own try, printing what happened."""
    names = [f"contrib.{n}" for n in {**table.CONTRIB_MODULES, **table.REMOVED_CONTRIB}]
    names += [f"contrib.{key}" for key in table.REMOVED_SYMBOLS]
    names += list(table.REMOVED_TOP_LEVEL)
    names = [f"tf.{name}" for name in names]
    # NumPy names NumPy removed (tf1mem's legacy NumPy names may bring some back)
    names += [f"np.{name}" for name in sorted(getattr(np, "__former_attrs__", {}))]
    names += ["np.asscalar", "np.no_such_numpy_name"]
    lines = ["import tensorflow as tf", "import numpy as np"]
    for name in names:
        lines += ["try:", f"    {name}", f"    print('OK {name}')",
                  "except (ImportError, AttributeError) as e:",
                  f"    print('ERR {name} ' + ' '.join(str(e).split()))"]
    return "\n".join(lines) + "\n", names


def test_runner_and_scanner_agree_on_every_table_entry(tmp_path):
    source, names = _agreement_script()
    script = tmp_path / "table_probe.py"
    script.write_text(source)
    ran = run(["-m", "tf1mem.run", str(script)], timeout=180, check_rc=0)
    outcome = {}
    for line in ran.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        name, _, message = rest.partition(" ")
        outcome[name] = (kind, message)
    assert len(outcome) == len(names), describe(ran)
    scanned = run(["-m", "tf1mem.scan", "--json", str(script)], timeout=180, check_rc=0)
    (entry,) = json.loads(scanned.stdout)["files"]
    by_name = {f["name"]: f for f in entry["findings"]}
    assert sum(kind == "ERR" for kind, _ in outcome.values()) >= 10, outcome
    for name in names:
        kind, message = outcome[name]
        finding = by_name.get(name)
        if kind == "OK":
            assert finding is None or finding["category"] not in knowledge.STOPPING, (
                name, finding)
        else:
            assert finding is not None and finding["category"] in knowledge.STOPPING, (
                name, message, finding)
            assert finding["why"] == message, (name, finding["why"], message)
            assert finding["guarded"]


_NEW_ENTRY = """
import sys
from tf1mem.compat import errors as compat_errors
from tf1mem.compat import table
from tf1mem import scan
# a helper re-implements a removed module: one table entry, nothing else
name = sys.argv[2]
table.REMOVED_CONTRIB.pop(name, None)
table.CONTRIB_MODULES[name] = ("tf1mem.data.input_data", "a test re-implementation")
sys.exit(scan.main(["--json", sys.argv[1]]))
"""


def test_a_new_table_entry_flows_into_the_scanner(tmp_path):
    script = tmp_path / "uses_it.py"
    script.write_text(f"import tensorflow as tf\nk = tf.contrib.{REMOVED}.read_data_sets\n")
    proc = run(["-c", _NEW_ENTRY, str(script), REMOVED], timeout=120, check_rc=0)
    (entry,) = json.loads(proc.stdout)["files"]
    assert entry["runs"], entry
    assert [(f["line"], f["category"], f["name"]) for f in entry["findings"]] == [
        (2, "reimplemented", f"tf.contrib.{REMOVED}.read_data_sets")], entry


COMPAT_ESTIMATOR = """\
import tensorflow as tf
import tensorflow.compat.v1 as tf1
from tensorflow.compat.v1.estimator import RunConfig
from tensorflow.compat.v1 import estimator
e = tf.compat.v1.estimator.Estimator
f = tf.compat.v1.estimator.inputs.numpy_input_fn
g = tf1.estimator.inputs.numpy_input_fn
h = tf.compat.v2.estimator.Estimator
i = tf.compat.v2.estimator.inputs
j = tf1.contrib
k = tf.compat.v2.constant
"""


def test_compat_estimator_is_judged_through_the_shim(tmp_path):
    """tf.compat.v1.estimator.X runs under tf1mem.run (tf1mem's tf.estimator): not removed;
    what the shim refuses (v2's inputs, tf.contrib under compat.v1) stops, as in TF 1.15."""
    script = tmp_path / "compat_estimator.py"
    script.write_text(COMPAT_ESTIMATOR)
    proc = run(["-m", "tf1mem.scan", "--json", str(script)], timeout=180, check_rc=0)
    (entry,) = json.loads(proc.stdout)["files"]
    got = {f["line"]: (f["name"], f["category"]) for f in entry["findings"]}
    assert got == {
        3: ("tf.compat.v1.estimator.RunConfig", "reimplemented"),
        4: ("tf.compat.v1.estimator", "reimplemented"),
        5: ("tf.compat.v1.estimator.Estimator", "reimplemented"),
        6: ("tf.compat.v1.estimator.inputs.numpy_input_fn", "reimplemented"),
        7: ("tf.compat.v1.estimator.inputs.numpy_input_fn", "reimplemented"),
        8: ("tf.compat.v2.estimator.Estimator", "reimplemented"),
        9: ("tf.compat.v2.estimator.inputs", "removed-none"),
        10: ("tf.compat.v1.contrib", "removed-none"),
    }, describe(proc)
