"""The tf tier's rule, enforced: a test here starts no Python child process."""

import os
import subprocess
import sys

import pytest


def _is_python(args):
    program = args if isinstance(args, (str, bytes, os.PathLike)) else args[0]
    program = os.fsdecode(program).split()[0] if program else ""
    return (os.path.basename(program).startswith("python")
            or os.path.realpath(program) == os.path.realpath(sys.executable))


@pytest.fixture(autouse=True)
def _no_python_children(monkeypatch):
    """While a tf-tier test runs, starting a Python process fails the test.

    Each child pays TensorFlow's start-up again (seconds); a test that runs a command or
    a script in a child process belongs in tests/commands/. Other programs (``uname``,
    a compiler) may still run.
    """
    real_init = subprocess.Popen.__init__

    def init(self, args, *rest, **kwargs):
        if _is_python(args):
            raise AssertionError(
                f"a tests/tf test started a Python process ({args!r}); tests that run "
                f"commands or scripts in child processes belong in tests/commands/")
        real_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", init)
