"""Python 2 lines are out of scope, but the runner names the file and line."""

import pytest

from tests import _subproc
from tf1mem.compat.legacy import py2_hints


def _raise(source, path="/tmp/old_script.py"):
    try:
        exec(compile(source, path, "exec"), {"__name__": "__main__"})
    except BaseException as exc:  # noqa: B902 - the test wants whatever it raised
        return exc
    raise AssertionError("the snippet ran")


@pytest.mark.parametrize("source, line, spelling", [
    ('x = 1\nprint "loss", x\n', 2, "print(...)"),
    ("import urllib\nurllib.urlretrieve('http://h/f', 'f')\n", 2,
     "urllib.request.urlretrieve"),
    ("def gen():\n    yield 1\ng = gen()\n\ng.next()\n", 5, "next(gen)"),
    ("for i in xrange(3):\n    pass\n", 1, "range"),
    ("d = {}\nd.iteritems()\n", 2, "d.items()"),
    ("import cPickle\n", 1, "pickle"),
    ("try:\n    pass\nexcept ValueError, e:\n    pass\n", 3, "except E as e:"),
])
def test_python2_lines_are_named(source, line, spelling):
    exc = _raise(source)
    text = py2_hints.hint(exc)
    assert text is not None, exc
    assert f"old_script.py, line {line} is Python 2 code" in text
    assert f"(Python 3: {spelling})" in text and "2to3" in text


@pytest.mark.parametrize("source", [
    "x = undefined_name\n", "import no_such_module_xyz\n", "[].nope\n", "1/0\n",
    "def f(:\n    pass\n",
])
def test_other_errors_get_no_hint(source):
    assert py2_hints.hint(_raise(source)) is None


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
