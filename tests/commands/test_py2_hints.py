"""Python 2 lines are out of scope, but the runner names the file and line.

The tests here: the commands in subprocesses; the rest: tests/unit/test_py2_hints.py.
"""

import pytest

from tests import _subproc


@pytest.mark.slow
@pytest.mark.parametrize("source, line, error", [
    ('import numpy\nx = 1\nprint "x", x\n', 3,
     "SyntaxError: Missing parentheses in call to 'print'"),
    ("import urllib\nurllib.urlretrieve('http://h/f', 'f')\n", 2,
     "AttributeError: module 'urllib' has no attribute 'urlretrieve'"),
    ("def gen():\n    yield 1\nprint(gen().next())\n", 3,
     "AttributeError: 'generator' object has no attribute 'next'"),
])
def test_runner_names_file_and_line(tmp_path, source, line, error):
    script = tmp_path / "old.py"
    script.write_text(source)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=1)
    err = proc.stderr
    assert f'File "{script}", line {line}' in err, _subproc.describe(proc)
    assert error in err
    assert f"tf1mem.run: old.py, line {line} is Python 2 code" in err
    assert "tf1mem/compat/script.py" not in err  # python SCRIPT shows no runner frames


@pytest.mark.slow
@pytest.mark.parametrize("source, line, error", [
    ('x = 1\nprint "x", x\n', 2, "SyntaxError: Missing parentheses in call to 'print'"),
    ("import urllib\n\nurllib.urlretrieve('http://h/f', 'f')\n", 3,
     "AttributeError: module 'urllib' has no attribute 'urlretrieve'"),
])
def test_module_mode_names_file_and_line(tmp_path, source, line, error):
    """``python -m tf1mem.run -m PKG.MODULE``: the same hint, naming the module's file."""
    package = tmp_path / "oldpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "train.py").write_text(source)
    proc = _subproc.run(["-m", "tf1mem.run", "-m", "oldpkg.train"], cwd=tmp_path, check_rc=1)
    err = proc.stderr
    assert f'File "{package / "train.py"}", line {line}' in err, _subproc.describe(proc)
    assert error in err
    assert f"tf1mem.run: {'oldpkg/train.py'}, line {line} is Python 2 code" in err
    assert "tf1mem/compat/script.py" not in err  # the module's frames, not the runner's
