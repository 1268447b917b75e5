"""``python -m tf1mem.memory``: measure, sweep, fit and the out-of-memory explanation, run
as a user runs them (subprocesses), on real measurements.

The tests here: the commands in subprocesses; the rest: tests/unit/test_memory_command.py.
"""

import csv
import json
import re
from pathlib import Path

import pytest

from tests import _subproc
from tf1mem import memory as memory_cmd
from tf1mem.observe import fit, sweep, text


MLP = ["--model", "mlp", "--hidden", "256", "--steps", "2"]


def _run(args, **kw):
    return _subproc.run(["-m", "tf1mem.memory", *args], **kw)


@pytest.mark.slow
def test_measure_json_reports_each_part():
    proc = _run(["measure", *MLP, "--batch-size", "1000", "--json"], check_rc=0)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    (dev,) = data["devices"].values()
    assert dev["peak_bytes"] == (dev["persistent_bytes"] + dev["activation_bytes"]
                                 + dev["temporary_bytes"])
    assert dev["fed_bytes"] == 4 * 1000 * (784 + 10)
    assert data["batch_size"] == 1000 and data["step_seconds"] > 0


@pytest.mark.slow
def test_sweep_writes_table_csv_and_png(tmp_path):
    csv_path, png_path = tmp_path / "s.csv", tmp_path / "s.png"
    proc = _run(["sweep", *MLP, "--batch-sizes", "512,2048", "--csv", csv_path,
                 "--png", png_path, "--no-progress"], check_rc=0)
    with csv_path.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["batch_size"]) for r in rows] == [512, 2048]
    assert tuple(rows[0]) == sweep.SWEEP_COLUMNS
    assert int(rows[1]["peak_bytes"]) > int(rows[0]["peak_bytes"])
    for r in rows:  # the table shows what the CSV holds
        assert re.search(rf"^{r['batch_size']}\s+{re.escape(text.format_bytes(int(r['peak_bytes'])))}",
                         proc.stdout, re.M), proc.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in proc.stdout
    else:
        assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_fit_finds_the_largest_batch_within_a_measured_budget():
    # The budget is what batch 3000 measured: the answer must be about 3000 and its
    # own measured peak within the budget.
    at = json.loads(_run(["measure", *MLP, "--batch-size", "3000", "--json"],
                         check_rc=0).stdout.strip().splitlines()[-1])
    budget = at["peak_bytes"]
    proc = _run(["fit", *MLP, "--budget", str(budget), "--margin", "0", "--no-progress"],
                check_rc=0)
    answer = int(re.search(r"^answer: batch (\d+)", proc.stdout, re.M).group(1))
    trials = re.findall(r"^trial \d+: batch\s+(\d+)\s+peak ([^ ]+ \S+)", proc.stdout, re.M)
    assert abs(answer - 3000) <= 30, proc.stdout
    assert len(trials) <= 6, proc.stdout
    naive = int(re.search(r"would take (\d+) trials", proc.stdout).group(1))
    assert naive == fit.doubling_bisection_trials(answer) > len(trials)


@pytest.mark.slow
def test_memory_limit_caps_the_allocator_and_says_when_over(tmp_path):
    # Under the cap the step runs and its peak is what the capped allocator held;
    # a batch whose tensors alone exceed the cap runs out, in that process only.
    args = ["measure", "--model", "mlp", "--hidden", "256", "--steps", "1",
            "--memory-limit", "32MiB"]
    small = json.loads(_run([*args, "--batch-size", "2000", "--json"],
                            check_rc=0).stdout.strip().splitlines()[-1])
    (dev,) = small["devices"].values()
    assert 0 < dev["peak_bytes"] <= 32 * 2**20
    over = _run([*args, "--batch-size", "25000", "--oom-report", tmp_path / "oom.txt"],
                check_rc=1)
    assert "tf1mem.memory: error: out of memory" in over.stderr
    assert "out of memory on CPU:0 (allocator bfc_cpu" in over.stderr


def test_memory_limit_that_cannot_take_effect_stops_the_run():
    # Fail closed: TensorFlow already loaded in this process, with its default CPU
    # allocator, so a cap asked for now would be ignored; the check asks TensorFlow
    # for more than the cap and stops when it gets it.
    code = ("import tensorflow\n"
            "from tf1mem import memory as m\n"
            "m._measure_in_process(m.MeasureOptions(model='softmax', batch_size=10, "
            "memory_limit=8 * 2**20))\n")
    proc = _subproc.run(["-c", code], env={"TF_CPU_ALLOCATOR_USE_BFC": "0"}, check_rc=1)
    assert "--memory-limit 8.00 MiB did not take effect on /CPU:0: TensorFlow " \
        "allocated 9.00 MiB there" in proc.stderr, proc.stderr
    with pytest.raises(SystemExit) as exc:
        memory_cmd.main(["measure", "--memory-limit", "10KiB"])
    assert exc.value.code == 2


