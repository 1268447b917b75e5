"""Servers never listen off loopback by accident: checked with the kernel, fail closed.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_fail_closed.py.
"""

import os
import socket
import stat
from pathlib import Path

import pytest

from tests.commands.test_fail_closed import _shim_in
from tf1mem import _net, errors
from tf1mem.distributed import loopback


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


# ------------------------------------------------------------ the cached shim


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
