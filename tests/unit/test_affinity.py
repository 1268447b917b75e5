"""``--cpus`` / ``TF1MEM_CPUS``: the runner's process, its script and children pinned."""

import os
import textwrap

import pytest

from tests import _subproc
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


_SCRIPT = """
import os, subprocess, sys
print("script", sorted(os.sched_getaffinity(0)))
child = subprocess.run([sys.executable, "-c",
                        "import os; print(sorted(os.sched_getaffinity(0)))"],
                       capture_output=True, text=True, check=True)
print("child", child.stdout.strip())
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_script_and_its_children_run_on_the_cpus_given(tmp_path, how):
    script = tmp_path / "where.py"
    script.write_text(textwrap.dedent(_SCRIPT))
    cpu = AVAILABLE[-1]
    args, env = (["--cpus", str(cpu)], None) if how == "flag" else ([], {"TF1MEM_CPUS": str(cpu)})
    proc = _subproc.run(["-m", "tf1mem.run", *args, script], cwd=tmp_path, env=env, check_rc=0)
    assert proc.stdout.splitlines() == [f"script [{cpu}]", f"child [{cpu}]"]


@pytest.mark.slow
def test_a_cpu_not_available_is_a_usage_error_before_the_script_runs(tmp_path):
    script = tmp_path / "where.py"
    script.write_text("print('ran')\n")
    bad = str(max(AVAILABLE) + 1000)
    proc = _subproc.run(["-m", "tf1mem.run", "--cpus", bad, script], cwd=tmp_path,
                        check_rc=errors.EXIT_USAGE)
    assert "ran" not in proc.stdout
    assert f"--cpus '{bad}'" in proc.stderr and "it may use" in proc.stderr


@pytest.mark.slow
def test_train_runs_on_the_cpus_given(real_mnist_dir):
    cpu = AVAILABLE[-1]
    code = ("import os, sys\n"
            "from tf1mem import train\n"
            "rc = train.main(['--cpus', sys.argv[1], '--steps', '20', '--no-progress',\n"
            "                 '--data-dir', sys.argv[2]])\n"
            "print('cpus', sorted(os.sched_getaffinity(0)), 'rc', rc)\n")
    proc = _subproc.run(["-c", code, str(cpu), real_mnist_dir], check_rc=0)
    lines = proc.stdout.splitlines()
    assert lines[-1] == f"cpus [{cpu}] rc 0", proc.stdout
    assert lines[-2].startswith("test accuracy: "), proc.stdout


def test_train_refuses_a_cpu_it_may_not_use_before_training(monkeypatch, capsys):
    from tf1mem import train

    monkeypatch.setattr(train, "_run", lambda opts: pytest.fail("trained"))
    bad = str(max(AVAILABLE) + 1000)
    assert train.main(["--cpus", bad]) == errors.EXIT_USAGE
    assert f"--cpus '{bad}'" in capsys.readouterr().err
    monkeypatch.setenv("TF1MEM_CPUS", "x")
    assert train.main([]) == errors.EXIT_USAGE
    assert "TF1MEM_CPUS 'x'" in capsys.readouterr().err
