"""The ranked tf.contrib table: one source (compat/table.py), the docs generated from it."""

from pathlib import Path

import pytest

from tests import _subproc
from tf1mem.compat import errors as compat_errors
from tf1mem.migrate import inventory
from tf1mem.compat import table

DOC = Path(__file__).resolve().parents[2] / "docs" / "CONTRIB.md"


def test_docs_table_is_generated_from_the_table():
    assert DOC.read_text() == inventory.render(), (
        "docs/CONTRIB.md is out of date: run "
        "python -m tf1mem.migrate.inventory > docs/CONTRIB.md")


def test_every_module_has_one_decision():
    assert not set(table.CONTRIB_MODULES) & set(table.REMOVED_CONTRIB)
    rows = inventory.ranked_table()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    counts = [r[2] for r in rows]
    assert counts == sorted(counts, reverse=True)
    for _, name, _, decision, home in rows:
        assert decision in ("mapped", "mapped + tf1mem code", "re-implemented", "removed",
                            "removed (partly provided)"), name
        assert home, f"tf.contrib.{name} names no home or replacement"


def test_sample_counts_add_up():
    assert sum(table.USAGE.values()) == table.USAGE_SAMPLE_SIZE
    assert set(table.USAGE) <= set(table.CONTRIB_MODULES) | set(table.REMOVED_CONTRIB)


def test_the_most_used_modules_are_provided():
    provided = [name for _, name, _, decision, _ in inventory.ranked_table()[:6]
                if not decision.startswith("removed")]
    assert provided == ["layers", "rnn", "framework", "slim", "data", "summary"]


def test_removed_message_names_the_replacement():
    msg = compat_errors.removed_message("tf.contrib.opt.LARSOptimizer",
                                  table.REMOVED_SYMBOLS["opt.LARSOptimizer"])
    assert "tf.contrib.opt.LARSOptimizer was removed with TensorFlow 2" in msg
    assert "Use instead: tf.keras.optimizers" in msg


@pytest.mark.slow
def test_dir_of_a_composite_module_lists_every_provided_name(tmp_path):
    """dir(tf.contrib.rnn) lists what TF 1.15's did, not only the names used so far; a name
    the table marks missing (None) stays out."""
    script = tmp_path / "names.py"
    script.write_text(
        "import tensorflow as tf\n"
        "rnn, data = dir(tf.contrib.rnn), dir(tf.contrib.data)\n"
        "print(all(n in rnn for n in ('ConvLSTMCell', 'Conv3DLSTMCell', 'LSTMCell',\n"
        "                           'AttentionCellWrapper')),\n"
        "      'assert_element_shape' in data, 'batch_and_drop_remainder' in data)\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["True", "False", "True"]


@pytest.mark.slow
def test_star_import_of_a_composite_module_gives_every_provided_name(tmp_path):
    """``from tensorflow.contrib.rnn import *`` (2017 code did) binds every name TF 1.15's
    did, not only those the script used before; a missing name (None) stays out."""
    script = tmp_path / "star.py"
    script.write_text(
        "from tensorflow.contrib.rnn import *\n"
        "from tensorflow.contrib.data import *\n"
        "print(LSTMBlockCell.__name__, static_rnn.__name__, ConvLSTMCell.__name__,\n"
        "      batch_and_drop_remainder.__name__, 'assert_element_shape' in globals())\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["LSTMBlockCell", "static_rnn", "ConvLSTMCell",
                                   "batch_and_drop_remainder", "False"]
