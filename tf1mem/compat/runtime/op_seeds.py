"""TF 1.15's implicit op seeds: ``tf.set_random_seed(N)`` gives the values TF1 gave.

A random op built with a graph seed but no seed of its own takes an op seed from
``random_seed.get_seed``. TF 1.15 used the graph's op count at that moment
(``graph._last_id``, which TF 2.21's ``graph.version`` still is); TF 2.21 counts the
calls per graph (0, 1, 2, ...). So a TF1 script that seeds only its graph (the usual
way) drew other numbers on TF 2.21: ``tf.set_random_seed(1); tf.random_normal([3])``
gave ``[-0.6709, 0.2236, 0.7973]`` on TF 1.15.5 and ``[0.3052, 0.5671, 0.4185]`` on
TF 2.21.

The op count itself must also be TF1's. TF 2.21's ``random_uniform`` takes a short
cut for a float draw with the default bounds (``minval=0``, ``maxval=None``, Python
ints): no ``min`` / ``max`` constants and no ``sub`` / ``mul`` / ``add``, where TF 1.15
always built all five. Every seed drawn after such a call (``tf.Variable(
tf.random_uniform(shape))`` is one) was then 5 lower than TF1's. Passing such bounds
as floats makes TF's general path build TF1's ops; the values are the same
(``x * (1 - 0) + 0`` is ``x``), and the result is again named ``random_uniform``.
Two more ops TF 2.21 no longer builds are built again: ``tf.split`` into a number of
parts first made that number a tensor (a ``Const``, unused; TF's own ``LSTMCell`` splits
so), and a v1 ``TensorArray`` read its size with ``TensorArraySizeV3`` even where the
size was fixed (every ``dynamic_rnn`` stacks its outputs so). Without them a seeded RNN
script's initial weights after its first ``dynamic_rnn`` were not TF 1.15's. Likewise
``tf.nn.dropout``: TF 2.21's builds another graph (``SelectV2`` of the scaled
input, 3 ops fewer, the draw one op later), so the v1 name gets TF 1.15's op sequence
back (rate, noise shape, draw, ``1 - rate``, its inverse, mask, ``x * scale * mask``):
the same kept units as TF1 and the same op count after it; its v2 name too (TF 1.15's
built the same ops), which ``tf.layers.dropout`` (tf_keras' ``Dropout``) calls.
``tf.zeros`` / ``tf.ones`` of a list that holds a tensor (``[batch_size, units]`` with a
dynamic batch, as the zero frequency states of tf.contrib.rnn's Grid LSTMs) first built
TF 1.15's unused size test (``Mul`` of the dimensions with their ``Const`` s, ``Less``
than 1000), named under the op's own scope as there. And ``make_initializable_iterator``: TF 1.15 applied the dataset's default options there,
three ops before the iterator (a ``Const`` of the static optimizations, ``OptimizeDataset``
and ``ModelDataset``), which TF 2.21 no longer builds; every ``tf.estimator`` input_fn that
returns a Dataset goes through it, so without them a seeded Estimator's model drew other
weights. They are built again, unused (TF 2.21 applies its own options when the iterator
is made; the elements are the same).

:func:`install` (called by :func:`tf1mem.compat.install`) wraps
``random_seed.get_seed``, ``random_ops.random_uniform`` and the others named above
where TF's code looks them up (on those modules, at each call) and where the TF1 API
names them (``tf.compat.v1.get_seed``, ``tf.compat.v1.random_uniform``, ``tf.zeros``,
...). In graph mode with a graph seed and no op seed, the op seed is the graph's op
count, as TF 1.15 did; everything else (eager mode, explicit op seeds, no graph seed)
goes to TF's own function unchanged. The callable it returns puts the originals back.
Checked against TF 1.15.5 by the corpus scripts ``graph_seed_only.py``,
``graph_seed_rnn.py`` and ``contrib_rnn_grid_nas.py``.
"""

import numbers

__all__ = ["install"]


