"""--memory-report keeps what it traced whatever ends the script, and refuses a path it
could not write before the script runs."""

import json
import os
import signal
import subprocess
import sys

import pytest

from tests import _subproc

_SCRIPT = """
import os, signal, sys, time
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
y = tf.reduce_sum(tf.matmul(x, tf.ones([4, 3])))
with tf.Session() as sess:
    for _ in range(3):
        sess.run(y, {x: np.ones([5, 4], np.float32)})
    print('traced', flush=True)
    how = sys.argv[1]
    if how == 'exit':
        os._exit(7)
    time.sleep(300)
"""


@pytest.mark.parametrize("bad, says", [
    ("folder.json", "is a folder"),
    ("fifo.json", "is not a writable regular file"),
])
def test_a_folder_or_unwritable_report_path_is_refused_before_the_script(tmp_path, bad,
                                                                         says):
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    script = tmp_path / "prog.py"
    script.write_text("print('ran')\n")
    proc = _subproc.run(["-m", "tf1mem.run", "--memory-report", tmp_path / bad, script],
                        cwd=tmp_path)
    assert proc.returncode == 2, _subproc.describe(proc)
    assert "ran" not in proc.stdout and says in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("how", ["sigterm", "exit"])
def test_the_report_holds_the_traced_runs_after_sigterm_or_os_exit(tmp_path, how):
    script = tmp_path / "prog.py"
    script.write_text(_SCRIPT)
    report = tmp_path / "mem.json"
    env = dict(os.environ, PYTHONPATH=str(_subproc.REPO), TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.Popen([sys.executable, "-m", "tf1mem.run", "--memory-report",
                             str(report), str(script), how], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if how == "sigterm":
            assert proc.stdout.readline().strip() == "traced"
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=_subproc.bound(600))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == (-signal.SIGTERM if how == "sigterm" else 7), err
    labels = json.loads(report.read_text())["labels"]
    (entry,) = [lab for lab in labels if lab["label"] == "Sum:0"]
    assert entry["traced_runs"] == 2 and entry["peak_bytes"] > 0
