"""Shared fixtures: real MNIST where it can be had, without the network."""

import shutil

import pytest

from tests import _subproc
from tf1mem.fetch import MNIST_FILES


@pytest.fixture(scope="session")
def real_mnist_dir(tmp_path_factory):
    """A writable folder holding the four real MNIST files, or a skip.

    Copied from ../shared/data/MNIST_data (the checkout's neighbour in development
    and CI); tests never fetch from the internet.
    """
    if not all((_subproc.SHARED_MNIST / name).exists() for name in MNIST_FILES):
        pytest.skip(f"real MNIST not found at {_subproc.SHARED_MNIST}")
    dest = tmp_path_factory.mktemp("real") / "MNIST_data"
    dest.mkdir()
    for name in MNIST_FILES:
        shutil.copyfile(_subproc.SHARED_MNIST / name, dest / name)
    return dest
