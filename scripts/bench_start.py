#!/usr/bin/env python3
"""Benchmark: start-up, side by side in one run: python, tf1mem.run cold and --warm, TF 1.15.

Each cell is the median of ``--repeats`` fresh processes, the columns interleaved
(one process of each per round, the order reversed every other round, after one
untimed round that fills the page cache and starts what a warm runner starts), so
that a drift of the machine's load hits every column alike:

  first line     a script whose first line after ``import tensorflow`` prints: the
                 time from starting the process to that line appearing on stdout
  article        the article's example 1 (scripts/legacy/softmax_mnist.py, the
                 script bench_train.py's (a) runs), the whole process

in the columns

  python         plain python on TF 2.21; the article's script hand-edited to
                 tensorflow.compat.v1 (bench_train.py's (b))
  run cold       ``python -m tf1mem.run SCRIPT``, the article's script unchanged
  run --warm     ``python -m tf1mem.run --warm SCRIPT``, when ``python -m tf1mem.run
                 --help`` lists ``--warm``; otherwise "n/a (no --warm)"
  TF 1.15.5      ``--tf1-python PATH`` running the unchanged script, when given

and a 5-point ``python -m tf1mem.memory sweep`` and a ``fit``, each cold against
``--warm`` (when that subcommand's ``--help`` lists ``--warm``), whole processes.
Then the ratios (warm / TF 1.15.5, cold / warm, cold / TF 1.15.5, sweep and fit
cold / warm) and, with ``--markdown``, the same as markdown tables for the docs.

Usage: python scripts/bench_start.py [--repeats N] [--tf1-python PATH] [--markdown]
                                     [--data-dir DIR]
"""

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from _bench_machine import child_env, header_lines, load_average, require_mnist

REPO = Path(__file__).resolve().parents[1]
ARTICLE = REPO / "scripts" / "legacy" / "softmax_mnist.py"
MARK = "tf1mem-bench-start first line"
FIRST_LINE = f'import tensorflow as tf\nprint("{MARK}", tf.__version__, flush=True)\n'
# A quick sweep (5 batch sizes, one traced step each) and a fit whose trials are
# small (a 4 MiB budget: about 32,000 examples of the softmax model).
SWEEP_ARGS = ("--steps", "1", "--batch-sizes", "16,32,64,128,256", "--no-progress")
FIT_ARGS = ("--steps", "1", "--budget", "4MiB", "--probe-sizes", "16,256", "--no-progress")

PYTHON, COLD, WARM, TF1 = "python", "run cold", "run --warm", "TF 1.15.5"
COLUMNS = (PYTHON, COLD, WARM, TF1)
FIRST, WHOLE = "first line", "article"
ROWS = {FIRST: "first line after import tensorflow", WHOLE: "article's script, whole process"}
SWEEP, FIT = "sweep", "fit"
MEMORY_ROWS = {SWEEP: "memory sweep, 5 batch sizes", FIT: "memory fit, 4 MiB budget"}
NO_WARM, NO_TF1 = "n/a (no --warm)", "n/a (no --tf1-python)"


@dataclasses.dataclass(frozen=True)
class Job:
    """One timed process: its cell (row, column) and its command line."""

    row: str
    column: str
    cmd: Sequence[str]


@dataclasses.dataclass(frozen=True)
class Timing:
    """What one process measured: seconds to the first line (``None`` when the job
    does not print one) and to its exit."""

    first: Optional[float]
    whole: float


def parse_args(argv=None) -> argparse.Namespace:
    """The command line; exits 2 with a message naming a bad flag."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed processes per cell, the median printed (default: 5)")
    parser.add_argument("--tf1-python",
                        help="a Python with tensorflow==1.15 for the TF 1.15.5 column "
                             "(docs/DEVELOPERS.md: the oracle venv)")
    parser.add_argument("--markdown", action="store_true",
                        help="print the tables as markdown, to paste into the docs")
    parser.add_argument("--data-dir", default=str(REPO / "MNIST_data"),
                        help="folder with the four MNIST .gz files (copied)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.tf1_python and not os.access(args.tf1_python, os.X_OK):
        parser.error(f"--tf1-python {args.tf1_python}: no such executable")
    return args


def lists_flag(help_text: str, flag: str) -> bool:
    """Whether a command's ``--help`` output lists ``flag`` as an option."""
    return any(word.strip("[],") == flag for word in help_text.split())


def help_text(cmd: Sequence[str], cwd, env) -> str:
    """A command's ``--help`` output (stdout and stderr), empty when it fails."""
    proc = subprocess.run([*cmd, "--help"], cwd=cwd, env=env, capture_output=True, text=True)
    return proc.stdout + proc.stderr if proc.returncode == 0 else ""


