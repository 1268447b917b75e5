"""The article's remedies, measured: batch halving, float16/bfloat16, a narrower model.

For each configuration of the MLP (784 -> hidden -> 10): the per-device peak of one
training step (tf1mem.observe.step_memory.measure_step), then a short training run on real
MNIST and its test accuracy. Then the article's example 2, measured per task against one
device (``python -m tf1mem.memory split``, in its own process). Prints Markdown tables and
writes the first as CSV. Usage:

    python scripts/memory_remedies.py [--data-dir MNIST_data] [--steps 300]
        [--csv docs/memory_remedies.csv] [--skip-split]
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import time

import numpy as np

from tf1mem import _atomic, models
from tf1mem.data import input_data
from tf1mem.observe import step_memory, text

CONFIGS = [  # (remedy, batch, dtype, hidden)
    ("baseline", 512, "float32", 512),
    ("batch halved", 256, "float32", 512),
    ("float16", 512, "float16", 512),
    ("bfloat16", 512, "bfloat16", 512),
    ("narrower (hidden 128)", 512, "float32", 128),
]


def run(mnist, batch, dtype, hidden, steps):
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(1)
        net = models.train_graph("mlp", hidden=hidden, dtype=dtype, learning_rate=0.1)
        init = v1.global_variables_initializer()
    cast = net.x.dtype.as_numpy_dtype
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        xs, ys = mnist.train.next_batch(batch)
        peak = step_memory.measure_step(sess, net.train_op, {net.x: xs.astype(cast),
                                                             net.y: ys.astype(cast)},
                                        steps=2).peak_bytes
        start = time.perf_counter()
        for _ in range(steps):
            xs, ys = mnist.train.next_batch(batch)
            sess.run(net.train_op, {net.x: xs.astype(cast), net.y: ys.astype(cast)})
        seconds = time.perf_counter() - start
        acc = sess.run(net.accuracy, {net.x: mnist.test.images.astype(cast),
                                      net.y: mnist.test.labels.astype(cast)})
    return peak, float(acc), seconds


def split_table(batch=1000):
    """Example 2's per-task peaks against one device, as Markdown rows."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-m", "tf1mem.memory", "split", "--json",
                           "--batch-size", str(batch)], capture_output=True, text=True,
                          env=env, check=True)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    (one,) = data["one_device"]["devices"].values()
    lines = ["| placement | device | peak | persistent | activations | temporaries | "
             "vs one device |", "|---|---|---|---|---|---|---|"]
    labels = text.device_labels(data["split"]["devices"])
    for name, dev in data["split"]["devices"].items():
        lines.append(f"| example 2, two tasks | {labels[name]} | "
                     f"{text.format_bytes(dev['peak_bytes'])} | "
                     f"{text.format_bytes(dev['persistent_bytes'])} | "
                     f"{text.format_bytes(dev['activation_bytes'])} | "
                     f"{text.format_bytes(dev['temporary_bytes'])} | "
                     f"{dev['peak_bytes'] / one['peak_bytes']:.2f}x |")
    lines.append(f"| one device | CPU:0 | {text.format_bytes(one['peak_bytes'])} | "
                 f"{text.format_bytes(one['persistent_bytes'])} | "
                 f"{text.format_bytes(one['activation_bytes'])} | "
                 f"{text.format_bytes(one['temporary_bytes'])} | 1.00x |")
    return lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=models.DATA_DIR)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--csv", default=os.path.join("docs", "memory_remedies.csv"))
    p.add_argument("--skip-split", action="store_true")
    args = p.parse_args()
    print("| remedy | batch | dtype | hidden | peak | test accuracy | train s |")
    print("|---|---|---|---|---|---|---|")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["remedy", "batch_size", "dtype", "hidden", "peak_bytes",
                     "test_accuracy", "train_seconds", "steps"])
    for name, batch, dtype, hidden in CONFIGS:
        mnist = input_data.read_data_sets(args.data_dir, one_hot=True, seed=1)
        peak, acc, seconds = run(mnist, batch, dtype, hidden, args.steps)
        print(f"| {name} | {batch} | {dtype} | {hidden} | {text.format_bytes(peak)} | "
              f"{acc:.4f} | {seconds:.1f} |", flush=True)
        writer.writerow([name, batch, dtype, hidden, peak, f"{acc:.4f}", f"{seconds:.2f}",
                         args.steps])
        _atomic.write_text(args.csv, buf.getvalue())  # each row kept as soon as measured
    print(f"CSV: {args.csv}")
    if not args.skip_split:
        print()
        print("\n".join(split_table()))


if __name__ == "__main__":
    main()
