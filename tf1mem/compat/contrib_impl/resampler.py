"""``tf.contrib.resampler``: ``resampler``, from :mod:`tf1mem.compat.contrib_impl.sampling`.

TF 1.15's module held the one function (its kernel and gradient were contrib ops);
``tensorflow.contrib.resampler`` is this module under tf1mem.
"""

from tf1mem.compat.contrib_impl.sampling import resampler

__all__ = ["resampler"]
