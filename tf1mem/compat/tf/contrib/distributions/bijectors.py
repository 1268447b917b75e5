"""``tf.contrib.distributions.bijectors`` (the common ones) and ``TransformedDistribution``.

TF 2.21 keeps TF1's ``Bijector`` base class (``tensorflow.python.ops.distributions.
bijector_impl``: the caching of forward / inverse, the reduction of log-det-Jacobians over
event dimensions) and its ``Identity``; tf1mem writes on that base the bijectors TF1 code
used: ``Exp``, ``AffineScalar``, ``Affine`` (shift, ``scale_identity_multiplier``,
``scale_diag``, ``scale_tril``), ``Softplus``, ``Sigmoid``, ``Square``, ``Permute``,
``Chain``, ``Invert``, ``Inline``, and a user's own ``Bijector`` subclass keeps working.
``TransformedDistribution`` pushes a distribution through a bijector: samples are
``forward(base sample)``, ``log_prob(y) = base.log_prob(inverse(y)) + ildj(y)``, with TF
1.15's ``batch_shape`` / ``event_shape`` overrides of a scalar base (a standard normal made
a vector event); ``cdf`` for scalar events and ``entropy`` for constant Jacobians, and, as in
TF 1.15, no ``mean``. One difference: an override of a base that is not scalar raises
``ValueError`` when the distribution is built (TF 1.15 accepted it there and gave wrong
shapes later). Checked against TF 1.15.5 by the corpus script
``contrib_distributions_bijectors.py``. The bijectors subclass TF's ``Bijector``, so the
module imports TensorFlow at its top (it is loaded only after TensorFlow); the TF 1.15
bijectors it does not write raise, naming TensorFlow Probability's.
"""

import math

import tensorflow as tf
from tensorflow import linalg
from tensorflow.python.ops.distributions import bijector_impl, identity_bijector
from tensorflow.python.ops.distributions import distribution as dist_base
from tensorflow.python.ops.distributions import util

from tf1mem.compat import errors

__all__ = ["Bijector", "Identity", "Exp", "AffineScalar", "Affine", "Softplus", "Sigmoid",
           "Square", "Permute", "Chain", "Invert", "Inline", "TransformedDistribution"]


Bijector = bijector_impl.Bijector
Identity = identity_bijector.Identity


class Exp(Bijector):
    """Y = exp(X)."""

    def __init__(self, validate_args=False, name="exp"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args,
                         name=name)

    def _forward(self, x):
        return tf.exp(x)

    def _inverse(self, y):
        return tf.math.log(y)

    def _inverse_log_det_jacobian(self, y):
        return -tf.math.log(y)

    def _forward_log_det_jacobian(self, x):
        return x


class AffineScalar(Bijector):
    """Y = scale * X + shift, for scalars (broadcast)."""

    def __init__(self, shift=None, scale=None, validate_args=False,
                 name="affine_scalar"):
        with tf.compat.v1.name_scope(name, values=[shift, scale]):
            self._shift = None if shift is None else tf.convert_to_tensor(shift,
                                                                        name="shift")
            self._scale = None if scale is None else tf.convert_to_tensor(
                scale, name="scale", dtype=None if self._shift is None
                else self._shift.dtype)
        dtype = (self._shift if self._shift is not None else self._scale)
        super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                         validate_args=validate_args,
                         dtype=None if dtype is None else dtype.dtype, name=name)

    shift = property(lambda self: self._shift)
    scale = property(lambda self: self._scale)

    def _forward(self, x):
        y = x if self._scale is None else x * self._scale
        return y if self._shift is None else y + self._shift

    def _inverse(self, y):
        x = y if self._shift is None else y - self._shift
        return x if self._scale is None else x / self._scale

    def _forward_log_det_jacobian(self, x):
        if self._scale is None:
            return tf.constant(0., dtype=x.dtype)
        return tf.math.log(tf.abs(self._scale))


