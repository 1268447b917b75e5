"""A legacy repository's own test suite passes under tf1mem as under TF 1.15.5.

``tests/legacy_suites/minilearn`` is a small TF1-era library with its tests, written
the way such repositories wrote them (``tf.test.TestCase`` with ``test_session``,
``cached_session``, ``session``, ``assertAllClose``; tflearn-style ``unittest``
classes with ``tf.Graph().as_default()`` and ``tf.Session``; plain pytest functions
with fixtures from a root ``conftest.py`` and bare ``assert``s). Each test here runs
the suite from a copy, with pytest's default assertion rewriting, and compares every
test's outcome with what TF 1.15.5's own pytest gave (``oracle_tf115.json``,
recorded by ``python -m tests._legacy_suite --record /work/oracle/bin/python``).

The tests here: the commands in subprocesses; the rest: tests/unit/test_legacy_suites.py.
"""

import re

import pytest

from tests import _legacy_suite as suites

SUITE = "minilearn"
ORACLE = suites.load_oracle()[SUITE]
HEADER = "tf1mem: test modules and conftest.py files outside the library folders get " \
         "TensorFlow 1.x's API"


@pytest.fixture
def suite(tmp_path):
    return suites.copy_suite(SUITE, tmp_path)


def _rewritten(suite):
    """The test modules and conftest.py files pytest's assertion rewriter compiled."""
    return sorted(p.relative_to(suite).as_posix() for p in suite.rglob("*-pytest-*.pyc"))


def _assert_matches_oracle(proc, got):
    assert got == ORACLE["suite"]["outcomes"], suites.describe(proc)
    assert proc.returncode == ORACLE["suite"]["exit_code"], suites.describe(proc)


@pytest.mark.slow
def test_under_the_runner_with_assertion_rewriting_as_under_tf115(suite):
    proc, got = suites.run_pytest(suites.pytest_command("runner"), suite)
    _assert_matches_oracle(proc, got)
    # The modules came through pytest's rewriter (its own .pyc), not Python's loader.
    assert {"__pycache__/conftest", "tests/__pycache__/test_layers",
            "tests/__pycache__/test_training"} <= {
        re.sub(r"\.cpython-.*$", "", p) for p in _rewritten(suite)}, suites.describe(proc)


@pytest.mark.slow
def test_plugin_on_the_command_line_as_under_tf115(suite):
    proc, got = suites.run_pytest(suites.pytest_command("plain"), suite,
                                  "-p", "tf1mem.pytest_plugin")
    _assert_matches_oracle(proc, got)
    assert HEADER in proc.stdout
    assert any("test_metrics" in p for p in _rewritten(suite)), suites.describe(proc)


@pytest.mark.slow
def test_plugin_configured_in_the_repository_as_under_tf115(suite):
    (suite / "pytest.ini").unlink()
    (suite / "setup.cfg").write_text(
        "[tool:pytest]\ntestpaths = tests\naddopts = -p tf1mem.pytest_plugin\n",
        encoding="utf-8")
    proc, got = suites.run_pytest(suites.pytest_command("plain"), suite)
    _assert_matches_oracle(proc, got)
    assert HEADER in proc.stdout


@pytest.mark.slow
def test_without_the_plugin_pytest_is_unchanged(suite):
    """Not asked for, tf1mem changes nothing: the suite gets TF 2 and fails."""
    proc, got = suites.run_pytest(suites.pytest_command("plain"), suite)
    assert proc.returncode == 1, suites.describe(proc)
    assert HEADER not in proc.stdout
    assert "module 'tensorflow' has no attribute 'placeholder'" in proc.stdout
    assert got["tests.test_ops.GraphOpsTest::testPlaceholderFeed"] == "failed"


@pytest.mark.slow
@pytest.mark.parametrize("how", ["runner", "plugin"])
def test_a_failing_assert_shows_both_values_as_under_tf115(suite, how):
    cmd = suites.pytest_command("runner" if how == "runner" else "plain")
    extra = () if how == "runner" else ("-p", "tf1mem.pytest_plugin")
    proc, got = suites.run_pytest(cmd, suite, *extra, suites.FAILING)
    assert got == ORACLE["failing"]["outcomes"], suites.describe(proc)
    assert proc.returncode == ORACLE["failing"]["exit_code"] == 1
    assert suites.assert_lines(proc.stdout) == ORACLE["failing"]["assert_lines"], \
        suites.describe(proc)


@pytest.mark.slow
def test_plain_assertions_show_no_values(suite):
    """The contrast: with --assert=plain the same failure names no value."""
    proc, got = suites.run_pytest(suites.pytest_command("runner"), suite,
                                  "--assert=plain", suites.FAILING)
    assert got == ORACLE["failing"]["outcomes"], suites.describe(proc)
    assert "assert 3.0 == 4.0" not in proc.stdout
    assert "E       AssertionError" in proc.stdout, suites.describe(proc)


@pytest.mark.slow
def test_tf_test_main_under_the_runner_as_under_tf115(suite):
    proc = suites.run([*suites.pytest_command("runner")[:3], suites.SCRIPT], cwd=suite)
    assert proc.returncode == ORACLE["tf_test_main"]["exit_code"], suites.describe(proc)
    assert suites.unittest_summary(proc.stderr) == ORACLE["tf_test_main"]["summary"], \
        suites.describe(proc)
    # What the tests printed, TF's default test seed's random draw included.
    assert proc.stdout.splitlines() == ORACLE["tf_test_main"]["printed"], suites.describe(proc)
