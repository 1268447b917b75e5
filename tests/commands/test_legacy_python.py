"""The standard library of Python 3.7 for user code only (tf1mem.compat.legacy.stdlib_view);
the corpus script ``legacy_stdlib.py`` compares the values with TF 1.15.5's Python 3.7.

The tests here: the commands in subprocesses; the rest: tests/unit/test_legacy_python.py.
"""

import pytest

from tests import _subproc


@pytest.mark.slow
def test_runner_flag_turns_it_off(tmp_path):
    script = tmp_path / "clock.py"
    script.write_text("import time\nprint(type(time.clock()).__name__)\n")
    on = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert on.stdout.strip() == "float" and "time.clock was removed" in on.stderr
    off = _subproc.run(["-m", "tf1mem.run", "--no-python-compat", script], cwd=tmp_path)
    assert off.returncode == 1 and "AttributeError" in off.stderr and "clock" in off.stderr
