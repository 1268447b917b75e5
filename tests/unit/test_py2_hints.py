"""Python 2 lines are out of scope, but the runner names the file and line.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_py2_hints.py.
"""

import pytest

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
