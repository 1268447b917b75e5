"""``tf.contrib.framework``'s names that neither tf-slim nor TF 2 kept: ``zero_initializer``.

Owns ``zero_initializer(ref)``: TF 1.15 ran it on its ``ZeroInitializer`` kernel (or
``ZeroVarInitializer`` for a resource variable), which TF 2.21 no longer has. Here it is
built from TF's own ops: a check that the variable has no value yet (TF1's kernel failed
with ``InvalidArgumentError: input is already initialized``; so does the ``Assert``
here), then an assignment of zeros of the variable's shape and dtype. As there, the
result is the variable's value (a ref tensor) for a ref variable and the variable's
handle for a resource variable, named ``name``. TensorFlow is imported on first use.
"""

__all__ = ["zero_initializer"]


def zero_initializer(ref, use_locking=True, name="zero_initializer"):
    """Initializes ``ref`` (a variable with no value yet) to zeros.

    Args:
      ref: a ``tf.Variable`` (ref or resource) or a ref tensor of one, with a fully
        known shape.
      use_locking: the assignment takes the variable's lock.
      name: the name of the result.

    Returns:
      For a ref variable, its value after the assignment (``<dtype>_ref``, ref's
      shape); for a resource variable, its handle (``resource``, shape ``[]``). Running
      it when the variable already has a value raises ``InvalidArgumentError``.

    Raises:
      TypeError: ``ref`` is not a variable.
      ValueError: ``ref``'s shape is not fully known.
    """
    import tensorflow as tf
    from tensorflow.python.ops import resource_variable_ops

    v1 = tf.compat.v1
    resource = isinstance(ref, resource_variable_ops.BaseResourceVariable)
    if not resource and not (isinstance(ref, v1.Variable) or (
            tf.is_tensor(ref) and ref.dtype._is_ref_dtype)):  # pylint: disable=protected-access
        raise TypeError(f"zero_initializer: ref must be a variable (a tf.Variable or its "
                        f"ref tensor), got {ref!r}")
    shape = ref.get_shape()
    if not shape.is_fully_defined():
        raise ValueError(f"zero_initializer: the shape of {ref.name} is not fully known "
                         f"({shape}); give the variable a static shape")
    dtype = ref.dtype.base_dtype
    with v1.name_scope(name, values=[ref]) as scope:
        if resource:
            unset = tf.logical_not(resource_variable_ops.var_is_initialized_op(ref.handle))
        else:
            unset = tf.logical_not(v1.is_variable_initialized(ref))
        check = tf.debugging.Assert(unset, [
            f"input is already initialized: zero_initializer sets only a variable that "
            f"has no value yet, and {ref.name} has one"])
        with tf.control_dependencies([check]):
            zeros = tf.zeros(shape, dtype)
            if not resource:
                return v1.assign(ref, zeros, use_locking=use_locking, name=scope)
            assign = resource_variable_ops.assign_variable_op(ref.handle, zeros)
        with tf.control_dependencies([assign]):
            return tf.identity(ref.handle, name=scope)
