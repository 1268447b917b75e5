"""The ranked tf.contrib table: one source (compat/table.py), the docs generated from it.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_table.py.
"""

from pathlib import Path

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
