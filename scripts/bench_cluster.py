"""Examples/s of the softmax model: one local process vs. 1 and 2 cluster workers.

Usage: python scripts/bench_cluster.py [--data-dir MNIST_data/] [--steps 1000]

Runs the three side by side in one go and prints throughput and ratios. A benchmark
script, not a test: the numbers depend on the machine.
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _local(data_dir, steps, batch_size):
    import tensorflow as tf

    sys.path.insert(0, str(REPO))
    from tf1mem import models
    from tf1mem.data import input_data

    v1 = tf.compat.v1
    mnist = input_data.read_data_sets(data_dir, one_hot=True, seed=1)
    with tf.Graph().as_default():
        x, y = models.placeholders()
        y_pred = models.inference(x)
        train_op = models.training(models.loss(y_pred, y), 0.5)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            start = time.perf_counter()
            for _ in range(steps):
                bx, by = mnist.train.next_batch(batch_size)
                sess.run(train_op, feed_dict={x: bx, y: by})
            return steps * batch_size / (time.perf_counter() - start)


def _cluster(data_dir, steps, workers):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p), TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-m", "tf1mem.cluster", "--ps", "1",
                           "--workers", str(workers), "--steps", str(steps),
                           "--data-dir", data_dir, "--seed", "1"],
                          env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"cluster run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    total = float(re.search(r"^all workers: (\d+) examples/s", proc.stdout, re.M).group(1))
    acc = float(proc.stdout.strip().splitlines()[-1].split(": ")[1])
    return total, acc


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", default="MNIST_data/")
    p.add_argument("--steps", type=int, default=1000)
    args = p.parse_args(argv)
    local = _local(args.data_dir, args.steps, 100)
    one, acc1 = _cluster(args.data_dir, args.steps, 1)
    two, acc2 = _cluster(args.data_dir, args.steps, 2)
    print(f"{'setup':<22}{'examples/s':>12}{'vs local':>10}{'accuracy':>10}")
    print(f"{'local, one process':<22}{local:>12.0f}{1.0:>10.2f}{'':>10}")
    print(f"{'1 ps + 1 worker':<22}{one:>12.0f}{one / local:>10.2f}{acc1:>10.4f}")
    print(f"{'1 ps + 2 workers':<22}{two:>12.0f}{two / local:>10.2f}{acc2:>10.4f}")
    print(f"2 workers vs 1 worker: {two / one:.2f}x")
    print(f"On this {os.cpu_count()}-core machine the ps and workers share the same cores, "
          "and each step of this tiny model is mostly gRPC round trips and feed copies "
          "rather than arithmetic, so a second worker can at best fill the idle CPU left by "
          "the first; scaling needs more cores or hosts and a model whose compute "
          "outweighs its communication.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
