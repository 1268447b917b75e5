"""``tf.contrib.framework``: what tf-slim did not keep.

tf1mem's ``zero_initializer`` (``variables.py``: TF 2.21 has no ``ZeroInitializer``
kernel) and the TF core objects TF 1.15's ``tf.contrib.framework`` re-exported (the same
objects there, still in TF 2.21 at these homes); tf1mem's table serves the rest
(``arg_scope``, the variable functions) from tf-slim.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'nest': 'tf1mem.compat.tf.python.util.nest:',
    'get_or_create_global_step': 'tensorflow:compat.v1.train.get_or_create_global_step',
    'get_global_step': 'tensorflow:compat.v1.train.get_global_step',
    'is_tensor': 'tensorflow:is_tensor',
    'sort': 'tensorflow:sort',
    'argsort': 'tensorflow:argsort',
    'load_checkpoint': 'tensorflow:train.load_checkpoint',
    'load_variable': 'tensorflow:train.load_variable',
    'list_variables': 'tensorflow:train.list_variables',
    'init_from_checkpoint': 'tensorflow:compat.v1.train.init_from_checkpoint',
    'convert_to_tensor_or_sparse_tensor': 'tensorflow:compat.v1.convert_to_tensor_or_sparse_tensor',
    'zero_initializer': '.variables',
    'TensorSpec': 'tensorflow.python.framework.tensor_spec',
    'BoundedTensorSpec': 'tensorflow.python.framework.tensor_spec',
    'RecordInput': 'tensorflow.python.ops.data_flow_ops',
    'assert_same_float_dtype': 'tensorflow.python.ops.check_ops',
    'assert_scalar': 'tensorflow.python.ops.check_ops',
    'convolutional_delta_orthogonal': 'tensorflow.python.ops.init_ops:ConvolutionDeltaOrthogonal',
    'convolutional_orthogonal_1d': 'tensorflow.python.ops.init_ops:ConvolutionOrthogonal1D',
    'convolutional_orthogonal_2d': 'tensorflow.python.ops.init_ops:ConvolutionOrthogonal2D',
    'convolutional_orthogonal_3d': 'tensorflow.python.ops.init_ops:ConvolutionOrthogonal3D',
    'deprecated': 'tensorflow.python.util.deprecation',
    'deprecated_args': 'tensorflow.python.util.deprecation',
    'deprecated_arg_values': 'tensorflow.python.util.deprecation',
    'load_and_remap_matrix_initializer': 'tensorflow.python.training.checkpoint_ops:_load_and_remap_matrix_initializer',
    'load_embedding_initializer': 'tensorflow.python.training.checkpoint_ops:_load_embedding_initializer',
    'prepend_name_scope': 'tensorflow.python.framework.ops',
    'strip_name_scope': 'tensorflow.python.framework.ops',
    'smart_cond': 'tensorflow.python.framework.smart_cond',
    'smart_case': 'tensorflow.python.framework.smart_cond',
    'smart_constant_value': 'tensorflow.python.framework.smart_cond',
    'get_name_scope': 'tensorflow:get_current_name_scope',
})
