"""``tf.contrib.eager`` (``tfe``) as TF 1.5-1.15 had it, on TF 2's eager runtime.

This module owns the re-implementation of the TF1 eager API that real scripts used:
``enable_eager_execution``, ``Variable``, the four gradient functions
(``implicit_gradients``, ``implicit_value_and_gradients``, ``gradients_function``,
``value_and_gradients_function``), ``Iterator``, ``Network`` / ``Sequential`` (the
pre-Keras model classes, here on ``tf.Module``, Keras-free themselves), ``Saver``,
``Checkpoint``, ``metrics`` (``Mean``, ``Accuracy`` and friends), ``defun``,
``num_gpus``, ``run`` and the plain aliases (``GradientTape``, ``custom_gradient``...).

Guarantees: the gradient functions return what TF1 returned (lists of tensors,
``(gradient, variable)`` pairs in variable-creation order, the same errors for a
function returning None or touching no trainable variable); ``Network`` names its
variables ``<network>/<layer>/<var>`` as TF1 did; ``metrics`` keep TF1's float64
results and variable names. ``Network`` and the metrics subclass ``tf.Module``, so the
module imports TensorFlow at its top (it is loaded only after TensorFlow).
"""

import functools
import re
import threading
import types

import tensorflow as tf
import tensorflow.compat.v1 as v1
from tensorflow.python.eager import context
from tensorflow.python.framework import test_util
from tensorflow.python.ops import resource_variable_ops, variable_scope

from tf1mem import errors

__all__ = [
    "enable_eager_execution", "executing_eagerly", "in_eager_mode", "num_gpus",
    "list_devices", "run", "implicit_gradients", "implicit_value_and_gradients",
    "gradients_function", "value_and_gradients_function", "Iterator", "Saver",
    "get_optimizer_variables", "Network", "Sequential", "metrics", "defun", "Variable",
    "GradientTape", "custom_gradient", "TensorSpec", "Checkpoint", "Checkpointable",
    "EagerVariableStore", "make_template", "py_func", "function",
    "DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT", "SYNC",
    "ASYNC", "run_test_in_graph_and_eager_modes", "run_all_tests_in_graph_and_eager_modes",
]

_LOCK = threading.RLock()


# --- execution ------------------------------------------------------------------------


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """TF1's ``tfe.enable_eager_execution``: the program runs eagerly from here on."""
    return v1.enable_eager_execution(config=config, device_policy=device_policy,
                                        execution_mode=execution_mode)


def executing_eagerly():
    """Whether ops run eagerly now."""
    return tf.executing_eagerly()


in_eager_mode = executing_eagerly


def num_gpus():
    """The number of GPUs TensorFlow sees in this process."""
    return len(tf.config.list_logical_devices("GPU"))


def list_devices():
    """Names of the logical devices eager ops can run on (TF1's ``tfe.list_devices``)."""
    return [d.name for d in tf.config.list_logical_devices()]


def run(main=None, argv=None):
    """TF1's ``tfe.run``: enables eager execution, then ``tf.app.run(main, argv)``."""
    enable_eager_execution()
    return v1.app.run(main, argv)


def _require_eager(what):
    if not executing_eagerly():
        raise errors.ShimError(
            f"tf.contrib.eager.{what} needs eager execution: call "
            f"tf.enable_eager_execution() (or tfe.enable_eager_execution()) at the start of "
            f"the program, as in TF 1.x.")


# --- gradients ------------------------------------------------------------------------


def _implicit(f, with_value):

    def grad_fn(*args, **kwds):
        _require_eager("implicit_gradients")
        with tf.GradientTape() as tape:  # watches every trainable variable it reads
            end_node = f(*args, **kwds)
        if end_node is None:
            raise ValueError(f"Cannot differentiate a function that returns None; did you "
                             f"forget to return a value from {f.__name__}?")
        variables = list(tape.watched_variables())
        if not variables:
            raise ValueError("No trainable variables were accessed while the function "
                             "was being computed.")
        grads = tape.gradient(tf.nest.flatten(end_node), variables)
        pairs = list(zip(grads, variables))
        return (end_node, pairs) if with_value else pairs

    return grad_fn


def implicit_gradients(f):
    """Returns a function giving ``[(gradient, variable), ...]`` of ``f``'s result.

    The variables are every trainable variable ``f`` read, in creation order (as
    TF1's). A non-scalar result is summed.
    """
    return functools.wraps(f)(_implicit(f, with_value=False))


