"""The scanner's data about TensorFlow (tf1mem/migrate/tf_names.py) is what the installed
TensorFlow under the shim holds: regenerating it gives the same file.

A new table entry, a new re-implementation or another TensorFlow makes it stale; write it
again with ``python -m tf1mem.migrate.snapshot > tf1mem/migrate/tf_names.py``.

The tests here: TensorFlow in the test process; the scanner's commands:
tests/commands/test_scan_quick.py.
"""

import warnings
from pathlib import Path

from tf1mem.migrate import snapshot, tf_names

KERAS_FIRST = "Keras 3 was imported before tf1mem's shim"


def test_the_snapshot_is_current():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=KERAS_FIRST, category=RuntimeWarning)
        fresh = snapshot.render()
    stored = Path(tf_names.__file__).read_text(encoding="utf-8")
    assert fresh == stored, ("tf1mem/migrate/tf_names.py is stale: run python -m "
                             "tf1mem.migrate.snapshot > tf1mem/migrate/tf_names.py")


def test_the_snapshot_knows_what_the_scanner_asks():
    import tensorflow as tf

    assert tf_names.TF_VERSION == tf.__version__
    top = dict(item.split(":") for item in tf_names.MODULES["tensorflow"].split())
    assert "2" not in top["Session"] and "1" in top["Session"]  # TF1-only, in compat.v1
    assert "2" in top["constant"]
    assert "o" in top["estimator"] and "2" not in top["estimator"]
    assert "tensorflow.contrib.layers" in tf_names.MODULES
    assert "{}" in tf_names.MISSING["tensorflow"]
