#!/usr/bin/env python3
"""Benchmark: the fast loop's session threads, unpinned and pinned, side by side.

``python -m tf1mem.train`` (the fast loop, seed 1) four ways, each in fresh
processes, ``--repeats`` times, alternating:

  default                 the fast loop's own threads: one inter-op thread in a pool
                          of its session's own (tf1mem.training.FAST_SESSION_THREADS)
  default --cpus 0        the same pinned to one core
  TF threads              ``--inter-op-threads 0``: TensorFlow's choice (a pool of one
                          thread per core), as before issue 30
  TF threads --cpus 0     the same pinned

For the train phase alone (``FastLoop.train``, measured inside the process with
``getrusage``) it prints the medians of the wall time, the CPU time of all the
process's threads and the context switches: voluntary ones are mostly a thread
waiting for another (a step's work handed between threads), involuntary ones the
kernel taking the core away (other load). Unlike wall time, the hand-offs do not
depend on what else the machine runs. The header gives the machine and its load.

Usage: python scripts/bench_fast_threads.py [--repeats N] [--data-dir DIR]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _bench_machine import child_env, header_lines, load_average, require_mnist

REPO = Path(__file__).resolve().parents[1]
PROBE = '''
import json, resource, sys, time
from tf1mem import train, training

real_train = training.FastLoop.train


def measured(self, sess, bar):
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    loss = real_train(self, sess, bar)
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    print("BENCH " + json.dumps({
        "train_s": t1 - t0, "cpu_s": r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime,
        "voluntary": r1.ru_nvcsw - r0.ru_nvcsw, "involuntary": r1.ru_nivcsw - r0.ru_nivcsw}))
    return loss


training.FastLoop.train = measured
sys.exit(train.main(sys.argv[1:]))
'''
VARIANTS = {
    "default": [],
    "default --cpus 0": ["--cpus", "0"],
    "TF threads": ["--inter-op-threads", "0"],
    "TF threads --cpus 0": ["--inter-op-threads", "0", "--cpus", "0"],
}
KEYS = ("train_s", "cpu_s", "voluntary", "involuntary")


def run_once(cmd, cwd, env):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("BENCH ")]
    if proc.returncode != 0 or not lines:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1500:]}\n"
                 f"{proc.stderr[-3000:]}")
    return json.loads(lines[-1][len("BENCH "):])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--data-dir", default=str(REPO / "MNIST_data"),
                        help="folder with the four MNIST .gz files (copied)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    require_mnist(args.data_dir)
    env = child_env(os.environ, drop=("TF1MEM_INTER_OP_THREADS", "TF1MEM_CPUS"),
                    TF_CPP_MIN_LOG_LEVEL="2")
    work = Path(tempfile.mkdtemp(prefix="tf1mem-bench-threads-"))
    try:
        shutil.copytree(args.data_dir, work / "MNIST_data")
        (work / "probe.py").write_text(PROBE, encoding="utf-8")
        base = [sys.executable, "probe.py", "--no-progress", "--seed", "1", "--fast"]
        print("\n".join(header_lines("scripts/bench_fast_threads.py: tf1mem.train (fast "
                                     "loop, seed 1, 1000 steps), train phase only")))
        results = {name: [] for name in VARIANTS}
        for extra in VARIANTS.values():  # the page cache, the decoded-array cache
            run_once([*base, *extra], work, env)
        for i in range(args.repeats):
            order = list(VARIANTS.items())
            for name, extra in (order if i % 2 == 0 else order[::-1]):
                results[name].append(run_once([*base, *extra], work, env))
                print(f"\r{i + 1}/{args.repeats} {name:<22}", end="", file=sys.stderr,
                      flush=True)
        print(file=sys.stderr)
        print(f"{'variant':<22} {'train s':>8} {'(range)':>13} {'cpu s':>6} "
              f"{'voluntary':>9} {'involuntary':>11}")
        med = {}
        for name, runs in results.items():
            med[name] = {key: statistics.median(r[key] for r in runs) for key in KEYS}
            low, high = min(r["train_s"] for r in runs), max(r["train_s"] for r in runs)
            print(f"{name:<22} {med[name]['train_s']:>8.3f} {f'{low:.3f}-{high:.3f}':>13} "
                  f"{med[name]['cpu_s']:>6.3f} {med[name]['voluntary']:>9.0f} "
                  f"{med[name]['involuntary']:>11.0f}")
        print(f"medians of {args.repeats} fresh processes each, alternating; context "
              "switches of all the process's threads during the train phase")
        for name in ("default", "TF threads"):
            print(f"{name}: unpinned / pinned "
                  f"{med[name]['train_s'] / med[name + ' --cpus 0']['train_s']:.2f}")
        print(f"load average (1, 5, 15 min) at the end: {load_average()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
