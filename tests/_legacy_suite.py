"""The vendored legacy test suites of ``tests/legacy_suites/``: copied out, run, read back.

A suite runs from a copy in a temporary folder, as a legacy repository checked out
elsewhere would (this checkout's own folder holds tf1mem, so it counts as a library
folder, not user code). :func:`run_pytest` runs pytest on it one of three ways
(``runner``: ``python -m tf1mem.run -m pytest``; ``plain``: the ``pytest`` console
script, with no folder added to ``sys.path``; ``oracle``: TF 1.15.5's own ``python -m
pytest``) and reads each test's outcome from pytest's JUnit XML.

Recording what TF 1.15.5 did (``oracle_tf115.json`` beside the suites)::

    python -m tests._legacy_suite --record /work/oracle/bin/python
"""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests import _subproc

REPO = Path(__file__).resolve().parents[1]
SUITES = REPO / "tests" / "legacy_suites"
ORACLE_JSON = SUITES / "oracle_tf115.json"
TIMEOUT_S = 600  # a hang guard: each run is one pytest process importing TensorFlow

# The `pytest` console script: pytest's main with nothing added to sys.path (python -c
# would add the current folder, which `pytest` does not).
CONSOLE = "import sys; del sys.path[0]; import pytest; sys.exit(pytest.console_main())"

# One suite's runs: the main run (its pytest.ini's testpaths), the deliberately
# failing test run alone, and a TF-style test file run as a script (tf.test.main()).
FAILING = "failing/test_values_shown.py"
SCRIPT = "tests/test_ops.py"


def copy_suite(name, dest):
    """Copies ``tests/legacy_suites/<name>`` to ``dest/<name>``; returns the copy."""
    target = Path(dest) / name
    shutil.copytree(SUITES / name, target,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return target


def _env():
    env = dict(os.environ)
    for name in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def pytest_command(kind, python=None):
    """The command that runs pytest: ``runner``, ``plain`` or ``oracle`` (``python``)."""
    if kind == "runner":
        return [sys.executable, "-m", "tf1mem.run", "-m", "pytest"]
    if kind == "plain":
        return [sys.executable, "-c", CONSOLE]
    if kind == "oracle":
        return [python, "-m", "pytest"]
    raise ValueError(f"kind {kind!r}: use 'runner', 'plain' or 'oracle'")


def run(cmd, cwd):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=_subproc.bound(TIMEOUT_S))


def outcomes(junit_xml):
    """``{"module.Class::test": "passed" | "failed" | "error" | "skipped"}`` from JUnit XML."""
    found = {}
    for case in ET.parse(junit_xml).getroot().iter("testcase"):
        key = f"{case.get('classname')}::{case.get('name')}"
        tags = {child.tag for child in case}
        outcome = ("error" if "error" in tags else "failed" if "failure" in tags
                   else "skipped" if "skipped" in tags else "passed")
        found[key] = outcome
    return found


def run_pytest(cmd, suite, *args):
    """Runs ``cmd`` (a pytest command) in ``suite`` with ``args``; (process, outcomes)."""
    junit = Path(suite).parent / f"junit-{len(list(Path(suite).parent.glob('junit-*')))}.xml"
    proc = run([*cmd, f"--junitxml={junit}", *args], cwd=suite)
    return proc, (outcomes(junit) if junit.exists() else {})


def assert_lines(stdout):
    """The ``E   ...`` lines of pytest's failure report: the explained assertion."""
    return [line for line in stdout.splitlines() if line.startswith("E ")]


def unittest_summary(stderr):
    """unittest's closing lines (``Ran N tests``, ``OK ...``), run time dropped."""
    lines = [re.sub(r"^(Ran \d+ tests?) in [\d.]+s$", r"\1", line)
             for line in stderr.splitlines()]
    return [line for line in lines if re.match(r"^(Ran \d+ tests?|OK\b|FAILED\b)", line)]


def describe(proc):
    return (f"command: {' '.join(map(str, proc.args))}\nexit code: {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout[-6000:]}\n--- stderr ---\n{proc.stderr[-6000:]}")


def load_oracle():
    return json.loads(ORACLE_JSON.read_text(encoding="utf-8"))


def record(python, name, workdir):
    """What TF 1.15.5 (``python``, its venv with pytest) did with suite ``name``."""
    versions = run([python, "-c", "import sys, pytest, tensorflow as tf; "
                    "print(sys.version.split()[0], pytest.__version__, tf.__version__)"],
                   cwd=workdir)
    py_version, pytest_version, tf_version = versions.stdout.split()
    cmd = pytest_command("oracle", python)
    suite = copy_suite(name, Path(workdir) / "suite")
    proc, got = run_pytest(cmd, suite)
    failing_copy = copy_suite(name, Path(workdir) / "failing")
    failing, failing_got = run_pytest(cmd, failing_copy, FAILING)
    script_copy = copy_suite(name, Path(workdir) / "script")
    script = run([python, SCRIPT], cwd=script_copy)
    return {
        "python": py_version, "pytest": pytest_version, "tensorflow": tf_version,
        "suite": {"exit_code": proc.returncode, "outcomes": got},
        "failing": {"test": FAILING, "exit_code": failing.returncode,
                    "outcomes": failing_got, "assert_lines": assert_lines(failing.stdout)},
        "tf_test_main": {"script": SCRIPT, "exit_code": script.returncode,
                         "summary": unittest_summary(script.stderr),
                         "printed": script.stdout.splitlines()},
    }


def main(argv):
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests._legacy_suite")
    parser.add_argument("--record", metavar="PYTHON", required=True,
                        help="the TF 1.15.5 interpreter (its venv needs pytest)")
    ns = parser.parse_args(argv)
    data = {}
    for suite in sorted(p.name for p in SUITES.iterdir() if (p / "pytest.ini").is_file()):
        with tempfile.TemporaryDirectory() as workdir:
            data[suite] = record(ns.record, suite, workdir)
    ORACLE_JSON.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {ORACLE_JSON}")


if __name__ == "__main__":
    main(sys.argv[1:])
