"""``python -m tf1mem.scan`` is quick and quiet: it imports no TensorFlow, prints no
TensorFlow log line, gives each name its own hint, says a module's note once a file, and
``--help`` gives every flag its default; and its data about TensorFlow is current.

The tests here: the command in subprocesses; the suggestions' check against the installed
TensorFlow: tests/tf/test_scan_suggestions.py.
"""

import json
import re
import textwrap

import pytest

from tests._subproc import REPO, describe, run

pytestmark = pytest.mark.slow

SMALL = {
    "a.py": """\
        import tensorflow as tf
        from tensorflow.contrib import layers
        x = tf.placeholder(tf.float32, [None, 3])
        h = tf.contrib.layers.fully_connected(x, 4)
        c = tf.contrib.layers.real_valued_column("a")
        cell = tf.contrib.rnn.BasicLSTMCell(4)
        e = tf.estimator.DNNClassifier
        """,
    "b.py": """\
        import tensorflow.contrib.layers as L1
        import tensorflow.contrib.layers as L2
        import tensorflow as tf
        sess = tf.Session()
        """,
}

_PROBE = """
import runpy, sys
sys.argv = ["tf1mem.scan", "--json", *sys.argv[1:]]
try:
    runpy.run_module("tf1mem.scan", run_name="__main__")
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("tensorflow", "tf_keras",
                                                              "keras", "tf_slim"))
print("HEAVY", heavy, file=sys.stderr)
sys.exit(code)
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    root = tmp_path_factory.mktemp("scan_small")
    for name, text in SMALL.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_scan_imports_no_tensorflow_and_prints_no_log_line(small):
    proc = run(["-c", _PROBE, str(small / "a.py"), str(small / "b.py")], timeout=120,
               check_rc=0)
    assert "HEAVY []" in proc.stderr, describe(proc)
    others = [line for line in proc.stderr.splitlines() if not line.startswith("HEAVY")]
    assert others == [], describe(proc, "stderr must hold no TensorFlow log line")
    assert len(json.loads(proc.stdout)["files"]) == 2


def test_each_name_gets_its_own_hint_and_a_module_note_once_a_file(small):
    proc = run(["-m", "tf1mem.scan", "--json", str(small)], timeout=120, check_rc=0)
    files = {f["path"].rsplit("/", 1)[-1]: f for f in json.loads(proc.stdout)["files"]}
    hints = {f["name"]: f["tf2"] for f in files["a.py"]["findings"]}
    assert hints["tf.contrib.layers.real_valued_column"].startswith(
        "tf.feature_column.numeric_column"), hints
    assert hints["tf.contrib.layers.fully_connected"].startswith("tf.keras.layers.Dense")
    lstm = hints["tf.contrib.rnn.BasicLSTMCell"]
    assert "tf.keras.layers.LSTMCell" in lstm and "forget_bias" in lstm, lstm
    assert "LayerNormBasicLSTMCell" not in lstm  # not the module's inventory
    assert "tf.compat.v1.estimator" not in hints["tf.estimator.DNNClassifier"]
    assert "tf1mem.run" in hints["tf.estimator.DNNClassifier"]
    notes = [f["tf2"] for f in files["b.py"]["findings"] if f["name"] == "tf.contrib.layers"]
    assert len(notes) == 2 and "tf-slim" in notes[0], notes
    assert notes[1] == "tf.contrib.layers: see its note at line 1", notes


def test_help_gives_every_flag_a_help_text_with_its_default():
    proc = run(["-m", "tf1mem.scan", "--help"], timeout=60, check_rc=0)
    assert "``" not in proc.stdout
    text = " ".join(proc.stdout.split())
    for flag in ("--json", "--fail-on CATEGORY", "--rewrite OUT_DIR"):
        help_text = text.split(flag, 2)[-1].split(" --", 1)[0]
        assert "default" in help_text, (flag, help_text)
    assert re.search(r"imports no TensorFlow", text), text


def test_the_scanners_data_is_current():
    """Regenerating tf1mem/migrate/tf_names.py in a fresh process gives the same file (a
    new table entry, a new re-implementation or another TensorFlow makes it stale)."""
    proc = run(["-m", "tf1mem.migrate.snapshot"], cwd=REPO, timeout=300, check_rc=0)
    stored = (REPO / "tf1mem" / "migrate" / "tf_names.py").read_text(encoding="utf-8")
    assert proc.stdout == stored, ("tf1mem/migrate/tf_names.py is stale: run python -m "
                                   "tf1mem.migrate.snapshot > tf1mem/migrate/tf_names.py")
