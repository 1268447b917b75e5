"""``tf.test`` for TF1 code: TF 2.21's ``tf.compat.v1.test``, where "is TensorFlow built
with CUDA?" gets the answer TF 1.15 gave on the same machine.

TF 1.15 came as two packages: ``tensorflow`` (CPU, ``is_built_with_cuda()`` False) and
``tensorflow-gpu`` (True). A machine without a GPU ran the CPU one, and TF1 scripts that
branch on the question (``with tf.device('/gpu:0' if tf.test.is_built_with_cuda() else
'/cpu:0')``) took the CPU path there. TF 2.21's one wheel is built with CUDA and answers
True even where no GPU is visible, so such a script pins ops to ``/gpu:0`` and fails at
placement. Here ``is_built_with_cuda()`` and ``is_built_with_gpu_support()`` answer True
only when TF 2.21 is built with CUDA *and* a GPU is visible to it, which is what the
script meant; the first time they answer False for want of a GPU, one line on stderr says
so and names what TF 2.21 really is (its build info is not changed:
``tf.sysconfig.get_build_info()`` still says CUDA). Every other name is TF 2.21's own.
"""

import sys

import tensorflow as _tf

_V1_TEST = _tf.compat.v1.test

globals().update({name: getattr(_V1_TEST, name) for name in _V1_TEST.__all__
                  if name not in ("is_built_with_cuda", "is_built_with_gpu_support")})

__all__ = sorted(_V1_TEST.__all__)

_NOTED = []


def _gpu_visible() -> bool:
    return bool(_tf.config.list_physical_devices("GPU"))


def _answer(question: str, built: bool) -> bool:
    if not built:
        return False
    if _gpu_visible():
        return True
    if not _NOTED:
        _NOTED.append(question)
        cuda = _tf.sysconfig.get_build_info().get("cuda_version", "?")
        print(f"tf1mem: tf.test.{question}() answers False, as TF 1.15's CPU package did "
              f"on a machine without a GPU: no GPU is visible (TensorFlow "
              f"{_tf.__version__} itself is built with CUDA {cuda}).", file=sys.stderr)
    return False


def is_built_with_cuda() -> bool:
    """True when TensorFlow is built with CUDA and a GPU is visible (see the module)."""
    return _answer("is_built_with_cuda", _V1_TEST.is_built_with_cuda())


def is_built_with_gpu_support() -> bool:
    """True when TensorFlow is built with GPU support and a GPU is visible."""
    return _answer("is_built_with_gpu_support", _V1_TEST.is_built_with_gpu_support())