def bench_env(environ) -> Dict[str, str]:
    """The processes' environment: this checkout first on ``PYTHONPATH``, and no
    ``TF1MEM_WARM`` (it would make the cold column warm; the warm one says
    ``--warm``)."""
    return child_env(environ, drop=("TF1MEM_WARM",))


def plan(py: str, tf1_python: Optional[str], run_warm: bool, memory_warm: Dict[str, bool],
         work: Path) -> List[Job]:
    """The jobs of one round, in order; columns without their tool are left out."""
    run = [py, "-m", "tf1mem.run"]
    starts = {PYTHON: [py], COLD: run, WARM: [*run, "--warm"] if run_warm else None,
              TF1: [tf1_python] if tf1_python else None}
    scripts = {FIRST: {column: "first_line.py" for column in COLUMNS},
               WHOLE: {column: "edited.py" if column == PYTHON else "article.py"
                       for column in COLUMNS}}
    jobs = [Job(row, column, [*starts[column], scripts[row][column]])
            for row in ROWS for column in COLUMNS if starts[column] is not None]
    for row, args in ((SWEEP, [*SWEEP_ARGS, "--csv", "{out}.csv", "--png", "{out}.png"]),
                      (FIT, list(FIT_ARGS))):
        for column in (COLD, WARM):
            if column == WARM and not memory_warm.get(row):
                continue
            out = work / f"{row}-{'warm' if column == WARM else 'cold'}"
            jobs.append(Job(row, column, [py, "-m", "tf1mem.memory", row,
                                          *(["--warm"] if column == WARM else []),
                                          *(a.format(out=out) for a in args)]))
    return jobs


def time_process(cmd: Sequence[str], cwd, env) -> Timing:
    """Runs ``cmd``; seconds from its start to :data:`MARK` on its stdout (if it
    prints it) and to its exit. Exits with the process's output if it fails."""
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=err,
                                text=True)
        first, out = None, []
        for line in proc.stdout:
            if first is None and line.startswith(MARK):
                first = time.perf_counter() - start
            out.append(line)
        rc = proc.wait()
        whole = time.perf_counter() - start
        if rc != 0:
            err.seek(0)
            sys.exit(f"failed ({rc}): {' '.join(map(str, cmd))}\n"
                     f"{''.join(out)[-1500:]}\n{err.read()[-3000:]}")
    return Timing(first, whole)


def measure(jobs: Sequence[Job], repeats: int, run: Callable[[Job], Timing],
            progress=None) -> Dict[tuple, List[float]]:
    """``{(row, column): [seconds, ...]}`` over ``repeats`` interleaved rounds.

    One untimed round first; then each round runs every job once, in the plan's
    order on even rounds and reversed on odd ones. A first-line job's figure is its
    time to the first line; any other job's, its whole process.
    """
    for job in jobs:
        run(job)
    results = {(job.row, job.column): [] for job in jobs}
    for i in range(repeats):
        for job in (jobs if i % 2 == 0 else list(reversed(jobs))):
            timing = run(job)
            value = timing.first if job.row == FIRST else timing.whole
            if value is None:
                sys.exit(f"{' '.join(map(str, job.cmd))} never printed {MARK!r}")
            results[(job.row, job.column)].append(value)
            if progress:
                progress(i, job)
    return results


def medians(results: Dict[tuple, List[float]]) -> Dict[tuple, float]:
    return {cell: statistics.median(values) for cell, values in results.items() if values}


def _missing(column: str, run_warm: bool, tf1: bool) -> str:
    if column == WARM and not run_warm:
        return NO_WARM
    if column == TF1 and not tf1:
        return NO_TF1
    return "n/a"


