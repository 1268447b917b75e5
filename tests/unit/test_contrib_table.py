"""The ranked tf.contrib table: one source (compat/table.py), the docs generated from it.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_table.py.
"""

from pathlib import Path

import pytest

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


def test_removed_names_raises_the_tables_replacement_and_attach_falls_back_to_it():
    import sys
    import types

    from tf1mem import _lazy

    getattr_ = compat_errors.removed_names("tf.contrib.learn.io", "m")
    with pytest.raises(compat_errors.RemovedAttributeError,
                       match=r"^tf\.contrib\.learn\.io\.read_batch_examples was removed .* "
                             r"Use instead: tf\.data\.TFRecordDataset"):
        getattr_("read_batch_examples")
    with pytest.raises(AttributeError, match=r"^module 'm' has no attribute 'nope'$") as info:
        getattr_("nope")
    assert type(info.value) is AttributeError
    every = compat_errors.removed_names("tf.x", "m", {"a": "b"}, default="c",
                                        unknown="no {name!r} here")
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"tf\.x\.a .* Use instead: b\."):
        every("a")
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"tf\.x\.z .* Use instead: c\."):
        every("z")
    with pytest.raises(AttributeError, match=r"^no '__wrapped__' here$"):
        every("__wrapped__")  # dunders are never "removed"
    with pytest.raises(ValueError, match="not below tf.contrib"):
        compat_errors.removed_names("tf.x", "m")

    module = types.ModuleType("tf1mem_probe_lazy")
    sys.modules[module.__name__] = module
    try:
        module.__getattr__, module.__dir__, module.__all__ = _lazy.attach(
            module.__name__, {"join": "os.path"}, fallback=getattr_)
        import os.path

        assert module.join is os.path.join and "join" in vars(module)  # cached
        with pytest.raises(compat_errors.RemovedAttributeError, match="read_batch_examples"):
            module.read_batch_examples  # noqa: B018
        module.__getattr__, _, _ = _lazy.attach(module.__name__, {}, fallback=lambda name: None)
        with pytest.raises(AttributeError, match="has no attribute 'x'"):
            module.x  # noqa: B018  (a fallback that returns still ends in AttributeError)
    finally:
        del sys.modules[module.__name__]
