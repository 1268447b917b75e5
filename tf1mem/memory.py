"""``python -m tf1mem.memory``: what a batch size costs, measured, and the largest that fits.

Subcommands (models from :func:`tf1mem.models.train_graph`, synthetic inputs: memory
does not depend on the values):

- ``measure --model softmax|mlp|cnn --batch-size N [--hidden N] [--dtype D]``: one
  training op measured in this process (:func:`tf1mem.observe.step_memory.measure_step`):
  per device the peak and its parts, and the largest tensors live at the peak.
  ``--json`` prints one JSON object instead (what ``sweep`` and ``fit`` read).
  ``--memory-limit SIZE`` caps TensorFlow's allocator first (a GPU: one virtual
  device of that many MiB; the CPU: the BFC allocator with that limit), checked by
  asking TensorFlow for more than the cap before the step runs.
- ``sweep --batch-sizes 32,64,...``: each point measured in its own process (GPU
  options freeze when a process creates its devices, and a failing point cannot
  hurt the next); a table of batch, peak per device, step time and examples/s, a
  CSV, and a PNG of memory and throughput against batch size if matplotlib is
  installed (``pip install tf1mem[plot]``).
- ``fit --budget 512MiB [--margin 10%]``: the largest batch whose measured peak stays
  within ``budget * (1 - margin)``: two probe sizes measured, the linear model's
  answer found from them and measured. Where the allocator can be capped (a GPU, or
  the CPU with ``TF_CPU_ALLOCATOR_USE_BFC=1``) the answer is confirmed by one run
  with the allocator capped at the budget (``measure --memory-limit``); only if that
  run goes over or runs out, 10% less and then bisection under the cap, to within
  1%. Every trial runs in its own process, so an out-of-memory error under the cap
  never reaches the user's program. ``--from-sweep FILE`` starts from the points a
  ``sweep`` of the same model wrote to its CSV instead of measuring probes again.
- ``sweep`` and ``fit`` take ``--warm``: each uncapped point or trial runs in a child
  forked from the warm template (:mod:`tf1mem._warm`), a new process that skips
  TensorFlow's start-up; capped trials, and runs the template does not match, run
  cold.

- ``split [--batch-size 1000]``: the article's example 2 (forward pass on one gRPC
  task, loss and gradient descent on the other) measured per task, against the same
  graph and batch on one device. Its two in-process servers bind to loopback only
  (the command restarts itself under tf1mem's bind shim) unless ``--allow-remote``.

An out-of-memory error while measuring prints a short table of the largest live
tensors, the batch fed and the largest batch predicted to fit, and writes
TensorFlow's full report to a file. Exit codes: :mod:`tf1mem.errors` (0 ok, 1 a
failed or out-of-memory run, 2 usage).

This module parses the flags and delegates: the graphs come from
:mod:`tf1mem.models`; the measurement (:mod:`tf1mem.observe.measure`), the allocator
caps (:mod:`tf1mem.observe.caps`), the sweep (:mod:`tf1mem.observe.sweep`) and the
fit search (:mod:`tf1mem.observe.fit`) are the observe wing's; ``split`` is
:mod:`tf1mem.distributed.two_task`'s.
"""

import argparse
import dataclasses
import json
import os
import sys
from typing import Optional, Sequence

from tf1mem import _cli, _places, _tflog, errors, models
from tf1mem.distributed import loopback
from tf1mem.observe import caps, fit, measure, sweep
from tf1mem.observe.step_memory import StepMemory, format_table
from tf1mem.observe.text import format_bytes, parse_bytes

__all__ = ["MeasureOptions", "parse_args", "main", "entry"]

_PROG = "tf1mem.memory"
_MIB = 2**20


@dataclasses.dataclass(frozen=True)
class MeasureOptions:
    """One model configuration to measure; built once from the command line."""

    model: str = "softmax"
    batch_size: int = models.BATCH_SIZE
    hidden: int = 128
    dtype: str = "float32"
    steps: int = 3
    timed_steps: int = 5
    oom_report: Optional[str] = None  # where TF's raw OOM report goes
    memory_limit: Optional[int] = None  # bytes; the allocator capped (measure --memory-limit)


def _positive_int(flag):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be an integer >= 1, got {text!r}") \
                from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{flag} must be an integer >= 1, got {value}")
        return value
    return parse


def _batch_list(text):
    sizes = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise argparse.ArgumentTypeError(
                f"--batch-sizes must be integers >= 1 separated by commas, got {text!r} "
                f"(bad item {part!r})")
        sizes.append(int(part))
    return tuple(sorted(set(sizes)))


