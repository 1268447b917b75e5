"""Servers never listen off loopback by accident: checked with the kernel, fail closed.

Each test starts a real TensorFlow gRPC server (in a subprocess) and reads back from
``/proc/net/tcp*`` where it listens; where the loopback bind shim did not take effect,
tf1mem must shut the server down and stop with exit 4.
"""

import os
import socket
import stat
from pathlib import Path

import pytest

from tests import _subproc
from tf1mem import _net, errors
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


def test_kernel_check_finds_wildcard_and_loopback_sockets():
    wild = socket.socket(socket.AF_INET6)
    wild.bind(("::", 0))
    wild.listen()
    local = socket.socket()
    local.bind(("127.0.0.1", 0))
    local.listen()
    try:
        wild_port, local_port = wild.getsockname()[1], local.getsockname()[1]
        assert _net.check_loopback_only(_net.listening_sockets(local_port), "probe") == \
            [f"127.0.0.1:{local_port}"]
        with pytest.raises(errors.ClusterError, match=rf"listened on \[::\]:{wild_port}"):
            _net.check_loopback_only(_net.listening_sockets(wild_port), "probe")
        # Shut down: it no longer listens, nothing can connect.
        assert _net.listening_sockets(wild_port) == []
    finally:
        wild.close()
        local.close()


def test_ipv4_mapped_loopback_counts_as_loopback():
    assert _net.is_loopback_address("::ffff:127.0.0.1")
    assert _net.is_loopback_address("127.0.0.2") and _net.is_loopback_address("::1")
    assert not _net.is_loopback_address("::") and not _net.is_loopback_address("0.0.0.0")


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
        proc.wait(timeout=30)
        proc.stdout.close()
    # The loopback shim binds the dual-stack socket to IPv4 loopback (mapped).
    assert line.strip() == f"tf1mem.cluster: /job:ps/task:0 serving at 127.0.0.1:{port}", line


# ------------------------------------------------------------ the cached shim


def _shim_in(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return loopback._shim_path()


def test_a_fresh_build_is_recorded_and_then_trusted(tmp_path, monkeypatch):
    path = _shim_in(tmp_path, monkeypatch)
    assert loopback._build_shim() == path
    assert Path(path + ".sha256").read_text().strip() == loopback._file_sha256(path)
    assert loopback._trusted(path)
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700


@pytest.mark.parametrize("spoil", ["junk", "no_record", "other_owner", "group_writable",
                                   "symlink", "open_folder"])
def test_a_cached_shim_tf1mem_did_not_build_is_rebuilt(tmp_path, monkeypatch, spoil):
    path = _shim_in(tmp_path, monkeypatch)
    loopback._build_shim()
    good = Path(path).read_bytes()
    if spoil == "junk":  # same name, other content: the recorded hash differs
        Path(path).write_bytes(b"\x7fELF junk")
    elif spoil == "no_record":
        os.unlink(path + ".sha256")
    elif spoil == "other_owner":
        os.chown(path, 65534, 65534)  # as another user would have left it
    elif spoil == "group_writable":
        os.chmod(path, 0o775)
    elif spoil == "symlink":
        target = tmp_path / "elsewhere.so"
        target.write_bytes(good)
        os.unlink(path)
        os.symlink(target, path)
    elif spoil == "open_folder":
        os.chmod(os.path.dirname(path), 0o777)
    assert not loopback._trusted(path)
    assert loopback._build_shim() == path
    assert loopback._trusted(path) and not os.path.islink(path)
    assert Path(path).read_bytes() == good  # the same compiler builds the same file


def test_the_shim_folder_of_another_user_is_refused(tmp_path, monkeypatch):
    path = _shim_in(tmp_path, monkeypatch)
    folder = os.path.dirname(path)
    os.makedirs(folder)
    os.chown(folder, 65534, 65534)
    with pytest.raises(errors.ClusterError, match="is not a folder of this user"):
        loopback._build_shim()


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
