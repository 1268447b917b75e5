"""``tf.contrib.opt``'s commonly used optimizers, on TF 2's v1 optimizer machinery.

Owns: ``LazyAdamOptimizer`` (a sparse gradient updates only the gathered rows of the
variable and of its ``m`` / ``v`` slots), ``NadamOptimizer`` (Adam with Nesterov
momentum), ``DecoupledWeightDecayExtension`` with ``AdamWOptimizer``,
``MomentumWOptimizer`` and ``extend_with_decoupled_weight_decay``,
``MovingAverageOptimizer`` with ``swapping_saver``, and ``ScipyOptimizerInterface``
(``ExternalOptimizerInterface``) on ``scipy.optimize.minimize``.

Guarantees: TF 1.15's slot names (``m``, ``v``, ``momentum``), variable names
(``beta1_power``, ``w/AdamW``, ``w/ExponentialMovingAverage``) and checkpoint keys,
so TF1 checkpoints restore; values equal TF 1.15.5's (corpus script
``contrib_opt.py``). The optimizers subclass TF's v1 ``Optimizer``, so the module imports
TensorFlow at its top (it is loaded only after TensorFlow).
"""

import tensorflow as tf
import tensorflow.compat.v1 as v1
from tensorflow.python.ops import gen_training_ops
from tensorflow.python.training import adam, momentum, optimizer as optimizer_lib

from tf1mem import errors

__all__ = [
    "LazyAdamOptimizer",
    "NadamOptimizer",
    "DecoupledWeightDecayExtension",
    "AdamWOptimizer",
    "MomentumWOptimizer",
    "extend_with_decoupled_weight_decay",
    "MovingAverageOptimizer",
    "ExternalOptimizerInterface",
    "ScipyOptimizerInterface",
    "AdaMaxOptimizer",
]


class SwappingSaverError(errors.ShimError, RuntimeError):
    """``swapping_saver()`` called before the averages exist."""


def _lr_and_betas(opt, var):
    dtype = var.dtype.base_dtype
    beta1_power, beta2_power = opt._get_beta_accumulators()
    beta1_power = tf.cast(beta1_power, dtype)
    beta2_power = tf.cast(beta2_power, dtype)
    lr_t = tf.cast(opt._lr_t, dtype)
    beta1_t = tf.cast(opt._beta1_t, dtype)
    beta2_t = tf.cast(opt._beta2_t, dtype)
    eps_t = tf.cast(opt._epsilon_t, dtype)
    lr = lr_t * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
    return lr, beta1_t, beta2_t, eps_t


