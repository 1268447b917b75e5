"""The defects a review of the first landing found, each shown fixed.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_review_defects.py, tests/tf/test_review_defects.py.
"""

import os
import stat

import pytest

from tf1mem import _cli, errors
from tf1mem.distributed import launcher, loopback
from tf1mem.observe import placement


# ------------------------------------------------------------ loopback shim build


def _fake_compiler(tmp_path, body):
    cc = tmp_path / "fakecc"
    cc.write_text(f"#!/bin/sh\n{body}\n")
    cc.chmod(cc.stat().st_mode | stat.S_IXUSR)
    return str(cc)


def test_compiler_time_out_is_a_cluster_error(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("CC", _fake_compiler(tmp_path, "sleep 5"))
    monkeypatch.setattr(loopback, "_COMPILE_TIMEOUT_S", 0.5)
    with pytest.raises(errors.ClusterError, match="did not finish within 0.5 s"):
        loopback._build_shim()


def test_unwritable_shim_folder_is_a_cluster_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # makedirs under a file fails
    with pytest.raises(errors.ClusterError, match="cannot build the loopback bind shim"):
        loopback._build_shim()


def test_relative_xdg_cache_home_is_ignored(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert os.path.isabs(loopback._shim_path())


# ------------------------------------------------------------ launcher


def test_launcher_fetches_mnist_once_before_any_task_starts(monkeypatch, tmp_path):
    order = []

    def fake_fetch_all(data_dir, **_):
        order.append(("fetch", data_dir))
        return []

    class Stop(Exception):
        pass

    def fake_launcher(*_args, **_kwargs):
        order.append(("launcher",))
        raise Stop()

    from tf1mem.data import fetch

    monkeypatch.setattr(fetch, "fetch_all", fake_fetch_all)
    monkeypatch.setattr(launcher, "_Launcher", fake_launcher)
    opts = launcher.ClusterOptions(data_dir=str(tmp_path / "d"), run_dir=str(tmp_path / "r"))
    with pytest.raises(Stop):
        launcher.run_launcher(opts)
    assert order == [("fetch", str(tmp_path / "d")), ("launcher",)]


# ------------------------------------------------------------ session hooks


def test_report_refuses_two_runs_under_one_label(tmp_path):
    row = placement.PlacementRow(node="a", op="Const", device="/cpu:0")
    with pytest.raises(ValueError, match="used twice"):
        placement.write_report(tmp_path / "r.json", [("run", [row]), ("run", [row])])
    placement.write_report(tmp_path / "r.json", [("run 0", [row]), ("run 1", [row])])
    assert set(__import__("json").loads((tmp_path / "r.json").read_text())) == {"run 0", "run 1"}


# ------------------------------------------------------------ the runner


def test_a_tf1mem_error_in_a_command_is_one_line_and_its_exit_code(capsys):
    def body():
        raise errors.ShimError("the shim cannot be installed: because")

    assert _cli.run_command("tf1mem.run", body) == errors.EXIT_FAILURE
    assert capsys.readouterr().err == "tf1mem.run: error: the shim cannot be installed: because\n"

    def interrupted():
        raise KeyboardInterrupt

    assert _cli.run_command("tf1mem.run", interrupted) == errors.EXIT_INTERRUPTED


# ------------------------------------------------------------ data folder


def test_a_flag_overrides_a_bad_environment_variable(monkeypatch):
    from tf1mem import train

    monkeypatch.setenv("TF1MEM_GPU_MEMORY_FRACTION", "not-a-number")
    opts = train.parse_args(["--gpu-memory-fraction", "0.5"])
    assert opts.session.per_process_gpu_memory_fraction == 0.5
    with pytest.raises(errors.ConfigError, match="TF1MEM_GPU_MEMORY_FRACTION"):
        train.parse_args([])  # used, so reported
