"""tf.contrib.resampler and tf.contrib.image.dense_image_warp under tf1mem (the corpus
script ``contrib_resampler.py`` holds TF 1.15.5's values and gradients): provided, and
their refusals name the value and what to give.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_contrib_sampling.py.
"""

import json
import textwrap

import pytest

from tests import _subproc


_REFUSALS = textwrap.dedent("""
    import json
    import numpy as np
    import tensorflow as tf

    errors = {}
    def attempt(label, build, feed=None):
        try:
            result = build()
            with tf.Session() as sess:
                sess.run(result, feed)
            errors[label] = None
        except Exception as e:
            errors[label] = "%s: %s" % (type(e).__name__, getattr(e, "message", e))

    data = np.zeros([1, 3, 4, 2], np.float32)
    attempt("data_rank", lambda: tf.contrib.resampler.resampler(data[0], np.zeros([1, 5, 2], np.float32)))
    attempt("warp_last", lambda: tf.contrib.resampler.resampler(data, np.zeros([1, 5, 3], np.float32)))
    attempt("warp_dtype", lambda: tf.contrib.resampler.resampler(data, np.zeros([1, 5, 2])))
    attempt("flow_last", lambda: tf.contrib.image.dense_image_warp(
        np.zeros([1, 4, 5, 3], np.float32), np.zeros([1, 4, 5, 1], np.float32)))
    image = tf.placeholder(tf.float32, [None, None, None, 3])
    attempt("one_row", lambda: tf.contrib.image.dense_image_warp(image, tf.zeros([1, 1, 5, 2])),
            {image: np.zeros([1, 1, 5, 3], np.float32)})
    print(json.dumps(errors))
""")


@pytest.mark.slow
def test_bad_shapes_and_dtypes_are_named(tmp_path):
    script = tmp_path / "refusals.py"
    script.write_text(_REFUSALS)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    errors = json.loads(proc.stdout.strip().splitlines()[-1])
    assert errors["data_rank"].startswith("ValueError") and "rank 4" in errors["data_rank"] \
        and "(3, 4, 2)" in errors["data_rank"]
    assert errors["warp_last"].startswith("ValueError") and "last dimension must be 2" in \
        errors["warp_last"]
    assert errors["warp_dtype"].startswith("TypeError") and "float64" in errors["warp_dtype"] \
        and "same float dtype" in errors["warp_dtype"]
    # TF 1.15 broadcast a one-channel flow silently; a clear error here
    assert errors["flow_last"].startswith("ValueError") and "(1, 4, 5, 1)" in errors["flow_last"]
    assert errors["one_row"].startswith("InvalidArgumentError") and \
        "height must be at least 2" in errors["one_row"]
