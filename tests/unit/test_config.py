"""Fast in-process tests of tf1mem.config: build, validate, env, merge, warn, describe.

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_config.py,
tests/commands/test_config.py.
"""

import subprocess
import sys

from tests import _subproc


# ----------------------------------------------------------------- hygiene


def test_import_does_not_import_tensorflow():
    result = subprocess.run(
        [sys.executable, "-c",
         "import sys, tf1mem.config; print('tensorflow' in sys.modules)"],
        capture_output=True, text=True, timeout=_subproc.bound(60),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