class Affine(Bijector):
    """Y = scale @ X + shift over vector events; scale = scale_tril + diag(scale_diag)
    + scale_identity_multiplier * I (whichever are given; the identity if none)."""

    def __init__(self, shift=None, scale_identity_multiplier=None, scale_diag=None,
                 scale_tril=None, scale_perturb_factor=None, scale_perturb_diag=None,
                 validate_args=False, name="affine"):
        if scale_perturb_factor is not None or scale_perturb_diag is not None:
            raise ValueError("Affine: scale_perturb_factor / scale_perturb_diag (a "
                             "low-rank update) are not provided by tf1mem; use "
                             "tfp.bijectors.ScaleMatvecLinearOperator with a "
                             "LinearOperatorLowRankUpdate")
        with tf.compat.v1.name_scope(name, values=[shift, scale_identity_multiplier,
                                                   scale_diag, scale_tril]):
            def convert(value, what):
                return None if value is None else tf.convert_to_tensor(value, name=what)

            self._shift = convert(shift, "shift")
            multiplier = convert(scale_identity_multiplier,
                                 "scale_identity_multiplier")
            diag = convert(scale_diag, "scale_diag")
            tril = convert(scale_tril, "scale_tril")
            if tril is not None:
                dense = tf.linalg.band_part(tril, -1, 0)
                if diag is not None:
                    dense = tf.linalg.set_diag(dense, tf.linalg.diag_part(dense) + diag)
                if multiplier is not None:
                    dense = tf.linalg.set_diag(
                        dense, tf.linalg.diag_part(dense) + multiplier[..., tf.newaxis])
                self._scale = linalg.LinearOperatorLowerTriangular(
                    dense, is_non_singular=True)
            elif diag is not None:
                if multiplier is not None:
                    diag = diag + multiplier[..., tf.newaxis]
                self._scale = linalg.LinearOperatorDiag(diag, is_non_singular=True)
            elif multiplier is not None:
                self._multiplier = multiplier
                self._scale = "multiplier"
            else:
                self._scale = None
        dtype = next((t.dtype for t in (self._shift, multiplier, diag, tril)
                      if t is not None), None)
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=True,
                         validate_args=validate_args, dtype=dtype, name=name)

    shift = property(lambda self: self._shift)
    scale = property(lambda self: None if isinstance(self._scale, str) else self._scale)

    def _forward(self, x):
        y = x
        if self._scale == "multiplier":
            y = y * self._multiplier[..., tf.newaxis]
        elif self._scale is not None:
            y = self._scale.matvec(y)
        return y if self._shift is None else y + self._shift

    def _inverse(self, y):
        x = y if self._shift is None else y - self._shift
        if self._scale == "multiplier":
            return x / self._multiplier[..., tf.newaxis]
        return x if self._scale is None else self._scale.solvevec(x)

    def _forward_log_det_jacobian(self, x):
        if self._scale is None:
            return tf.constant(0., dtype=x.dtype)
        if self._scale == "multiplier":
            size = tf.cast(tf.shape(x)[-1], x.dtype)
            return size * tf.math.log(tf.abs(self._multiplier))
        return self._scale.log_abs_determinant()


class Softplus(Bijector):
    """Y = log(1 + exp(X)) (``hinge_softness`` c: c * softplus(X / c))."""

    def __init__(self, hinge_softness=None, validate_args=False, name="softplus"):
        with tf.compat.v1.name_scope(name, values=[hinge_softness]):
            self._hinge = None if hinge_softness is None else \
                tf.convert_to_tensor(hinge_softness, name="hinge_softness")
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args,
                         name=name)

    hinge_softness = property(lambda self: self._hinge)

    def _forward(self, x):
        if self._hinge is None:
            return tf.nn.softplus(x)
        return self._hinge * tf.nn.softplus(x / self._hinge)

    def _inverse(self, y):
        if self._hinge is None:
            return util.softplus_inverse(y)
        return self._hinge * util.softplus_inverse(y / self._hinge)

    def _inverse_log_det_jacobian(self, y):
        if self._hinge is not None:
            y = y / self._hinge
        return -tf.math.log(-tf.math.expm1(-y))

    def _forward_log_det_jacobian(self, x):
        if self._hinge is not None:
            x = x / self._hinge
        return -tf.nn.softplus(-x)


class Sigmoid(Bijector):
    """Y = 1 / (1 + exp(-X))."""

    def __init__(self, validate_args=False, name="sigmoid"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args,
                         name=name)

    def _forward(self, x):
        return tf.sigmoid(x)

    def _inverse(self, y):
        return tf.math.log(y) - tf.math.log1p(-y)

    def _inverse_log_det_jacobian(self, y):
        return -tf.math.log(y) - tf.math.log1p(-y)

    def _forward_log_det_jacobian(self, x):
        return -tf.nn.softplus(-x) - tf.nn.softplus(x)


class Square(Bijector):
    """Y = X ** 2 on X >= 0."""

    def __init__(self, validate_args=False, name="square"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args,
                         name=name)

    def _forward(self, x):
        return tf.square(x)

    def _inverse(self, y):
        return tf.sqrt(y)

    def _forward_log_det_jacobian(self, x):
        return math.log(2.) + tf.math.log(x)


