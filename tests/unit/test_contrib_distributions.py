"""tf.contrib.distributions under tf1mem: what the TF 1.15.5 corpus script cannot show.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_distributions.py.
"""

from tf1mem.compat import table


def test_distributions_is_provided_and_its_gaps_name_tfp():
    assert "distributions" in table.CONTRIB_MODULES
    assert "distributions" not in table.REMOVED_CONTRIB
    assert "distributions.bijectors" not in table.REMOVED_SYMBOLS
    assert "tfp.distributions.Independent" in table.REMOVED_SYMBOLS[
        "distributions.Independent"]
