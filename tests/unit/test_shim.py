"""The TF1 shim: install/uninstall round trip, who sees TF1, contrib errors.

The tests here: no TensorFlow in the test process; the rest: tests/commands/test_shim.py.
"""

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_tf1mem_itself_is_library_code_and_its_checkouts_other_files_are_the_users():
    """Only the tf1mem package counts as library code, not the folder around it: a
    script's helper module in a checkout (tests/rnn_grid_tf115/model.py) is user code."""
    from tf1mem.compat.runtime import usercode

    package = Path(usercode.__file__).resolve().parents[2]
    assert package.name == "tf1mem"
    assert not usercode.is_user_file(str(package / "compat" / "table.py"))
    assert usercode.is_user_file(str(package.parent / "tests" / "rnn_grid_tf115" / "model.py"))
