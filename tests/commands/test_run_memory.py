"""tf1mem.run --memory-report and the out-of-memory explanation under tf1mem.run.

The tests here: the commands in subprocesses; the rest: tests/tf/test_run_memory.py.
"""

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from tests import _subproc

CORPUS = Path(__file__).resolve().parents[1] / "legacy_corpus"

_OOM_SCRIPT = """
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 1000])
w1 = tf.Variable(tf.ones([1000, 1000]))
w2 = tf.Variable(tf.ones([1000, 4000]))
h = tf.matmul(x, w1)
y = tf.reduce_sum(tf.matmul(h, w2))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(sess.run(y, feed_dict={x: np.ones((10, 1000), np.float32)}))
print(sess.run(y, feed_dict={x: np.ones((2000, 1000), np.float32)}))
"""


@pytest.mark.parametrize("bad", ["report.txt", "report"])
def test_bad_extension_is_a_usage_error_before_the_script_runs(tmp_path, bad):
    script = tmp_path / "prog.py"
    script.write_text("print('ran')\n")
    proc = _subproc.run(["-m", "tf1mem.run", "--memory-report", tmp_path / bad, script],
                        cwd=tmp_path, check_rc=2)
    assert "ran" not in proc.stdout
    assert "must end in .json or .csv" in proc.stderr and bad in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("ext", [".json", ".csv"])
def test_corpus_script_stdout_unchanged_and_report_written(tmp_path, ext):
    script = tmp_path / "mnist_input_data_fake.py"
    shutil.copy(CORPUS / "mnist_input_data_fake.py", script)
    args = [script, tmp_path / "MNIST_data"]
    plain = _subproc.run(["-m", "tf1mem.run", *args], cwd=tmp_path, check_rc=0)
    report = tmp_path / f"mem{ext}"
    flagged = _subproc.run(["-m", "tf1mem.run", "--memory-report", report, *args],
                           cwd=tmp_path, check_rc=0)
    assert flagged.stdout == plain.stdout
    line = re.search(r"tf1mem\.run: memory report (\S+): (\d+) session\.run labels; "
                     r"largest peak .* on CPU:0 in session 0 run '([^']+)'", flagged.stderr)
    assert line, flagged.stderr
    text = report.read_text()
    if ext == ".json":
        labels = {lab["label"]: lab for lab in json.loads(text)["labels"]}
        assert int(line.group(2)) == len(labels)
        assert set(labels) == {"init", "Mean:0", "GradientDescent", "Mean_1:0"}
        step = labels["GradientDescent"]
        assert step["runs"] == 3 and step["traced_runs"] == 2 and step["batch_sizes"] == [10]
        (dev,) = step["devices"].values()
        assert dev["persistent_bytes"] == (784 * 10 + 10) * 4
        assert dev["peak_bytes"] > dev["persistent_bytes"]
        assert labels["Mean_1:0"]["batch_sizes"] == [5]
    else:
        rows = text.splitlines()
        assert rows[0].startswith("session,label,runs,traced_runs,batch_sizes,device,peak_bytes")
        assert any(r.startswith("0,GradientDescent,3,2,10,") for r in rows)


_QUEUE_SCRIPT = """
import numpy as np
import tensorflow as tf
x = np.arange(400, dtype=np.float32).reshape(100, 4)
fn = tf.estimator.inputs.numpy_input_fn({'x': x}, x[:, 0], batch_size=10, num_epochs=None,
                                        shuffle=False, queue_capacity=10)
features, labels = fn()
total = tf.reduce_sum(features['x']) + tf.reduce_sum(labels)
with tf.train.MonitoredSession() as sess:
    print([float(sess.run(total)) for _ in range(30)][-1])
"""


@pytest.mark.slow
def test_a_queue_runners_runs_beside_the_traced_step_are_reported(tmp_path):
    # TF traces one run at a time per process. The queue holds one batch, so the feeder's
    # second (traced) enqueue waits for the script's first step, which before was traced
    # too: "Another profiling session active" stopped the script.
    script = tmp_path / "feeding.py"
    script.write_text(_QUEUE_SCRIPT)
    plain = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    report = tmp_path / "mem.json"
    flagged = _subproc.run(["-m", "tf1mem.run", "--memory-report", report, script],
                           cwd=tmp_path, check_rc=0)
    assert flagged.stdout == plain.stdout
    labels = {lab["label"]: lab for lab in json.loads(report.read_text())["labels"]}
    enqueue = labels["enqueue_input/fifo_queue_EnqueueMany"]
    assert enqueue["runs"] >= 30 and 1 <= enqueue["traced_runs"] <= 2
    step = labels["add:0"]
    assert step["runs"] == 30 and step["traced_runs"] == 2


@pytest.mark.slow
@pytest.mark.parametrize("flags", [["--oom-tensors"], []], ids=["oom-tensors", "default"])
def test_out_of_memory_under_the_runner_is_explained(tmp_path, flags):
    """A real ResourceExhaustedError on the CPU's BFC allocator limited to 48 MiB."""
    script = tmp_path / "oom.py"
    script.write_text(textwrap.dedent(_OOM_SCRIPT))
    # One op at a time (the runner's TF1MEM_INTER_OP_THREADS): run side by side, the
    # initialiser's two Fill ops and two variables (40 MB) could meet the 48 MiB limit
    # before the step meant to fail (seen once in six runs on a loaded machine).
    env = {"TF_CPU_ALLOCATOR_USE_BFC": "1", "TF_CPU_BFC_MEM_LIMIT_IN_MB": "48",
           "TF1MEM_INTER_OP_THREADS": "1"}
    proc = _subproc.run(["-m", "tf1mem.run", *flags, script], cwd=tmp_path, env=env,
                        timeout=150, check_rc=1)
    # the first step's sum, printed as NumPy 1.18 (TF 1.15's) printed it: the runner
    # sets NumPy's legacy print option (NumPy 2 alone prints 4e+10)
    assert proc.stdout == "40000000000.0\n"
    err = proc.stderr
    # The script's traceback is kept, from its own line, then tf1mem's table.
    assert re.search(r'File ".*oom\.py", line 12, in <module>', err), err
    tail = err[err.index("tf1mem.run: out of memory"):]
    assert "node MatMul_1 asked for 30.52 MiB (shape [2000,4000], float32)" in tail
    if flags:
        assert re.search(r"^\s+MatMul\s+MatMul\s+2000x1000\s+float32\s+\S+ MiB\s+activation",
                         tail, re.M), tail
        # The variables (20 MB, which TF's list leaves out) plus what scales with the
        # batch (MatMul's 8 MB held, MatMul_1's 32 MB asked) bound the batch: with a
        # 48 MiB limit no batch above 2000 * (50.3 - 20) / 40 MB, about 1500, fits.
        bound = int(re.search(r"predicted largest batch that fits: at most (\d+)",
                              tail).group(1))
        assert 1300 < bound < 1700, tail
    else:  # by default runs are not slowed by allocation tracking: the table says so
        assert "--oom-tensors asks for it" in tail, tail
    assert "batch size fed: 2000" in tail
    raw = re.search(r"TensorFlow's full report: (\S+)", tail).group(1)
    with open(raw) as f:
        assert "OOM when allocating tensor" in f.read()
