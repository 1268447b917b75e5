"""Each TF1 idiom of docs/MIGRATION.md and its TF 2 form give the same result.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_migration_pairs.py.
"""

import json

import pytest

from tests._subproc import describe, run
from tests.unit.test_migration_pairs import PAIRS, PAIRS_SCRIPT


def _same(a, b, tol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str):
        return a == b
    return abs(a - b) <= tol * max(1.0, abs(a))


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIRS)
def test_tf1_and_tf2_forms_agree(name, real_mnist_dir):
    proc = run([PAIRS_SCRIPT, name, real_mnist_dir], env={"TF_USE_LEGACY_KERAS": "1"},
               timeout=180, check_rc=0)
    tf1, tf2 = json.loads(proc.stdout.strip().splitlines()[-1])
    assert tf1 == tf1 and tf1 not in ([], None), describe(proc)
    # Adam's TF1 and Keras updates round differently in float32: 1e-5 relative.
    assert _same(tf1, tf2, 1e-5), (tf1, tf2)
