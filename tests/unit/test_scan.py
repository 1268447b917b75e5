"""``python -m tf1mem.scan``: findings on a fixture tree, aliasing, notebooks, bad files,
``--json`` / ``--fail-on`` / ``--rewrite``, and agreement with the runner on the table.

The tests here: no TensorFlow in the test process; the rest: tests/commands/test_scan.py.
"""

import pytest

from tf1mem import scan
from tf1mem.migrate import knowledge

pytestmark = pytest.mark.slow


def test_fail_on_choices_are_the_categories():
    assert set(scan.FAIL_ON) == set(knowledge.CATEGORIES) | {"stops"}


def test_scan_has_a_console_script():
    import configparser
    from pathlib import Path

    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    scripts = cfg.get("options.entry_points", "console_scripts")
    assert "tf1mem-scan = tf1mem.scan:entry" in scripts
    assert callable(scan.entry)
