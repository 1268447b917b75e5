"""tf.contrib.tensor_forest in tf1mem's table and its packages' names, without TensorFlow.

The package ``__init__`` files name TF 1.15's attributes lazily (nothing heavy is imported
until one is used) and answer TF 1.15's ops modules and ``eval_metrics`` with the removed
error and the table's advice.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_tensor_forest.py, tests/commands/test_contrib_tensor_forest.py and the
corpus case tests/legacy_corpus/random_forest_mnist.py.
"""

import sys

import pytest

from tf1mem.compat import errors, table


def test_the_table_provides_it_at_its_tf1_path():
    assert table.CONTRIB_MODULES["tensor_forest"][0] == "tf1mem.compat.tf.contrib.tensor_forest"
    assert "tensor_forest" not in table.REMOVED_CONTRIB


def test_the_packages_name_tf115s_attributes_without_importing_them():
    # In a mixed run tests/tf's forest tests may have loaded the module already.
    loaded_before = "tf1mem.compat.tf.contrib.tensor_forest.python.tensor_forest" in sys.modules
    from tf1mem.compat.tf.contrib import tensor_forest
    from tf1mem.compat.tf.contrib.tensor_forest import client, python

    assert tensor_forest.__all__ == ["client", "python", "random_forest", "tensor_forest"]
    assert python.__all__ == ["tensor_forest"] and client.__all__ == ["random_forest"]
    if not loaded_before:
        assert "tf1mem.compat.tf.contrib.tensor_forest.python.tensor_forest" not in sys.modules


@pytest.mark.parametrize("module, name, advice", [
    ("tf1mem.compat.tf.contrib.tensor_forest", "data_ops", "RandomForestGraphs"),
    ("tf1mem.compat.tf.contrib.tensor_forest", "eval_metrics", "tf.compat.v1.metrics"),
    ("tf1mem.compat.tf.contrib.tensor_forest.python", "tensor_forest_ops",
     "RandomForestGraphs"),
    ("tf1mem.compat.tf.contrib.tensor_forest.client", "eval_metrics", "tf.compat.v1.metrics"),
])
def test_tf115s_other_modules_are_named_removed_with_advice(module, name, advice):
    package = __import__(module, fromlist=["_"])
    with pytest.raises(errors.RemovedAttributeError, match=advice) as raised:
        getattr(package, name)
    assert f"tf.contrib.{module.split('contrib.')[1]}.{name}" in str(raised.value)


def test_an_unknown_name_is_pythons_attribute_error():
    from tf1mem.compat.tf.contrib import tensor_forest

    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        tensor_forest.no_such_name  # noqa: B018
