"""tf1mem._places: reports and run folders only where the user said.

The commands that use it: tests/commands/test_command_output.py (train's
out-of-memory report, the cluster's run folder).
"""

import os
from pathlib import Path

import pytest

from tf1mem import _places
from tf1mem.errors import ConfigError
from tf1mem.observe import oom


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in (_places.REPORT_DIR_ENV_VAR, "TF1MEM_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return monkeypatch


def test_the_report_folder_is_the_users_choice(env, tmp_path):
    assert _places.report_dir() == tmp_path / "home" / ".cache" / "tf1mem" / "reports"
    env.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _places.report_dir() == tmp_path / "xdg" / "tf1mem" / "reports"
    # Inside the folder named for tf1mem's files, never beside it.
    env.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "mine"))
    assert _places.report_dir() == tmp_path / "mine" / "reports"
    env.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "here"))
    assert _places.report_dir() == tmp_path / "here"


def test_a_run_folder_is_removed_when_the_run_succeeds(env, tmp_path):
    env.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "r"))
    with _places.run_folder("memory-fit-") as run:
        # The command's children write their reports into it.
        assert os.environ[_places.REPORT_DIR_ENV_VAR] == str(run.path)
        (run.path / "tf1mem-oom-1.txt").write_text("report")
    assert os.environ[_places.REPORT_DIR_ENV_VAR] == str(tmp_path / "r")
    assert not run.path.exists()
    assert list((tmp_path / "r").iterdir()) == []


def test_a_run_folder_stays_when_the_run_fails_or_is_kept(env, tmp_path):
    env.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "r"))
    with pytest.raises(RuntimeError):
        with _places.run_folder("memory-fit-") as failed:
            raise RuntimeError("a trial failed")
    with _places.run_folder("memory-sweep-") as marked:
        marked.keep = True
    with _places.run_folder("cluster-", keep=True) as asked:
        pass
    assert failed.path.is_dir() and marked.path.is_dir() and asked.path.is_dir()
    assert os.environ[_places.REPORT_DIR_ENV_VAR] == str(tmp_path / "r")


def test_the_variable_is_removed_again_when_it_was_unset(env):
    with _places.run_folder("x-"):
        pass
    assert _places.REPORT_DIR_ENV_VAR not in os.environ


def test_an_unwritable_report_folder_names_the_variable(env, tmp_path):
    (tmp_path / "file").write_text("")
    env.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "file" / "r"))
    with pytest.raises(ConfigError, match=_places.REPORT_DIR_ENV_VAR):
        _places.new_report_file("tf1mem-oom-")


def _report():
    return oom.OomReport(node="MatMul", shape=(4096, 4096), dtype="float32",
                         device="/job:localhost/replica:0/task:0/device:CPU:0",
                         allocator="cpu", requested_bytes=64 * 2**20, live=(),
                         remaining=(0, 0), batch_size=4096, predicted_batch=None,
                         raw="OOM when allocating tensor with shape[4096,4096]")


def test_an_out_of_memory_report_goes_to_the_report_folder_with_the_allocator_dump(
        env, tmp_path):
    env.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "r"))
    dump = ["W0000 00:00:1.0 1 bfc_allocator.cc:501] Allocator (cpu) ran out of memory"]
    message = str(oom.out_of_memory_error(_report(), tf_log=dump))
    # The short table first; the file is named on its last line.
    assert message.startswith("out of memory\nout of memory on CPU:0")
    path = Path(message.splitlines()[-1].split("TensorFlow's full report: ")[1])
    assert path.parent == tmp_path / "r" and path.name.startswith("tf1mem-oom-")
    text = path.read_text()
    assert text.startswith("OOM when allocating tensor") and dump[0] in text
    assert dump[0] not in message
