"""``import tf1mem.v1 as tf``: a one-line migration to the TF1 API.

Importing this module does nothing. The first attribute used (``tf.placeholder``,
``tf.Session``, ...) installs the shim process-wide (see :mod:`tf1mem.compat`: TF 2
behaviour off, ``tf.contrib`` and the tutorial modules available) and is then looked
up on the TF1 module. ``tf1mem.uninstall()`` undoes the install.
"""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from tf1mem import compat

    return getattr(compat.install(), name)


def __dir__():
    from tf1mem import compat

    return dir(compat.install())
