"""The article's remedies, measured: batch halving, float16/bfloat16, a narrower model.

For each configuration of the MLP (784 -> hidden -> 10): the per-device peak of one
training step (tf1mem.observe.memory.measure_step), then a short training run on real
MNIST and its test accuracy. Prints a Markdown table. Usage:

    python scripts/memory_remedies.py [--data-dir MNIST_data] [--steps 300]
"""

import argparse
import time

import numpy as np

from tf1mem import models
from tf1mem.data import input_data
from tf1mem.observe import memory

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
        peak = memory.measure_step(sess, net.train_op, {net.x: xs.astype(cast),
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=models.DATA_DIR)
    p.add_argument("--steps", type=int, default=300)
    args = p.parse_args()
    print("| remedy | batch | dtype | hidden | peak | test accuracy | train s |")
    print("|---|---|---|---|---|---|---|")
    for name, batch, dtype, hidden in CONFIGS:
        mnist = input_data.read_data_sets(args.data_dir, one_hot=True, seed=1)
        peak, acc, seconds = run(mnist, batch, dtype, hidden, args.steps)
        print(f"| {name} | {batch} | {dtype} | {hidden} | {memory.format_bytes(peak)} | "
              f"{acc:.4f} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