def implicit_value_and_gradients(f):
    """As :func:`implicit_gradients`, returning ``(value, [(gradient, variable), ...])``."""
    return functools.wraps(f)(_implicit(f, with_value=True))


def _explicit(f, params, with_value):

    def grad_fn(*args, **kwds):
        _require_eager("gradients_function")
        dy = kwds.pop("dy", None)
        indices = list(range(len(args))) if params is None else list(params)
        for i in indices:
            if not isinstance(i, int) or not 0 <= i < len(args):
                raise ValueError(f"params must be indices of {f.__name__}'s positional "
                                 f"arguments (it got {len(args)}), got {params!r}")
        args = list(args)
        with tf.GradientTape() as tape:
            for i in indices:
                args[i] = tf.convert_to_tensor(args[i])
                tape.watch(args[i])
            value = f(*args, **kwds)
        if value is None:
            raise ValueError(f"Cannot differentiate a function that returns None; did you "
                             f"forget to return a value from {f.__name__}?")
        grads = tape.gradient(value, [args[i] for i in indices], output_gradients=dy)
        return (value, grads) if with_value else grads

    return grad_fn


def gradients_function(f, params=None):
    """Returns a function giving the gradients of ``f`` w.r.t. its positional arguments.

    ``params``: indices of the arguments to differentiate (default all). The
    returned function accepts ``dy=`` (the gradient of the output), as TF1's did.
    """
    return functools.wraps(f)(_explicit(f, params, with_value=False))


def value_and_gradients_function(f, params=None):
    """As :func:`gradients_function`, returning ``(value, gradients)``."""
    return functools.wraps(f)(_explicit(f, params, with_value=True))


# --- data -----------------------------------------------------------------------------


