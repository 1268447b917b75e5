"""The sweep driver: batch sizes measured one process each, as a table, a CSV and a plot.

Each point is ``python -m tf1mem.memory measure --json`` run in a new process
(:func:`measure_point`; or a child of the warm template, which is a new process
that has imported TensorFlow already, when the command hands it a ``launch``): GPU
options freeze when a process creates its devices, a
cap on the allocator (``--memory-limit``) takes effect only before TensorFlow loads,
and a point that runs out of memory or crashes cannot hurt the next. The driver
starts that command, never imports it. :func:`run_sweep` measures a list of batch
sizes and prints a table of batch, peak per device, step time and examples/s,
writes the CSV (:data:`SWEEP_COLUMNS`) and, where matplotlib is installed, a PNG of
memory and throughput against batch size; :func:`read_sweep` reads such a CSV back
as the points the fit search (:mod:`tf1mem.observe.fit`) starts from. Messages name
the command's flags (``--from-sweep``), whose values these functions are given.
"""

import csv
import dataclasses
import io
import json
import math
import os
import subprocess
import sys
from typing import Callable, List, Optional, Sequence

from tf1mem import _atomic, _progress, errors
from tf1mem.observe.text import align_rows, format_bytes, short_device

__all__ = ["ModelSpec", "Point", "COMMAND", "SWEEP_COLUMNS", "model_label", "measure_point",
           "run_sweep", "read_sweep", "main_device"]

# The command each point runs as (``python -m COMMAND measure --json ...``).
COMMAND = "tf1mem.memory"
# The sweep's CSV: one row per point and device.
SWEEP_COLUMNS = ("model", "dtype", "hidden", "batch_size", "device", "peak_bytes",
                 "allocator_peak_bytes", "step_seconds", "examples_per_second")
# What read_sweep needs (sweeps written before allocator_peak_bytes lack it).
_SWEEP_NEEDED = SWEEP_COLUMNS[:6]


def model_label(model: str, dtype: str, hidden) -> str:
    """``"mlp (float32, hidden 256)"``, ``"softmax (float32)"``: a model as tables name it."""
    return f"{model} ({dtype}{', hidden ' + str(hidden) if model == 'mlp' else ''})"


@dataclasses.dataclass(frozen=True)
class ModelSpec:
    """The model a point measures: what ``measure`` is given besides the batch size.

    Attributes:
      model: a name of ``tf1mem.models.MEMORY_MODELS`` (``softmax``, ``mlp``, ``cnn``).
      hidden: the MLP's hidden units.
      dtype: the model's dtype name (``float32``...).
      steps: traced steps per measurement (the largest is reported).
    """

    model: str
    hidden: int
    dtype: str
    steps: int

    @property
    def label(self) -> str:
        """``"mlp (float32, hidden 256)"``: :func:`model_label` of this model."""
        return model_label(self.model, self.dtype, self.hidden)


@dataclasses.dataclass(frozen=True)
class Point:
    """One batch size measured (or read from a sweep's CSV).

    Attributes:
      batch_size: the batch measured.
      peaks: device name -> the step's peak bytes there (empty if the run failed).
      step_seconds: mean wall time of an untraced step, or None.
      error: why the run failed (``exit 1: ...``, ``killed by signal 11: ...``), or None.
      out_of_memory: the run ran out of memory under ``--memory-limit`` (or died of a
        signal there): the batch does not run in that memory.
      allocator_peaks: device name -> the allocator's own peak, where TensorFlow
        keeps one (a GPU; the CPU's BFC allocator).
      source: the CSV the point was read from, or None if measured here.
    """

    batch_size: int
    peaks: dict
    step_seconds: Optional[float]
    error: Optional[str] = None
    out_of_memory: bool = False
    allocator_peaks: dict = dataclasses.field(default_factory=dict)
    source: Optional[str] = None

    @property
    def peak(self) -> int:
        """The largest device peak (0 for a failed run)."""
        return max(self.peaks.values(), default=0)


def measure_point(spec: ModelSpec, batch: int, memory_limit: Optional[int] = None,
                  launch: Optional[Callable] = None) -> Point:
    """Measures one batch size in a new process (``python -m tf1mem.memory measure``).

    Args:
      spec: the model.
      batch: the batch size.
      memory_limit: bytes; the child caps TensorFlow's allocator at this size first
        (``--memory-limit``), None for no cap.
      launch: how an uncapped point's process is started instead of
        ``subprocess.run``: ``launch(args, env)`` runs ``python -m tf1mem.memory
        *args`` with ``env`` and returns ``(returncode, stdout, stderr)`` (text), or
        None to have it started here after all (the warm runner's
        ``memory sweep --warm``). A capped point is always started here: its cap
        must be set before TensorFlow loads.

    Returns:
      The :class:`Point`; a failed run is a point with ``error`` set (and, under a
      cap, ``out_of_memory``), never an exception.
    """
    args = [sys.executable, "-m", COMMAND, "measure", "--json",
            "--model", spec.model, "--batch-size", str(batch), "--hidden", str(spec.hidden),
            "--dtype", spec.dtype, "--steps", str(spec.steps)]
    if memory_limit:
        args += ["--memory-limit", str(memory_limit)]
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    # The child must import this tf1mem, wherever it was imported from.
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    done = launch(args[3:], env) if launch is not None and not memory_limit else None
    if done is None:
        proc = subprocess.run(args, capture_output=True, text=True, env=env)
    else:
        proc = subprocess.CompletedProcess(args, *done)
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        tail = "\n".join(lines[-12:])
        # Under a cap, TensorFlow 2.21 sometimes dies of a signal instead of raising
        # ResourceExhaustedError (seen: SIGSEGV in session.run, the MLP at batch
        # 40000 under 32 MiB): either way the batch does not run in that memory.
        out_of_memory = bool(memory_limit) and (proc.returncode < 0 or any(
            line.startswith(f"{COMMAND}: error: out of memory") for line in lines))
        why = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exit {proc.returncode}")
        return Point(batch, {}, None, error=f"{why}: {tail}", out_of_memory=out_of_memory)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return Point(batch, {name: dev["peak_bytes"] for name, dev in data["devices"].items()},
                 data["step_seconds"],
                 allocator_peaks={name: dev["allocator_peak_bytes"]
                                  for name, dev in data["devices"].items()
                                  if dev.get("allocator_peak_bytes") is not None})


