"""NumPy 1.x's removed names for user code only (tf1mem.compat.legacy.numpy_view).

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_legacy_numpy.py.
"""

import numpy
import pytest

from tests import _subproc
from tf1mem.compat.legacy import numpy_view as legacy_numpy


@pytest.fixture
def np_legacy():
    legacy_numpy.reset_notes()
    yield legacy_numpy.make_module()
    legacy_numpy.reset_notes()


def test_aliases_have_numpy_118_values(np_legacy):
    # Values as /work/oracle (NumPy 1.18.5) gives them.
    assert np_legacy.float is float and np_legacy.int is int and np_legacy.bool is bool
    assert np_legacy.long is int and np_legacy.object is object and np_legacy.str is str
    assert np_legacy.unicode is str
    assert np_legacy.float_ is numpy.float64 and np_legacy.complex_ is numpy.complex128
    assert np_legacy.NaN != np_legacy.NaN and np_legacy.Inf == float("inf")
    assert np_legacy.NINF == float("-inf")
    assert np_legacy.product([2, 3, 4]) == 24
    assert np_legacy.cumproduct([1, 2, 3]).tolist() == [1, 2, 6]
    assert np_legacy.alltrue([1, 0]) == False and np_legacy.sometrue([1, 0]) == True  # noqa: E712
    assert np_legacy.in1d([[1, 2], [3, 2]], [2]).tolist() == [False, True, False, True]
    assert np_legacy.asscalar(numpy.array([2.5])) == 2.5
    assert type(np_legacy.asscalar(numpy.float32(2.5))) is float
    assert np_legacy.asfarray([1, 2]).dtype == numpy.float64
    assert np_legacy.asfarray([1, 2], dtype=numpy.float32).dtype == numpy.float32
    assert np_legacy.asfarray([1, 2], dtype=numpy.int32).dtype == numpy.float64
    assert np_legacy.msort(numpy.array([[3, 1], [1, 2]])).tolist() == [[1, 1], [3, 2]]
    assert np_legacy.round_(2.675, 2) == 2.68
    assert np_legacy.row_stack([[1], [2]]).shape == (2, 1)
    assert np_legacy.trapz([1, 2, 3]) == 4.0


def test_other_names_are_the_real_numpy(np_legacy):
    assert np_legacy.ndarray is numpy.ndarray and np_legacy.float32 is numpy.float32
    assert np_legacy.random is numpy.random and np_legacy.__version__ == numpy.__version__
    with pytest.raises(AttributeError):
        np_legacy.no_such_name


def test_reshape_takes_newshape(np_legacy, capsys):
    a = numpy.arange(6)
    assert np_legacy.reshape(a, newshape=(2, 3)).shape == (2, 3)
    assert np_legacy.reshape(a, (3, 2)).shape == (3, 2)
    with pytest.raises(TypeError, match="give only shape="):
        np_legacy.reshape(a, newshape=(2, 3), shape=(3, 2))
    assert "newshape=" in capsys.readouterr().err


def test_each_name_is_noted_once(np_legacy, capsys):
    np_legacy.float, np_legacy.int
    fresh = legacy_numpy.make_module()  # a second module still notes only once
    fresh.float, fresh.product
    err = capsys.readouterr().err
    assert err.count("np.float was removed") == 1 and err.count("np.int was removed") == 1
    assert "Write float instead" in err and "Write np.prod instead" in err
    assert legacy_numpy.noted_names() == ["float", "int", "product"]


def test_real_numpy_is_never_changed(np_legacy):
    np_legacy.float, np_legacy.reshape
    assert not hasattr(numpy, "float") and not hasattr(numpy, "asscalar")
    with pytest.raises(TypeError):
        numpy.reshape(numpy.arange(4), newshape=(2, 2))


_UNINSTALL = """\
import importlib, sys
import numpy
from tf1mem import compat as shim
sys.path.insert(0, sys.argv[1])
shim.install(import_hook="modules", lazy=True, numpy_compat=True)
mod = importlib.import_module("np_user_mod")
print("installed:", mod.HAS, mod.F is float, mod.np is not numpy)
shim.uninstall()
del sys.modules["np_user_mod"]
try:
    importlib.import_module("np_user_mod")
except ImportError as exc:
    print("uninstalled:", type(exc).__name__, "float" in str(exc))
print("real numpy:", hasattr(numpy, "float"))
"""


def test_user_module_gets_it_until_uninstall(tmp_path):
    # In a fresh interpreter: pytest's own import hooks stand before the shim's.
    (tmp_path / "np_user_mod.py").write_text(
        "import numpy as np\nfrom numpy import float as F\nHAS = hasattr(np, 'asscalar')\n")
    proc = _subproc.run(["-c", _UNINSTALL, tmp_path], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == ["installed: True True True",
                                        "uninstalled: ImportError True",
                                        "real numpy: False"], _subproc.describe(proc)


def test_flag_parses():
    from tf1mem import run

    assert run.parse_args([__file__]).numpy_compat is True
    assert run.parse_args(["--no-numpy-compat", __file__]).numpy_compat is False


def test_fromstring_reads_bytes_as_numpy_1_did(np_legacy, capsys):
    # Values as /work/oracle (NumPy 1.18.5) gave them: a writable copy; a str's UTF-8 bytes.
    got = np_legacy.fromstring(b"\x01\x00\x02\x00", dtype=numpy.int16)
    assert got.tolist() == [1, 2] and got.flags.writeable
    got[0] = 7  # a copy, not a view of the bytes
    assert np_legacy.fromstring(b"\x01\x00\x02\x00", dtype=numpy.int16, count=1).tolist() == [1]
    assert np_legacy.fromstring("a\xe9\u20ac", dtype=numpy.uint8).tolist() == [
        97, 195, 169, 226, 130, 172]
    assert np_legacy.fromstring("1 2 3", dtype=int, sep=" ").tolist() == [1, 2, 3]
    err = capsys.readouterr().err
    assert err.count("np.fromstring's binary mode") == 1 and "np.frombuffer" in err
    assert numpy.fromstring is not np_legacy.fromstring  # the real module is unchanged


def test_print_legacy_shows_numpy_1_scalars_and_is_undone():
    before = numpy.get_printoptions()["legacy"]
    restore = legacy_numpy.install_print_legacy()
    try:
        assert repr([numpy.float32(0.25), numpy.int64(3)]) == "[0.25, 3]"
        assert repr({"loss": numpy.float64(1.5)}) == "{'loss': 1.5}"
    finally:
        restore()
    assert numpy.get_printoptions()["legacy"] == before
    assert repr(numpy.float32(0.25)) == "np.float32(0.25)"


def test_array_copy_false_copies_only_where_needed_as_numpy_1_did(np_legacy, capsys):
    # Values as /work/oracle (NumPy 1.18.5) gave them; stable-baselines' replay buffers
    # (DQN, SAC, TD3, HER) call np.array(x, copy=False) on lists.
    a = numpy.arange(3)
    assert np_legacy.array(a, copy=False) is a
    assert np_legacy.array([1, 2], copy=False).tolist() == [1, 2]
    assert np_legacy.array(a, numpy.float32, copy=False).dtype == numpy.float32
    got = np_legacy.array(a, copy=False, ndmin=2)
    assert got.shape == (1, 3) and got.base is a
    assert np_legacy.array(a) is not a and np_legacy.array(a, copy=None) is a
    err = capsys.readouterr().err
    assert err.count("np.array(..., copy=False)") == 1 and "np.asarray" in err
    with pytest.raises(ValueError):
        numpy.array([1, 2], copy=False)  # the real module is unchanged
