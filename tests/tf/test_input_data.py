"""Unit tests of tf1mem.data.input_data (TF 1.15's MNIST loader) on small generated data.

The tests here: TensorFlow in the test process; the rest: tests/unit/test_input_data.py.
"""

import sys

import pytest

from tf1mem.data import input_data


# -- DataSet ------------------------------------------------------------------------


@pytest.mark.slow
def test_get_seed_with_real_tensorflow_graph_seed(monkeypatch):
    tf = pytest.importorskip("tensorflow")
    monkeypatch.setitem(sys.modules, "tensorflow", tf)
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(5)
        assert input_data.get_seed(3) == (5, 3)
        assert input_data.get_seed(None)[0] == 5
