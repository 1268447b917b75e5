"""The ``optimizer=`` argument of the canned estimators, resolved as TF 1.15 did.

A name (``'Adagrad'``, ``'Adam'``, ``'Ftrl'``, ``'RMSProp'``, ``'SGD'``) with the
estimator's default learning rate, a ``tf.compat.v1.train.Optimizer``, or a callable
returning one. Anything else fails naming the value.
"""

__all__ = ["get_optimizer"]

_NAMES = {"Adagrad": "AdagradOptimizer", "Adam": "AdamOptimizer", "Ftrl": "FtrlOptimizer",
          "RMSProp": "RMSPropOptimizer", "SGD": "GradientDescentOptimizer"}


def get_optimizer(optimizer, learning_rate):
    """Returns a v1 Optimizer instance for ``optimizer``."""
    from tf1mem._tf import v1 as _v1

    v1 = _v1()
    if isinstance(optimizer, str):
        if optimizer not in _NAMES:
            raise ValueError(f"Unsupported optimizer name: {optimizer}. Supported names are: "
                             f"{tuple(sorted(_NAMES))}")
        return getattr(v1.train, _NAMES[optimizer])(learning_rate=learning_rate)
    if callable(optimizer) and not isinstance(optimizer, v1.train.Optimizer):
        optimizer = optimizer()
    if not isinstance(optimizer, v1.train.Optimizer):
        raise ValueError(f"The given object is not an Optimizer instance (a tf.train."
                         f"Optimizer, e.g. tf.train.AdagradOptimizer): {optimizer!r}")
    return optimizer
