"""The standard library of Python 3.7 for user code only (tf1mem.compat.legacy.stdlib_view);
the corpus script ``legacy_stdlib.py`` compares the values with TF 1.15.5's Python 3.7.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_legacy_python.py.
"""

import collections
import collections.abc
import inspect
import time

import pytest

from tf1mem.compat.legacy import stdlib_view as legacy_python


@pytest.fixture(autouse=True)
def fresh_notes():
    legacy_python.reset_notes()
    yield
    legacy_python.reset_notes()


def test_views_add_only_removed_names_and_leave_the_real_modules_alone(capsys):
    view = legacy_python.make_module(collections)
    assert view.Iterable is collections.abc.Iterable and view.OrderedDict is collections.OrderedDict
    assert not hasattr(collections, "Iterable")  # libraries see the standard library as is
    assert "Mapping" in dir(view)
    with pytest.raises(AttributeError):
        view.NoSuchName
    assert capsys.readouterr().err.count("collections.Iterable was removed in Python 3.10") == 1
    view.Mapping  # noqa: B018
    view.Mapping  # noqa: B018  (noted once per name)
    assert capsys.readouterr().err.count("collections.Mapping") == 1


def test_getargspec_is_python_37s():
    getargspec = legacy_python.make_module(inspect).getargspec

    def f(a, b=2, *rest, **options):
        return a

    spec = getargspec(f)
    assert spec == (["a", "b"], "rest", "options", (2,))
    assert spec.keywords == "options"  # 3.7's field name (getfullargspec says varkw)

    def annotated(a: int):
        return a

    with pytest.raises(ValueError, match="annotations"):
        getargspec(annotated)


def test_clock_fractions_base64_cgi_as_python_37():
    view_time = legacy_python.make_module(time)
    start = view_time.clock()
    sum(range(10000))
    assert view_time.clock() >= start
    import base64
    import cgi
    import fractions

    gcd = legacy_python.make_module(fractions).gcd
    assert (gcd(12, -8), gcd(-12, 8), gcd(7, 0), gcd(0, -3)) == (-4, 4, 7, -3)
    assert legacy_python.make_module(base64).encodestring(b"\x89PNG") == b"iVBORw==\n"
    escape = legacy_python.make_module(cgi).escape
    assert escape("<'&\">") == "&lt;'&amp;\"&gt;" and escape('"', True) == "&quot;"
