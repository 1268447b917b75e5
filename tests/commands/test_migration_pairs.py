"""Each TF1 idiom of docs/MIGRATION.md and its TF 2 form give the same result.

Each pair runs as ``python tests/migration_pairs.py PAIR MNIST_DIR`` in a process of its
own (tf_keras layers made inside a tf.Graph invalidate those made outside it): forked
from one that imported TensorFlow once (:mod:`tests._forkrun`, checked against cold runs
by tests/corpus/test_forkrun.py), so each pays no TensorFlow start-up.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_migration_pairs.py.
"""

import json
import os

import pytest

from tests import _forkrun, _subproc
from tests._subproc import describe
from tests.unit.test_migration_pairs import PAIRS, PAIRS_SCRIPT

# What the pairs need, as tf1mem.run sets it (tf.compat.v1.layers, tf-slim on tf_keras).
PAIRS_ENV = {"TF_USE_LEGACY_KERAS": "1"}


@pytest.fixture(scope="module")
def pairs_runner():
    server = _forkrun.ForkServer(_subproc.child_env(PAIRS_ENV),
                                 start_timeout=_subproc.bound(120))
    yield server
    server.close()


def _same(a, b, tol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str):
        return a == b
    return abs(a - b) <= tol * max(1.0, abs(a))


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIRS)
def test_tf1_and_tf2_forms_agree(name, real_mnist_dir, pairs_runner):
    proc = pairs_runner.run([PAIRS_SCRIPT, name, real_mnist_dir], cwd=os.getcwd(),
                            timeout=_subproc.bound(180))
    assert proc.returncode == 0, describe(proc, "expected exit code 0 (run forked)")
    tf1, tf2 = json.loads(proc.stdout.strip().splitlines()[-1])
    assert tf1 == tf1 and tf1 not in ([], None), describe(proc)
    # Adam's TF1 and Keras updates round differently in float32: 1e-5 relative.
    assert _same(tf1, tf2, 1e-5), (tf1, tf2)
