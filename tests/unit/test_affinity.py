"""``--cpus`` / ``TF1MEM_CPUS``: the runner's process, its script and children pinned.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_affinity.py.
"""

import os

import pytest

from tf1mem import errors
from tf1mem.config import affinity

AVAILABLE = sorted(os.sched_getaffinity(0))


@pytest.mark.parametrize("text, want", [
    (str(AVAILABLE[0]), (AVAILABLE[0],)),
    (f"{AVAILABLE[0]}-{AVAILABLE[0]}", (AVAILABLE[0],)),
    (",".join(map(str, AVAILABLE * 2)), tuple(AVAILABLE)),  # repeats collapse
    (f" {AVAILABLE[-1]} , {AVAILABLE[0]}", tuple(sorted({AVAILABLE[0], AVAILABLE[-1]}))),
])
def test_cpu_lists_parse_as_taskset_reads_them(text, want):
    assert affinity.parse_cpus(text) == want


@pytest.mark.parametrize("text, message", [
    ("x", "'x' is not a CPU number or a range"),
    ("0,", "'' is not a CPU number or a range"),
    ("3-1", "'3-1' is not a range of CPU numbers"),
    ("-1", "'-1' is not a CPU number or a range"),
    (str(max(AVAILABLE) + 1000), f"CPU {max(AVAILABLE) + 1000} is not one this process may use"),
])
def test_bad_cpu_lists_name_the_value(text, message):
    with pytest.raises(errors.UsageError, match="--cpus") as info:
        affinity.parse_cpus(text)
    assert message in str(info.value)


def test_environment_variable_empty_is_unset():
    assert affinity.cpus_from_env({}) is None
    assert affinity.cpus_from_env({"TF1MEM_CPUS": "  "}) is None
    assert affinity.cpus_from_env({"TF1MEM_CPUS": str(AVAILABLE[0])}) == (AVAILABLE[0],)
    with pytest.raises(errors.UsageError, match="TF1MEM_CPUS 'no'"):
        affinity.cpus_from_env({"TF1MEM_CPUS": "no"})


def test_a_pin_the_kernel_does_not_report_fails(monkeypatch):
    asked = []
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: asked.append(set(cpus)))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    with pytest.raises(errors.UsageError, match="not running with a pin that did not take"):
        affinity.pin((0,))
    assert asked == [{0}]


def test_train_refuses_a_cpu_it_may_not_use_before_training(monkeypatch, capsys):
    from tf1mem import train

    monkeypatch.setattr(train, "_run", lambda opts: pytest.fail("trained"))
    bad = str(max(AVAILABLE) + 1000)
    assert train.main(["--cpus", bad]) == errors.EXIT_USAGE
    assert f"--cpus '{bad}'" in capsys.readouterr().err
    monkeypatch.setenv("TF1MEM_CPUS", "x")
    assert train.main([]) == errors.EXIT_USAGE
    assert "TF1MEM_CPUS 'x'" in capsys.readouterr().err
