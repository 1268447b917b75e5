"""scripts/bench_start.py without running TensorFlow: its plan, tables and ratios on
fake timings, its flags, and "n/a" where a column's tool is missing."""

import importlib
import sys
from pathlib import Path

import pytest

from tests import _subproc

SCRIPTS = _subproc.REPO / "scripts"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))  # its helper _bench_machine, bench_train
    module = importlib.import_module("bench_start")
    yield module
    for name in ("bench_start", "bench_train", "_bench_machine"):
        sys.modules.pop(name, None)


RUN_HELP = """usage: python -m tf1mem.run [OPTIONS] (SCRIPT | -m MODULE) [ARGS...]
options:
  -h, --help            show this help message and exit
  --warm                run in a warm process that has TensorFlow imported
  --seed N              as if the script began with tf.set_random_seed(N)
"""


def test_the_warm_flag_is_found_only_as_an_option(bench):
    assert bench.lists_flag(RUN_HELP, "--warm")
    assert bench.lists_flag("usage: x [--warm] [--seed N]", "--warm")
    assert not bench.lists_flag(RUN_HELP.replace("--warm ", "--wärm "), "--warm")
    assert not bench.lists_flag("--warmth  how warm", "--warm")
    assert not bench.lists_flag("", "--warm")


def _fake_medians(bench, warm=True, tf1=True):
    b = bench
    med = {}
    for row, base in ((b.FIRST, 2.0), (b.WHOLE, 4.0)):
        med[(row, b.PYTHON)] = base
        med[(row, b.COLD)] = base * 1.1
        if warm:
            med[(row, b.WARM)] = base / 4
        if tf1:
            med[(row, b.TF1)] = base / 2
    med[(b.SWEEP, b.COLD)] = 30.0
    med[(b.FIT, b.COLD)] = 36.0
    if warm:
        med[(b.SWEEP, b.WARM)] = 6.0
        med[(b.FIT, b.WARM)] = 9.0
    return med


def test_ratios_of_the_medians(bench):
    found = dict(bench.ratios(_fake_medians(bench)))
    first = bench.ROWS[bench.FIRST]
    assert found[f"{first}: warm / TF 1.15.5"] == pytest.approx(0.5)
    assert found[f"{first}: cold / warm"] == pytest.approx(4.4)
    assert found[f"{first}: cold / TF 1.15.5"] == pytest.approx(2.2)
    assert found[f"{bench.MEMORY_ROWS[bench.SWEEP]}: cold / warm"] == pytest.approx(5.0)
    assert found[f"{bench.MEMORY_ROWS[bench.FIT]}: cold / warm"] == pytest.approx(4.0)


def test_the_text_table(bench):
    text = bench.render(_fake_medians(bench), repeats=5, run_warm=True,
                        memory_warm={"sweep": True, "fit": True}, tf1=True,
                        markdown=False, header=["HEAD"], footer=["FOOT"])
    lines = text.splitlines()
    assert lines[0] == "HEAD" and lines[-1] == "FOOT"
    assert "medians of 5 fresh processes per cell" in text
    row = next(line for line in lines if line.startswith("first line after import"))
    assert ["2.00", "2.20", "0.50", "1.00"] == [w for w in row.split() if "." in w]
    sweep = next(line for line in lines if line.startswith("memory sweep"))
    assert sweep.split()[-5:] == ["30.00", "s", "6.00", "s", "5.00"]
    assert "n/a" not in text
    # The columns line up: every row of the first table is as wide as its head.
    head = lines.index(next(line for line in lines if line.startswith("seconds")))
    assert len({len(line) for line in lines[head:head + 3]}) == 1


def test_without_warm_the_columns_say_na_and_no_warm_ratio_is_made_up(bench):
    text = bench.render(_fake_medians(bench, warm=False, tf1=False), repeats=3,
                        run_warm=False, memory_warm={"sweep": False, "fit": False},
                        tf1=False, markdown=False)
    row = next(line for line in text.splitlines() if line.startswith("article's script"))
    assert row.count("n/a (no --warm)") == 1 and row.count("n/a (no --tf1-python)") == 1
    sweep = next(line for line in text.splitlines() if line.startswith("memory sweep"))
    assert "n/a (no --warm)" in sweep and sweep.endswith("n/a")
    found = dict(bench.ratios(_fake_medians(bench, warm=False, tf1=False)))
    assert all(value is None for label, value in found.items() if "warm" in label
               or "TF 1.15.5" in label)


