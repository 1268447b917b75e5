"""The compatibility wing: TF1 code runs unchanged on TensorFlow 2.

This module is the wing's public face: :func:`install`, :func:`uninstall`,
:func:`legacy`, :func:`is_installed`, :func:`tf1_packages`, the report writers and IPython's
:func:`load_ipython_extension` / :func:`unload_ipython_extension` (the doors
``tf1mem.install()``, ``tf1mem.legacy()``, ``tf1mem.v1``, ``%load_ext tf1mem`` and the
pytest plugin call them). Importing it
imports no TensorFlow. The wing, one sentence each:

- :mod:`~tf1mem.compat.table`: where every TF1 name tf1mem knows lives (a TF 2 home, a
  tf1mem implementation, or removed with its replacement); data only.
- :mod:`~tf1mem.compat.errors`: the "removed" errors and their wording, a leaf anyone
  may import.
- :mod:`~tf1mem.compat.runtime`: the machinery that puts the TF1 surface into a process
  (import hooks, the finder, views, patches, the lifecycle, session hooks, op seeds,
  running a script); it names no TF1 API and never imports a re-implementation.
- :mod:`~tf1mem.compat.tf`: the re-implemented TF1 APIs, each at its TF1 path
  (``tf.contrib.rnn`` is ``tf1mem.compat.tf.contrib.rnn``); loaded only after
  TensorFlow, they import each other only through public names.
- :mod:`~tf1mem.compat.legacy`: user code's views of the Python of 2017 (NumPy 1.x and
  Python 3.7 names, Python 2 hints).

This wing may use :mod:`tf1mem.config`, :mod:`tf1mem.data` and :mod:`tf1mem.observe`;
it never imports :mod:`tf1mem.distributed` or a command module.
"""

from tf1mem.compat.runtime.hooks import user_globals
from tf1mem.compat.runtime.ipython import load as load_ipython_extension
from tf1mem.compat.runtime.ipython import unload as unload_ipython_extension
from tf1mem.compat.runtime.lifecycle import (IMPORT_HOOKS, LEGACY_KERAS_ENV, install,
                                             is_installed, legacy, tf1_packages, uninstall,
                                             write_memory_report, write_placement_report)
from tf1mem.compat.runtime.usercode import is_user_code

__all__ = ["LEGACY_KERAS_ENV", "IMPORT_HOOKS", "install", "uninstall", "legacy",
           "is_installed", "write_placement_report", "write_memory_report",
           "user_globals", "is_user_code", "load_ipython_extension",
           "unload_ipython_extension", "tf1_packages"]
