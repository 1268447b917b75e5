"""The scanner's data about TensorFlow (tf1mem/migrate/tf_names.py) answers what the
scanner asks, for the installed TensorFlow.

The tests here: TensorFlow in the test process; that regenerating the file (in a fresh
process) gives the same file: tests/commands/test_scan_quick.py.
"""

from tf1mem.migrate import tf_names


def test_the_snapshot_knows_what_the_scanner_asks():
    import tensorflow as tf

    assert tf_names.TF_VERSION == tf.__version__
    top = dict(item.split(":") for item in tf_names.MODULES["tensorflow"].split())
    assert "2" not in top["Session"] and "1" in top["Session"]  # TF1-only, in compat.v1
    assert "2" in top["constant"]
    assert "o" in top["estimator"] and "2" not in top["estimator"]
    assert "tensorflow.contrib.layers" in tf_names.MODULES
    assert "{}" in tf_names.MISSING["tensorflow"]