class LazyAdamOptimizer(adam.AdamOptimizer):
    """TF 1.15's ``tf.contrib.opt.LazyAdamOptimizer``: Adam whose sparse updates
    touch only the rows in the gradient (their ``m``, ``v`` and values); dense
    gradients are plain Adam."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _lazy(self, grad, var, indices, update, gather):
        lr, beta1_t, beta2_t, eps_t = _lr_and_betas(self, var)
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        m_rows = beta1_t * gather(m, indices) + (1 - beta1_t) * grad
        v_rows = beta2_t * gather(v, indices) + (1 - beta2_t) * tf.square(grad)
        m_t = update(m, indices, m_rows, "set")
        v_t = update(v, indices, v_rows, "set")
        with tf.control_dependencies([m_t, v_t]):
            var_t = update(var, indices, lr * m_rows / (tf.sqrt(v_rows) + eps_t), "sub")
        return tf.group(var_t, m_t, v_t)

    def _apply_sparse(self, grad, var):
        def update(ref, indices, values, kind):
            fn = v1.scatter_update if kind == "set" else v1.scatter_sub
            return fn(ref, indices, values, use_locking=self._use_locking)

        return self._lazy(grad.values, var, grad.indices, update, tf.gather)

    def _resource_apply_sparse(self, grad, var, indices):
        from tensorflow.python.ops import resource_variable_ops as rvo

        def update(ref, idx, values, kind):
            fn = rvo.resource_scatter_update if kind == "set" else rvo.resource_scatter_sub
            return fn(ref.handle, idx, values)

        return self._lazy(grad, var, indices, update, tf.gather)


class NadamOptimizer(adam.AdamOptimizer):
    """TF 1.15's ``tf.contrib.opt.NadamOptimizer``: Adam with Nesterov momentum."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _dense_args(self, var):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        return [tf.cast(beta1_power, dtype), tf.cast(beta2_power, dtype),
                tf.cast(self._lr_t, dtype), tf.cast(self._beta1_t, dtype),
                tf.cast(self._beta2_t, dtype), tf.cast(self._epsilon_t, dtype)]

    def _apply_dense(self, grad, var):
        return gen_training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            *self._dense_args(var), grad, use_locking=self._use_locking,
            use_nesterov=True)

    def _resource_apply_dense(self, grad, var):
        return gen_training_ops.resource_apply_adam(
            var.handle, self.get_slot(var, "m").handle, self.get_slot(var, "v").handle,
            *self._dense_args(var), grad, use_locking=self._use_locking,
            use_nesterov=True)

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        lr, beta1_t, beta2_t, eps_t = _lr_and_betas(self, var)
        m = self.get_slot(var, "m")
        m_scaled = grad * (1 - beta1_t)
        m_t = v1.assign(m, m * beta1_t, use_locking=self._use_locking)
        with tf.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled)
            # Nesterov: the step uses beta1 * m_t + (1 - beta1) * g on the rows.
            m_bar = m_scaled + beta1_t * tf.gather(m_t, indices)
        v = self.get_slot(var, "v")
        v_t = v1.assign(v, v * beta2_t, use_locking=self._use_locking)
        with tf.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, grad * grad * (1 - beta2_t))
        v_rows = tf.gather(v_t, indices)
        var_update = scatter_add(var, indices, -lr * m_bar / (tf.sqrt(v_rows) + eps_t))
        return tf.group(var_update, m_t, v_t)


