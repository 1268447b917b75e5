"""The TF1-era libraries of docs/LIBRARIES.md, installed once per machine for the tests.

:data:`RECIPE` is docs/LIBRARIES.md's recipe as data: the pip commands, in order, with their
exact pins and flags (``tests/corpus/test_library_corpus.py`` checks that the page shows each one).
:func:`venv_python` builds a virtual environment from it, once per machine, under the
per-user cache (``$XDG_CACHE_HOME/tf1mem/libraries/`` or ``~/.cache/tf1mem/libraries/``),
with ``--system-site-packages`` so that it reuses the installed TensorFlow, tf-keras,
NumPy and SciPy; nothing is installed into the interpreter that runs the tests. A file lock
keeps two test sessions from building it at once; a build that fails is removed, and the
error names the step, its command and pip's last lines. ``TF1MEM_LIBRARIES_VENV`` names
another folder to build (or reuse) instead.
"""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["RECIPE", "ENV", "BuildError", "venv_dir", "venv_python"]

# (what the step is for, pip arguments after `python -m pip install`). Tested on Python
# 3.11 with TensorFlow 2.21 and NumPy 2.4 (docs/LIBRARIES.md says why each pin and flag).
RECIPE = (
    ("gym 0.21's setup.py builds only with these",
     ("pip<24.1", "setuptools==65.5.0", "wheel==0.38.4")),
    ("gym 0.21 (stable-baselines 2 expects it)",
     ("--no-deps", "--no-build-isolation", "gym==0.21.0", "cloudpickle==2.2.1")),
    ("stable-baselines 2.10.2",
     ("--no-deps", "stable-baselines==2.10.2", "joblib==1.4.2", "pandas==2.2.3",
      "python-dateutil==2.9.0.post0", "pytz==2024.2", "tzdata==2024.2",
      "opencv-python-headless==4.10.0.84")),
    ("tflearn 0.5.0 (Pillow < 10: it uses Image.ANTIALIAS at import)",
     ("--no-deps", "--no-build-isolation", "tflearn==0.5.0", "Pillow==9.5.0")),
    ("dm-sonnet 1.36 (with a tensorflow-probability that imports on TF 2.21)",
     ("--no-deps", "dm-sonnet==1.36", "tensorflow-probability==0.25.0", "dm-tree==0.1.8",
      "decorator==5.1.1", "semantic-version==2.10.0", "contextlib2==21.6.0")),
    ("tensornets 0.4.6 (compiles two Cython extensions)",
     ("--no-deps", "Cython==0.29.37")),
    ("tensornets 0.4.6",
     ("--no-deps", "--no-build-isolation", "tensornets==0.4.6")),
    ("tensorpack 0.11",
     ("--no-deps", "tensorpack==0.11", "tabulate==0.9.0", "msgpack==1.1.0",
      "msgpack-numpy==0.4.8", "pyzmq==26.2.0", "psutil==6.1.0")),
)

# What the libraries need in their environment at run time: dm-sonnet 1.36's generated
# protobuf modules predate protoc 3.19, which protobuf 4+ refuses in its C implementation.
ENV = {"PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION": "python"}

_TIMEOUT_S = 1800  # a hang guard for one pip command (a cold build downloads ~150 MB)


class BuildError(RuntimeError):
    """The libraries' environment could not be built; the message says where and why."""


def _recipe_key():
    """Changes with the recipe, the interpreter and the installed TensorFlow."""
    try:
        from importlib.metadata import version

        tf_version = version("tensorflow")
    except Exception:  # no TensorFlow distribution: the build will say what fails
        tf_version = "none"
    text = json.dumps([RECIPE, sys.version, os.path.realpath(sys.executable), tf_version])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def venv_dir():
    """Where the environment lives: ``TF1MEM_LIBRARIES_VENV``, else the per-user cache."""
    explicit = os.environ.get("TF1MEM_LIBRARIES_VENV")
    if explicit:
        return Path(explicit).expanduser().absolute()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "tf1mem" / "libraries" / f"venv-{_recipe_key()}"


def _run(step, cmd, log):
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=_TIMEOUT_S,
                              env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    except subprocess.TimeoutExpired:
        raise BuildError(f"step {step!r} ran past {_TIMEOUT_S} s: {' '.join(cmd)}") from None
    log.append({"step": step, "command": cmd, "seconds": round(time.monotonic() - start, 1)})
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        raise BuildError(f"step {step!r} failed (exit {proc.returncode}): {' '.join(cmd)}\n{tail}")


def _build(folder):
    log = []
    _run("create the venv", [sys.executable, "-m", "venv", "--system-site-packages",
                             str(folder)], log)
    python = str(folder / "bin" / "python")
    for what, args in RECIPE:
        _run(what, [python, "-m", "pip", "install", "--quiet", *args], log)
    return log


def venv_python():
    """The environment's python, built first if need be (see the module docstring).

    Returns:
      ``(path of its python, build log or None when it was built before)``; the log lists
      each step's command and seconds.

    Raises:
      BuildError: a step failed; the half-built folder is removed.
    """
    folder = venv_dir()
    done = folder / "tf1mem-libraries.json"
    python = folder / "bin" / "python"
    if done.is_file() and python.exists():
        return str(python), None
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(str(folder) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another session may be building it: wait
        if done.is_file() and python.exists():
            return str(python), None
        shutil.rmtree(folder, ignore_errors=True)
        start = time.monotonic()
        try:
            log = _build(folder)
        except BaseException as exc:
            shutil.rmtree(folder, ignore_errors=True)
            if isinstance(exc, BuildError):
                raise BuildError(
                    f"building the TF1-era libraries' environment {folder} failed (the "
                    f"recipe of docs/LIBRARIES.md, tests/_libraries.py's RECIPE): {exc}") from None
            raise
        total = round(time.monotonic() - start, 1)
        done.write_text(json.dumps({"seconds": total, "steps": log}, indent=1) + "\n")
        return str(python), {"seconds": total, "steps": log}
