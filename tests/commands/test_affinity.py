"""``--cpus`` / ``TF1MEM_CPUS``: the runner's process, its script and children pinned.

The tests here: the commands in subprocesses; the rest: tests/unit/test_affinity.py.
"""

import textwrap

import pytest

from tests import _subproc
from tests.unit.test_affinity import AVAILABLE
from tf1mem import errors


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
