"""Idioms of the 2016-2019 era for user code: NumPy <= 1.23's ragged object arrays and
``np.array(copy=False)``, TF <= 1.4's ``FLAGS._parse_flags()`` / ``FLAGS.__flags``.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_legacy_era.py.
"""

import numpy
import pytest

from tf1mem.compat.legacy import numpy_view


@pytest.fixture
def np_legacy():
    numpy_view.reset_notes()
    yield numpy_view.make_module()
    numpy_view.reset_notes()


def _rows(n):
    return [numpy.arange(n) + 5 * i for i in range(2)]


# Input -> what NumPy 1.18.5 (the oracle, /work/oracle) gave for np.array / np.asarray /
# np.asanyarray of it, recorded 2026-12-07: (shape, dtype, repr of each element in
# C order) or the error's class and the start of its message. Keyword arguments in
# the third column.
_RAGGED_118 = [
    ("rows", lambda: [[1, 2], [3]], {}, ((2,), "object", ["[1, 2]", "[3]"])),
    ("row_and_scalar", lambda: [[1, 2], 3], {}, ((2,), "object", ["[1, 2]", "3"])),
    ("zip_of_rows", lambda: list(zip(_rows(5), [numpy.array([0, 1]), numpy.array([1, 0])])),
     {}, ((2, 2), "object", ["array([0, 1, 2, 3, 4])", "array([0, 1])",
                             "array([5, 6, 7, 8, 9])", "array([1, 0])"])),
    ("zip_same_length", lambda: list(zip(_rows(2), [numpy.array([0, 1]), numpy.array([1, 0])])),
     {}, ((2, 2, 2), "int64", None)),
    ("deep", lambda: [[[1, 2], [3, 4]], [[1, 2], [3]]], {},
     ((2, 2), "object", ["[1, 2]", "[3, 4]", "[1, 2]", "[3]"])),
    ("deep_outer", lambda: [[[1, 2], [3, 4]], [[1, 2]]], {},
     ((2,), "object", ["[[1, 2], [3, 4]]", "[[1, 2]]"])),
    ("arrays_1d", lambda: [numpy.zeros(3), numpy.zeros(4)], {},
     ((2,), "object", ["array([0., 0., 0.])", "array([0., 0., 0., 0.])"])),
    ("arrays_first_axis", lambda: [numpy.zeros((2, 3)), numpy.zeros((3, 3))], {},
     ((2,), "object", None)),
    ("tuples", lambda: ((1, 2), (3,)), {}, ((2,), "object", ["(1, 2)", "(3,)"])),
    ("strings", lambda: [["ab", "c"], ["d"]], {}, ((2,), "object", ["['ab', 'c']", "['d']"])),
    ("string_and_list", lambda: ["ab", ["c", "d"]], {},
     ((2,), "object", ["'ab'", "['c', 'd']"])),
    ("ndmin", lambda: [[1, 2], [3]], {"ndmin": 3}, ((1, 1, 2), "object", ["[1, 2]", "[3]"])),
    ("empty_row", lambda: [[], [1]], {}, ((2,), "object", ["[]", "[1]"])),
    ("none", lambda: [None, [1, 2]], {}, ((2,), "object", ["None", "[1, 2]"])),
    ("mixed_depth", lambda: [[1, [2, 3]], [4, 5]], {},
     ((2, 2), "object", ["1", "[2, 3]", "4", "5"])),
    ("three_rows", lambda: [[1, 2, 3], [4, 5], [6]], {},
     ((3,), "object", ["[1, 2, 3]", "[4, 5]", "[6]"])),
    ("dtype_object", lambda: [[1, 2], [3]], {"dtype": object},
     ((2,), "object", ["[1, 2]", "[3]"])),
    # NumPy 1.18 refused these too.
    ("dtype_float", lambda: [[1, 2], [3]], {"dtype": float},
     ("ValueError", "setting an array element with a sequence")),
    ("dtype_int32", lambda: [[1, 2], [3]], {"dtype": numpy.int32},
     ("ValueError", "setting an array element with a sequence")),
    ("arrays_cannot_broadcast", lambda: [numpy.zeros((2, 3)), numpy.zeros((2, 4))], {},
     ("ValueError", "could not broadcast input array from shape (2,3) into shape (2")),
]


