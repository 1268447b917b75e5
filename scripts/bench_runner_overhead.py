#!/usr/bin/env python3
"""Benchmark: what ``python -m tf1mem.run`` costs over a hand-edited compat.v1 script.

For each workload, runs the unchanged TF1 script through the runner and the same
script edited by hand for TF 2 (``import tensorflow.compat.v1 as tf`` +
``tf.disable_v2_behavior()``, the loader imported from tf1mem), alternating the
two, and prints the median whole-process wall time of each and their ratio.
Target: ratio <= 1.05. Then the runner's start-up cost in seconds: a script that
never imports TensorFlow under the runner against plain ``python`` (the runner must
not import TensorFlow for it; target: within 0.3 s), and a script that only imports
TensorFlow against ``python -c "import tensorflow"`` (target: under 0.3 s).

Usage: python scripts/bench_runner_overhead.py [--repeats N] [--data-dir DIR]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOFTMAX = REPO / "scripts" / "legacy" / "softmax_mnist.py"

TINY = """import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.ones([4, 2]))
y = tf.reduce_sum(tf.matmul(x, w))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [[1, 2, 3, 4]]}))
"""


def hand_edit(source):
    """The edits a user makes by hand to run a TF1 script on TF 2."""
    source = source.replace(
        "import tensorflow as tf\n",
        "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n", 1)
    return source.replace("from tensorflow.examples.tutorials.mnist import input_data",
                          "from tf1mem.data import input_data")


def timed(cmd, cwd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return elapsed


def alternate(first, second, repeats, cwd, env):
    """Median wall seconds of two commands, each run once to warm caches, then
    ``repeats`` times in alternating order."""
    timed(first, cwd, env)
    timed(second, cwd, env)
    times = ([], [])
    for i in range(repeats):
        order = [0, 1] if i % 2 == 0 else [1, 0]
        for k in order:
            times[k].append(timed((first, second)[k], cwd, env))
    return statistics.median(times[0]), statistics.median(times[1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--data-dir", default=str(REPO.parent / "shared/data/MNIST_data"),
                        help="MNIST files for the softmax workload (copied)")
    args = parser.parse_args(argv)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    # The hand-edited script needs tf.layers-free code only, but set the same Keras
    # as the runner so both import the same modules.
    env["TF_USE_LEGACY_KERAS"] = "1"
    work = Path(tempfile.mkdtemp(prefix="tf1mem-bench-"))
    try:
        workloads = {"tiny graph": TINY}
        if Path(args.data_dir, "train-images-idx3-ubyte.gz").exists():
            shutil.copytree(args.data_dir, work / "MNIST_data")
            workloads["article example 1"] = SOFTMAX.read_text()
        else:
            print(f"(no MNIST at {args.data_dir}: skipping the softmax workload)")
        print(f"{'workload':<20} {'runner s':>9} {'hand-edited s':>14} {'ratio':>7}")
        for name, source in workloads.items():
            legacy, edited = work / "legacy.py", work / "edited.py"
            legacy.write_text(source)
            edited.write_text(hand_edit(source))
            runner_cmd = [sys.executable, "-m", "tf1mem.run", str(legacy)]
            edited_cmd = [sys.executable, str(edited)]
            r, p = alternate(runner_cmd, edited_cmd, args.repeats, work, env)
            print(f"{name:<20} {r:>9.3f} {p:>14.3f} {r / p:>7.3f}")
        print(f"median of {args.repeats} runs each, alternating; target ratio <= 1.05")
        print()
        print(f"{'start-up':<34} {'runner s':>9} {'python s':>9} {'extra s':>8}")
        no_tf = work / "no_tf.py"
        no_tf.write_text("import json, sys\nprint(json.dumps({'argv': sys.argv[1:]}))\n")
        only_tf = work / "only_tf.py"
        only_tf.write_text("import tensorflow as tf\n")
        pairs = {
            "script without TensorFlow": ([sys.executable, "-m", "tf1mem.run", str(no_tf)],
                                          [sys.executable, str(no_tf)]),
            "script that imports TensorFlow": (
                [sys.executable, "-m", "tf1mem.run", str(only_tf)],
                [sys.executable, "-c", "import tensorflow"]),
        }
        for name, (runner_cmd, plain_cmd) in pairs.items():
            r, p = alternate(runner_cmd, plain_cmd, args.repeats, work, env)
            print(f"{name:<34} {r:>9.3f} {p:>9.3f} {r - p:>8.3f}")
        print(f"median of {args.repeats} runs each, alternating; target extra < 0.3 s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
