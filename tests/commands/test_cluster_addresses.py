"""The cluster's task addresses, checked before any server starts (no TensorFlow).

The tests here: the commands in subprocesses; the rest:
tests/unit/test_cluster_addresses.py.
"""

from tests import _subproc


def test_the_command_exits_2_before_serving(tmp_path):
    proc = _subproc.run(["-m", "tf1mem.cluster", "--ps_hosts=127.0.0.1:24000",
                         "--worker_hosts=127.0.0.1:24000", "--job_name=ps",
                         "--task_index=0"], cwd=tmp_path, timeout=300)
    assert proc.returncode == 2, _subproc.describe(proc)
    assert "is given to both ps:0 and worker:0" in proc.stderr
