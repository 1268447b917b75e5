"""What tf1mem's shim adds to imports: side by side, in one run, ratios printed.

The shim hooks imports so that user code's ``import tensorflow`` gets the TF1 API
while libraries keep TF 2. This measures what that costs everyone else, in fresh
processes (one per repetition and variant, alternating), each importing TensorFlow
first (the shim's install does too), then timing:

- ``tf_keras``: a heavy third-party package (thousands of import statements);
- ``scipy.stats`` (when SciPy is installed);
- a user package of 50 generated modules that import the stdlib, numpy,
  ``tensorflow`` and each other (user code: the shim's import hook answers them);
- 200,000 executions of a cached ``import os`` inside a library function
  (the per-statement cost of the hook, for code that imports in a hot path).

Three variants: no shim; ``tf1mem.install()`` as in-process code does it
(``import_hook="builtins"``: ``builtins.__import__`` wrapped); and the runner's
``import_hook="modules"`` (decided once per module, when it is first imported).

Usage: ``python scripts/bench_shim_import.py [--repeats 5]``. Prints the medians and
the ratios against no shim; the target is at most 1.05.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VARIANTS = ("plain", "builtins", "modules")

_CHILD = r"""
import json, os, sys, time
import tensorflow  # every variant pays this before the clock starts
# As the shim does (tf.layers need it); it changes what importing Keras does, so
# every variant has it: the hook is what is compared.
os.environ["TF_USE_LEGACY_KERAS"] = "1"
if sys.argv[1] != "plain":
    import tf1mem
    tf1mem.install(import_hook=sys.argv[1])
what = sys.argv[2]
if what == "hot":
    import json as _lib  # a library module: its functions are not user code
    code = compile("def f(n):\n    for _ in range(n):\n        import os\n", _lib.__file__, "exec")
    ns = {"__name__": "json._bench"}
    exec(code, ns)
    start = time.perf_counter(); ns["f"](200000); seconds = time.perf_counter() - start
else:
    start = time.perf_counter()
    __import__(what)
    seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds}))
"""


def _user_package(root: Path, n: int = 50) -> None:
    pkg = root / "userpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "".join(f"from userpkg import mod{i}\n" for i in range(n)))
    for i in range(n):
        body = textwrap.dedent(f"""\
            import os
            import sys
            import json
            import collections
            import numpy as np
            import tensorflow as tf
            {"from userpkg import mod%d as previous" % (i - 1) if i else "previous = None"}


            def layer_{i}(x):
                import math
                return np.tanh(x) * math.pi + len(os.sep) + len(sys.argv)


            CONSTANT_{i} = json.dumps({{"i": {i}}})
            """)
        (pkg / f"mod{i}.py").write_text(body)


def _time(variant: str, what: str, cwd: Path) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(cwd)]),
               TF_CPP_MIN_LOG_LEVEL="3", PYTHONDONTWRITEBYTECODE="1")
    env.pop("TF_USE_LEGACY_KERAS", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, variant, what], cwd=cwd, env=env,
                         capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])["seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    targets = ["tf_keras", "userpkg", "hot"]
    try:
        import scipy  # noqa: F401  (only whether it is installed)

        targets.insert(1, "scipy.stats")
    except ImportError:
        print("scipy not installed: skipped", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _user_package(root)
        # Byte-compile once so every run reads .pyc files, as a user's second run does.
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root)], check=True)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; median of "
              f"{args.repeats} fresh processes per cell, alternating")
        print("plain: no shim; builtins: tf1mem.install() (in-process: legacy(), v1), "
              "which wraps builtins.__import__;\nmodules: the runner's hook, decided "
              "once per module as it is first imported")
        print(f"{'import':<16}{'plain s':>10}{'builtins s':>12}{'modules s':>11}"
              f"{'builtins/plain':>16}{'modules/plain':>15}")
        for what in targets:
            times = {v: [] for v in VARIANTS}
            for _ in range(args.repeats):
                for variant in VARIANTS:
                    times[variant].append(_time(variant, what, root))
            plain, hooked, per_module = (statistics.median(times[v]) for v in VARIANTS)
            label = "import os x2e5" if what == "hot" else what
            print(f"{label:<16}{plain:>10.4f}{hooked:>12.4f}{per_module:>11.4f}"
                  f"{hooked / plain:>16.3f}{per_module / plain:>15.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
