"""tf1mem: run TensorFlow 1.x graph-mode code unchanged on current TensorFlow.

Importing this package is cheap and changes nothing: TensorFlow is not imported,
no environment variable is set, no module is replaced. The wings (each
sub-package's docstring says what it owns; docs/ARCHITECTURE.md who imports whom):

- :mod:`tf1mem.compat`: TF1 code unchanged: the table of TF1 names (data), the
  runtime that installs the shim, the re-implemented TF1 APIs at their TF1 paths,
  and the legacy NumPy / standard-library views.
- :mod:`tf1mem.data`: the IDX format, verified fetching, TF 1.15's MNIST loader.
- :mod:`tf1mem.config`: session configs for GPU memory (one record per option),
  with environment overrides and the GPU-options-ignored warning.
- :mod:`tf1mem.distributed`: gRPC servers on loopback, the cluster launcher and
  task, the article's example 2.
- :mod:`tf1mem.observe`: what a session run did (placement, memory peaks, the
  out-of-memory explanation) and what a batch size costs (sweep, fit).
- :mod:`tf1mem.models` (the article's graph) and :mod:`tf1mem.training` (its loop).
- :mod:`tf1mem.migrate`: the scanner, the rewrite, the contrib inventory.
- Commands: ``python -m tf1mem.train``, ``tf1mem.run``, ``tf1mem.cluster``,
  ``tf1mem.memory``, ``tf1mem.scan``; thin modules that parse flags and call the
  wings. ``import tf1mem.v1 as tf``, :func:`legacy` / :func:`install` /
  :func:`uninstall`, ``%load_ext tf1mem`` in IPython / Jupyter
  (:func:`load_ipython_extension`) and ``pytest -p tf1mem.pytest_plugin`` are the
  library's doors to the TF1 API.
"""

from tf1mem.errors import (
    ChecksumError,
    ClusterError,
    ConfigError,
    DataError,
    Error,
    FetchError,
    ShimError,
    TrainingError,
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
    "TrainingError",
    "legacy",
    "install",
    "uninstall",
    "load_ipython_extension",
    "unload_ipython_extension",
]


def legacy(**options):
    """Context manager: inside it, ``import tensorflow`` gives the TF1 API.

    See :func:`tf1mem.compat.legacy`; imported lazily so ``import tf1mem`` stays cheap.
    """
    from tf1mem import compat

    return compat.legacy(**options)


def install(**options):
    """Installs the TF1 shim process-wide; see :func:`tf1mem.compat.install`."""
    from tf1mem import compat

    return compat.install(**options)


def uninstall():
    """Undoes :func:`install`; see :func:`tf1mem.compat.uninstall`."""
    from tf1mem import compat

    return compat.uninstall()


def load_ipython_extension(ipython):
    """``%load_ext tf1mem``: the shell's cells get the TF1 module and the legacy views.

    See :mod:`tf1mem.compat.runtime.ipython`; ``%unload_ext tf1mem`` undoes it.
    """
    from tf1mem import compat

    compat.load_ipython_extension(ipython)


def unload_ipython_extension(ipython):
    """``%unload_ext tf1mem``: undoes :func:`load_ipython_extension`."""
    from tf1mem import compat

    compat.unload_ipython_extension(ipython)
