#!/usr/bin/env python3
"""Benchmark: ``read_data_sets`` cold and on a warm decoded-array cache, side by side.

Times ``input_data.read_data_sets("MNIST_data", one_hot=True)`` (the call alone, in a
fresh process each time, alternating the variants) on the four real MNIST files:

- ``off``: the cache switched off (``TF1MEM_ARRAY_CACHE=0``): gunzip, hash, parse;
- ``cold``: the cache on and empty, as on a first run (it fills the cache);
- ``warm``: the cache on and filled, as on every later run.

Each child prints a sha256 over every array it got (images, labels, of train,
validation and test, with dtypes and shapes); the script stops unless all variants
got the same arrays. Prints the medians and the ratios; the target is warm under a
third of cold.

Before each child this script touches and frees 1 GiB (``--no-prime`` skips it): on
a virtual machine that hands freed memory back to its host (a balloon with free
page reporting, as the one these numbers come from), the first touch of such memory
costs several times more, and how much of it a child meets depends on what ran
before it; that noise falls mostly on the warm read, whose time is mostly first
touches. Every variant is primed alike.

Usage: ``python scripts/bench_data_cache.py [--repeats 5] [--data-dir DIR]
[--no-prime]``. DIR (default ``MNIST_data/``, else ``../shared/data/MNIST_data``
beside the checkout) is copied into a temporary folder, which also holds the cache.
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

REPO = Path(__file__).resolve().parents[1]
FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
         "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")
VARIANTS = ("off", "cold", "warm")

_CHILD = r"""
import hashlib, json, sys, time
import numpy
from tf1mem.data import input_data

start = time.perf_counter()
sets = input_data.read_data_sets("MNIST_data", one_hot=True)
seconds = time.perf_counter() - start
digest = hashlib.sha256()
for part in sets:
    for array in (part.images, part.labels):
        digest.update(f"{array.dtype.str}{array.shape}{array.flags.writeable}".encode())
        digest.update(numpy.ascontiguousarray(array))
print(json.dumps({"seconds": seconds, "arrays": digest.hexdigest()}))
"""


def _data_dir(given):
    candidates = [Path(given)] if given else [REPO / "MNIST_data",
                                              REPO.parent / "shared" / "data" / "MNIST_data"]
    for folder in candidates:
        if all((folder / name).is_file() for name in FILES):
            return folder
    raise SystemExit(f"no MNIST in {' or '.join(map(str, candidates))}: run "
                     "`python -m tf1mem.train` once (it fetches it) or pass --data-dir")


def _run(variant, work, env, prime):
    """``(seconds, arrays digest)`` of one fresh process."""
    cache = work / "cache" / "arrays"
    if variant == "cold":
        shutil.rmtree(cache, ignore_errors=True)
    if prime:
        import numpy  # imported here: only the children's time is measured

        numpy.ones(1 << 30, dtype=numpy.uint8)  # touched, then freed at once
    env = dict(env, TF1MEM_ARRAY_CACHE="0" if variant == "off" else "1")
    proc = subprocess.run([sys.executable, "-c", _CHILD], cwd=work, env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"the {variant} child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads(proc.stdout.splitlines()[-1])
    if variant == "warm" and "decoded-array cache" in proc.stderr:
        raise SystemExit(f"the warm child did not use the cache:\n{proc.stderr[-3000:]}")
    return result["seconds"], result["arrays"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--data-dir", help="folder with the four MNIST .gz files (copied)")
    parser.add_argument("--no-prime", dest="prime", action="store_false",
                        help="do not touch and free 1 GiB before each child")
    args = parser.parse_args(argv)
    source = _data_dir(args.data_dir)
    work = Path(tempfile.mkdtemp(prefix="tf1mem-bench-data-"))
    env = dict(os.environ, TF1MEM_CACHE_DIR=str(work / "cache" / "mnist"),
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                          if p))
    try:
        (work / "MNIST_data").mkdir()
        for name in FILES:
            shutil.copyfile(source / name, work / "MNIST_data" / name)
        for variant in VARIANTS:  # the page cache, and a filled cache for "warm"
            _run(variant, work, env, args.prime)
        times = {variant: [] for variant in VARIANTS}
        digests = set()
        for i in range(args.repeats):
            # "cold" empties the cache and fills it again, so "warm" may follow it.
            for variant in (VARIANTS if i % 2 == 0 else ("warm", "cold", "off")):
                seconds, digest = _run(variant, work, env, args.prime)
                times[variant].append(seconds)
                digests.add(digest)
            print(f"\r{i + 1}/{args.repeats}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if len(digests) != 1:
            raise SystemExit(f"the variants got different arrays: {sorted(digests)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {variant: statistics.median(t) for variant, t in times.items()}
    print(f"read_data_sets('MNIST_data', one_hot=True), medians of {args.repeats} fresh "
          f"processes each, {'primed' if args.prime else 'not primed'} ({source}):")
    for variant in VARIANTS:
        runs = " ".join(f"{t:.3f}" for t in times[variant])
        print(f"  {variant:<5} {med[variant]:.3f} s   (runs: {runs})")
    print(f"  warm / cold = {med['warm'] / med['cold']:.2f}   warm / off = "
          f"{med['warm'] / med['off']:.2f}   cold / off = {med['cold'] / med['off']:.2f}")
    print("  arrays identical in every run: yes (sha256 over all of them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
