"""tf.contrib.resampler and tf.contrib.image.dense_image_warp under tf1mem (the corpus
script ``contrib_resampler.py`` holds TF 1.15.5's values and gradients): provided, and
their refusals name the value and what to give.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_sampling.py.
"""

from tf1mem.compat import table


def test_resampler_and_dense_image_warp_are_provided_not_removed():
    assert "resampler" in table.CONTRIB_MODULES and "resampler" not in table.REMOVED_CONTRIB
    assert "image.dense_image_warp" not in table.REMOVED_SYMBOLS
    assert "image.sparse_image_warp" in table.REMOVED_SYMBOLS  # still not provided
