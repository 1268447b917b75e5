"""tf.contrib.framework.zero_initializer (``compat/tf/contrib/framework/variables.py``): built from
TF ops, as TF 2.21 has no ZeroInitializer kernel. Its results against TF 1.15.5 are the
corpus script contrib_framework_zero_initializer.py; these tests check the edges in
process: ref and resource variables, a second run, the refusals, the table's entry.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_framework.py.
"""

from tf1mem.compat import table
from tf1mem.compat.runtime import composite
from tf1mem.compat.tf.contrib.framework.variables import zero_initializer


def test_table_serves_tf1mems_zero_initializer():
    framework = composite.make_composite("tensorflow.contrib.framework", "framework")
    assert framework.zero_initializer is zero_initializer
    assert "zero_initializer" in table.CONTRIB_MODULES["framework"][1]
