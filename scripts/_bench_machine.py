"""What the benchmark scripts print about the machine they ran on, and what they share
to start their children (no TensorFlow).

``scripts/bench_train.py``, ``bench_start.py`` and ``bench_fast_threads.py`` put
:func:`header_lines` at the top of their output, so a figure pasted into the docs
carries its date, CPU, cores and load; :func:`require_mnist` and :func:`child_env`
are their common set-up.
"""

import datetime
import os
import platform
from pathlib import Path

__all__ = ["cpu_model", "cores", "load_average", "header_lines", "require_mnist",
           "child_env"]

REPO = Path(__file__).resolve().parents[1]


def require_mnist(data_dir) -> None:
    """Exits with a message saying how to get MNIST unless ``data_dir`` holds it."""
    if not Path(data_dir, "train-images-idx3-ubyte.gz").exists():
        raise SystemExit(f"no MNIST in {data_dir}: run `python -m tf1mem.train` once "
                         "(it fetches it) or pass --data-dir")


def child_env(environ, drop=(), **settings) -> dict:
    """A benchmark child's environment: ``environ`` with this checkout first on
    ``PYTHONPATH``, the names in ``drop`` removed and ``settings`` set."""
    env = dict(environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(REPO), environ.get("PYTHONPATH")) if p), **settings)
    for name in drop:
        env.pop(name, None)
    return env


def cpu_model(cpuinfo="/proc/cpuinfo") -> str:
    """The first ``model name`` of ``cpuinfo``, else ``platform.processor()``."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cores() -> str:
    """``"N cores"``, with the usable ones when this process is pinned to fewer."""
    total = os.cpu_count() or 0
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else total
    return f"{total} cores" + (f" ({usable} usable here)" if usable != total else "")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, ``"1.02 0.88 0.61"``."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def header_lines(what: str):
    """The lines that open a benchmark's output: ``what``, date, machine, load."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return [what,
            f"date: {now:%Y-%m-%d %H:%M} UTC; machine: {cpu_model()}, {cores()}, "
            f"{platform.python_implementation()} {platform.python_version()}",
            f"load average (1, 5, 15 min) at the start: {load_average()}"]
