"""Servers never listen off loopback by accident: checked with the kernel, fail closed.

Each test starts a real TensorFlow gRPC server (in a subprocess) and reads back from
``/proc/net/tcp*`` where it listens; where the loopback bind shim did not take effect,
tf1mem must shut the server down and stop with exit 4.

The tests here: the commands in subprocesses; the rest: tests/unit/test_fail_closed.py.
"""

import os
import socket
from pathlib import Path

import pytest

from tests import _subproc
from tf1mem import errors
from tf1mem.distributed import loopback

SERVER_SCRIPT = (
    "import sys, tensorflow as tf\n"
    "port = int(sys.argv[1])\n"
    "cluster = tf.train.ClusterSpec({'local': ['localhost:%d' % port]})\n"
    "server = tf.train.Server(cluster, job_name='local', task_index=0)\n"
    "print('serving', server.target)\n")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _junk_shim_env(tmp_path):
    """A shim that is 'on' by the environment but that the loader refuses."""
    junk = tmp_path / "loopback-bind-junk.so"
    junk.write_bytes(b"this is not an ELF file")
    return {"LD_PRELOAD": str(junk), loopback.LOOPBACK_ENV_VAR: "1"}


@pytest.mark.slow
def test_runner_script_server_is_on_loopback_by_the_kernel(tmp_path):
    script = tmp_path / "serve.py"
    script.write_text(SERVER_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script, _free_port()], cwd=tmp_path,
                        check_rc=0, timeout=120)
    assert proc.stdout.startswith("serving grpc://localhost:")


@pytest.mark.slow
def test_runner_with_a_shim_the_loader_refuses_fails_closed(tmp_path):
    script = tmp_path / "serve.py"
    script.write_text(SERVER_SCRIPT)
    port = _free_port()
    proc = _subproc.run(["-m", "tf1mem.run", script, port], cwd=tmp_path,
                        env=_junk_shim_env(tmp_path), timeout=120)
    assert proc.returncode == errors.EXIT_CLUSTER, _subproc.describe(proc)
    assert "serving" not in proc.stdout
    assert f"listened on [::]:{port}, not on loopback only, and was shut down" in proc.stderr \
        or f"listened on 0.0.0.0:{port}" in proc.stderr, _subproc.describe(proc)
    assert "did not take effect" in proc.stderr
    assert 'serve.py", line 4' in proc.stderr  # the script's tf.train.Server line


@pytest.mark.slow
def test_in_process_legacy_server_is_shut_and_refused(tmp_path):
    port = _free_port()
    code = (
        "import socket, tf1mem\n"
        "from tf1mem import errors\n"
        "with tf1mem.legacy() as tf:\n"
        "    cluster = tf.train.ClusterSpec({'local': ['localhost:%d' % " + str(port) + "]})\n"
        "    try:\n"
        "        tf.train.Server(cluster, job_name='local', task_index=0)\n"
        "    except errors.ClusterError as exc:\n"
        "        print('refused:', exc)\n"
        "try:\n"
        "    socket.create_connection(('127.0.0.1', " + str(port) + "), timeout=2).close()\n"
        "    print('still accepting')\n"
        "except OSError:\n"
        "    print('closed')\n")
    proc = _subproc.run(["-c", code], cwd=tmp_path, check_rc=0, timeout=120)
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("refused: the tf.train.Server at grpc://localhost:"), proc.stdout
    assert "python -m tf1mem.run" in lines[0]
    assert lines[-1] == "closed"


@pytest.mark.slow
@pytest.mark.cluster
def test_cluster_task_with_a_refused_shim_exits_4(tmp_path):
    port = _free_port()
    proc = _subproc.run(["-m", "tf1mem.cluster", f"--ps_hosts=localhost:{port}",
                         f"--worker_hosts=localhost:{_free_port()}", "--job_name=ps",
                         "--task_index=0"], cwd=tmp_path, env=_junk_shim_env(tmp_path),
                        timeout=120)
    assert proc.returncode == errors.EXIT_CLUSTER, _subproc.describe(proc)
    assert f"the gRPC server of /job:ps/task:0 listened on" in proc.stderr
    assert "serving at" not in proc.stdout


@pytest.mark.slow
@pytest.mark.cluster
def test_ps_start_line_prints_what_the_kernel_says(tmp_path):
    import subprocess
    import sys

    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(_subproc.REPO), "TF_CPP_MIN_LOG_LEVEL": "2",
           "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tf1mem.cluster", f"--ps_hosts=localhost:{port}",
         f"--worker_hosts=localhost:{_free_port()}", "--job_name=ps", "--task_index=0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()  # the ps prints its start line, then serves
    finally:
        proc.kill()
        proc.wait(timeout=_subproc.bound(30))
        proc.stdout.close()
    # The loopback shim binds the dual-stack socket to IPv4 loopback (mapped).
    assert line.strip() == f"tf1mem.cluster: /job:ps/task:0 serving at 127.0.0.1:{port}", line


# ------------------------------------------------------------ the cached shim


def _shim_in(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return loopback._shim_path()


@pytest.mark.slow
def test_runner_rebuilds_a_junk_shim_and_serves_on_loopback(tmp_path, monkeypatch):
    path = _shim_in(tmp_path, monkeypatch)
    os.makedirs(os.path.dirname(path), mode=0o700)
    Path(path).write_bytes(b"junk that the dynamic loader would refuse")
    script = tmp_path / "serve.py"
    script.write_text(SERVER_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script, _free_port()], cwd=tmp_path,
                        env={"XDG_CACHE_HOME": str(tmp_path / "cache")}, check_rc=0,
                        timeout=120)
    assert proc.stdout.startswith("serving grpc://localhost:")
    assert "cannot be preloaded" not in proc.stderr
    assert loopback._trusted(path)
