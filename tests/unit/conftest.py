"""The unit tier's rule, enforced: a test here cannot import TensorFlow."""

import sys

import pytest


@pytest.fixture(autouse=True)
def _tensorflow_unimportable(monkeypatch):
    """While a unit test runs, ``import tensorflow`` raises ImportError.

    ``sys.modules[name] = None`` is how Python itself marks a module unimportable; the
    entry is put back as it was after the test. A test that needs TensorFlow belongs in
    tests/tf/ (in-process) or tests/commands/ (in a child process). Strict when the unit
    tier runs alone (``pytest tests/unit``); in a mixed run, where an earlier module
    already imported TensorFlow, a tf1mem module holding it can still hand it over.
    """
    monkeypatch.setitem(sys.modules, "tensorflow", None)