def install():
    """Wraps ``get_seed`` and ``random_uniform``; returns a function that undoes it."""
    from tensorflow.python.eager import context
    from tensorflow.python.data.ops import dataset_ops
    from tensorflow.python.framework import ops, random_seed
    from tensorflow.python.ops import random_ops

    import tensorflow as tf

    original_get_seed = random_seed.get_seed
    original_uniform = random_ops.random_uniform

    def get_seed(op_seed):
        if op_seed is None and not context.executing_eagerly():
            graph = ops.get_default_graph()
            if graph.seed is not None:
                if hasattr(graph, "_seed_used"):  # what TF's own get_seed notes
                    graph._seed_used = True  # pylint: disable=protected-access
                op_seed = graph.version  # TF1's graph._last_id
        return original_get_seed(op_seed)

    def random_uniform(shape, minval=0, maxval=None, dtype=tf.float32, seed=None,
                       name=None):
        if tf.as_dtype(dtype).is_floating:
            if _python_int(minval):
                minval = float(minval)
            if maxval is None:
                maxval = 1.0
            elif _python_int(maxval):
                maxval = float(maxval)
        return original_uniform(shape, minval, maxval, dtype, seed, name)

    original_dropout = tf.compat.v1.nn.dropout

    def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
        if context.executing_eagerly():
            return original_dropout(x, keep_prob=keep_prob, noise_shape=noise_shape,
                                    seed=seed, name=name, rate=rate)
        return _tf1_dropout(x, keep_prob, noise_shape, seed, name, rate)

    original_dropout_v2 = tf.compat.v2.nn.dropout

    def dropout_v2(x, rate, noise_shape=None, seed=None, name=None):
        # TF 1.15's v2 name built the same ops as its v1 one; tf.compat.v1.layers.dropout
        # (tf_keras' Dropout layer, seeded by the graph) calls it
        if context.executing_eagerly():
            return original_dropout_v2(x, rate, noise_shape=noise_shape, seed=seed, name=name)
        return _tf1_dropout(x, None, noise_shape, seed, name, rate)

    from tensorflow.python.framework import tensor_shape
    from tensorflow.python.ops import array_ops, gen_data_flow_ops, tensor_array_ops

    original_split = array_ops.split

    def split(value, num_or_size_splits, axis=0, num=None, name="split"):
        if isinstance(num_or_size_splits, (numbers.Integral, tensor_shape.Dimension)) \
                and not context.executing_eagerly():
            # TF 1.15 first made a tensor of the count, unused for an int: a Const
            ops.convert_to_tensor(int(num_or_size_splits))
        return original_split(value, num_or_size_splits, axis=axis, num=num, name=name)

    graph_array = tensor_array_ops._GraphTensorArray  # pylint: disable=protected-access
    original_size = graph_array.size

    def size(self, name=None):
        # TF 1.15 always read the size with an op; TF 2.21 returns the size it was made
        # with (the same value) where it is fixed, one op fewer in every stack()
        return gen_data_flow_ops.tensor_array_size_v3(handle=self._handle,
                                                      flow_in=self.flow, name=name)

    original_zeros, original_ones = array_ops.zeros, array_ops.ones

    def with_size_test(original, default_name):
        def fill(shape, dtype=tf.float32, name=None, **kwargs):
            if not _holds_graph_tensor(shape):
                return original(shape, dtype=dtype, name=name, **kwargs)
            with ops.name_scope(name, default_name, [shape]) as scope:
                _tf1_size_test(shape)
                return original(shape, dtype=dtype, name=scope, **kwargs)
        return fill

    zeros = with_size_test(original_zeros, "zeros")
    ones = with_size_test(original_ones, "ones")

    original_make_iterator = dataset_ops.DatasetV1._make_initializable_iterator

    def make_initializable_iterator(self, shared_name=None):
        if not context.executing_eagerly():
            _tf1_dataset_options(self)
        return original_make_iterator(self, shared_name)

    patched = [(graph_array, "size", size, original_size),
               (dataset_ops.DatasetV1, "_make_initializable_iterator",
                make_initializable_iterator, original_make_iterator)]
    graph_array.size = size
    dataset_ops.DatasetV1._make_initializable_iterator = make_initializable_iterator
    for wrapper, wrapped, homes in (
            # tf_keras' legacy LSTMCell (tf.nn.rnn_cell's, under TF_USE_LEGACY_KERAS)
            # calls tf.split through TF 2's API: that name too
            (split, original_split, [(array_ops, "split"), (tf.compat.v1, "split"),
                                     (tf, "split"), (tf.compat.v2, "split")]),
            (dropout, original_dropout, [(tf.compat.v1.nn, "dropout")]),
            (dropout_v2, original_dropout_v2, [(tf.compat.v2.nn, "dropout"), (tf.nn, "dropout")]),
            (zeros, original_zeros, [(array_ops, "zeros"), (tf.compat.v1, "zeros"),
                                     (tf, "zeros"), (tf.compat.v2, "zeros")]),
            (ones, original_ones, [(array_ops, "ones"), (tf.compat.v1, "ones"),
                                   (tf, "ones"), (tf.compat.v2, "ones")]),
            (get_seed, original_get_seed,
             [(random_seed, "get_seed"), (tf.compat.v1, "get_seed"),
              (tf.compat.v1.random, "get_seed")]),
            (random_uniform, original_uniform,
             [(random_ops, "random_uniform"), (tf.compat.v1, "random_uniform"),
              (tf.compat.v1.random, "uniform")])):
        wrapper.__doc__ = wrapped.__doc__
        wrapper.__wrapped__ = wrapped
        for module, name in homes:
            if module.__dict__.get(name) is wrapped:
                setattr(module, name, wrapper)
                patched.append((module, name, wrapper, wrapped))

    def undo():
        for home, name, wrapper, wrapped in patched:
            if home.__dict__.get(name) is wrapper:
                setattr(home, name, wrapped)

    return undo