class DecoupledWeightDecayExtension:
    """Mixin of TF 1.15's ``DecoupledWeightDecayExtension``: before each update,
    ``var -= weight_decay * var`` (not scaled by the learning rate), for the
    variables of ``decay_var_list`` (all when not given)."""

    def __init__(self, weight_decay, **kwargs):
        self._decay_var_list = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(**kwargs)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1,
                 aggregation_method=None, colocate_gradients_with_ops=False,
                 name=None, grad_loss=None, decay_var_list=None):
        self._set_decay_var_list(decay_var_list)
        return super().minimize(
            loss, global_step=global_step, var_list=var_list,
            gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
            grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None,
                        decay_var_list=None):
        self._set_decay_var_list(decay_var_list)
        return super().apply_gradients(grads_and_vars, global_step=global_step,
                                       name=name)

    def _set_decay_var_list(self, decay_var_list):
        self._decay_var_list = ({v.ref() for v in decay_var_list}
                                if decay_var_list else None)

    def _prepare(self):
        weight_decay = self._weight_decay
        if callable(weight_decay):
            weight_decay = weight_decay()
        self._weight_decay_tensor = tf.convert_to_tensor(weight_decay,
                                                         name="weight_decay")
        super()._prepare()

    def _decays(self, var):
        return self._decay_var_list is None or var.ref() in self._decay_var_list

    def _decay_dense(self, var):
        if not self._decays(var):
            return tf.no_op()
        wd = tf.cast(self._weight_decay_tensor, var.dtype.base_dtype)
        return var.assign_sub(wd * var, self._use_locking)

    def _decay_sparse(self, var, indices, scatter_add):
        if not self._decays(var):
            return tf.no_op()
        wd = tf.cast(self._weight_decay_tensor, var.dtype.base_dtype)
        return scatter_add(var, indices, -wd * tf.gather(var, indices))

    def _apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_dense(var)]):
            return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_dense(var)]):
            return super()._resource_apply_dense(grad, var)

    def _apply_sparse(self, grad, var):
        def scatter_add(x, i, v):
            return v1.scatter_add(x, i, v, use_locking=self._use_locking)

        with tf.control_dependencies([self._decay_sparse(var, grad.indices,
                                                         scatter_add)]):
            return super()._apply_sparse(grad, var)

    def _resource_apply_sparse(self, grad, var, indices):
        from tensorflow.python.ops import resource_variable_ops as rvo

        def scatter_add(x, i, v):
            return rvo.resource_scatter_add(x.handle, i, v)

        with tf.control_dependencies([self._decay_sparse(var, indices, scatter_add)]):
            return super()._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer):
    """TF 1.15's factory: ``base_optimizer`` (a v1 Optimizer class) with decoupled
    weight decay; the class takes ``weight_decay`` first, then the base's args."""
    if not (isinstance(base_optimizer, type)
            and issubclass(base_optimizer, optimizer_lib.Optimizer)):
        raise TypeError(
            f"tf.contrib.opt.extend_with_decoupled_weight_decay: base_optimizer must "
            f"be a tf.train.Optimizer subclass (e.g. tf.train.AdamOptimizer); got "
            f"{base_optimizer!r}.")

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension,
                                            base_optimizer):
        def __init__(self, weight_decay, *args, **kwargs):
            # The mixin's __init__ forwards keywords only: bind the base's here.
            self._decay_var_list = None
            self._weight_decay = weight_decay
            self._weight_decay_tensor = None
            base_optimizer.__init__(self, *args, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class AdamWOptimizer(DecoupledWeightDecayExtension, adam.AdamOptimizer):
    """TF 1.15's ``tf.contrib.opt.AdamWOptimizer``."""

    def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, use_locking=False, name="AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1,
                         beta2=beta2, epsilon=epsilon, use_locking=use_locking,
                         name=name)


class MomentumWOptimizer(DecoupledWeightDecayExtension, momentum.MomentumOptimizer):
    """TF 1.15's ``tf.contrib.opt.MomentumWOptimizer``."""

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False,
                 name="MomentumW", use_nesterov=False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum,
                         use_locking=use_locking, name=name, use_nesterov=use_nesterov)


class MovingAverageOptimizer(optimizer_lib.Optimizer):
    """TF 1.15's ``tf.contrib.opt.MovingAverageOptimizer``: ``opt``'s update, then an
    ExponentialMovingAverage of the updated variables (``v/ExponentialMovingAverage``);
    ``swapping_saver()`` saves each average under its variable's name and back."""

    def __init__(self, opt, average_decay=0.9999, num_updates=None,
                 sequential_update=True):
        if not isinstance(opt, optimizer_lib.Optimizer):
            raise TypeError(f"tf.contrib.opt.MovingAverageOptimizer: opt must be a "
                            f"tf.train.Optimizer instance; got {opt!r}.")
        self._optimizer = opt
        self._ema = v1.train.ExponentialMovingAverage(average_decay,
                                                      num_updates=num_updates)
        self._swapped_variable_name_map = None
        self._sequential_update = sequential_update
        super().__init__(opt._use_locking, opt.get_name())

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars,
                                                   global_step=global_step, name=name)
        var_list = [v for g, v in grads_and_vars if g is not None]
        if self._sequential_update:
            with tf.control_dependencies([train_op]):
                ma_op = self._ema.apply(var_list)
        else:
            ma_op = self._ema.apply(var_list)
        self._swapped_variable_name_map = {}
        for var in var_list:
            average = self._ema.average(var)
            self._swapped_variable_name_map[var.op.name] = average.op.name
            self._swapped_variable_name_map[average.op.name] = var.op.name
        return tf.group(train_op, ma_op, name="train_with_avg")

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A Saver that writes the averages under the variables' names (and the
        variables under the averages' names); restoring swaps them back."""
        from tensorflow.python.training.saving import saveable_object_util

        if self._swapped_variable_name_map is None:
            raise SwappingSaverError(
                "tf.contrib.opt.MovingAverageOptimizer.swapping_saver: call minimize() "
                "or apply_gradients() first (the averages it saves do not exist yet).")
        if var_list is None:
            var_list = v1.global_variables()
        if not isinstance(var_list, dict):
            var_list = saveable_object_util.op_list_to_dict(var_list)
        by_name = {}
        for key, item in var_list.items():
            parts = item if isinstance(item, (list, tuple)) else [item]
            for part in parts:
                by_name[part.op.name] = part
            if not isinstance(item, (list, tuple)):
                by_name[key] = item

        def swapped(key, tensor):
            other = self._swapped_variable_name_map.get(key)
            if other is None:
                return tensor
            if other not in by_name:
                raise ValueError(
                    f"tf.contrib.opt.MovingAverageOptimizer.swapping_saver: {key!r} is "
                    f"saved but its swap partner {other!r} is not in var_list; pass "
                    f"both (or leave var_list out).")
            return by_name[other]

        swapped_list = {}
        for key, item in var_list.items():
            if isinstance(item, (list, tuple)):
                swapped_list[key] = [swapped(p.op.name, p) for p in item]
            else:
                swapped_list[key] = swapped(key, item)
        return v1.train.Saver(swapped_list, name=name, **kwargs)