_RAGGED_PARAMS = [pytest.param(function, *case[1:], id=f"{function}-{case[0]}")
                  for function in ("array", "asarray", "asanyarray") for case in _RAGGED_118
                  if function == "array" or "ndmin" not in case[2]]  # asarray: no ndmin


@pytest.mark.parametrize("function, make, kwargs, expected", _RAGGED_PARAMS)
def test_ragged_sequences_give_numpy_118s_result(np_legacy, function, make, kwargs,
                                                  expected):
    convert = getattr(np_legacy, function)
    if expected[0] == "ValueError":
        with pytest.raises(ValueError) as info:
            convert(make(), **kwargs)
        assert str(info.value).startswith(expected[1])
        assert info.value.__context__ is None  # NumPy 2's refusal is not chained to it
        return
    shape, dtype, elements = expected
    result = convert(make(), **kwargs)
    assert (result.shape, str(result.dtype)) == (shape, dtype)
    if elements is not None:
        assert [repr(e) for e in result.ravel().tolist()] == elements
    if dtype == "object" and "dtype" not in kwargs:
        with pytest.raises(ValueError, match="inhomogeneous"):  # the real NumPy: unchanged
            getattr(numpy, function)(make(), **kwargs)


def test_ragged_note_is_printed_once_per_function(np_legacy, capsys):
    np_legacy.array([[1], [2, 3]])
    np_legacy.array([[1], [2, 3, 4]])
    np_legacy.asarray([[1], [2, 3]])
    np_legacy.array([[1, 2], [3, 4]])  # not ragged: no note of its own
    err = capsys.readouterr().err
    assert err.count("tf1mem: np.array of ragged nested sequences") == 1
    assert err.count("tf1mem: np.asarray of ragged nested sequences") == 1
    assert "Write np.array(..., dtype=object) instead." in err
    assert numpy_view.noted_names() == ["array(ragged)", "asarray(ragged)"]


def test_the_advice_gives_the_same_array(np_legacy):
    data = list(zip(_rows(5), [numpy.array([0, 1]), numpy.array([1, 0])]))
    legacy = np_legacy.array(data)
    advised = numpy.array(data, dtype=object)  # what the note says to write
    assert legacy.shape == advised.shape and legacy.dtype == advised.dtype
    assert all((a == b).all() for a, b in zip(legacy.ravel(), advised.ravel()))


def test_array_copy_false_copies_only_where_needed(np_legacy, capsys):
    # NumPy 1.18.5: np.array(list, copy=False) made an array; of an ndarray, the same object.
    assert np_legacy.array([1, 2], copy=False).tolist() == [1, 2]
    a = numpy.arange(3)
    assert np_legacy.array(a, copy=False) is a
    assert np_legacy.array(a) is not a
    with pytest.raises(TypeError):  # NumPy 1.18 took two positional arguments only, too
        np_legacy.array(a, None, False)
    assert "np.array(..., copy=False) copied only where needed" in capsys.readouterr().err
    with pytest.raises(ValueError):  # NumPy 2 itself
        numpy.array([1, 2], copy=False)
    assert numpy.asarray([1, 2]).tolist() == [1, 2]  # the advice


def test_array_keeps_numpy_2s_keywords(np_legacy):
    a = np_legacy.array([[1, 2], [3, 4]], dtype=numpy.float32, order="F", ndmin=3)
    assert a.shape == (1, 2, 2) and a.dtype == numpy.float32
    assert np_legacy.array(numpy.ma.masked_array([1, 2]), subok=True).__class__ is \
        numpy.ma.MaskedArray
    assert np_legacy.asarray([1, 2], numpy.int8).dtype == numpy.int8