def _size(flag):
    def parse(text):
        try:
            value = parse_bytes(text, flag)
        except errors.UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value < _MIB:
            raise argparse.ArgumentTypeError(
                f"{flag} must be at least 1MiB (TensorFlow caps memory in whole MiB), "
                f"got {text!r}")
        return value
    return parse


def _margin(text):
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--margin must be a fraction such as 0.1 or a percentage such as 10%, "
            f"got {text!r}") from None
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"--margin must be in [0, 1) (0%..99%), got {text!r}")
    return value


def _add_model_flags(p, batch=True):
    p.add_argument("--model", choices=models.MEMORY_MODELS, default="softmax",
                   help="the training graph measured: softmax (the article's example 1), "
                        "mlp (one hidden layer of --hidden units) or cnn (a 5x5 convolution to 32 "
                        "channels, max pool, dense)")
    if batch:
        p.add_argument("--batch-size", type=_positive_int("--batch-size"),
                       default=models.BATCH_SIZE, help="examples per training step")
    p.add_argument("--hidden", type=_positive_int("--hidden"), default=128,
                   help="mlp only: hidden units")
    p.add_argument("--dtype", choices=models.DTYPES, default="float32",
                   help="the model's inputs, weights and activations")
    p.add_argument("--steps", type=_positive_int("--steps"), default=3,
                   help="traced steps per measurement (the largest is reported)")


def _add_verbose_flag(p):
    p.add_argument("--verbose", action="store_true",
                   help="show TensorFlow's C++ log as it comes (start-up notices, INFO "
                        "lines, the allocator's out-of-memory dump)")


def _add_warm_flag(p):
    p.add_argument("--warm", action="store_true",
                   help="run each uncapped point in a child of the warm template, which "
                        "has imported TensorFlow already (docs/RUNNING.md, 'Warm runs'); "
                        "a capped trial, or a run the template does not match, runs cold "
                        "(--verbose says why)")
    p.add_argument("--verbose", action="store_true",
                   help="say why --warm trials run cold")


def _add_keep_flag(p):
    p.add_argument("--keep-reports", action="store_true",
                   help="keep the run's folder of trial reports in tf1mem's report "
                        "folder ($TF1MEM_REPORT_DIR, docs/MEMORY.md) even when the run "
                        "succeeds (a failed run's is always kept)")


