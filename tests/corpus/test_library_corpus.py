"""The TF1-era libraries' quick starts (``tests/legacy_corpus/libraries/``) under ``tf1mem.run``.

Each case runs twice in the libraries' environment (``tests/_libraries.py``: docs/LIBRARIES.md's
recipe, built once per machine): *named*, with ``--no-known-tf1-packages --tf1-packages PKG``,
and *recognised*, with neither (``--verbose`` must then report the library as recognised).
What each must print is in ``tests/legacy_corpus/libraries/expected.py`` (TF 1.15.5's output).
"""

import importlib.util
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests import _libraries, _subproc
from tests._corpus_check import check

pytestmark = [pytest.mark.slow, pytest.mark.libraries]

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "legacy_corpus" / "libraries"
TIMEOUT_S = 600
DOC = REPO / "docs" / "LIBRARIES.md"


def _load_cases():
    spec = importlib.util.spec_from_file_location("library_corpus_expected",
                                                  CORPUS / "expected.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


CASES = _load_cases()
SCRIPTS = sorted(p.name for p in CORPUS.glob("*.py") if p.name != "expected.py")


@pytest.fixture(scope="session")
def libraries_python():
    """The python of the libraries' environment, built on first use (a few minutes)."""
    try:
        python, log = _libraries.venv_python()
    except _libraries.BuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    if log is not None:
        print(f"built the TF1-era libraries' environment in {log['seconds']} s")
    return python


def test_every_script_has_an_expectation():
    assert sorted(CASES) == SCRIPTS


def test_the_docs_show_the_tested_recipe():
    """docs/LIBRARIES.md shows each pip command the tests build the environment with."""
    text = DOC.read_text()
    for what, args in _libraries.RECIPE:
        command = "python -m pip install " + " ".join(
            shlex.quote(a) if "<" in a else a for a in args)
        assert command in text, f"docs/LIBRARIES.md lacks the step {what!r}: {command}"
    for name, value in _libraries.ENV.items():
        assert f"{name}={value}" in text


def test_a_failed_build_names_its_step_and_leaves_nothing(tmp_path, monkeypatch):
    """A step that fails (here: a package pip cannot find, offline) is named with its command
    and pip's words; the half-built folder is removed, so the next session starts afresh."""
    folder = tmp_path / "venv"
    monkeypatch.setenv("TF1MEM_LIBRARIES_VENV", str(folder))
    monkeypatch.setattr(_libraries, "RECIPE", (
        ("a library that does not exist", ("--no-index", "no-such-library-xyz==1.0")),))
    with pytest.raises(_libraries.BuildError) as info:
        _libraries.venv_python()
    message = str(info.value)
    assert f"building the TF1-era libraries' environment {folder} failed" in message
    assert "step 'a library that does not exist' failed" in message
    assert "no-such-library-xyz==1.0" in message and "docs/LIBRARIES.md" in message
    assert not folder.exists()


@pytest.mark.parametrize("how", ["named", "recognised"])
@pytest.mark.parametrize("script", [pytest.param(s, id=s[:-3]) for s in SCRIPTS])
def test_library_case(script, how, libraries_python, tmp_path):
    case = CASES[script]
    flags = (["--no-known-tf1-packages", "--tf1-packages", case["package"]] if how == "named"
             else ["--verbose"])
    cmd = [libraries_python, "-m", "tf1mem.run", *flags, str(CORPUS / script)]
    env = {**os.environ, **_libraries.ENV,
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                         if p)}
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    timeout = _subproc.bound(TIMEOUT_S)
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"timed out after {timeout:.0f}s: {shlex.join(cmd)}\n--- stdout\n"
                    f"{exc.stdout}\n--- stderr\n{exc.stderr}")
    problems = check(case, proc)
    if how == "recognised":
        dist, version = case["distribution"]
        line = f"tf1mem.run:   {case['package']} (recognised: {dist} {version}) at "
        if not any(l.startswith(line) for l in proc.stderr.splitlines()):
            problems.append(f"--verbose did not report {line!r}")
    if problems:
        pytest.fail("%s\ncommand: %s  (cwd %s)\n--- stdout\n%s\n--- stderr\n%s" % (
            "\n".join(problems), shlex.join(cmd), cwd, proc.stdout, proc.stderr))


