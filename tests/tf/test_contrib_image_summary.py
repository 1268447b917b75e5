"""tf.contrib.image (tf1mem's projective transforms) and tf.contrib.summary (TF 1.15's
summary_ops_v2 names). Their outputs against TF 1.15.5 are the corpus scripts
contrib_image.py, contrib_summary_graph.py and contrib_summary_eager.py; these tests
check the edges: NumPy references, bad input, the names TF 1.15 had.

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_image_summary.py.
"""

import numpy as np
import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat.runtime import composite
from tf1mem.compat.tf.contrib import image as contrib_image


def _module(name):
    return composite.make_composite(f"tensorflow.contrib.{name}", name)


def test_summary_has_tf115s_names_not_v1_summary():
    summary = _module("summary")
    for name in ("create_file_writer", "always_record_summaries", "never_record_summaries",
                 "record_summaries_every_n_global_steps", "scalar", "histogram", "image",
                 "audio", "generic", "all_summary_ops", "initialize", "flush", "graph",
                 "should_record_summaries", "summary_writer_initializer_op", "eval_dir"):
        assert callable(getattr(summary, name)), name
    assert summary.all_summary_ops.__name__ == "all_v2_summary_ops"
    with pytest.raises(compat_errors.RemovedAttributeError, match="create_file_writer"):
        summary.create_db_writer
    with pytest.raises(compat_errors.RemovedAttributeError):
        summary.merge_all  # a tf.summary (v1) name, never in tf.contrib.summary


@pytest.mark.slow
def test_image_rotate_and_translate_match_numpy():
    img = np.arange(25, dtype=np.float32).reshape(5, 5)
    got = np.asarray(contrib_image.rotate(img, np.pi / 2))
    np.testing.assert_array_equal(got, np.rot90(img))  # counter-clockwise, as TF 1.15
    batch = np.stack([img, img * 2])[..., None].astype(np.int32)
    got = np.asarray(contrib_image.translate(batch, [[1, 0], [0, -2]]))
    want0 = np.zeros_like(img); want0[:, 1:] = img[:, :-1]
    want1 = np.zeros_like(img); want1[:-2] = (img * 2)[2:]
    assert got.dtype == np.int32 and got.shape == (2, 5, 5, 1)
    np.testing.assert_array_equal(got[..., 0], np.stack([want0, want1]))


@pytest.mark.slow
def test_image_bad_input_is_a_clear_error():
    img = np.zeros((4, 5), np.float32)
    with pytest.raises(contrib_image.InterpolationError, match="'CUBIC'.*NEAREST"):
        contrib_image.rotate(img, 0.1, interpolation="CUBIC")
    with pytest.raises(ValueError):  # also a ValueError, as a user would catch it
        contrib_image.transform(img, [1, 0, 0, 0, 1, 0, 0, 0], interpolation="area")
    with pytest.raises(TypeError, match="rank 2"):
        contrib_image.rotate(np.zeros(5, np.float32), 0.1)
    with pytest.raises(TypeError, match=r"\[8\] or \[N, 8\]"):
        contrib_image.transform(img, np.zeros((1, 1, 8), np.float32))