def _parser():
    formatter = _cli.HelpFormatter
    p = argparse.ArgumentParser(prog="python -m tf1mem.memory",
                                description=_cli.description(__doc__),
                                formatter_class=formatter,
                                epilog="Exit codes: 0 ok, 1 failure or out of memory, "
                                       "2 usage error.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="measure one batch size in this process",
                       formatter_class=formatter)
    _add_model_flags(m)
    m.add_argument("--json", action="store_true", help="print one JSON object")
    m.add_argument("--memory-limit", type=_size("--memory-limit"), default=None,
                   help="run with TensorFlow's allocator capped at this size, as a "
                        "process given only that much: on a GPU a virtual device of "
                        "that many MiB, on the CPU the BFC allocator with that limit")
    m.add_argument("--oom-report", default=None,
                   help="file for TensorFlow's full out-of-memory report (default: a "
                        "new tf1mem-oom-*.txt in tf1mem's report folder, "
                        "$TF1MEM_REPORT_DIR)")
    _add_verbose_flag(m)
    s = sub.add_parser("sweep", help="measure several batch sizes, one process each",
                       formatter_class=formatter)
    _add_model_flags(s, batch=False)
    s.add_argument("--batch-sizes", type=_batch_list, required=True,
                   help="the batch sizes measured, comma-separated (e.g. 64,256,1024)")
    s.add_argument("--csv", default="memory_sweep.csv", help="CSV output file")
    s.add_argument("--png", default="memory_sweep.png",
                   help="plot output file (written where matplotlib is installed)")
    s.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (it is drawn only on a terminal anyway)")
    _add_keep_flag(s)
    _add_warm_flag(s)
    f = sub.add_parser("fit", help="the largest batch within a memory budget",
                       formatter_class=formatter)
    _add_model_flags(f, batch=False)
    f.add_argument("--budget", type=_size("--budget"), required=True,
                   help="the memory the step may use, e.g. 512MiB, 2GiB, 1.5GB")
    f.add_argument("--margin", type=_margin, default=0.05,
                   help="headroom kept free, a fraction or percentage (default 5%%)")
    f.add_argument("--probe-sizes", type=_batch_list, default=(256, 1024),
                   help="batch sizes measured first, for the linear model "
                        "(default 256,1024)")
    f.add_argument("--from-sweep", metavar="CSV", default=None,
                   help="start from the points a sweep of the same model, dtype and "
                        "hidden width measured on this machine (its --csv file; "
                        "default: measure the probes)")
    f.add_argument("--no-progress", dest="progress", action="store_false",
                   help="accepted as sweep takes it; fit draws no bar (its trials are "
                        "few, each named as it runs)")
    _add_keep_flag(f)
    _add_warm_flag(f)
    t = sub.add_parser("split", help="example 2's two-task placement against one device",
                       formatter_class=formatter)
    t.add_argument("--batch-size", type=_positive_int("--batch-size"), default=1000,
                   help="examples per step (the article's partition: 1000)")
    t.add_argument("--port-base", type=int, default=0,
                   help="first of two ports (default 0: pick free ports)")
    t.add_argument("--steps", type=_positive_int("--steps"), default=2,
                   help="traced steps per measurement (the largest is reported)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    loopback.add_allow_remote_flag(t, "the two tasks' gRPC servers")
    _add_verbose_flag(t)
    return p


def parse_args(argv: Optional[Sequence[str]] = None):
    """Parses the command line; returns ``(subcommand, namespace)``."""
    ns = _parser().parse_args(argv)
    if ns.command == "fit" and len(ns.probe_sizes) < 2:
        raise errors.UsageError(f"--probe-sizes needs two distinct sizes for the linear "
                                f"model, got {','.join(map(str, ns.probe_sizes))}")
    return ns.command, ns


def _options(ns, batch_size=None) -> MeasureOptions:
    return MeasureOptions(model=ns.model, batch_size=batch_size or ns.batch_size,
                          hidden=ns.hidden, dtype=ns.dtype, steps=ns.steps,
                          oom_report=getattr(ns, "oom_report", None),
                          memory_limit=getattr(ns, "memory_limit", None))


def _spec(ns) -> sweep.ModelSpec:
    return sweep.ModelSpec(model=ns.model, hidden=ns.hidden, dtype=ns.dtype, steps=ns.steps)


# ------------------------------------------------------------------ measure

def _measure_in_process(opts: MeasureOptions, tf_log=None) -> StepMemory:
    """Builds the model's training graph and measures one step of it in this process."""
    import numpy as np
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        net = models.train_graph(opts.model, hidden=opts.hidden, dtype=opts.dtype)
        init = tf.compat.v1.global_variables_initializer()
    np_dtype = net.x.dtype.as_numpy_dtype
    rng = np.random.default_rng(0)

    def feed(batch):
        labels = np.eye(models.NUM_CLASSES, dtype=np.float32)[
            rng.integers(0, models.NUM_CLASSES, batch)]
        return {net.x: rng.random((batch, models.IMAGE_PIXELS), dtype=np.float32)
                .astype(np_dtype), net.y: labels.astype(np_dtype)}

    return measure.measure_training_step(graph, init, net.train_op, feed, opts.batch_size,
                                         steps=opts.steps, timed_steps=opts.timed_steps,
                                         memory_limit=opts.memory_limit,
                                         oom_report=opts.oom_report, tf_log=tf_log)


def _measure(ns) -> int:
    if ns.memory_limit:
        caps.cap_environment(ns.memory_limit)
    with _tflog.quiet_tensorflow(ns.verbose) as quiet:
        result = _measure_in_process(_options(ns),
                                     quiet.allocator_lines if quiet is not None else None)
    if ns.json:
        print(json.dumps(result.to_dict(), default=list))
    else:
        print(f"{_spec(ns).label}, batch {ns.batch_size}: largest "
              f"of {ns.steps} traced steps; fed inputs are counted apart, not in the peak, "
              f"except a GPU's copies of them"
              + (f"; allocator capped at {format_bytes(ns.memory_limit)}"
                 if ns.memory_limit else ""))
        print(format_table(result))
        if result.step_seconds:
            print(f"step time: {result.step_seconds * 1e3:.2f} ms "
                  f"({ns.batch_size / result.step_seconds:.0f} examples/s)")
    return errors.EXIT_OK


def _warm_launch(ns):
    """``--warm``: a ``launch`` for :func:`tf1mem.observe.sweep.measure_point` that runs
    ``python -m tf1mem.memory ARGS`` in a child of the warm template; None without it."""
    if not getattr(ns, "warm", False):  # a Namespace built without the flag: cold
        return None
    import locale
    import tempfile

    from tf1mem import _warm

    said = []

    def launch(args, env):
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
                open(os.devnull, "rb") as null:
            try:
                code = _warm.run_warm("tf1mem.memory", args, env=env,
                                      stdio=(null.fileno(), out.fileno(), err.fileno()))
            except _warm.Unavailable as exc:
                if (ns.verbose or exc.always) and not said:
                    print(f"{_PROG}: --warm: the trials run cold: {exc}", file=sys.stderr)
                    said.append(True)
                return None
            texts = []
            for f in (out, err):  # as subprocess.run(text=True) decodes
                f.seek(0)
                texts.append(f.read().decode(locale.getpreferredencoding(False))
                             .replace("\r\n", "\n").replace("\r", "\n"))
        return code, texts[0], texts[1]

    return launch


def _sweep(ns) -> int:
    # The points' out-of-memory reports go to one folder of this run, removed when
    # every point ran (unless --keep-reports).
    with _places.run_folder("memory-sweep-", keep=ns.keep_reports) as run:
        points = sweep.run_sweep(_spec(ns), ns.batch_sizes, ns.csv, ns.png,
                                 progress=ns.progress, launch=_warm_launch(ns))
        failed = [p for p in points if p.error]
        run.keep = run.keep or bool(failed)
    for p in failed:
        print(f"{_PROG}: batch {p.batch_size} failed: {p.error}", file=sys.stderr)
    if run.keep and any(run.path.iterdir()):
        print(f"{_PROG}: the points' reports: {run.path}", file=sys.stderr)
    return errors.EXIT_FAILURE if failed else errors.EXIT_OK


def _fit(ns) -> int:
    # Trials that run out of memory under the cap are expected: their reports go to
    # one folder of this run, removed when the fit succeeds (unless --keep-reports).
    with _places.run_folder("memory-fit-", keep=ns.keep_reports) as run:
        try:
            fit.find_fit(_spec(ns), ns.budget, ns.margin, ns.probe_sizes,
                         from_sweep=ns.from_sweep, launch=_warm_launch(ns))
        except errors.Error:  # the folder stays (run_folder keeps it on an exception)
            print(f"{_PROG}: the trials' reports: {run.path}", file=sys.stderr)
            raise
    if run.keep:
        print(f"{_PROG}: the trials' reports: {run.path}", file=sys.stderr)
    return errors.EXIT_OK


# -------------------------------------------------------------------- split

def _split(ns) -> int:
    from tf1mem.distributed import two_task

    with _tflog.quiet_tensorflow(ns.verbose):
        result = two_task.measure_split(ns.batch_size, port_base=ns.port_base,
                                        allow_remote=ns.allow_remote, steps=ns.steps)
    one = result.one_device.peak_bytes
    largest = result.largest_task_peak
    together = sum(d.peak_bytes for d in result.split.devices.values())
    if ns.json:
        print(json.dumps({"split": result.split.to_dict(),
                          "one_device": result.one_device.to_dict()}, default=list))
        return errors.EXIT_OK
    print(f"example 2's training step, batch {ns.batch_size}: largest of {ns.steps} traced "
          f"steps; fed inputs are counted apart, not in the peak")
    print("\nsplit over two gRPC tasks (forward pass on task 0, loss and SGD on task 1):")
    print(format_table(result.split))
    print("\none device:")
    print(format_table(result.one_device))
    print(f"\nlargest task peak {format_bytes(largest)} against "
          f"{format_bytes(one)} on one device ({largest / one:.2f}x); the two tasks "
          f"together {format_bytes(together)} ({together / one:.2f}x: tensors sent "
          f"between tasks live on both)")
    if not any(d.fed_bytes for d in result.split.devices.values()) and \
            result.one_device.devices and any(d.fed_bytes for d in
                                              result.one_device.devices.values()):
        print("note: the gRPC runtime's step stats do not record fed inputs, so the split "
              "side shows none; the allocator column is the one CPU allocator of this "
              "process, which both in-process tasks share")
    return errors.EXIT_OK


# --------------------------------------------------------------------- main

def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit code (see :mod:`tf1mem.errors`)."""

    def body():
        command, ns = parse_args(argv)
        if command == "split":
            if ns.allow_remote:
                print(f"{_PROG}: {loopback.REMOTE_WARNING}", file=sys.stderr)
            elif argv is None:
                # TF's gRPC server listens on every interface whatever the
                # ClusterSpec says: restart under the loopback-bind shim (a no-op
                # when it is preloaded) before TensorFlow is imported.
                loopback.reexec_with_loopback(_PROG, sys.argv[1:])
        return {"measure": _measure, "sweep": _sweep, "fit": _fit,
                "split": _split}[command](ns)

    return _cli.run_command(_PROG, body)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
