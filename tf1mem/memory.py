"""``python -m tf1mem.memory``: what a batch size costs, measured, and the largest that fits.

Subcommands (models from :func:`tf1mem.models.train_graph`, synthetic inputs: memory
does not depend on the values):

- ``measure --model softmax|mlp|cnn --batch-size N [--hidden N] [--dtype D]``: one
  training op measured in this process (:func:`tf1mem.observe.memory.measure_step`):
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

- ``split [--batch-size 1000]``: the article's example 2 (forward pass on one gRPC
  task, loss and gradient descent on the other) measured per task, against the same
  graph and batch on one device. Its two in-process servers bind to loopback only
  (the command restarts itself under tf1mem's bind shim) unless ``--allow-remote``.

An out-of-memory error while measuring prints a short table of the largest live
tensors, the batch fed and the largest batch predicted to fit, and writes
TensorFlow's full report to a file. Exit codes: :mod:`tf1mem.errors` (0 ok, 1 a
failed or out-of-memory run, 2 usage).
"""

import argparse
import csv
import dataclasses
import io
import json
import math
import os
import subprocess
import sys
import tempfile
from typing import List, Optional, Sequence

from tf1mem import _atomic, _cli, errors, models
from tf1mem.distributed import loopback
from tf1mem.observe import memory

__all__ = ["MeasureOptions", "parse_args", "main", "entry", "doubling_bisection_trials"]

_PROG = "tf1mem.memory"
# Batches measured after an out-of-memory error to predict what would fit.
_OOM_PROBE_DIVISORS = (16, 8)
# Predict-and-measure rounds of fit before it falls back to bisection.
_FIT_ROUNDS = 4
_MIB = 2**20
# fit's bisections stop once the largest batch that fits and the smallest that does
# not are this close (a fraction of the former).
_PRECISION = 0.01


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
            value = memory.parse_bytes(text, flag)
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
    p.add_argument("--model", choices=models.MEMORY_MODELS, default="softmax")
    if batch:
        p.add_argument("--batch-size", type=_positive_int("--batch-size"),
                       default=models.BATCH_SIZE)
    p.add_argument("--hidden", type=_positive_int("--hidden"), default=128,
                   help="mlp: hidden units")
    p.add_argument("--dtype", choices=models.DTYPES, default="float32")
    p.add_argument("--steps", type=_positive_int("--steps"), default=3,
                   help="traced steps per measurement (the largest is reported)")