class Iterator:
    """TF1's ``tfe.Iterator``: a Python iterator over a ``tf.data.Dataset``, eagerly.

    Supports ``for x in it``, ``next(it)``, ``it.next()`` and ``it.get_next()``; the
    end raises StopIteration (``get_next``: ``tf.errors.OutOfRangeError``, as TF1).
    """

    def __init__(self, dataset):
        _require_eager("Iterator")
        self._dataset = dataset
        self._it = iter(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    next = __next__

    def get_next(self, name=None):
        try:
            return next(self._it)
        except StopIteration:
            raise tf.errors.OutOfRangeError(None, None, "End of sequence") from None

    @property
    def element_spec(self):
        return self._dataset.element_spec

    @property
    def output_types(self):
        return v1.data.get_output_types(self._dataset)

    @property
    def output_shapes(self):
        return v1.data.get_output_shapes(self._dataset)

    @property
    def output_classes(self):
        return v1.data.get_output_classes(self._dataset)


# --- saving ---------------------------------------------------------------------------


class Saver:
    """TF1's ``tfe.Saver(var_list)``: TF1-format checkpoints of eager variables.

    ``save(file_prefix, global_step=None)`` returns the checkpoint path;
    ``restore(file_prefix)`` assigns the saved values. The files are those
    ``tf.train.Saver`` writes, so graph-mode code can read them.
    """

    def __init__(self, var_list):
        _require_eager("Saver")
        if isinstance(var_list, dict):
            var_list = dict(var_list)
        else:
            var_list = list(var_list)
        if not var_list:
            raise ValueError("tfe.Saver needs a non-empty var_list (e.g. model.variables)")
        self._saver = v1.train.Saver(var_list=var_list)

    def save(self, file_prefix, global_step=None):
        return self._saver.save(None, file_prefix, global_step=global_step,
                                write_meta_graph=False)

    def restore(self, file_prefix):
        self._saver.restore(None, file_prefix)


def get_optimizer_variables(optimizer):
    """The slot and hyper-parameter variables of a TF1 optimizer (``optimizer.variables()``)."""
    return optimizer.variables()


# --- models and metrics, on tf.Module ------------------------------------------------


def _snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


_NAME_COUNTS = {}


def _unique_name(base):
    with _LOCK:
        n = _NAME_COUNTS.get(base, 0)
        _NAME_COUNTS[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


class Network(tf.Module):
    """TF1's ``tfe.Network``: a model made of tracked layers, on ``tf.Module``.

    Subclasses create layers in ``__init__`` with ``self.track_layer(layer)``
    and define ``call(inputs, ...)``; calling the network calls ``call`` under
    the network's variable scope, so variables are named
    ``<network>/<layer>/<var>:0`` as in TF1. ``variables`` /
    ``trainable_variables`` / ``weights`` list the tracked layers' variables
    in layer order, then those made with ``add_variable``.
    """

    def __init__(self, name=None):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Network name must be a string, got {name!r}")
        base = name if name else _snake(type(self).__name__)
        unique = _unique_name(base) if not name else name
        super().__init__(name=unique)
        self._tfe_layers = []
        self._tfe_own_vars = []
        self._tfe_scope_name = unique
        self.built = False

    def track_layer(self, layer):
        """Registers ``layer`` (a ``tf.layers`` layer or a Network); returns it."""
        if not callable(layer) or not hasattr(layer, "variables"):
            raise TypeError(f"track_layer expects a layer (tf.layers.* or a Network), "
                            f"got {layer!r}")
        if not any(layer is l for l in self._tfe_layers):
            self._tfe_layers.append(layer)
        return layer

    @property
    def layers(self):
        return list(self._tfe_layers)

    def get_layer(self, name=None, index=None):
        """A tracked layer by ``index`` or ``name``."""
        if index is not None:
            return self._tfe_layers[index]
        for layer in self._tfe_layers:
            if layer.name == name:
                return layer
        raise ValueError(f"no layer named {name!r} in network {self.name!r}; layers: "
                         f"{[l.name for l in self._tfe_layers]}")

    def add_variable(self, name, shape, dtype=None, initializer=None, trainable=True):
        """Creates a variable owned by the network itself."""
        with tf.compat.v1.variable_scope(self._tfe_scope_name):
            var = tf.compat.v1.get_variable(name, shape=shape, dtype=dtype,
                                            initializer=initializer, trainable=trainable,
                                            use_resource=True)
        self._tfe_own_vars.append(var)
        return var

    def _collect(self, attr):
        seen, out = set(), []
        for layer in self._tfe_layers:
            for v in getattr(layer, attr):
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        for v in self._tfe_own_vars:
            if (attr != "trainable_variables" or v.trainable) and id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return out

    @property
    def variables(self):
        return self._collect("variables")

    weights = variables

    @property
    def trainable_variables(self):
        return self._collect("trainable_variables")

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.variables if id(v) not in trainable]

    non_trainable_weights = non_trainable_variables

    @property
    def losses(self):
        out = []
        for layer in self._tfe_layers:
            out.extend(getattr(layer, "losses", []))
        return out

    def call(self, inputs, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define call(inputs, ...)")

    def __call__(self, inputs, *args, **kwargs):
        with tf.compat.v1.variable_scope(self._tfe_scope_name, auxiliary_name_scope=False):
            out = self.call(inputs, *args, **kwargs)
        self.built = True
        return out


class Sequential(Network):
    """TF1's ``tfe.Sequential(layers_funcs)``: layers and functions applied in order."""

    def __init__(self, layers_funcs=None, name=None):
        super().__init__(name=name)
        self._tfe_funcs = []
        for item in layers_funcs or []:
            self.add(item)

    def add(self, layer_func):
        if hasattr(layer_func, "variables"):
            self.track_layer(layer_func)
        elif not callable(layer_func):
            raise TypeError(f"Sequential takes layers or callables, got {layer_func!r}")
        self._tfe_funcs.append(layer_func)

    def call(self, inputs, training=None):
        out = inputs
        for f in self._tfe_funcs:
            out = f(out)
        return out


class Metric(tf.Module):
    """TF1's ``tfe.metrics.Metric``: variables made on first call, ``result()``."""

    def __init__(self, name=None):
        base = name or type(self).__name__
        super().__init__(name=_unique_name(base) if name is None else name)
        self._scope_name = self.name
        self._vars = []

    def add_variable(self, name, shape=(), dtype=tf.float64, initializer=None):
        init = initializer if initializer is not None else tf.zeros_initializer()
        with tf.name_scope(self._scope_name + "/"):
            var = tf.Variable(init(shape, dtype=dtype), trainable=False, name=name)
        self._vars.append(var)
        return var

    @property
    def variables(self):
        return list(self._vars)

    def init_variables(self):
        for v in self._vars:
            v.assign(tf.zeros_like(v))

    def __call__(self, *args, **kwargs):
        return self.call(*args, **kwargs)


class Mean(Metric):
    """Weighted mean of every value seen; ``result()`` is float64 (TF1's default)."""

    def __init__(self, name=None, dtype=tf.float64):
        super().__init__(name=name)
        self.dtype = tf.as_dtype(dtype)
        self.numer = self.add_variable("numer", dtype=self.dtype)
        self.denom = self.add_variable("denom", dtype=self.dtype)

    def call(self, values, weights=None):
        """Adds ``values`` (weighted); returns their (weighted) sum, as TF1's call."""
        values = tf.convert_to_tensor(values)
        if weights is None:
            count = tf.cast(tf.size(values), self.dtype)
            values = tf.reduce_sum(values)
        else:
            weights = tf.cast(tf.convert_to_tensor(weights), values.dtype)
            values = values * weights
            count = tf.cast(tf.reduce_sum(weights * tf.ones_like(values)), self.dtype)
            values = tf.reduce_sum(values)
        self.numer.assign_add(tf.cast(values, self.dtype))
        self.denom.assign_add(count)
        return values

    def result(self, write_summary=True):
        return tf.math.divide_no_nan(self.numer, self.denom)


class Accuracy(Mean):
    """Fraction of ``labels == predictions``; ``call`` returns its arguments."""

    def call(self, labels, predictions, weights=None):
        eq = tf.cast(tf.equal(tf.convert_to_tensor(labels),
                              tf.convert_to_tensor(predictions)), self.dtype)
        super().call(eq, weights)
        return labels, predictions


class CategoricalAccuracy(Mean):
    """Accuracy of one-hot ``labels`` against ``predictions`` (argmax of both)."""

    def call(self, labels, predictions, weights=None):
        eq = tf.cast(tf.equal(tf.argmax(labels, axis=-1), tf.argmax(predictions, axis=-1)),
                     self.dtype)
        super().call(eq, weights)
        return labels, predictions


class SparseAccuracy(Mean):
    """Accuracy of integer ``labels`` against ``predictions`` logits (argmax)."""

    def call(self, labels, predictions, weights=None):
        labels = tf.convert_to_tensor(labels)
        pred = tf.cast(tf.argmax(predictions, axis=-1), labels.dtype)
        eq = tf.cast(tf.equal(tf.reshape(labels, tf.shape(pred)), pred), self.dtype)
        super().call(eq, weights)
        return labels, predictions


class BinaryAccuracy(Mean):
    """Accuracy of 0/1 ``labels`` against ``predictions > threshold``."""

    def __init__(self, threshold=0.5, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)
        self.threshold = threshold

    def call(self, labels, predictions, weights=None):
        labels = tf.convert_to_tensor(labels)
        pred = tf.cast(tf.convert_to_tensor(predictions) > self.threshold, labels.dtype)
        eq = tf.cast(tf.equal(labels, pred), self.dtype)
        super().call(eq, weights)
        return labels, predictions


# TF1 had the metric classes only as tfe.metrics.X: they live in that namespace alone.
metrics = types.ModuleType("tensorflow.contrib.eager.metrics",
                           "tf.contrib.eager.metrics under tf1mem (on tf.Module).")


for _cls in (Metric, Mean, Accuracy, CategoricalAccuracy, SparseAccuracy, BinaryAccuracy):
    setattr(metrics, _cls.__name__, _cls)


del _cls, Metric, Mean, Accuracy, CategoricalAccuracy, SparseAccuracy, BinaryAccuracy


def defun(func=None, input_signature=None, autograph=True,
          experimental_autograph_options=None, experimental_relax_shapes=False):
    """TF1's ``tfe.defun``: ``tf.function`` with TF1's keyword names."""
    kwargs = dict(input_signature=input_signature, autograph=autograph,
                  experimental_autograph_options=experimental_autograph_options,
                  reduce_retracing=experimental_relax_shapes)
    if func is None:
        return lambda f: tf.function(f, **kwargs)
    return tf.function(func, **kwargs)


# --- TF's own objects under their TF1 names --------------------------------------------


Variable = resource_variable_ops.ResourceVariable
GradientTape = tf.GradientTape
custom_gradient = tf.custom_gradient
TensorSpec = tf.TensorSpec
Checkpoint = tf.train.Checkpoint
Checkpointable = tf.Module
EagerVariableStore = variable_scope.EagerVariableStore
make_template = v1.make_template
py_func = tf.py_function
function = tf.function
DEVICE_PLACEMENT_EXPLICIT = context.DEVICE_PLACEMENT_EXPLICIT
DEVICE_PLACEMENT_WARN = context.DEVICE_PLACEMENT_WARN
DEVICE_PLACEMENT_SILENT = context.DEVICE_PLACEMENT_SILENT
SYNC = context.SYNC
ASYNC = context.ASYNC
run_test_in_graph_and_eager_modes = test_util.run_in_graph_and_eager_modes
run_all_tests_in_graph_and_eager_modes = test_util.run_all_in_graph_and_eager_modes
