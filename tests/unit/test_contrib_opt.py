"""tf.contrib.opt (tf1mem's optimizers on TF's v1 machinery). Their values against
TF 1.15.5 are the corpus script contrib_opt.py; these tests check the edges: resource
variables against NumPy's Adam, the error paths, the names the table sends to removed.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_opt.py, tests/tf/test_contrib_opt.py.
"""

import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat.runtime import composite
from tf1mem.migrate import inventory


def _module():
    return composite.make_composite("tensorflow.contrib.opt", "opt")


def test_table_says_reimplemented_and_names_replacements():
    row = next(r for r in inventory.ranked_table() if r[1] == "opt")
    assert row[3] == "re-implemented"
    opt = _module()
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"LARSOptimizer.*Use instead"):
        opt.LARSOptimizer
    with pytest.raises(compat_errors.RemovedAttributeError, match="optax"):
        opt.ShampooOptimizer