def _parser():
    p = argparse.ArgumentParser(prog="python -m tf1mem.memory",
                                description=__doc__.split("\n\n")[0],
                                epilog="Exit codes: 0 ok, 1 failure or out of memory, "
                                       "2 usage error.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="measure one batch size in this process")
    _add_model_flags(m)
    m.add_argument("--json", action="store_true", help="print one JSON object")
    m.add_argument("--memory-limit", type=_size("--memory-limit"), default=None,
                   help="run with TensorFlow's allocator capped at this size, as a "
                        "process given only that much: on a GPU a virtual device of "
                        "that many MiB, on the CPU the BFC allocator with that limit")
    m.add_argument("--oom-report", default=None,
                   help="file for TensorFlow's full out-of-memory report "
                        "(default: a new file in the temporary folder)")
    s = sub.add_parser("sweep", help="measure several batch sizes, one process each")
    _add_model_flags(s, batch=False)
    s.add_argument("--batch-sizes", type=_batch_list, required=True)
    s.add_argument("--csv", default="memory_sweep.csv", help="CSV output file")
    s.add_argument("--png", default="memory_sweep.png", help="plot output file")
    s.add_argument("--no-progress", dest="progress", action="store_false")
    f = sub.add_parser("fit", help="the largest batch within a memory budget")
    _add_model_flags(f, batch=False)
    f.add_argument("--budget", type=_size("--budget"), required=True,
                   help="e.g. 512MiB, 2GiB, 1.5GB")
    f.add_argument("--margin", type=_margin, default=0.05,
                   help="headroom kept free, a fraction or percentage (default 5%%)")
    f.add_argument("--probe-sizes", type=_batch_list, default=(256, 1024),
                   help="batch sizes measured first, for the linear model "
                        "(default 256,1024)")
    f.add_argument("--from-sweep", metavar="CSV", default=None,
                   help="start from the points a sweep of the same model, dtype and "
                        "hidden width measured on this machine (its --csv file)")
    f.add_argument("--no-progress", dest="progress", action="store_false")
    t = sub.add_parser("split", help="example 2's two-task placement against one device")
    t.add_argument("--batch-size", type=_positive_int("--batch-size"), default=1000,
                   help="examples per step (the article's partition: 1000)")
    t.add_argument("--port-base", type=int, default=0,
                   help="first of two ports (default 0: pick free ports)")
    t.add_argument("--steps", type=_positive_int("--steps"), default=2,
                   help="traced steps per measurement (the largest is reported)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    loopback.add_allow_remote_flag(t, "the two tasks' gRPC servers")
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


# ------------------------------------------------------------------ measure

def _measure_in_process(opts: MeasureOptions, err=sys.stderr) -> memory.StepMemory:
    import numpy as np
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        net = models.train_graph(opts.model, hidden=opts.hidden, dtype=opts.dtype)
        init = v1.global_variables_initializer()
    np_dtype = net.x.dtype.as_numpy_dtype
    rng = np.random.default_rng(0)

    def feed(batch):
        labels = np.eye(models.NUM_CLASSES, dtype=np.float32)[
            rng.integers(0, models.NUM_CLASSES, batch)]
        return {net.x: rng.random((batch, models.IMAGE_PIXELS), dtype=np.float32)
                .astype(np_dtype), net.y: labels.astype(np_dtype)}

    config = _capped_config(opts.memory_limit) if opts.memory_limit else None
    with v1.Session(graph=graph, config=config) as sess:
        if opts.memory_limit:
            _check_cap(sess, graph, opts.memory_limit)
        sess.run(init)
        try:
            return memory.measure_step(sess, net.train_op, feed(opts.batch_size),
                                       steps=opts.steps, timed_steps=opts.timed_steps,
                                       batch_size=opts.batch_size)
        except tf.errors.ResourceExhaustedError as exc:
            predicted = _predict_after_oom(sess, net, feed, opts, exc)
            report = memory.explain_oom(exc, graph, opts.batch_size, predicted)
            raise _oom_error(report, opts.oom_report) from None


def _cap_environment(limit: int) -> None:
    """Caps the CPU allocator for this process; TensorFlow reads it when it loads."""
    if "tensorflow" in sys.modules:
        raise errors.UsageError(
            "--memory-limit must take effect before TensorFlow loads: run `python -m "
            "tf1mem.memory measure --memory-limit ...` in a new process")
    os.environ["TF_CPU_ALLOCATOR_USE_BFC"] = "1"
    os.environ["TF_CPU_BFC_MEM_LIMIT_IN_MB"] = str(limit // _MIB)


def _capped_config(limit: int):
    """A ConfigProto giving each visible GPU one virtual device of ``limit`` (whole MiB)."""
    import tensorflow as tf

    config = tf.compat.v1.ConfigProto()
    for _ in tf.config.list_physical_devices("GPU"):
        config.gpu_options.experimental.virtual_devices.add().memory_limit_mb.append(
            float(limit // _MIB))
    return config


def _check_cap(sess, graph, limit: int) -> None:
    """Fails closed unless the device the step runs on refuses more than ``limit``.

    Asks TensorFlow itself: a buffer of the cap plus 1 MiB, on the device that runs
    the model's ops, must raise ResourceExhaustedError; nothing is kept.
    """
    import tensorflow as tf

    device = "/GPU:0" if tf.config.list_physical_devices("GPU") else "/CPU:0"
    with graph.as_default(), tf.device(device):
        size = tf.compat.v1.placeholder(tf.int64, [1], name="tf1mem_cap_check_size")
        probe = tf.reduce_sum(tf.fill(size, 1.0))
    nbytes = limit // _MIB * _MIB + _MIB
    try:
        sess.run(probe, {size: [nbytes // 4]})
    except tf.errors.ResourceExhaustedError:
        return
    raise errors.Error(
        f"--memory-limit {memory.format_bytes(limit)} did not take effect on {device}: "
        f"TensorFlow allocated {memory.format_bytes(nbytes)} there. Its allocator is "
        f"capped only in a process whose first session creates the devices (and, on the "
        f"CPU, with TF_CPU_ALLOCATOR_USE_BFC=1 set before TensorFlow loads)")


def _predict_after_oom(sess, net, feed, opts, exc) -> Optional[int]:
    """Measures two much smaller batches and predicts the largest that fits the limit."""
    import tensorflow as tf

    report = memory.explain_oom(exc)
    limit = memory.device_memory_limit(sess, report.device) if report.device else None
    if limit is None:
        return None
    points = []
    for divisor in _OOM_PROBE_DIVISORS:
        batch = max(1, opts.batch_size // divisor)
        try:
            result = memory.measure_step(sess, net.train_op, feed(batch), steps=1)
        except tf.errors.ResourceExhaustedError:
            return None
        dev = result.devices.get(report.device) or max(
            result.devices.values(), key=lambda d: d.peak_bytes)
        points.append((batch, dev.peak_bytes))
    if len({b for b, _ in points}) < 2:
        return None
    intercept, slope = memory.fit_linear(points)
    # The failure itself bounds the cost per example from below: at the fed batch
    # the step needed at least what was in use plus what it asked for (in the
    # allocator's rounded chunks, which small probes under-state).
    needed = sum(t.bytes for t in report.live) + report.remaining[1] + report.requested_bytes
    if report.live:
        slope = max(slope, (needed - intercept) / opts.batch_size)
    try:
        return min(memory.largest_batch(intercept, slope, limit), opts.batch_size - 1)
    except ValueError:
        return None


def _oom_error(report: memory.OomReport, path: Optional[str]) -> errors.Error:
    if path is None:
        fd, path = tempfile.mkstemp(prefix="tf1mem-oom-", suffix=".txt")
        os.close(fd)
    _atomic.write_text(path, report.raw + "\n")
    error = errors.Error("out of memory\n" + memory.format_oom(report, path))
    return error


def _measure(ns) -> int:
    if ns.memory_limit:
        _cap_environment(ns.memory_limit)
    result = _measure_in_process(_options(ns))
    if ns.json:
        print(json.dumps(result.to_dict(), default=list))
    else:
        print(f"{_model_label(ns.model, ns.dtype, ns.hidden)}, batch {ns.batch_size}: largest "
              f"of {ns.steps} traced steps; fed inputs are counted apart, not in the peak, "
              f"except a GPU's copies of them"
              + (f"; allocator capped at {memory.format_bytes(ns.memory_limit)}"
                 if ns.memory_limit else ""))
        print(memory.format_table(result))
        if result.step_seconds:
            print(f"step time: {result.step_seconds * 1e3:.2f} ms "
                  f"({ns.batch_size / result.step_seconds:.0f} examples/s)")
    return errors.EXIT_OK


# ------------------------------------------------- one point in its own process

@dataclasses.dataclass(frozen=True)
class _Point:
    batch_size: int
    peaks: dict  # device -> peak bytes
    step_seconds: Optional[float]
    error: Optional[str] = None
    out_of_memory: bool = False  # the run ran out under --memory-limit
    # device -> the allocator's own peak, where TensorFlow keeps one (a GPU; the CPU's BFC)
    allocator_peaks: dict = dataclasses.field(default_factory=dict)
    source: Optional[str] = None  # where the point was read from, if not measured here

    @property
    def peak(self) -> int:
        return max(self.peaks.values(), default=0)


def _measure_subprocess(ns, batch: int, memory_limit: Optional[int] = None) -> _Point:
    args = [sys.executable, "-m", "tf1mem.memory", "measure", "--json",
            "--model", ns.model, "--batch-size", str(batch), "--hidden", str(ns.hidden),
            "--dtype", ns.dtype, "--steps", str(ns.steps)]
    if memory_limit:
        args += ["--memory-limit", str(memory_limit)]
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    # The child must import this tf1mem, wherever it was imported from.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        tail = "\n".join(lines[-12:])
        # Under a cap, TensorFlow 2.21 sometimes dies of a signal instead of raising
        # ResourceExhaustedError (seen: SIGSEGV in session.run, the MLP at batch
        # 40000 under 32 MiB): either way the batch does not run in that memory.
        out_of_memory = bool(memory_limit) and (proc.returncode < 0 or any(
            line.startswith(f"{_PROG}: error: out of memory") for line in lines))
        why = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exit {proc.returncode}")
        return _Point(batch, {}, None, error=f"{why}: {tail}", out_of_memory=out_of_memory)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return _Point(batch, {name: dev["peak_bytes"] for name, dev in data["devices"].items()},
                  data["step_seconds"],
                  allocator_peaks={name: dev["allocator_peak_bytes"]
                                   for name, dev in data["devices"].items()
                                   if dev.get("allocator_peak_bytes") is not None})


def _progress(total, desc, enabled):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="run", file=sys.stderr, disable=not enabled,
                leave=False)


# -------------------------------------------------------------------- sweep

def _sweep(ns) -> int:
    points = []
    with _progress(len(ns.batch_sizes), "sweep", ns.progress) as bar:
        for batch in ns.batch_sizes:
            bar.set_postfix(batch=batch)
            points.append(_measure_subprocess(ns, batch))
            bar.update(1)
    devices = sorted({d for p in points for d in p.peaks})
    # A device that held nothing at any point (the host of a GPU run, where only the
    # fed arrays' _Arg nodes ran) would add an all-zero column and line.
    devices = [d for d in devices if any(p.peaks.get(d) for p in points)] or devices
    header = ["batch"] + [f"peak {memory.short_device(d)}" for d in devices] + [
        "step ms", "examples/s"]
    rows = [header]
    records = []
    for p in points:
        if p.error:
            rows.append([str(p.batch_size)] + ["failed"] * (len(header) - 1))
            continue
        rate = p.batch_size / p.step_seconds if p.step_seconds else None
        rows.append([str(p.batch_size)] + [memory.format_bytes(p.peaks.get(d)) for d in devices]
                    + [f"{p.step_seconds * 1e3:.2f}" if p.step_seconds else "-",
                       f"{rate:.0f}" if rate else "-"])
        records.append((p, rate))
    print(f"{_model_label(ns.model, ns.dtype, ns.hidden)}, one process per point")
    print("\n".join(memory.align_rows(rows)))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(_SWEEP_COLUMNS)
    for p, rate in records:
        for d in devices:
            writer.writerow([ns.model, ns.dtype, ns.hidden, p.batch_size, d, p.peaks.get(d, ""),
                             p.allocator_peaks.get(d, ""),
                             f"{p.step_seconds:.6f}" if p.step_seconds else "",
                             f"{rate:.1f}" if rate else ""])
    _atomic.write_text(ns.csv, buf.getvalue())
    print(f"CSV: {ns.csv}")
    print(_plot(ns, records, devices))
    failed = [p for p in points if p.error]
    for p in failed:
        print(f"{_PROG}: batch {p.batch_size} failed: {p.error}", file=sys.stderr)
    return errors.EXIT_FAILURE if failed else errors.EXIT_OK


_SWEEP_COLUMNS = ("model", "dtype", "hidden", "batch_size", "device", "peak_bytes",
                  "allocator_peak_bytes", "step_seconds", "examples_per_second")
# What fit --from-sweep needs (sweeps written before allocator_peak_bytes lack it).
_SWEEP_NEEDED = _SWEEP_COLUMNS[:6]


def _model_label(model: str, dtype: str, hidden) -> str:
    return f"{model} ({dtype}{', hidden ' + str(hidden) if model == 'mlp' else ''})"


def _sweep_points(ns) -> List[_Point]:
    """The points of ``ns.from_sweep`` (a sweep's CSV) measured for ``ns``'s model."""
    path = ns.from_sweep
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise errors.UsageError(f"--from-sweep {path!r}: cannot read it: {exc}") from None
    if not rows or any(c not in rows[0] for c in _SWEEP_NEEDED):
        raise errors.UsageError(
            f"--from-sweep {path!r} is not a CSV written by `{_PROG} sweep` (it needs the "
            f"columns {', '.join(_SWEEP_NEEDED)} and one row per point): give the sweep's "
            f"--csv file")
    wanted = _model_label(ns.model, ns.dtype, ns.hidden)
    held = sorted({_model_label(r["model"], r["dtype"], r["hidden"]) for r in rows})
    if wanted not in held:
        raise errors.UsageError(
            f"--from-sweep {path!r} holds {', '.join(held)}, not {wanted}: pass the sweep's "
            f"--model, --dtype and --hidden, or leave out --from-sweep")
    by_batch: dict = {}
    for line, r in enumerate(rows, start=2):
        if _model_label(r["model"], r["dtype"], r["hidden"]) != wanted:
            continue
        try:
            batch, peak = int(r["batch_size"]), int(r["peak_bytes"])
            allocator = r.get("allocator_peak_bytes") or None
            allocator = int(allocator) if allocator is not None else None
            seconds = float(r["step_seconds"]) if r.get("step_seconds") else None
        except ValueError:
            raise errors.UsageError(
                f"--from-sweep {path!r}, line {line}: batch_size {r['batch_size']!r}, "
                f"peak_bytes {r['peak_bytes']!r} are not whole numbers: the file is not "
                f"as a sweep wrote it; sweep again") from None
        if batch < 1 or peak < 0:
            raise errors.UsageError(f"--from-sweep {path!r}, line {line}: batch {batch}, "
                                    f"peak {peak} bytes cannot be a measurement; sweep again")
        point = by_batch.setdefault(batch, _Point(batch, {}, seconds, source=path))
        point.peaks[r["device"]] = peak
        if allocator is not None:
            point.allocator_peaks[r["device"]] = allocator
    return [by_batch[b] for b in sorted(by_batch)]


def _main_device(point: _Point) -> Optional[str]:
    """The short name (``GPU:0``) of the device that held the most, or None."""
    if not point.peaks:
        return None
    return memory.short_device(max(point.peaks, key=lambda d: point.peaks[d]))


def _plot(ns, records, devices) -> str:
    try:
        import matplotlib
    except ImportError:
        return ("PNG: not written: matplotlib is not installed "
                "(pip install matplotlib, or tf1mem[plot])")
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    batches = [p.batch_size for p, _ in records]
    fig, ax_mem = plt.subplots(figsize=(7, 4.2))
    for d in devices:
        ax_mem.plot(batches, [p.peaks.get(d, math.nan) / 2**20 for p, _ in records],
                    marker="o", label=f"peak {memory.short_device(d)}")
    ax_mem.set_xlabel("batch size")
    ax_mem.set_ylabel("peak memory (MiB)")
    ax_mem.set_xscale("log", base=2)
    ax_rate = ax_mem.twinx()
    ax_rate.plot(batches, [rate or math.nan for _, rate in records], marker="s",
                 linestyle="--", color="tab:red", label="examples/s")
    ax_rate.set_ylabel("examples/s")
    lines = ax_mem.get_legend_handles_labels()
    rate_lines = ax_rate.get_legend_handles_labels()
    ax_mem.legend(lines[0] + rate_lines[0], lines[1] + rate_lines[1], loc="upper left")
    ax_mem.set_title(f"{_model_label(ns.model, ns.dtype, ns.hidden)}: peak memory and "
                     f"throughput")
    fig.tight_layout()
    tmp = ns.png + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, ns.png)
    return f"PNG: {ns.png}"


# ---------------------------------------------------------------------- fit

def doubling_bisection_trials(answer: int, start: int = 1) -> int:
    """Trials a doubling-then-bisection search (Lightning's) needs to find ``answer``.

    Doubles from ``start`` until a size fails (each failure an out-of-memory error on
    the device), then bisects between the last success and the failure. Assumes a
    size fits exactly when it is <= ``answer``.
    """
    trials = 0
    size = start
    while size <= answer:
        trials += 1
        size *= 2
    trials += 1  # the failing size
    lo, hi = size // 2, size
    while hi - lo > 1:
        mid = (lo + hi) // 2
        trials += 1
        if mid <= answer:
            lo = mid
        else:
            hi = mid
    return trials


def _fit(ns) -> int:
    usable = int(ns.budget * (1 - ns.margin))
    trials: List[_Point] = []

    def run(batch, why, capped=False):
        point = _measure_subprocess(ns, batch, ns.budget if capped else None)
        trials.append(point)
        swept = [p for p in trials if p.source]
        if swept and point.peaks and _main_device(point) != _main_device(swept[0]):
            raise errors.UsageError(
                f"the sweep in {ns.from_sweep!r} measured the model on "
                f"{_main_device(swept[0])}, but here it runs on {_main_device(point)}: "
                f"its points say nothing about this machine; sweep here, or leave out "
                f"--from-sweep")
        cap = f" (cap {memory.format_bytes(ns.budget)})" if capped else ""
        if point.out_of_memory:
            what = ("TensorFlow " + point.error.split(":")[0] if point.error.startswith("killed")
                    else "out of memory")
            print(f"trial {len(trials)}: batch {batch:>7}  {what} under the cap  ({why})")
            return point
        status = "failed" if point.error else memory.format_bytes(point.peak)
        verdict = "" if point.error else ("  fits" if point.peak <= usable else "  over")
        print(f"trial {len(trials)}: batch {batch:>7}  peak {status}{cap}{verdict}  ({why})")
        if point.error:
            raise errors.Error(f"measuring batch {batch} failed: {point.error}")
        return point

    print(f"budget {memory.format_bytes(ns.budget)}, margin {ns.margin:.0%}: "
          f"usable {memory.format_bytes(usable)}")
    if ns.from_sweep:
        for point in _sweep_points(ns):
            trials.append(point)
            verdict = "fits" if point.peak <= usable else "over"
            print(f"trial {len(trials)}: batch {point.batch_size:>7}  peak "
                  f"{memory.format_bytes(point.peak)}  {verdict}  (from the sweep)")
    for batch in ns.probe_sizes[:2]:
        if not _can_predict(trials, usable) and batch not in {p.batch_size for p in trials}:
            run(batch, "probe")
    fits = [p for p in trials if p.peak <= usable]
    smallest = min(trials, key=lambda p: p.batch_size)
    if not fits:
        raise errors.Error(
            f"even batch {smallest.batch_size} needs {memory.format_bytes(smallest.peak)}, "
            f"over the usable {memory.format_bytes(usable)}: give a larger --budget, a "
            f"smaller --margin or smaller --probe-sizes")
    answer = None
    overshot = False
    for _ in range(_FIT_ROUNDS):
        # The linear model through the two measured points nearest the budget
        # (the largest that fits and the smallest over it, else the two largest
        # that fit): memory is linear in the batch only once activations dominate.
        lo = max((p for p in trials if p.peak <= usable), key=lambda p: p.batch_size)
        over = [p for p in trials if p.peak > usable and p.batch_size > lo.batch_size]
        hi = min(over, key=lambda p: p.batch_size) if over else None
        if hi is not None and hi.batch_size - lo.batch_size <= 1:
            answer = lo.batch_size
            break
        below = sorted((p for p in trials if p.batch_size < lo.batch_size),
                       key=lambda p: p.batch_size)
        pair = (lo, hi) if hi is not None else (below[-1], lo)
        intercept, slope = memory.fit_linear((p.batch_size, p.peak) for p in pair)
        if slope <= 0:
            break
        guess = memory.largest_batch(intercept, slope, usable)
        if hi is not None:
            guess = min(guess, hi.batch_size - 1)
        guess = max(guess, lo.batch_size)
        known = {p.batch_size: p for p in trials}
        point = known.get(guess) or run(
            guess, f"predicted: {intercept / 2**20:.2f} MiB + {slope / 1024:.2f} KiB "
                   f"per example")
        # Confirmed: it fits and one more example is predicted over the budget.
        if point.peak <= usable and point.peak + slope > usable:
            answer = guess
            break
        # Well over twice running: memory is not linear here (an allocator growing
        # its regions in powers of two makes steps), and regula falsi would creep
        # down from above one trial at a time; bisection halves the gap each trial.
        # (Just over, within measurement noise, the model is right: go on.)
        missed = point.peak > usable * (1 + _PRECISION)
        if missed and overshot:
            break
        overshot = missed
    if answer is None:
        lo = max(p.batch_size for p in trials if p.peak <= usable)
        over = [p.batch_size for p in trials if p.peak > usable and p.batch_size > lo]
        hi = min(over) if over else None
        if hi is None:  # the model keeps under-predicting: grow from the largest fit
            hi = lo * 2
            while run(hi, "search up").peak <= usable:
                lo, hi = hi, hi * 2
        while hi - lo > max(1, int(lo * _PRECISION)):
            mid = (lo + hi) // 2
            if run(mid, "bisect").peak <= usable:
                lo = mid
            else:
                hi = mid
        answer = lo
    if _cappable(trials):
        answer, confirmed = _confirm_under_cap(answer, trials, usable, run)
        how = "measured with the allocator capped at the budget"
    else:
        confirmed = next(p for p in trials if p.batch_size == answer)
        how = "measured"
        print("note: the CPU's default allocator has no cap, so the answer counts its live "
              "tensors; set TF_CPU_ALLOCATOR_USE_BFC=1 to confirm under a capped BFC "
              "allocator, as a GPU's")
    naive = doubling_bisection_trials(answer)
    measured = [p for p in trials if not p.source]
    swept = len(trials) - len(measured)
    print(f"answer: batch {answer} ({memory.format_bytes(confirmed.peak)} {how}, usable "
          f"{memory.format_bytes(usable)}), {len(measured)} measured "
          f"{'trial' if len(measured) == 1 else 'trials'}, each in its own process"
          + (f", and {swept} points from the sweep" if swept else ""))
    print(f"note: doubling from 1 then bisecting would take {naive} trials, the one that "
          f"first doubles past {answer} running out of memory on the device")
    return errors.EXIT_OK


def _can_predict(trials, usable) -> bool:
    """Whether the linear model has its two points: a batch that fits, and another
    batch either below it or over the budget above it."""
    fits = [p.batch_size for p in trials if p.peak <= usable]
    if not fits:
        return False
    lo = max(fits)
    return any(p.batch_size < lo or (p.batch_size > lo and p.peak > usable) for p in trials)


def _cappable(trials) -> bool:
    """Whether the steps ran where TensorFlow's allocator can be capped: a GPU, or the
    CPU with the BFC allocator asked for (``TF_CPU_ALLOCATOR_USE_BFC=1``)."""
    on_gpu = any("GPU:" in device for p in trials for device in p.peaks)
    return on_gpu or os.environ.get("TF_CPU_ALLOCATOR_USE_BFC", "").lower() in ("1", "true")


def _confirm_under_cap(answer, trials, usable, run):
    """The largest batch that runs with TensorFlow's allocator capped at the budget.

    The live tensors are not the whole cost: TensorFlow's BFC allocator (every GPU's,
    and the CPU's under a cap) hands out a whole free chunk when splitting it would
    leave too little, so near a cap a step can need more than its tensors (seen on
    an H200: the batch whose uncapped peak was 243 MiB ran out on a GPU capped at
    256 MiB). The linear model's answer is therefore run again under the cap; if it
    runs out or goes over, 10% less is tried, then bisection between what ran and
    what did not, to within 1%. Each run is its own process: an out-of-memory error
    there is the answer to a question, not a failure of the user's program.
    """
    def ok(point):
        return not point.out_of_memory and point.peak <= usable

    smallest = min(p.batch_size for p in trials)
    point = run(answer, "confirm under the cap", capped=True)
    if ok(point):
        return answer, point
    good, bad = None, answer
    step_down = max(smallest, min(answer - 1, int(answer * 0.9)))
    if step_down < answer:
        point = run(step_down, "10% less, under the cap", capped=True)
        if ok(point):
            good = (step_down, point)
        else:
            bad = step_down
    if good is None:
        point = point if bad == smallest else run(smallest, "smallest probe, under the cap",
                                                  capped=True)
        if not ok(point):
            raise errors.Error(
                f"even batch {smallest} does not run within the usable "
                f"{memory.format_bytes(usable)} with the allocator capped at the budget: "
                f"give a larger --budget, a smaller --margin or smaller --probe-sizes")
        good = (smallest, point)
    while bad - good[0] > max(1, int(good[0] * _PRECISION)):
        mid = (good[0] + bad) // 2
        point = run(mid, "bisect under the cap", capped=True)
        if ok(point):
            good = (mid, point)
        else:
            bad = mid
    return good


# -------------------------------------------------------------------- split

def _split(ns) -> int:
    from tf1mem.distributed import two_task

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
    print(memory.format_table(result.split))
    print("\none device:")
    print(memory.format_table(result.one_device))
    print(f"\nlargest task peak {memory.format_bytes(largest)} against "
          f"{memory.format_bytes(one)} on one device ({largest / one:.2f}x); the two tasks "
          f"together {memory.format_bytes(together)} ({together / one:.2f}x: tensors sent "
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