class Permute(Bijector):
    """Permutes the entries of ``axis`` (the event's last by default)."""

    def __init__(self, permutation, axis=-1, validate_args=False, name=None):
        if not isinstance(axis, int) or axis >= 0:
            raise NotImplementedError(f"Permute: axis must be a negative int (an event "
                                      f"dimension); got {axis!r}")
        with tf.compat.v1.name_scope(name or "permute", values=[permutation]):
            self._permutation = tf.convert_to_tensor(permutation, name="permutation",
                                                     dtype_hint=tf.int32)
            static = tf.get_static_value(self._permutation)
            if static is not None and sorted(static.tolist()) != list(range(len(static))):
                raise ValueError(f"Permute: permutation must hold each of 0 .. "
                                 f"{len(static) - 1} once; got {static.tolist()}")
        self._axis = axis
        super().__init__(forward_min_event_ndims=-axis, is_constant_jacobian=True,
                         validate_args=validate_args, name=name or "permute")

    permutation = property(lambda self: self._permutation)
    axis = property(lambda self: self._axis)

    def _forward(self, x):
        return tf.gather(x, self._permutation, axis=self._axis)

    def _inverse(self, y):
        return tf.gather(y, tf.math.invert_permutation(self._permutation),
                         axis=self._axis)

    def _forward_log_det_jacobian(self, x):
        return tf.constant(0., dtype=x.dtype)


class Inline(Bijector):
    """A bijector made of the user's functions (TF 1.15's ``Inline``)."""

    def __init__(self, forward_fn=None, inverse_fn=None,
                 inverse_log_det_jacobian_fn=None, forward_log_det_jacobian_fn=None,
                 forward_event_shape_fn=None, forward_event_shape_tensor_fn=None,
                 inverse_event_shape_fn=None, inverse_event_shape_tensor_fn=None,
                 is_constant_jacobian=False, validate_args=False,
                 forward_min_event_ndims=None, inverse_min_event_ndims=None,
                 name="inline"):
        super().__init__(forward_min_event_ndims=forward_min_event_ndims,
                         inverse_min_event_ndims=inverse_min_event_ndims,
                         is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args, name=name)
        self._fns = dict(forward=forward_fn, inverse=inverse_fn,
                         ildj=inverse_log_det_jacobian_fn,
                         fldj=forward_log_det_jacobian_fn,
                         fes=forward_event_shape_fn, fest=forward_event_shape_tensor_fn,
                         ies=inverse_event_shape_fn, iest=inverse_event_shape_tensor_fn)

    def _call(self, key, *args):
        fn = self._fns[key]
        if fn is None:
            raise NotImplementedError(f"{key} is not implemented: give it to Inline")
        return fn(*args)

    def _forward(self, x):
        return self._call("forward", x)

    def _inverse(self, y):
        return self._call("inverse", y)

    def _inverse_log_det_jacobian(self, y):
        return self._call("ildj", y)

    def _forward_log_det_jacobian(self, x):
        return self._call("fldj", x)

    def _forward_event_shape(self, shape):
        fn = self._fns["fes"]
        return shape if fn is None else fn(shape)

    def _forward_event_shape_tensor(self, shape):
        fn = self._fns["fest"]
        return shape if fn is None else fn(shape)

    def _inverse_event_shape(self, shape):
        fn = self._fns["ies"]
        return shape if fn is None else fn(shape)

    def _inverse_event_shape_tensor(self, shape):
        fn = self._fns["iest"]
        return shape if fn is None else fn(shape)