# -------------------------------------------------------------------- sweep

def run_sweep(spec: ModelSpec, batch_sizes: Sequence[int], csv_path: str, png_path: str,
              progress: bool = True, launch: Optional[Callable] = None) -> List[Point]:
    """Measures each batch size in its own process; prints the table, writes CSV and PNG.

    Args:
      spec: the model.
      batch_sizes: the batch sizes, in the order measured.
      csv_path: the CSV written (:data:`SWEEP_COLUMNS`, one row per point and device).
      png_path: the plot written, if matplotlib is installed (else a line says so).
      progress: whether a progress bar is shown on stderr (a terminal only:
        :func:`tf1mem._progress.bar`).
      launch: how each point's process is started (:func:`measure_point`).

    Returns:
      The points, one per batch size; a failed one has ``error`` set (shown as
      ``failed`` in the table, left out of the CSV and the plot).
    """
    points = []
    with _progress.bar(len(batch_sizes), "sweep", "run", progress) as bar:
        for batch in batch_sizes:
            bar.set_postfix(batch=batch)
            points.append(measure_point(spec, batch) if launch is None
                          else measure_point(spec, batch, launch=launch))
            bar.update(1)
    devices = sorted({d for p in points for d in p.peaks})
    # A device that held nothing at any point (the host of a GPU run, where only the
    # fed arrays' _Arg nodes ran) would add an all-zero column and line.
    devices = [d for d in devices if any(p.peaks.get(d) for p in points)] or devices
    header = ["batch"] + [f"peak {short_device(d)}" for d in devices] + [
        "step ms", "examples/s"]
    rows = [header]
    records = []
    for p in points:
        if p.error:
            rows.append([str(p.batch_size)] + ["failed"] * (len(header) - 1))
            continue
        rate = p.batch_size / p.step_seconds if p.step_seconds else None
        rows.append([str(p.batch_size)] + [format_bytes(p.peaks.get(d)) for d in devices]
                    + [f"{p.step_seconds * 1e3:.2f}" if p.step_seconds else "-",
                       f"{rate:.0f}" if rate else "-"])
        records.append((p, rate))
    print(f"{spec.label}, one process per point")
    print("\n".join(align_rows(rows)))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SWEEP_COLUMNS)
    for p, rate in records:
        for d in devices:
            writer.writerow([spec.model, spec.dtype, spec.hidden, p.batch_size, d,
                             p.peaks.get(d, ""), p.allocator_peaks.get(d, ""),
                             f"{p.step_seconds:.6f}" if p.step_seconds else "",
                             f"{rate:.1f}" if rate else ""])
    _atomic.write_text(csv_path, buf.getvalue())
    print(f"CSV: {csv_path}")
    print(_plot(spec, png_path, records, devices))
    return points


def read_sweep(path: str, spec: ModelSpec) -> List[Point]:
    """The points a sweep's CSV (``--from-sweep``) holds for ``spec``'s model.

    Raises:
      UsageError: the file cannot be read, is not a sweep's CSV, holds other models
        only, or holds a value no measurement gives (each message names the file).
    """
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise errors.UsageError(f"--from-sweep {path!r}: cannot read it: {exc}") from None
    if not rows or any(c not in rows[0] for c in _SWEEP_NEEDED):
        raise errors.UsageError(
            f"--from-sweep {path!r} is not a CSV written by `{COMMAND} sweep` (it needs the "
            f"columns {', '.join(_SWEEP_NEEDED)} and one row per point): give the sweep's "
            f"--csv file")
    wanted = spec.label
    held = sorted({model_label(r["model"], r["dtype"], r["hidden"]) for r in rows})
    if wanted not in held:
        raise errors.UsageError(
            f"--from-sweep {path!r} holds {', '.join(held)}, not {wanted}: pass the sweep's "
            f"--model, --dtype and --hidden, or leave out --from-sweep")
    by_batch: dict = {}
    for line, r in enumerate(rows, start=2):
        if model_label(r["model"], r["dtype"], r["hidden"]) != wanted:
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
        point = by_batch.setdefault(batch, Point(batch, {}, seconds, source=path))
        point.peaks[r["device"]] = peak
        if allocator is not None:
            point.allocator_peaks[r["device"]] = allocator
    return [by_batch[b] for b in sorted(by_batch)]


def main_device(point: Point) -> Optional[str]:
    """The short name (``GPU:0``) of the device that held the most, or None."""
    if not point.peaks:
        return None
    return short_device(max(point.peaks, key=lambda d: point.peaks[d]))


def _plot(spec: ModelSpec, png_path: str, records, devices) -> str:
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
                    marker="o", label=f"peak {short_device(d)}")
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
    ax_mem.set_title(f"{spec.label}: peak memory and throughput")
    fig.tight_layout()
    tmp = png_path + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, png_path)
    return f"PNG: {png_path}"
