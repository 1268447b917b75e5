"""Runs every script of tests/legacy_corpus/ through ``python -m tf1mem.run`` and checks it.

Each script is one TF 1.x idiom written as a TF 1.x user would have written it; what it must
print and exit with is in ``tests/legacy_corpus/expected.py`` (derived from TF 1.15.5).

``TF1MEM_CORPUS_RUNNER`` (a command prefix, split like a shell would) replaces
``<python> -m tf1mem.run``, e.g. to check the corpus against another interpreter or runner.
"""

import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests._corpus_check import check as _check

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[1] / "legacy_corpus"
TIMEOUT_S = 120


def _load_cases():
    spec = importlib.util.spec_from_file_location("legacy_corpus_expected", CORPUS / "expected.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


CASES = _load_cases()
SCRIPTS = sorted(p.name for p in CORPUS.glob("*.py") if p.name != "expected.py")


def _runner():
    override = os.environ.get("TF1MEM_CORPUS_RUNNER")
    if override:
        return shlex.split(override)
    return [sys.executable, "-m", "tf1mem.run"]


def _env(extra=None):
    """The environment, with this checkout's tf1mem first (not an editable install's), and a
    case's own ``env`` entries (what its TF 1.x user would have set) on top."""
    env = dict(os.environ)
    env.update(extra or {})
    if not os.environ.get("TF1MEM_CORPUS_RUNNER"):
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(CORPUS.parents[1]), env.get("PYTHONPATH", "")) if p)
    return env


def _params():
    for name in SCRIPTS:
        case = CASES.get(name, {})
        marks = [pytest.mark.xfail(reason=case["xfail"], strict=False)] if case.get("xfail") else []
        yield pytest.param(name, id=name[:-3], marks=marks)


def test_every_script_has_an_expectation():
    assert sorted(CASES) == SCRIPTS


@pytest.mark.parametrize("script", list(_params()))
def test_legacy_script(script, tmp_path, request):
    case = CASES[script]
    args = []
    for i, arg in enumerate(case.get("args", [])):
        if "{mnist}" in arg:  # the real MNIST files (verified), see conftest.real_mnist_dir
            arg = arg.replace("{mnist}", str(request.getfixturevalue("real_mnist_dir")))
        if "{tmpdir}" in arg:
            d = tmp_path / ("arg%d" % i)
            d.mkdir()
            arg = arg.replace("{tmpdir}", str(d))
        args.append(arg)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    cmd = _runner() + [str(CORPUS / script)] + args
    try:
        proc = subprocess.run(cmd, cwd=str(cwd), env=_env(case.get("env")), capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        pytest.fail("timed out after %ds: %s\n--- stdout\n%s\n--- stderr\n%s" % (
            TIMEOUT_S, shlex.join(cmd), e.stdout, e.stderr))
    problems = _check(case, proc)
    if problems:
        pytest.fail("%s\ncommand: %s  (cwd %s)\n--- stdout\n%s\n--- stderr\n%s" % (
            "\n".join(problems), shlex.join(cmd), cwd, proc.stdout, proc.stderr))