def test_the_markdown_table(bench):
    text = bench.render(_fake_medians(bench, warm=False), repeats=5, run_warm=False,
                        memory_warm={}, tf1=True, markdown=True)
    lines = text.splitlines()
    head = lines.index("| seconds | python | run cold | run --warm | TF 1.15.5 |")
    assert lines[head + 1] == "|---|---|---|---|---|"
    assert lines[head + 2] == ("| first line after import tensorflow | 2.00 s | 2.20 s | "
                               "n/a (no --warm) | 1.00 s |")
    assert "| memory sweep, 5 batch sizes | 30.00 s | n/a (no --warm) | n/a |" in lines
    assert "| article's script, whole process: cold / TF 1.15.5 | 2.20 |" in lines


def test_the_plan_leaves_out_missing_columns(bench, tmp_path):
    jobs = bench.plan("py", None, False, {"sweep": False, "fit": False}, tmp_path)
    cells = {(job.row, job.column) for job in jobs}
    assert cells == {(row, column) for row in bench.ROWS
                     for column in (bench.PYTHON, bench.COLD)} | {
        (bench.SWEEP, bench.COLD), (bench.FIT, bench.COLD)}
    by_cell = {(job.row, job.column): list(job.cmd) for job in jobs}
    assert by_cell[(bench.WHOLE, bench.PYTHON)] == ["py", "edited.py"]  # hand-edited
    assert by_cell[(bench.WHOLE, bench.COLD)] == ["py", "-m", "tf1mem.run", "article.py"]

    jobs = bench.plan("py", "/tf1/python", True, {"sweep": True, "fit": False}, tmp_path)
    by_cell = {(job.row, job.column): list(job.cmd) for job in jobs}
    assert by_cell[(bench.FIRST, bench.WARM)] == ["py", "-m", "tf1mem.run", "--warm",
                                                   "first_line.py"]
    assert by_cell[(bench.WHOLE, bench.TF1)] == ["/tf1/python", "article.py"]
    sweep = by_cell[(bench.SWEEP, bench.WARM)]
    assert sweep[:5] == ["py", "-m", "tf1mem.memory", "sweep", "--warm"]
    assert sweep.count("--batch-sizes") == 1
    assert len(sweep[sweep.index("--batch-sizes") + 1].split(",")) == 5
    assert (bench.FIT, bench.WARM) not in by_cell


def test_measure_interleaves_and_takes_medians(bench):
    jobs = [bench.Job(bench.FIRST, bench.COLD, ["a"]), bench.Job(bench.WHOLE, bench.COLD, ["b"])]
    order, seconds = [], iter(range(100))

    def run(job):
        order.append(job.cmd[0])
        n = next(seconds)
        return bench.Timing(first=n if job.row == bench.FIRST else None, whole=n + 0.5)

    results = bench.measure(jobs, 3, run)
    # One untimed round, then a, b / b, a / a, b.
    assert order == ["a", "b", "a", "b", "b", "a", "a", "b"]
    assert results[(bench.FIRST, bench.COLD)] == [2, 5, 6]  # the time to the first line
    assert results[(bench.WHOLE, bench.COLD)] == [3.5, 4.5, 7.5]  # the whole process
    assert bench.medians(results) == {(bench.FIRST, bench.COLD): 5,
                                      (bench.WHOLE, bench.COLD): 4.5}


def test_a_first_line_that_never_comes_is_an_error(bench):
    job = bench.Job(bench.FIRST, bench.COLD, ["a"])
    with pytest.raises(SystemExit, match="never printed"):
        bench.measure([job], 1, lambda job: bench.Timing(first=None, whole=1.0))


@pytest.mark.parametrize("argv, message", [
    (["--repeats", "0"], "--repeats must be at least 1"),
    (["--repeats", "x"], "invalid int value"),
    (["--tf1-python", "/no/such/python"], "no such executable"),
])
def test_bad_flags_exit_2_naming_the_flag(bench, capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        bench.parse_args(argv)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_default_flags(bench):
    args = bench.parse_args([])
    assert (args.repeats, args.tf1_python, args.markdown) == (5, None, False)
    assert Path(args.data_dir).name == "MNIST_data"


def test_the_cold_columns_stay_cold_whatever_the_callers_environment(bench):
    env = bench.bench_env({"TF1MEM_WARM": "1", "PYTHONPATH": "/elsewhere", "HOME": "/h"})
    assert "TF1MEM_WARM" not in env
    assert env["PYTHONPATH"].split(":") == [str(_subproc.REPO), "/elsewhere"]
    assert env["HOME"] == "/h"
