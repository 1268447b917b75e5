"""tf.contrib.framework.zero_initializer (``compat/tf/contrib/framework/variables.py``): built from
TF ops, as TF 2.21 has no ZeroInitializer kernel. Its results against TF 1.15.5 are the
corpus script contrib_framework_zero_initializer.py; these tests check the edges in
process: ref and resource variables, a second run, the refusals, the table's entry.

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_framework.py.
"""

import numpy as np
import pytest

from tf1mem.compat.tf.contrib.framework.variables import zero_initializer


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_a_ref_variable_is_set_to_zeros_once(dtype):
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.Graph().as_default():
        var = v1.Variable(tf.ones([2, 3], dtype), name="w", use_resource=False)
        out = zero_initializer(var)
        assert out.name == "zero_initializer:0"
        assert out.dtype == tf.as_dtype(dtype)._as_ref  # pylint: disable=protected-access
        assert out.shape.as_list() == [2, 3]
        assert zero_initializer(var, name="again").name == "again:0"
        with v1.Session() as sess:
            assert not sess.run(v1.is_variable_initialized(var))
            value = sess.run(out)
            assert value.dtype == np.dtype(dtype)
            assert value.tolist() == [[0] * 3] * 2
            assert sess.run(var).tolist() == [[0] * 3] * 2
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="input is already initialized.*w:0 has one"):
                sess.run(out)
            sess.run(var.initializer)  # the variable's own initializer still works
            assert sess.run(var).tolist() == [[1] * 3] * 2


@pytest.mark.slow
def test_a_resource_variable_is_set_to_zeros_and_its_handle_returned():
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.Graph().as_default():
        var = v1.get_variable("r", [4], dtype=tf.float64, use_resource=True)
        out = zero_initializer(var, use_locking=False)
        assert out.dtype == tf.resource and out.shape.as_list() == []
        with v1.Session() as sess:
            sess.run(out.op)
            assert sess.run(var).tolist() == [0.0] * 4
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="input is already initialized"):
                sess.run(out.op)


@pytest.mark.slow
def test_use_locking_reaches_the_assignment():
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.Graph().as_default():
        var = v1.Variable(tf.ones([2]), use_resource=False)
        assert zero_initializer(var).op.get_attr("use_locking") is True
        assert zero_initializer(var, use_locking=False).op.get_attr("use_locking") is False


@pytest.mark.slow
def test_refusals_name_the_value():
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.Graph().as_default():
        # TF 1.15: "'ZeroInitializer' Op requires that input 'ref' be a mutable tensor"
        with pytest.raises(TypeError, match=r"ref must be a variable .*Const"):
            zero_initializer(tf.constant([1.0]))
        with pytest.raises(TypeError, match=r"ref must be a variable .*\[1, 2\]"):
            zero_initializer([1, 2])
        loose = v1.Variable(tf.zeros([3]), validate_shape=False, name="loose",
                            use_resource=False)
        with pytest.raises(ValueError, match=r"shape of loose:0 is not fully known"):
            zero_initializer(loose)
