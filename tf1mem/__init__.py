"""tf1mem: run TensorFlow 1.x graph-mode code unchanged on current TensorFlow.

Importing this package is cheap and changes nothing: TensorFlow is not imported,
no environment variable is set, no module is replaced. The pieces:

- ``tf1mem.input_data``: TF 1.15's MNIST loader, exact, with verified fetching
  (``tf1mem.fetch``).
- ``tf1mem.config``: session configs for GPU memory (allow_growth, memory fraction,
  device placement logging), with environment overrides.
- ``tf1mem.train``: ``python -m tf1mem.train``, the article's examples.
- ``tf1mem.run`` / ``tf1mem.shim``: ``python -m tf1mem.run old_script.py`` and
  ``with tf1mem.legacy(): ...``.
- ``tf1mem.cluster``: data-parallel training on TensorFlow's gRPC runtime.
"""

from tf1mem.errors import (
    ChecksumError,
    ClusterError,
    ConfigError,
    DataError,
    Error,
    FetchError,
    ShimError,
    UsageError,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "Error",
    "UsageError",
    "ConfigError",
    "DataError",
    "ChecksumError",
    "FetchError",
    "ShimError",
    "ClusterError",
    "legacy",
    "install",
    "uninstall",
]


def legacy(**options):
    """Context manager: inside it, ``import tensorflow`` gives the TF1 API.

    See :func:`tf1mem.shim.legacy`; imported lazily so ``import tf1mem`` stays cheap.
    """
    from tf1mem import shim

    return shim.legacy(**options)


def install(**options):
    """Installs the TF1 shim process-wide; see :func:`tf1mem.shim.install`."""
    from tf1mem import shim

    return shim.install(**options)


def uninstall():
    """Undoes :func:`install`; see :func:`tf1mem.shim.uninstall`."""
    from tf1mem import shim

    return shim.uninstall()
