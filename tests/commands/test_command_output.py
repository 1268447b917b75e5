"""What tf1mem's own commands print and leave, run as a user runs them (issue 31).

TensorFlow's C++ start-up lines hidden unless ``--verbose``; ``--profile`` counting the
whole process; a data folder that is a file named by the flag typed; the cluster
launcher's run folder in the report folder, removed when the run succeeds, and its
progress bar on a terminal. The in-process parts: tests/unit/test_tflog.py,
tests/unit/test_places.py, tests/unit/test_command_help.py.
"""

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest

from tests import _mnist_fixtures, _subproc
from tf1mem import _places

# TensorFlow's own level would hide some of them: the user's default is 0.
LOUD = {"TF_CPP_MIN_LOG_LEVEL": "0"}
GLOG = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:[\d.]+\s+\d+ \S+:\d+\]", re.M)
ABSL_NOTICE = "All log messages before absl::InitializeLog() is called"


@pytest.fixture(scope="module")
def fake_mnist(tmp_path_factory):
    data = tmp_path_factory.mktemp("fake_mnist")
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7, separable=True)
    return data


def _profile(err):
    line = next(l for l in err.splitlines() if l.startswith("tf1mem.train: profile (s):"))
    phases = dict((k, float(v)) for k, v in re.findall(r"([a-z-]+) ([0-9.]+)", line))
    return phases, line


def test_profile_counts_the_whole_process_and_start_up_lines_are_hidden(fake_mnist, tmp_path):
    # The interpreter spends 2 s before the command's main() runs: the profile must
    # count them, and TensorFlow's import, in its start-up, import and total.
    code = ("import sys, time\ntime.sleep(2)\nfrom tf1mem import train\n"
            f"sys.exit(train.main(['--data-dir', {str(fake_mnist)!r}, '--steps', '20', "
            "'--profile', '--no-progress']))\n")
    started = time.monotonic()
    proc = _subproc.run(["-c", code], cwd=tmp_path, env=LOUD, check_rc=0)
    wall = time.monotonic() - started
    # No C++ start-up line of TensorFlow's reached the console.
    assert ABSL_NOTICE not in proc.stderr and not GLOG.search(proc.stderr), \
        _subproc.describe(proc)
    phases, line = _profile(proc.stderr)
    assert phases["start-up"] >= 2.0, line
    assert {"import", "load", "build", "train", "eval", "total"} <= set(phases), line
    parts = sum(v for k, v in phases.items() if k != "total")
    assert parts <= phases["total"] + 0.01 <= wall + 0.01, (line, wall)
    assert proc.stdout.splitlines()[-1].startswith("test accuracy: ")


def test_verbose_shows_tensorflows_log(fake_mnist, tmp_path):
    # The lines the previous test found hidden are there to hide: --verbose shows them.
    proc = _subproc.run(["-m", "tf1mem.train", "--data-dir", fake_mnist, "--steps", "20",
                         "--no-progress", "--verbose"], cwd=tmp_path, env=LOUD, check_rc=0)
    assert ABSL_NOTICE in proc.stderr, _subproc.describe(proc)


def test_a_users_script_under_the_runner_keeps_tensorflows_stderr(tmp_path):
    # TF 1.15's behaviour is the reference there: tf1mem holds nothing back.
    script = tmp_path / "plain.py"
    script.write_text("import tensorflow as tf\nprint(tf.constant(3).dtype.name)\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, env=LOUD, check_rc=0)
    assert proc.stdout == "int32\n"
    assert ABSL_NOTICE in proc.stderr, _subproc.describe(proc)


def test_a_data_dir_that_is_a_file_is_named_by_its_flag(tmp_path):
    (tmp_path / "notadir").write_text("a file")
    proc = _subproc.run(["-m", "tf1mem.train", "--data-dir", "notadir", "--no-progress"],
                        cwd=tmp_path, check_rc=3)
    assert "pass a writable --data-dir." in proc.stderr, _subproc.describe(proc)
    assert "train_dir" not in proc.stderr, _subproc.describe(proc)


def _read_all(fd, into):
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other side closed
            return
        if not chunk:
            return
        into.append(chunk)


@pytest.mark.cluster
@pytest.mark.slow
def test_cluster_run_folder_is_removed_on_success_and_progress_is_drawn(fake_mnist,
                                                                        tmp_path):
    reports = tmp_path / "reports"
    master, slave = pty.openpty()
    # A terminal of 100 columns (a new pty has 0, where tqdm draws nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = _subproc.child_env({_places.REPORT_DIR_ENV_VAR: str(reports)})
    chunks = []
    reader = threading.Thread(target=_read_all, args=(master, chunks), daemon=True)
    reader.start()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tf1mem.cluster", "--ps", "1", "--workers", "1",
             "--steps", "400", "--data-dir", str(fake_mnist), "--seed", "0"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=slave, text=True,
            timeout=_subproc.bound(180))
    finally:
        os.close(slave)
        reader.join(timeout=10)
        os.close(master)
    err = b"".join(chunks).decode("utf-8", "replace")
    shown = f"exit code {proc.returncode}\n--- stdout ---\n{proc.stdout}\n--- stderr ---\n{err}"
    assert proc.returncode == 0, shown
    assert proc.stdout.splitlines()[-1].startswith("test accuracy: "), shown
    run_dir = re.search(r"logs in (\S+)", err).group(1)
    # In the report folder the user chose, and gone now that the run succeeded.
    assert os.path.dirname(run_dir) == str(reports), shown
    assert not os.path.exists(run_dir) and list(reports.iterdir()) == [], shown
    assert "run folder removed" in proc.stdout, shown
    # The bar of the global step, drawn on the terminal.
    assert re.search(r"cluster:\s+\d+%.*\d+/400", err), shown
