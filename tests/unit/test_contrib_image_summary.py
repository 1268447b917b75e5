"""tf.contrib.image (tf1mem's projective transforms) and tf.contrib.summary (TF 1.15's
summary_ops_v2 names). Their outputs against TF 1.15.5 are the corpus scripts
contrib_image.py, contrib_summary_graph.py and contrib_summary_eager.py; these tests
check the edges: NumPy references, bad input, the names TF 1.15 had.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_image_summary.py.
"""

import pytest

from tests.tf.test_contrib_image_summary import _module
from tf1mem.compat import errors as compat_errors
from tf1mem.compat.tf.contrib import image as contrib_image
from tf1mem.migrate import inventory


def test_image_table_names_what_is_not_provided():
    image = _module("image")
    assert image.rotate is contrib_image.rotate
    from tf1mem.compat.tf.contrib import resampler as sampling

    assert image.dense_image_warp is sampling.dense_image_warp
    with pytest.raises(compat_errors.RemovedAttributeError, match="sparse_image_warp"):
        image.sparse_image_warp
    assert inventory.ranked_table()[[r[1] for r in inventory.ranked_table()].index("image")][3] \
        == "re-implemented"