def _tf1_dataset_options(dataset):
    """The three ops TF 1.15's ``make_initializable_iterator`` built first (its default
    static optimizations, then autotuning), left unused: their op count is what matters."""
    import tensorflow as tf
    from tensorflow.python.ops import gen_dataset_ops

    structure = dataset._flat_structure  # pylint: disable=protected-access
    optimizations = tf.constant(
        ["map_and_batch_fusion", "noop_elimination", "shuffle_and_repeat_fusion"],
        name="optimizations")
    optimized = gen_dataset_ops.optimize_dataset(
        dataset._variant_tensor, optimizations,  # pylint: disable=protected-access
        optimization_configs=["map_vectorization:use_choose_fastest:false"], **structure)
    gen_dataset_ops.model_dataset(optimized, algorithm=0, cpu_budget=0, **structure)


def _tf1_dropout(x, keep_prob, noise_shape, seed, name, rate):
    """TF 1.15's v1 ``tf.nn.dropout``, op for op."""
    import numbers

    import tensorflow as tf
    from tensorflow.python.ops import nn_ops, random_ops

    if keep_prob is not None and rate is not None:
        raise ValueError("tf.nn.dropout: give keep_prob or rate, not both (keep_prob is "
                         "TF1's, rate = 1 - keep_prob TF 2's)")
    if keep_prob is not None:
        try:
            rate = 1. - keep_prob
        except TypeError as exc:
            raise ValueError(f"tf.nn.dropout: keep_prob must be a float or a scalar float "
                             f"tensor; got {keep_prob!r}") from exc
    if rate is None:
        raise ValueError("tf.nn.dropout: give keep_prob (the fraction of units kept)")
    with tf.compat.v1.name_scope(name, "dropout", [x]):
        x = tf.convert_to_tensor(x, name="x")
        if not x.dtype.is_floating:
            raise ValueError(f"tf.nn.dropout: x has to be a floating point tensor, since "
                             f"it is going to be scaled; got a {x.dtype.name} tensor")
        if isinstance(rate, numbers.Real):
            if not 0 <= rate < 1:
                raise ValueError(f"tf.nn.dropout: rate must be a scalar tensor or a float "
                                 f"in the range [0, 1), got {rate:g} (keep_prob "
                                 f"{1 - rate:g}: use a keep_prob in (0, 1])")
            if rate == 0:
                return x
        rate = tf.convert_to_tensor(rate, dtype=x.dtype, name="rate")
        rate.shape.assert_is_compatible_with(tf.TensorShape([]))
        noise_shape = nn_ops._get_noise_shape(x, noise_shape)  # pylint: disable=protected-access
        draw = random_ops.random_uniform(noise_shape, seed=seed, dtype=x.dtype)
        scale = 1 / (1 - rate)
        keep = draw >= rate
        return x * scale * tf.cast(keep, x.dtype)


def _holds_graph_tensor(shape):
    """Whether ``shape`` is a list or tuple of ints and graph tensors, one at least (the
    shapes TF 1.15 tested for size with ops)."""
    import tensorflow as tf

    if not isinstance(shape, (list, tuple)) or tf.executing_eagerly():
        return False
    found = False
    for dim in shape:
        if tf.is_tensor(dim) and not hasattr(dim, "numpy"):
            found = True
        elif not _python_int(dim):
            return False
    return found


def _tf1_size_test(shape):
    """The ops TF 1.15's ``tf.zeros`` / ``tf.ones`` built to ask whether a shape holding
    tensors was small enough for a constant (``np.prod(shape) < 1000``, which numpy
    multiplied out left to right with the tensors' operators); the answer, a tensor, was
    then not usable as a bool and the fill was built instead. Unused, but they count
    toward the op seeds of a seeded graph."""
    product = shape[0]
    for dim in shape[1:]:
        product = product * dim
    if not _python_int(product):
        product < 1000  # pylint: disable=pointless-statement


def _python_int(value):
    return isinstance(value, int) and not isinstance(value, bool)
