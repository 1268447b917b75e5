"""Runs every script of tests/legacy_corpus/ through ``python -m tf1mem.run`` and checks it.

Each script is one TF 1.x idiom written as a TF 1.x user would have written it; what it must
print and exit with is in ``tests/legacy_corpus/expected.py`` (derived from TF 1.15.5).

``TF1MEM_CORPUS_RUNNER`` (a command prefix, split like a shell would) replaces
``<python> -m tf1mem.run``, e.g. to check the corpus against another interpreter or runner.

Without it, the cases run forked from one process that imported TensorFlow once
(:mod:`tests._forkrun`), as ``python -m tf1mem.run`` would run them but without a
TensorFlow start-up each; a case that sets its own environment (``env``) runs cold.
Either way the checks on exit code, stdout and stderr are the same.
"""

import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests import _forkrun, _subproc
from tests._corpus_check import check as _check
from tf1mem import errors

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[1] / "legacy_corpus"
TIMEOUT_S = 120  # on an idle machine; scaled by tests._subproc.bound


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


@pytest.fixture(scope="module")
def warm_runner():
    """A :class:`tests._forkrun.ForkServer` for the corpus, or None to run it all cold.

    None with ``TF1MEM_CORPUS_RUNNER`` (every case then runs on that command) and where
    the loopback bind shim cannot be built (no C compiler): a cold run then shows the
    runner as it behaves without the shim.
    """
    if os.environ.get("TF1MEM_CORPUS_RUNNER"):
        yield None
        return
    try:
        server = _forkrun.ForkServer(_env(), start_timeout=_subproc.bound(120),
                                     loopback=True)
    except errors.ClusterError:
        yield None
        return
    yield server
    server.close()


def test_every_script_has_an_expectation():
    assert sorted(CASES) == SCRIPTS


@pytest.mark.parametrize("script", list(_params()))
def test_legacy_script(script, tmp_path, request, warm_runner):
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
    timeout = _subproc.bound(TIMEOUT_S)
    # A case with its own environment runs cold: TensorFlow reads variables at import.
    forked = warm_runner is not None and not case.get("env")
    how = " (forked from tests/_forkrun.py's server; run the command to see it cold)" \
        if forked else ""
    try:
        if forked:
            proc = warm_runner.run(["-m", "tf1mem.run", str(CORPUS / script)] + args,
                                   cwd=cwd, timeout=timeout)
        else:
            proc = subprocess.run(cmd, cwd=str(cwd), env=_env(case.get("env")),
                                  capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail("timed out after %ds: %s%s\n--- stdout\n%s\n--- stderr\n%s" % (
            timeout, shlex.join(cmd), how, e.stdout, e.stderr))
    problems = _check(case, proc)
    if problems:
        pytest.fail("%s\ncommand: %s  (cwd %s)%s\n--- stdout\n%s\n--- stderr\n%s" % (
            "\n".join(problems), shlex.join(cmd), cwd, how, proc.stdout, proc.stderr))