class Invert(Bijector):
    """The inverse of ``bijector``: forward is its inverse and the other way round."""

    def __init__(self, bijector, validate_args=False, name=None):
        if not bijector._is_injective:
            raise NotImplementedError("Invert is not implemented for non-injective "
                                      "bijectors.")
        self._bijector = bijector
        super().__init__(graph_parents=bijector.graph_parents,
                         forward_min_event_ndims=bijector.inverse_min_event_ndims,
                         inverse_min_event_ndims=bijector.forward_min_event_ndims,
                         is_constant_jacobian=bijector.is_constant_jacobian,
                         validate_args=validate_args, dtype=bijector.dtype,
                         name=name or "_".join(["invert", bijector.name]))

    bijector = property(lambda self: self._bijector)

    def forward(self, x, name="forward"):
        return self._bijector.inverse(x, name=name)

    def inverse(self, y, name="inverse"):
        return self._bijector.forward(y, name=name)

    def inverse_log_det_jacobian(self, y, event_ndims, name="inverse_log_det_jacobian"):
        return self._bijector.forward_log_det_jacobian(y, event_ndims, name=name)

    def forward_log_det_jacobian(self, x, event_ndims, name="forward_log_det_jacobian"):
        return self._bijector.inverse_log_det_jacobian(x, event_ndims, name=name)

    def forward_event_shape(self, input_shape):
        return self._bijector.inverse_event_shape(input_shape)

    def forward_event_shape_tensor(self, input_shape, name="forward_event_shape_tensor"):
        return self._bijector.inverse_event_shape_tensor(input_shape, name=name)

    def inverse_event_shape(self, output_shape):
        return self._bijector.forward_event_shape(output_shape)

    def inverse_event_shape_tensor(self, output_shape,
                                   name="inverse_event_shape_tensor"):
        return self._bijector.forward_event_shape_tensor(output_shape, name=name)


class Chain(Bijector):
    """The composition: ``Chain([f, g]).forward(x) == f.forward(g.forward(x))``."""

    def __init__(self, bijectors=None, validate_args=False, name=None):
        self._bijectors = list(bijectors or [])
        for b in self._bijectors:
            if not isinstance(b, Bijector):
                raise TypeError(f"Chain: bijectors must be Bijectors; got "
                                f"{type(b).__name__}")
        dtypes = {b.dtype for b in self._bijectors if b.dtype is not None}
        if len(dtypes) > 1:
            raise ValueError(f"Chain: the bijectors' dtypes differ: {dtypes}")
        parents = []
        for b in self._bijectors:
            parents += list(b.graph_parents)
        ndims = [b.forward_min_event_ndims for b in self._bijectors] or [0]
        super().__init__(graph_parents=parents, forward_min_event_ndims=max(ndims),
                         is_constant_jacobian=all(b.is_constant_jacobian
                                                  for b in self._bijectors),
                         validate_args=validate_args,
                         dtype=dtypes.pop() if dtypes else None,
                         name=name or ("identity" if not self._bijectors else
                                       "_of_".join(b.name for b in self._bijectors)))

    bijectors = property(lambda self: self._bijectors)

    def forward(self, x, name="forward"):
        with self._name_scope(name, [x]):
            for b in reversed(self._bijectors):
                x = b.forward(x)
            return x

    def inverse(self, y, name="inverse"):
        with self._name_scope(name, [y]):
            for b in self._bijectors:
                y = b.inverse(y)
            return y

    def inverse_log_det_jacobian(self, y, event_ndims, name="inverse_log_det_jacobian"):
        with self._name_scope(name, [y]):
            y = tf.convert_to_tensor(y, name="y")
            total = tf.constant(0., dtype=y.dtype)
            for b in self._bijectors:
                total = total + b.inverse_log_det_jacobian(y, event_ndims)
                y = b.inverse(y)
            return total

    def forward_log_det_jacobian(self, x, event_ndims, name="forward_log_det_jacobian"):
        with self._name_scope(name, [x]):
            x = tf.convert_to_tensor(x, name="x")
            total = tf.constant(0., dtype=x.dtype)
            for b in reversed(self._bijectors):
                total = total + b.forward_log_det_jacobian(x, event_ndims)
                x = b.forward(x)
            return total

    def forward_event_shape(self, input_shape):
        for b in reversed(self._bijectors):
            input_shape = b.forward_event_shape(input_shape)
        return input_shape

    def inverse_event_shape(self, output_shape):
        for b in self._bijectors:
            output_shape = b.inverse_event_shape(output_shape)
        return output_shape

    def forward_event_shape_tensor(self, input_shape, name="forward_event_shape_tensor"):
        for b in reversed(self._bijectors):
            input_shape = b.forward_event_shape_tensor(input_shape)
        return input_shape

    def inverse_event_shape_tensor(self, output_shape,
                                   name="inverse_event_shape_tensor"):
        for b in self._bijectors:
            output_shape = b.inverse_event_shape_tensor(output_shape)
        return output_shape


