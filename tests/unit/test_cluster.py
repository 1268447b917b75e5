"""``python -m tf1mem.cluster``: real multi-process runs on TF's gRPC runtime.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_cluster.py.
"""

import os
import signal
import socket

import pytest

from tests._subproc import REPO
from tf1mem import cluster
from tf1mem.distributed import launcher as launcher_lib
from tf1mem.distributed import loopback, servers
from tf1mem.errors import UsageError


# --------------------------------------------------------------------------------
# Fast, in-process


@pytest.mark.parametrize("flag", ["--startup-timeout", "--learning-rate"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1"])
def test_non_finite_or_non_positive_floats_are_usage_errors(flag, value):
    with pytest.raises(UsageError, match=f"{flag} must be a finite number > 0, got {value}"):
        cluster.parse_args([f"{flag}={value}"])


def test_free_ports_are_distinct():
    ports = servers.free_ports(8)
    assert len(set(ports)) == 8 and all(0 < p < 65536 for p in ports)


def test_port_busy_falls_back_to_ipv4_without_ipv6(monkeypatch):
    real = socket.socket

    def no_ipv6(family=socket.AF_INET, *args, **kwargs):
        if family == socket.AF_INET6:
            raise OSError(97, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    monkeypatch.setattr(servers.socket, "socket", no_ipv6)
    with real() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        assert servers.port_busy(port)  # the OS's reason, e.g. "Address in use"
    assert servers.port_busy(servers.free_ports(1)[0]) is None


def test_chief_needs_a_checkpoint_dir_in_single_task_mode(capsys):
    rc = cluster.main(["--ps_hosts=127.0.0.1:1", "--worker_hosts=127.0.0.1:2",
                       "--job_name=worker", "--task_index=0"])
    assert rc == 2
    assert "needs --checkpoint-dir" in capsys.readouterr().err


def test_signal_handler_only_records_the_signal():
    launcher = object.__new__(launcher_lib._Launcher)
    launcher.signalled = None
    launcher.on_signal(signal.SIGTERM, None)  # must not raise wherever it lands
    with pytest.raises(launcher_lib.Terminated):
        launcher._check_signal()


def test_loopback_env_adds_the_package_root_to_pythonpath_once():
    root = str(REPO)
    env = loopback.loopback_env({"PYTHONPATH": f"/elsewhere{os.pathsep}{root}"},
                                enable=False)
    assert env["PYTHONPATH"] == f"/elsewhere{os.pathsep}{root}"
    env = loopback.loopback_env({"PYTHONPATH": "/elsewhere"}, enable=False)
    assert env["PYTHONPATH"] == f"{root}{os.pathsep}/elsewhere"
    assert env[loopback.LOOPBACK_ENV_VAR] == "0"
    assert loopback.loopback_env({}, enable=False)["PYTHONPATH"] == root
