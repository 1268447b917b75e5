"""A legacy repository's own test suite passes under tf1mem as under TF 1.15.5.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_legacy_suites.py.
"""

import configparser

from tests import _legacy_suite as suites
from tests import _subproc
from tests.commands.test_legacy_suites import ORACLE, SUITE


def test_the_oracle_record_covers_every_test_file_of_the_suite():
    files = {p.stem for p in (suites.SUITES / SUITE / "tests").glob("test_*.py")}
    recorded = {key.split("::")[0].split(".")[1] for key in ORACLE["suite"]["outcomes"]}
    assert recorded == files, "re-record: python -m tests._legacy_suite --record PYTHON"
    assert ORACLE["tensorflow"] == "1.15.5"


def test_no_pytest11_entry_point_is_registered():
    """pytest loads the plugin only where asked (-p or a repository's addopts)."""
    cfg = configparser.ConfigParser()
    cfg.read(_subproc.REPO / "setup.cfg", encoding="utf-8")
    points = cfg.get("options.entry_points", "pytest11", fallback="")
    assert "tf1mem" not in points
    pyproject = (_subproc.REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "pytest11" not in pyproject