class TransformedDistribution(dist_base.Distribution):
    """``bijector.forward`` of draws from ``distribution`` (TF 1.15's)."""

    def __init__(self, distribution, bijector=None, batch_shape=None, event_shape=None,
                 validate_args=False, name=None):
        parameters = dict(locals())
        name = name or ("" if bijector is None else bijector.name) + distribution.name
        with tf.compat.v1.name_scope(name, values=[event_shape, batch_shape]) as scope:
            if bijector is None:
                bijector = identity_bijector.Identity(validate_args=validate_args)
            base_scalar = (distribution.batch_shape.ndims == 0
                           and distribution.event_shape.ndims == 0)
            if (batch_shape is not None or event_shape is not None) and not base_scalar:
                raise ValueError(f"TransformedDistribution: batch_shape / event_shape "
                                 f"overrides need a scalar base distribution (batch and "
                                 f"event shape []); got batch "
                                 f"{distribution.batch_shape}, event "
                                 f"{distribution.event_shape}")
            self._override_batch = None if batch_shape is None else \
                [int(d) for d in batch_shape]
            self._override_event = None if event_shape is None else \
                [int(d) for d in event_shape]
        self._distribution = distribution
        self._bijector = bijector
        super().__init__(dtype=distribution.dtype,
                         reparameterization_type=distribution.reparameterization_type,
                         validate_args=validate_args,
                         allow_nan_stats=distribution.allow_nan_stats,
                         parameters=parameters,
                         graph_parents=(list(distribution._graph_parents)
                                        + list(bijector.graph_parents)),
                         name=scope)

    distribution = property(lambda self: self._distribution)
    bijector = property(lambda self: self._bijector)

    def _batch_shape(self):
        if self._override_batch is not None:
            return tf.TensorShape(self._override_batch)
        return self._distribution.batch_shape

    def _batch_shape_tensor(self):
        if self._override_batch is not None:
            return tf.constant(self._override_batch, tf.int32)
        return self._distribution.batch_shape_tensor()

    def _base_event_shape(self):
        if self._override_event is not None:
            return tf.TensorShape(self._override_event)
        return self._distribution.event_shape

    def _event_shape(self):
        return self._bijector.forward_event_shape(self._base_event_shape())

    def _event_shape_tensor(self):
        base = tf.constant(self._override_event, tf.int32) \
            if self._override_event is not None \
            else self._distribution.event_shape_tensor()
        return self._bijector.forward_event_shape_tensor(base)

    def _event_ndims(self):
        ndims = self._base_event_shape().ndims
        if ndims is None:
            raise ValueError("TransformedDistribution: the event rank must be known")
        return ndims

    def _sample_n(self, n, seed=None):
        if self._override_batch is not None or self._override_event is not None:
            shape = tf.concat([[n], tf.constant(self._override_batch or [], tf.int32),
                               tf.constant(self._override_event or [], tf.int32)], 0)
            x = self._distribution.sample(shape, seed=seed)
        else:
            x = self._distribution.sample(n, seed=seed)
        return self._bijector.forward(x)

    def _log_prob(self, y):
        ndims = self._event_ndims()
        x = self._bijector.inverse(y)
        ildj = self._bijector.inverse_log_det_jacobian(y, event_ndims=ndims)
        log_prob = self._distribution.log_prob(x)
        if self._override_event:
            log_prob = tf.reduce_sum(log_prob, list(range(-len(self._override_event), 0)))
        return log_prob + tf.cast(ildj, log_prob.dtype)

    def _prob(self, y):
        return tf.exp(self._log_prob(y))

    def _cdf(self, y):
        if self._override_event or self._event_ndims() != 0:
            raise NotImplementedError("cdf is not implemented when overriding "
                                      "event_shape or for non-scalar events")
        return self._distribution.cdf(self._bijector.inverse(y))

    def _entropy(self):
        if not self._bijector.is_constant_jacobian:
            raise NotImplementedError("entropy is not implemented for a bijector whose "
                                      "Jacobian is not constant")
        entropy = self._distribution.entropy()
        if self._override_event:
            entropy = entropy * float(math.prod(self._override_event))
        zeros = tf.zeros(tf.concat([self.batch_shape_tensor(),
                                    tf.constant(self._override_event or [], tf.int32)],
                                   0), self.dtype)
        ildj = self._bijector.inverse_log_det_jacobian(
            self._bijector.forward(zeros), event_ndims=self._event_ndims())
        return entropy + tf.zeros(self.batch_shape_tensor(), self.dtype) - ildj


# TF 1.15's bijectors tf1mem does not write: the table names TensorFlow Probability's.
__getattr__ = errors.removed_names("tf.contrib.distributions.bijectors", __name__)


def __dir__():
    """The bijectors, as ``dir(tfb)`` listed TF 1.15's (not this module's helpers)."""
    return sorted(set(__all__) - {"TransformedDistribution"})
