"""The pytest plugin: ``pytest -p tf1mem.pytest_plugin`` runs a legacy test suite under TF1.

Loaded with ``-p tf1mem.pytest_plugin`` on the command line, or by the repository's own
configuration (``addopts = -p tf1mem.pytest_plugin`` in ``pytest.ini``, ``setup.cfg``'s
``[tool:pytest]``, ``pyproject.toml``'s ``[tool.pytest.ini_options]``), it installs
tf1mem's shim as ``python -m tf1mem.run`` does (lazily: TensorFlow is imported by the
first test module that imports it; the per-module user-code hook; NumPy 1.x's and
Python 3.7's removed names for user code; the session options of the ``TF1MEM_*``
environment variables) before pytest imports the first ``conftest.py``, and uninstalls
it when the session ends. The suite's test modules and ``conftest.py`` files (those
outside the library folders) then get the TF1 module from ``import tensorflow``, with
pytest's assertion rewriting as usual; plugins and libraries keep TF 2.

It registers no ``pytest11`` entry point: pytest loads it only where asked, so pytest
runs unchanged for every other project in the environment (tf1mem's own suite
included). Under ``python -m tf1mem.run -m pytest`` the shim is in already, and the
plugin, if named too, leaves it to the runner. ``gRPC`` servers a test starts are
checked after they start and stopped with an error when they listen beyond loopback
(the runner's ``LD_PRELOAD`` bind shim needs its own process start:
``python -m tf1mem.run -m pytest`` has it).
"""

import pytest

from tf1mem import compat, config, errors

__all__ = ["pytest_addoption", "pytest_load_initial_conftests", "pytest_configure",
           "pytest_report_header"]

_INSTALLED_HERE = pytest.StashKey[bool]()


def pytest_addoption(parser):
    group = parser.getgroup("tf1mem", "tf1mem (TF1 code on TensorFlow 2)")
    group.addoption("--tf1mem-no-numpy-compat", dest="tf1mem_numpy_compat",
                    action="store_false", default=True,
                    help="give the tests NumPy as installed (python -m tf1mem.run's "
                         "--no-numpy-compat)")
    group.addoption("--tf1mem-no-python-compat", dest="tf1mem_python_compat",
                    action="store_false", default=True,
                    help="give the tests the standard library as installed (python -m "
                         "tf1mem.run's --no-python-compat)")


def _install(config_):
    """Installs the shim for this pytest session, once; undone by the config's cleanup."""
    if _INSTALLED_HERE in config_.stash:
        return
    if compat.is_installed():  # python -m tf1mem.run -m pytest: the runner's shim
        config_.stash[_INSTALLED_HERE] = False
        return
    try:
        session = config.resolve_options(None)
    except errors.ConfigError as exc:
        raise pytest.UsageError(f"tf1mem: {exc}") from None
    options = config_.known_args_namespace
    compat.install(
        session_options=None if session == config.SessionOptions() else session,
        import_hook="modules", lazy=True,
        numpy_compat=getattr(options, "tf1mem_numpy_compat", True),
        python_compat=getattr(options, "tf1mem_python_compat", True))
    config_.stash[_INSTALLED_HERE] = True
    config_.add_cleanup(compat.uninstall)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """Before the first ``conftest.py`` is imported (``-p`` and ``addopts`` plugins)."""
    _install(early_config)


def pytest_configure(config):
    """A plugin registered later (``pytest_plugins`` in a conftest): from collection on."""
    _install(config)


def pytest_report_header(config):
    if config.stash.get(_INSTALLED_HERE, None) is None:
        return None
    owner = "pytest -p tf1mem.pytest_plugin" if config.stash[_INSTALLED_HERE] \
        else "python -m tf1mem.run"
    return (f"tf1mem: test modules and conftest.py files outside the library folders "
            f"get TensorFlow 1.x's API ({owner})")
