"""``python -m tf1mem.scan --rewrite``: after tf_upgrade_v2, what changed meaning in TF 2
is flagged with file:line, and every path in both reports is as the user gave it.

The tests here: the command in subprocesses; the rest of the rewrite's tests:
tests/commands/test_scan.py.
"""

import json
import textwrap

import pytest

from tests._subproc import describe, run

pytestmark = pytest.mark.slow

SOURCE = """\
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [None, 3])
    loss = tf.reduce_mean(x)
    tf.summary.scalar("loss", loss)
    sess = tf.Session()
    img = tf.image.resize_images(x, [2, 2])
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    """


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory):
    root = tmp_path_factory.mktemp("rewrite_rel")
    (root / "src").mkdir()
    (root / "src" / "train.py").write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    text = run(["-m", "tf1mem.scan", "--rewrite", "out", "src"], cwd=root, timeout=300,
               check_rc=0)
    data = run(["-m", "tf1mem.scan", "--json", "--rewrite", "out2", "src"], cwd=root,
               timeout=300, check_rc=0)
    return root, text, json.loads(data.stdout)


def test_what_changed_meaning_is_flagged_with_file_and_line(rewritten):
    _, text, data = rewritten
    out = text.stdout
    assert "out/src/train.py:4: [changed in TF 2] tf.summary.scalar: " in out, describe(text)
    assert "create_file_writer" in out and "step=" in out
    assert "out/src/train.py:6: [changed in TF 2] tf.image.resize: " in out
    assert out.count("[changed in TF 2] tf.keras") == 1  # said once a file
    assert out.count("[changed in TF 2] tf.compat.v1") == 1
    assert "out/src/train.py:2: [changed in TF 2] tf.compat.v1.placeholder: " in out
    (entry,) = data["files"]
    # each summary / resize use, the tf.compat.v1 and tf.keras notes once a file
    assert [(c["line"], c["name"]) for c in entry["changed"]] == [
        (2, "tf.compat.v1.placeholder"), (4, "tf.summary.scalar"), (6, "tf.image.resize"),
        (7, "tf.keras.Sequential")], entry["changed"]


def test_paths_stay_as_the_user_gave_them(rewritten):
    root, text, data = rewritten
    assert str(root) not in text.stdout, describe(text)
    assert str(root) not in json.dumps(data)
    assert data["files"][0]["path"] == "out2/src/train.py"
    assert data["rewrite"]["tf_upgrade_v2_reports"] == ["out2/tf_upgrade_v2_report.txt"]
    report = (root / "out" / "tf_upgrade_v2_report.txt").read_text()
    assert "tf1mem-rewrite" not in report and ".staging" not in report, report
    assert "'src'" in report or "src/train.py" in report, report
