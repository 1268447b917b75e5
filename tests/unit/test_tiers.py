"""The test tiers: every test file in a tier folder, and each tier's rule able to fail."""

import textwrap

from tests import _subproc

TESTS = _subproc.REPO / "tests"
TIERS = ("unit", "tf", "commands", "corpus")


def test_every_test_file_is_in_a_tier_folder():
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
    folders = {p.parent.name for p in TESTS.glob("*/test_*.py")}
    assert folders == set(TIERS), folders
    for tier in TIERS:
        assert (TESTS / tier / "__init__.py").is_file(), tier


def test_importing_tensorflow_fails_in_this_tier():
    try:
        import tensorflow  # noqa: F401
    except ImportError as exc:
        assert "tensorflow" in str(exc)
    else:
        raise AssertionError("the unit tier let a test import TensorFlow")


def _probe(tmp_path, plugin, body):
    """Runs pytest on one probe file under a tier's conftest, as a plugin."""
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(body))
    return _subproc.run(["-m", "pytest", "-p", plugin, "-p", "no:cacheprovider", "-q",
                         "-rf", "test_probe.py"], cwd=tmp_path, timeout=120)


def test_the_unit_rule_fails_a_test_that_imports_tensorflow(tmp_path):
    proc = _probe(tmp_path, "tests.unit.conftest", """\
        def test_uses_tensorflow():
            import tensorflow

        def test_uses_json():
            import json
        """)
    assert proc.returncode == 1, _subproc.describe(proc)
    assert "FAILED test_probe.py::test_uses_tensorflow" in proc.stdout, _subproc.describe(proc)
    assert "1 failed, 1 passed" in proc.stdout, _subproc.describe(proc)


def test_the_tf_rule_fails_a_test_that_starts_python(tmp_path):
    proc = _probe(tmp_path, "tests.tf.conftest", """\
        import subprocess, sys

        def test_starts_python():
            subprocess.run([sys.executable, "-c", "pass"], check=True)

        def test_starts_another_program():
            subprocess.run(["true"], check=True)
        """)
    assert proc.returncode == 1, _subproc.describe(proc)
    assert "FAILED test_probe.py::test_starts_python" in proc.stdout, _subproc.describe(proc)
    assert "belong in tests/commands/" in proc.stdout, _subproc.describe(proc)
    assert "1 failed, 1 passed" in proc.stdout, _subproc.describe(proc)
