"""The observe wing's memory measurement against an analytic count of the same tensors.

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_memory.py,
tests/commands/test_memory.py.
"""

import pytest

from tf1mem.errors import UsageError
from tf1mem.observe import batch_model, text


def test_parse_bytes_units_and_errors():
    assert text.parse_bytes("512MiB") == 512 * 2**20
    assert text.parse_bytes("1.5GB") == 1_500_000_000
    assert text.parse_bytes("2kib") == 2048
    assert text.parse_bytes("300000") == 300000
    for bad in ("", "12 parsecs", "-1MiB", "0", "MiB"):
        with pytest.raises(UsageError, match=repr(bad).replace("\\", "\\\\")
                           .replace("(", r"\(").replace(")", r"\)")):
            text.parse_bytes(bad)


def test_fit_and_largest_batch():
    intercept, slope = batch_model.fit_linear([(100, 1000 + 100 * 50), (300, 1000 + 300 * 50)])
    assert intercept == pytest.approx(1000) and slope == pytest.approx(50)
    assert batch_model.largest_batch(intercept, slope, 1000 + 50 * 77 + 49) == 77
    assert batch_model.largest_batch(intercept, slope, 500) == 0
    with pytest.raises(ValueError, match="two distinct"):
        batch_model.fit_linear([(1, 5), (1, 6)])
    with pytest.raises(ValueError, match="does not grow"):
        batch_model.largest_batch(10, 0.0, 100)