# tflearn 0.5.0's own test files (its sdist's tests/), as its developers ran them: 20 tests.
# TF 1.15.5 (the oracle, pytest 6.2.5, tflearn 0.5.0) gave "20 passed" on 2026-12-07.
TFLEARN_SDIST = "tflearn==0.5.0"
TFLEARN_ORACLE_PASSED = 20
# tflearn's tests whose outcome is random from run to run, under TF 1.15.5 as under
# tf1mem: nothing seeds them. test_recurrent_layers trains an LSTM from random weights
# (300 epochs of SGD on 4 rows) and asserts one prediction above 0.9. Measured on
# 2026-12-07, whole tests/ folder: under tf1mem it failed 2 times in 24 runs (the
# suite's run, 8 in a row, 15 alternating with TF 1.15.5), under TF 1.15.5 0 in 15;
# given a graph seed, the prediction came out 0.967-0.999 under tf1mem and 0.989-0.999
# under TF 1.15.5 (seeds 0-11; equal to 6 digits for seeds 2 and 3: whether tf1mem's
# spread is wider is not settled). Such a test, and only such, gets two more tries
# when it fails; it must then pass.
TFLEARN_UNSEEDED = ("tests/test_layers.py::TestLayers::test_recurrent_layers",)
TFLEARN_TRIES = 3


def _failed_tests(stdout):
    """The node ids pytest's short summary lists as FAILED (or ERROR)."""
    return sorted({line.split()[1] for line in stdout.splitlines()
                   if line.startswith(("FAILED ", "ERROR ")) and len(line.split()) > 1})


def test_tflearns_own_tests_pass_under_tf1mem_as_under_tf115(libraries_python, tmp_path):
    """``python -m tf1mem.run -m pytest tests`` in tflearn's source tree, with pytest's
    default assertion rewriting: every test TF 1.15.5 passed passes."""
    import tarfile

    cache = _libraries.venv_dir().parent / "sdists"
    cache.mkdir(parents=True, exist_ok=True)
    found = sorted(cache.glob("tflearn-0.5.0.tar.gz"))
    if not found:
        proc = subprocess.run([libraries_python, "-m", "pip", "download", "--no-deps",
                               "--no-binary", ":all:", "-d", str(cache), TFLEARN_SDIST],
                              capture_output=True, text=True, timeout=TIMEOUT_S)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        found = sorted(cache.glob("tflearn-0.5.0.tar.gz"))
    with tarfile.open(found[0]) as tar:
        tar.extractall(tmp_path, filter="data")
    tree = tmp_path / "tflearn-0.5.0"
    env = {**os.environ, **_libraries.ENV, "PYTHONPATH": str(REPO)}
    pytest_cmd = [libraries_python, "-m", "tf1mem.run", "-m", "pytest", "-q", "-p",
                  "no:cacheprovider"]
    proc = subprocess.run([*pytest_cmd, "tests"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    failed = _failed_tests(proc.stdout) if proc.returncode != 0 else []
    last = proc.stdout.splitlines()[-1] if proc.stdout.strip() else ""
    # Only an unseeded test may fail the first time, and the rest must all have passed.
    assert proc.returncode == 0 or (
        failed and set(failed) <= set(TFLEARN_UNSEEDED)
        and f"{len(failed)} failed, {TFLEARN_ORACLE_PASSED - len(failed)} passed" in last), (
        proc.stdout[-4000:] + proc.stderr[-4000:])
    if proc.returncode == 0:
        assert f"{TFLEARN_ORACLE_PASSED} passed" in last, proc.stdout[-2000:]
    for test in failed:
        for _ in range(TFLEARN_TRIES - 1):
            again = subprocess.run([*pytest_cmd, test], cwd=tree, env=env,
                                   capture_output=True, text=True, timeout=TIMEOUT_S)
            if again.returncode == 0:
                break
        assert again.returncode == 0, (f"{test} failed {TFLEARN_TRIES} times\n"
                                       + again.stdout[-4000:] + again.stderr[-4000:])