class AdaMaxOptimizer(adam.AdamOptimizer):
    """TF 1.15's ``tf.contrib.opt.AdaMaxOptimizer`` (Kingma and Ba's Adam with the
    infinity norm): ``m = beta1 m + (1 - beta1) g``, ``v = max(beta2 v, |g|)``,
    ``var -= lr / (1 - beta1^t) * m / (v + epsilon)``, on TF's own ``ApplyAdaMax``
    kernel; sparse gradients update only their rows. One accumulator,
    ``beta1_power``; slots ``m`` and ``v`` (``<var>/AdaMax``, ``<var>/AdaMax_1``)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _get_beta_accumulators(self):
        graph = None if tf.executing_eagerly() else v1.get_default_graph()
        return self._get_non_slot_variable("beta1_power", graph=graph)

    def _create_slots(self, var_list):
        first = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                       colocate_with=first)
        for var in var_list:
            self._zeros_slot(var, "m", self._name)
            self._zeros_slot(var, "v", self._name)

    def _dense_args(self, var):
        dtype = var.dtype.base_dtype
        return [tf.cast(self._get_beta_accumulators(), dtype), tf.cast(self._lr_t, dtype),
                tf.cast(self._beta1_t, dtype), tf.cast(self._beta2_t, dtype),
                tf.cast(self._epsilon_t, dtype)]

    def _apply_dense(self, grad, var):
        return gen_training_ops.apply_ada_max(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            *self._dense_args(var), grad, use_locking=self._use_locking)

    def _resource_apply_dense(self, grad, var):
        return gen_training_ops.resource_apply_ada_max(
            var.handle, self.get_slot(var, "m").handle, self.get_slot(var, "v").handle,
            *self._dense_args(var), grad, use_locking=self._use_locking)

    def _apply_sparse_shared(self, grad, var, indices, scatter_add, scatter_update):
        beta1_power, lr, beta1, beta2, eps = self._dense_args(var)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = tf.gather(m, indices) * beta1 + grad * (1 - beta1)
        with tf.control_dependencies([m_rows]):
            m_t = scatter_update(m, indices, m_rows)
        v_rows = tf.maximum(tf.gather(v, indices) * beta2, tf.abs(grad))
        with tf.control_dependencies([v_rows]):
            v_t = scatter_update(v, indices, v_rows)
        step = -lr / (1 - beta1_power) * (m_rows / (v_rows + eps))
        with tf.control_dependencies([step]):
            var_t = scatter_add(var, indices, step)
        return tf.group(var_t, m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._apply_sparse_shared(
            grad.values, var, grad.indices,
            lambda ref, idx, val: v1.scatter_add(ref, idx, val,
                                                 use_locking=self._use_locking),
            lambda ref, idx, val: v1.scatter_update(ref, idx, val,
                                                    use_locking=self._use_locking))

    def _resource_apply_sparse(self, grad, var, indices):
        from tensorflow.python.ops import resource_variable_ops as rvo

        def add(ref, idx, val):
            with tf.control_dependencies([rvo.resource_scatter_add(ref.handle, idx, val)]):
                return ref.value()

        def update(ref, idx, val):
            with tf.control_dependencies([rvo.resource_scatter_update(ref.handle, idx,
                                                                      val)]):
                return ref.value()

        return self._apply_sparse_shared(grad, var, indices, add, update)

    def _finish(self, update_ops, name_scope):
        with tf.control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            with tf.compat.v1.colocate_with(beta1_power):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t,
                                                  use_locking=self._use_locking)
        return tf.group(*update_ops + [update_beta1], name=name_scope)


class ExternalOptimizerInterface:
    """TF 1.15's base for optimizers outside TF: the variables packed into one float64
    vector, loss and gradient evaluated by ``session.run``, the result assigned back."""

    def __init__(self, loss, var_list=None, equalities=None, inequalities=None,
                 var_to_bounds=None, **optimizer_kwargs):
        import numpy as np

        v1 = tf.compat.v1
        self._loss = loss
        self._equalities = list(equalities or [])
        self._inequalities = list(inequalities or [])
        self._vars = list(var_list) if var_list is not None else v1.trainable_variables()
        if not self._vars:
            raise ValueError("tf.contrib.opt.ScipyOptimizerInterface: no variables to "
                             "optimize; pass var_list or create trainable variables first.")
        self._optimizer_kwargs = optimizer_kwargs
        shapes = [tuple(v.get_shape().as_list()) for v in self._vars]
        if any(d is None for s in shapes for d in s):
            raise ValueError("tf.contrib.opt.ScipyOptimizerInterface: every variable needs "
                             f"a fully defined shape; got {shapes}.")
        self._shapes = shapes
        sizes = [int(np.prod(s)) for s in shapes]
        offsets = np.cumsum([0] + sizes)
        self._slices = [slice(int(a), int(b)) for a, b in zip(offsets[:-1], offsets[1:])]
        self._packed_size = int(offsets[-1])

        def pack(tensors):
            return tf.concat([tf.reshape(t, [-1]) for t in tensors], 0)

        def grads_of(value):
            grads = tf.gradients(value, self._vars)
            return pack([tf.zeros_like(v) if g is None else g
                         for g, v in zip(grads, self._vars)])

        self._packed_loss_grad = grads_of(loss)
        self._packed_eq_grads = [grads_of(e) for e in self._equalities]
        self._packed_ineq_grads = [grads_of(i) for i in self._inequalities]
        self._placeholder = v1.placeholder(self._vars[0].dtype.base_dtype,
                                           [self._packed_size], name="packed_x")
        self._assign = tf.group(*[
            v.assign(tf.reshape(self._placeholder[s], shape))
            for v, s, shape in zip(self._vars, self._slices, shapes)])
        self._vector = pack([v.read_value() if hasattr(v, "read_value") else v
                             for v in self._vars])
        self._bounds = None
        if var_to_bounds is not None:
            lows = np.full(self._packed_size, -np.inf)
            highs = np.full(self._packed_size, np.inf)
            for var, (low, high) in var_to_bounds.items():
                index = next((i for i, v in enumerate(self._vars) if v is var), None)
                if index is None:
                    raise ValueError(f"tf.contrib.opt.ScipyOptimizerInterface: "
                                     f"var_to_bounds names {var.name}, which is not in "
                                     f"var_list.")
                s = self._slices[index]
                low = -np.inf if low is None else low
                high = np.inf if high is None else high
                lows[s] = np.broadcast_to(low, self._shapes[index]).ravel()
                highs[s] = np.broadcast_to(high, self._shapes[index]).ravel()
            self._bounds = list(zip(lows, highs))

    def minimize(self, session=None, feed_dict=None, fetches=None, step_callback=None,
                 loss_callback=None, **run_kwargs):
        """Minimizes the loss; variables hold the solution afterwards.

        ``loss_callback(*fetches_values)`` runs after each loss evaluation,
        ``step_callback(x)`` after each optimizer step (``x`` the packed vector).
        """
        import numpy as np

        session = session or tf.compat.v1.get_default_session()
        if session is None:
            raise ValueError("tf.contrib.opt.ScipyOptimizerInterface.minimize: pass a "
                             "session or call it inside `with tf.Session():`.")
        feed_dict = dict(feed_dict or {})
        fetches = list(fetches or [])
        dtype = self._vars[0].dtype.as_numpy_dtype

        def evaluate(tensors, x, callback=None):
            session.run(self._assign, {self._placeholder: np.asarray(x, dtype)})
            values = session.run(list(tensors) + fetches, feed_dict=feed_dict, **run_kwargs)
            if callback is not None:
                callback(*values[len(tensors):])
            return values[:len(tensors)]

        def loss_grad(x):
            loss, grad = evaluate([self._loss, self._packed_loss_grad], x, loss_callback)
            return float(loss), np.asarray(grad, np.float64)

        def constraint(value, grad):
            return (lambda x: np.atleast_1d(np.float64(evaluate([value], x)[0])),
                    lambda x: np.atleast_2d(np.asarray(evaluate([grad], x)[0], np.float64)))

        eq = [constraint(e, g) for e, g in zip(self._equalities, self._packed_eq_grads)]
        ineq = [constraint(i, g) for i, g in zip(self._inequalities,
                                                 self._packed_ineq_grads)]
        initial = np.asarray(session.run(self._vector), np.float64)
        solution = self._minimize(initial, loss_grad, eq, ineq, self._bounds,
                                  step_callback, self._optimizer_kwargs)
        session.run(self._assign, {self._placeholder: np.asarray(solution, dtype)})

    def _minimize(self, initial, loss_grad, eq, ineq, bounds, step_callback, kwargs):
        raise NotImplementedError("subclasses say which external optimizer runs")


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """TF 1.15's ``tf.contrib.opt.ScipyOptimizerInterface``: ``scipy.optimize.minimize``
    (``method`` default ``"L-BFGS-B"``, ``options``), bounds from ``var_to_bounds``,
    ``equalities`` (== 0) and ``inequalities`` (>= 0) as SLSQP-style constraints."""

    _DEFAULT_METHOD = "L-BFGS-B"

    def _minimize(self, initial, loss_grad, eq, ineq, bounds, step_callback, kwargs):
        try:
            import scipy.optimize
        except ImportError as exc:
            raise errors.ShimError(
                "tf.contrib.opt.ScipyOptimizerInterface needs SciPy: pip install scipy."
            ) from exc
        kwargs = dict(kwargs)
        method = kwargs.pop("method", self._DEFAULT_METHOD)
        constraints = ([{"type": "eq", "fun": f, "jac": j} for f, j in eq]
                       + [{"type": "ineq", "fun": f, "jac": j} for f, j in ineq])
        extra = {"constraints": constraints} if constraints else {}
        if bounds is not None:
            extra["bounds"] = bounds
        result = scipy.optimize.minimize(loss_grad, initial, method=method, jac=True,
                                         callback=step_callback, **extra, **kwargs)
        tf.compat.v1.logging.info(
            "Optimization terminated with:\n  Message: %s\n  Objective function value: "
            "%f\n", result.message, result.fun)
        return result.x
