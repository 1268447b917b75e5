"""Running tf1mem's commands in a subprocess, with everything shown on failure."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_MNIST = REPO.parent / "shared" / "data" / "MNIST_data"


def run(args, *, cwd=None, env=None, timeout=180, check_rc=None, input_text=None,
        prefix=()):
    """Runs ``[*prefix, python, *args]``; returns CompletedProcess with text stdout/stderr.

    ``prefix`` is a command that runs python, e.g. ``setpriv`` as another user.

    When ``check_rc`` is an int and the exit code differs, fails the test showing the
    command, its exit code, stdout and stderr.
    """
    full_env = dict(os.environ)
    full_env.setdefault("PYTHONUNBUFFERED", "1")
    full_env["TF_CPP_MIN_LOG_LEVEL"] = full_env.get("TF_CPP_MIN_LOG_LEVEL", "2")
    # tf1mem must import from this checkout even where it is not pip-installed.
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO), full_env.get("PYTHONPATH", "")) if p)
    if env:
        full_env.update(env)
    cmd = [*prefix, sys.executable, *map(str, args)]
    proc = subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=timeout, input=input_text)
    if check_rc is not None and proc.returncode != check_rc:
        raise AssertionError(describe(proc, f"expected exit code {check_rc}"))
    return proc


def describe(proc, why=""):
    return (f"{why}\ncommand: {' '.join(proc.args)}\nexit code: {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}")
