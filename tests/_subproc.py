"""Running tf1mem's commands in a subprocess, with everything shown on failure.

Also what keeps the suite independent of the machine and of the user:

- :func:`bound`: a child's time limit exists to stop a hung test, not to judge speed
  (that is the benchmarks' job, ``scripts/bench_*.py``), so each limit is given as
  sized on an idle machine and scaled by how long TensorFlow takes to start here, now
  (:func:`startup_s`, measured once per session). On a loaded 2-core machine a
  ``import tensorflow`` of 5 s becomes 20-45 s; the limits grow with it.
- :func:`users_settings`: the variables of the user's environment that change what
  tf1mem or TensorFlow do. ``tests/conftest.py`` removes them for the session, so a
  test sees only what it sets itself.
"""

import functools
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_MNIST = REPO.parent / "shared" / "data" / "MNIST_data"

# `python -c "import tensorflow"` on the machine the limits were sized on (2-core AMD
# EPYC, no GPU, idle; 2026-12-07).
REFERENCE_STARTUP_S = 5.0
# Limits are this many times their idle size at least: generous, since the start-up is
# measured once and the load can rise later.
_SLACK = 2.0
# The suite's own settings, kept: TF1MEM_CORPUS_RUNNER runs the corpus on another
# interpreter (docs/DEVELOPERS.md), TF1MEM_LIBRARIES_VENV names the library corpus's venv
# (tests/_libraries.py).
SUITE_SETTINGS = ("TF1MEM_CORPUS_RUNNER", "TF1MEM_LIBRARIES_VENV")
_PYTHON_SETTINGS = ("PYTHONWARNINGS", "PYTHONOPTIMIZE", "PYTHONINSPECT", "PYTHONSTARTUP")


def users_settings(environ):
    """Names in ``environ`` that would change what tf1mem or TensorFlow do in a test.

    tf1mem's own variables (``TF1MEM_*``: session options, caches, CPUs, ...),
    TensorFlow's (``TF_*``, ``TF2_BEHAVIOR``: allocator, logging, oneDNN, cluster
    spec, Keras version, ...) and Python's that change how a child runs
    (``PYTHONWARNINGS``, ``PYTHONOPTIMIZE``, ...). ``PYTHONPATH`` is not among them:
    tests check that the user's own reaches their scripts.
    """
    return sorted(name for name in environ
                  if (name.startswith(("TF1MEM_", "TF_")) or name == "TF2_BEHAVIOR"
                      or name in _PYTHON_SETTINGS)
                  and name not in SUITE_SETTINGS)


def child_env(env=None):
    """The environment for a child python: this process's, with the suite's defaults.

    ``TF_CPP_MIN_LOG_LEVEL=2`` (TensorFlow's notices off), unbuffered output, and this
    checkout first on ``PYTHONPATH`` (tf1mem imports from it even where it is not
    pip-installed); then ``env`` on top.
    """
    full_env = dict(os.environ)
    full_env.setdefault("PYTHONUNBUFFERED", "1")
    full_env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO), full_env.get("PYTHONPATH", "")) if p)
    if env:
        full_env.update(env)
    return full_env


@functools.lru_cache(maxsize=None)
def startup_s():
    """Seconds ``python -c "import tensorflow"`` takes on this machine now (once).

    A child that cannot even import TensorFlow within 10 minutes counts as that long.
    """
    started = time.monotonic()
    try:
        subprocess.run([sys.executable, "-c", "import tensorflow"], env=child_env(),
                       capture_output=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        pass
    return time.monotonic() - started


def bound(seconds):
    """A hang guard: ``seconds`` as sized on an idle machine, scaled for this one now.

    ``seconds * max(2, 2 * startup / 5 s)``: twice the idle size at least, and
    proportionally more where TensorFlow starts slower than its 5 s on an idle 2-core
    machine. Never an assertion about speed.
    """
    return seconds * _SLACK * max(1.0, startup_s() / REFERENCE_STARTUP_S)


# ``pytest --warm-children`` (tests/conftest.py): a ``python -m tf1mem.run`` child of
# a test is given ``--warm`` (the session's template, in $TF1MEM_WARM_DIR), unless the
# test is marked ``cold`` (WARM_CHILDREN["test"] false), runs as another user, or
# sets a variable the template's key compares (that run would go cold anyway, and
# would replace the session's template).
WARM_CHILDREN = {"session": False, "test": True}


def _warm_args(args, env, prefix):
    if not (WARM_CHILDREN["session"] and WARM_CHILDREN["test"]) or prefix:
        return args
    if [str(a) for a in args[:2]] != ["-m", "tf1mem.run"]:
        return args
    from tf1mem import _warm

    if env and _warm.import_time_names(env):
        return args
    return [*args[:2], "--warm", *args[2:]]


def run(args, *, cwd=None, env=None, timeout=180, check_rc=None, input_text=None,
        prefix=()):
    """Runs ``[*prefix, python, *args]``; returns CompletedProcess with text stdout/stderr.

    ``prefix`` is a command that runs python, e.g. ``setpriv`` as another user.
    ``timeout`` is what the child may take on an idle machine; it is scaled by
    :func:`bound`. ``env`` is added to :func:`child_env`'s environment. Under
    ``pytest --warm-children`` a ``-m tf1mem.run`` child runs warm (see
    :data:`WARM_CHILDREN`).

    When ``check_rc`` is an int and the exit code differs, fails the test showing the
    command, its exit code, stdout and stderr.
    """
    args = _warm_args(list(args), env, prefix)
    cmd = [*prefix, sys.executable, *map(str, args)]
    proc = subprocess.run(cmd, cwd=cwd, env=child_env(env), capture_output=True,
                          text=True, timeout=bound(timeout), input=input_text)
    if check_rc is not None and proc.returncode != check_rc:
        raise AssertionError(describe(proc, f"expected exit code {check_rc}"))
    return proc


def describe(proc, why=""):
    return (f"{why}\ncommand: {' '.join(map(str, proc.args))}\nexit code: {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}")
