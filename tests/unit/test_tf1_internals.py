"""TF1's internal module paths under tf1mem: every path the table maps imports from user code
and is the object the table names; TF1-era libraries' own import lines work from a module
that is user code; libraries keep TensorFlow's real modules; uninstall puts back what the
shim changed in TensorFlow (the moved names and the batch-norm module alias).

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_tf1_internals.py.
"""

import pytest

from tests.commands.test_tf1_internals import PREFIX_SAMPLES
from tf1mem.compat import table

pytestmark = pytest.mark.slow


def test_every_prefix_sampled_is_a_table_prefix():
    assert set(PREFIX_SAMPLES) == set(table.MODULE_PREFIX_ALIASES) | set(table.INTERNAL_PREFIXES)