def ratios(med: Dict[tuple, float]) -> List[tuple]:
    """``[(label, value or None), ...]``: the ratios of the medians; ``None`` where
    a side was not measured."""
    def ratio(a, b):
        return med[a] / med[b] if a in med and b in med and med[b] > 0 else None

    found = []
    for row in ROWS:
        found += [(f"{ROWS[row]}: warm / TF 1.15.5", ratio((row, WARM), (row, TF1))),
                  (f"{ROWS[row]}: cold / warm", ratio((row, COLD), (row, WARM))),
                  (f"{ROWS[row]}: cold / TF 1.15.5", ratio((row, COLD), (row, TF1))),
                  (f"{ROWS[row]}: python / TF 1.15.5", ratio((row, PYTHON), (row, TF1)))]
    for row in MEMORY_ROWS:
        found.append((f"{MEMORY_ROWS[row]}: cold / warm", ratio((row, COLD), (row, WARM))))
    return found


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> List[str]:
    if markdown:
        return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
            "| " + " | ".join(row) + " |" for row in rows]
    widths = [max(len(r[k]) for r in (head, *rows)) for k in range(len(head))]
    return ["  ".join(cell.ljust(w) if k == 0 else cell.rjust(w)
                      for k, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in (head, *rows)]


def render(med: Dict[tuple, float], *, repeats: int, run_warm: bool,
           memory_warm: Dict[str, bool], tf1: bool, markdown: bool,
           header: Sequence[str] = (), footer: Sequence[str] = ()) -> str:
    """The report: header, the start-up table, the memory table, the ratios."""
    def cell(row, column, missing):
        return f"{med[(row, column)]:.2f} s" if (row, column) in med else missing

    lines = list(header)
    lines += ["", f"medians of {repeats} fresh processes per cell, columns interleaved:", ""]
    lines += _table(["seconds", *COLUMNS],
                    [[ROWS[row], *(cell(row, c, _missing(c, run_warm, tf1)) for c in COLUMNS)]
                     for row in ROWS], markdown)
    lines.append("")
    memory = []
    for row in MEMORY_ROWS:
        warm = cell(row, WARM, NO_WARM if not memory_warm.get(row) else "n/a")
        both = (row, COLD) in med and (row, WARM) in med
        memory.append([MEMORY_ROWS[row], cell(row, COLD, "n/a"), warm,
                       f"{med[(row, COLD)] / med[(row, WARM)]:.2f}" if both else "n/a"])
    lines += _table(["whole process", "cold", "--warm", "cold / warm"], memory, markdown)
    lines += ["", "ratios of the medians:", ""]
    rows = [[label, "n/a" if value is None else f"{value:.2f}"] for label, value in ratios(med)]
    lines += _table(["ratio", "x"], rows, markdown)
    lines += list(footer)
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    require_mnist(args.data_dir)
    sys.path.insert(0, str(REPO / "scripts"))
    from bench_train import hand_edit

    work = Path(tempfile.mkdtemp(prefix="tf1mem-bench-start-"))
    # The warm column's template is the bench's own (in its folder, private like
    # mkdtemp's), started by its untimed first round and stopped at the end: the
    # user's template, if any, is neither used nor left behind by it.
    env = dict(bench_env(os.environ), TF1MEM_WARM_DIR=str(work / "warm"))
    run_warm = False
    try:
        shutil.copytree(args.data_dir, work / "MNIST_data")
        article = ARTICLE.read_text(encoding="utf-8")
        (work / "article.py").write_text(article, encoding="utf-8")
        (work / "edited.py").write_text(hand_edit(article), encoding="utf-8")
        (work / "first_line.py").write_text(FIRST_LINE, encoding="utf-8")
        py = sys.executable
        run_warm = lists_flag(help_text([py, "-m", "tf1mem.run"], work, env), "--warm")
        memory_warm = {row: lists_flag(help_text([py, "-m", "tf1mem.memory", row], work, env),
                                       "--warm") for row in MEMORY_ROWS}
        jobs = plan(py, args.tf1_python, run_warm, memory_warm, work)
        header = header_lines(f"scripts/bench_start.py: start-up and whole processes, "
                              f"python {py}")
        print("\n".join(header), file=sys.stderr, flush=True)
        started = time.perf_counter()
        results = measure(jobs, args.repeats, lambda job: time_process(job.cmd, work, env),
                          progress=lambda i, job: print(
            f"\r{i + 1}/{args.repeats} {job.row} {job.column:<12}", end="",
            file=sys.stderr, flush=True))
        print(file=sys.stderr)
        versions = {}
        for column, cmd in ((PYTHON, [py]), (TF1, [args.tf1_python] if args.tf1_python else None)):
            if cmd:
                proc = subprocess.run([*cmd, "first_line.py"], cwd=work, env=env,
                                      capture_output=True, text=True)
                versions[column] = proc.stdout.split(MARK, 1)[-1].strip() or "?"
        header.append("TensorFlow versions: " + ", ".join(
            f"{version} in the {column} column" for column, version in versions.items()))
        footer = ["", f"load average (1, 5, 15 min) at the end: {load_average()}; "
                      f"{time.perf_counter() - started:.0f} s of measuring"]
        print(render(medians(results), repeats=args.repeats, run_warm=run_warm,
                     memory_warm=memory_warm, tf1=bool(args.tf1_python),
                     markdown=args.markdown, header=header, footer=footer))
    finally:
        if run_warm:
            subprocess.run([sys.executable, "-m", "tf1mem.run", "--warm-stop"], cwd=work,
                           env=env, capture_output=True, text=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