@pytest.mark.slow
def test_real_out_of_memory_is_explained(tmp_path):
    """A real ResourceExhaustedError: the CPU's BFC allocator limited to 20 MiB."""
    raw = tmp_path / "oom.txt"
    env = {"TF_CPU_ALLOCATOR_USE_BFC": "1", "TF_CPU_BFC_MEM_LIMIT_IN_MB": "20"}
    proc = _run(["measure", "--model", "mlp", "--batch-size", "20000", "--steps", "1",
                 "--oom-report", raw], env=env, check_rc=1)
    err = proc.stderr
    assert "out of memory on CPU:0" in err
    # the hidden activation: Relu's own buffer, or (where the CPU's ReLU works in place,
    # as Eigen's does) the MatMul or add output it reuses
    assert re.search(r"^\s+\S+\s+(Relu|MatMul|AddV2|Add)\s+20000x128\s+float32", err,
                     re.M), err
    assert "batch size fed: 20000" in err
    predicted = int(re.search(r"predicted largest batch that fits: (\d+)", err).group(1))
    assert 0 < predicted < 20000
    assert "OOM when allocating tensor" in raw.read_text()
    # The prediction holds: that batch runs within the same limit.
    _run(["measure", "--model", "mlp", "--batch-size", str(predicted), "--steps", "1",
          "--json"], env=env, check_rc=0)


@pytest.mark.slow
def test_train_out_of_memory_is_explained(real_mnist_dir, tmp_path):
    """tf1mem.train on a real ResourceExhaustedError (CPU BFC allocator, 8 MiB).

    8 MiB holds one iteration's row indices (10 steps x 20000 int64, 1.6 MB) but not
    the batch's pixels (15 MB), so the failure is always that gather's; at 2 MiB the
    indices alone came near the limit, and which small op then failed depended on the
    threads' timing (once a scalar add, whose 0 bytes leave no batch to predict).
    """
    reports = tmp_path / "reports"
    env = {"TF_CPU_ALLOCATOR_USE_BFC": "1", "TF_CPU_BFC_MEM_LIMIT_IN_MB": "8",
           "TF_CPP_MIN_LOG_LEVEL": "0", "TF1MEM_REPORT_DIR": str(reports)}
    proc = _subproc.run(["-m", "tf1mem.train", "--steps", "10", "--batch-size", "20000",
                         "--no-progress", "--data-dir", real_mnist_dir], env=env, check_rc=1)
    err = proc.stderr
    # The short table first: TensorFlow's allocator dump only in the report, which is
    # in the report folder the user chose.
    assert err.startswith("tf1mem.train: out of memory"), err
    assert "bfc_allocator.cc" not in err, err
    report = Path(re.search(r"TensorFlow's full report: (\S+)", err).group(1))
    assert report.parent == reports and report.name.startswith("tf1mem-oom-")
    assert "bfc_allocator.cc" in report.read_text()
    assert "largest tensors in use at the failure:" in err
    assert "batch size fed: 20000" in err
    # The step's gather of the batch's pixels, never a copy of the whole training set
    # ([55000,784]): that one came from the variable's sparse read, with a freshly
    # decoded (aligned) array, and made this test fail on a machine's first run.
    assert re.search(r"node \S*GatherV2\S* asked for 14\.95 MiB \(shape \[20000,784\], uint8\)",
                     err), err
    bound = int(re.search(r"predicted largest batch that fits: at most (\d+)", err).group(1))
    assert 0 < bound < 20000
    raw = re.search(r"TensorFlow's full report: (\S+)", err).group(1)
    with open(raw) as f:
        assert "OOM when allocating tensor" in f.read()


@pytest.mark.slow
@pytest.mark.cluster
def test_split_puts_less_on_each_task_than_on_one_device():
    # The article's third remedy: example 2's placement over two gRPC tasks. Task 0
    # holds the variables and the forward pass, task 1 the loss and the gradients;
    # neither holds as much as one device running the whole step.
    proc = _run(["split", "--batch-size", "2000", "--json"], check_rc=0, timeout=240)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    split = data["split"]["devices"]
    (one,) = data["one_device"]["devices"].values()
    task0 = next(d for name, d in split.items() if "/task:0/" in name)
    task1 = next(d for name, d in split.items() if "/task:1/" in name)
    assert len(split) == 2
    assert task0["persistent_bytes"] == one["persistent_bytes"] == 4 * (784 * 10 + 10)
    assert task1["persistent_bytes"] == 0
    for task in (task0, task1):
        assert 0 < task["peak_bytes"] < one["peak_bytes"]
    # The one-device step's activations are batch x 10 floats several times over.
    assert one["activation_bytes"] >= 3 * 4 * 2000 * 10
