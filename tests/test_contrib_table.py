"""The ranked tf.contrib table: one source (compat/contrib.py), the docs generated from it."""

from pathlib import Path

from tf1mem.compat import contrib

DOC = Path(__file__).resolve().parents[1] / "docs" / "CONTRIB.md"


def test_docs_table_is_generated_from_contrib_py():
    assert contrib.markdown_table() in DOC.read_text(), (
        "docs/CONTRIB.md is out of date: paste the output of "
        "python -c 'from tf1mem.compat import contrib; print(contrib.markdown_table())'")


def test_every_module_has_one_decision():
    assert not set(contrib.CONTRIB_MODULES) & set(contrib.REMOVED_CONTRIB)
    rows = contrib.ranked_table()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    counts = [r[2] for r in rows]
    assert counts == sorted(counts, reverse=True)
    for _, name, _, decision, home in rows:
        assert decision in ("mapped", "mapped + tf1mem code", "re-implemented", "removed",
                            "removed (partly provided)"), name
        assert home, f"tf.contrib.{name} names no home or replacement"


def test_sample_counts_add_up():
    assert sum(contrib.USAGE.values()) == contrib.USAGE_SAMPLE_SIZE
    assert set(contrib.USAGE) <= set(contrib.CONTRIB_MODULES) | set(contrib.REMOVED_CONTRIB)


def test_the_most_used_modules_are_provided():
    provided = [name for _, name, _, decision, _ in contrib.ranked_table()[:6]
                if not decision.startswith("removed")]
    assert provided == ["layers", "rnn", "framework", "slim", "data", "summary"]


def test_removed_message_names_the_replacement():
    msg = contrib.removed_message("tf.contrib.opt.LARSOptimizer",
                                  contrib.REMOVED_SYMBOLS["opt.LARSOptimizer"])
    assert "tf.contrib.opt.LARSOptimizer was removed with TensorFlow 2" in msg
    assert "Use instead: tf.keras.optimizers" in msg
