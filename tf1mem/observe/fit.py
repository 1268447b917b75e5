"""The fit search: the largest batch whose measured peak stays within a memory budget.

:func:`find_fit` measures two probe sizes (or starts from a sweep's points), finds
the linear model's answer from the two measured points nearest the budget
(:mod:`tf1mem.observe.batch_model`) and measures it, a few rounds; where memory is
not linear in the batch (an allocator growing its regions in powers of two) it
bisects instead. Where the allocator can be capped (a GPU, or the CPU's BFC
allocator) the answer is confirmed by runs with the allocator capped at the budget
(:func:`confirm_under_cap`). Every trial is a point measured in its own process
(:func:`tf1mem.observe.sweep.measure_point`), so an out-of-memory error under the cap
answers a question and never reaches the user's program. The trials and the answer
are printed as they come. :func:`doubling_bisection_trials` counts what the usual
doubling-then-bisection search would have run. Messages name the command's flags
(``--budget``, ``--margin``, ``--probe-sizes``, ``--from-sweep``).
"""

from typing import Callable, List, Optional, Sequence

from tf1mem import errors
from tf1mem.observe import caps, sweep
from tf1mem.observe.batch_model import fit_linear, largest_batch
from tf1mem.observe.text import format_bytes

__all__ = ["find_fit", "confirm_under_cap", "doubling_bisection_trials"]

# Predict-and-measure rounds of fit before it falls back to bisection.
_FIT_ROUNDS = 4
# fit's bisections stop once the largest batch that fits and the smallest that does
# not are this close (a fraction of the former).
_PRECISION = 0.01


def find_fit(spec: sweep.ModelSpec, budget: int, margin: float, probe_sizes: Sequence[int],
             from_sweep: Optional[str] = None, launch: Optional[Callable] = None) -> int:
    """Finds, measures and prints the largest batch within ``budget * (1 - margin)``.

    Args:
      spec: the model.
      budget: bytes; with a cappable allocator, also the cap of the confirming runs.
      margin: the fraction of the budget kept free, in [0, 1).
      probe_sizes: batch sizes measured first for the linear model (the first two
        that are needed are measured).
      from_sweep: a sweep's CSV (:func:`tf1mem.observe.sweep.read_sweep`) whose
        points of this model count as trials already run, or None.
      launch: how an uncapped trial's process is started
        (:func:`tf1mem.observe.sweep.measure_point`); capped trials start cold.

    Returns:
      The answer: the largest batch found to fit.

    Raises:
      UsageError: ``from_sweep`` is not a sweep of this model on this device.
      tf1mem.Error: a trial failed, or even the smallest batch is over the budget.
    """
    usable = int(budget * (1 - margin))
    trials: List[sweep.Point] = []

    def run(batch, why, capped=False):
        limit = budget if capped else None
        point = (sweep.measure_point(spec, batch, limit) if launch is None
                 else sweep.measure_point(spec, batch, limit, launch=launch))
        trials.append(point)
        swept = [p for p in trials if p.source]
        if swept and point.peaks and sweep.main_device(point) != sweep.main_device(swept[0]):
            raise errors.UsageError(
                f"the sweep in {from_sweep!r} measured the model on "
                f"{sweep.main_device(swept[0])}, but here it runs on {sweep.main_device(point)}: "
                f"its points say nothing about this machine; sweep here, or leave out "
                f"--from-sweep")
        cap = f" (cap {format_bytes(budget)})" if capped else ""
        if point.out_of_memory:
            what = ("TensorFlow " + point.error.split(":")[0] if point.error.startswith("killed")
                    else "out of memory")
            print(f"trial {len(trials)}: batch {batch:>7}  {what} under the cap  ({why})")
            return point
        status = "failed" if point.error else format_bytes(point.peak)
        verdict = "" if point.error else ("  fits" if point.peak <= usable else "  over")
        print(f"trial {len(trials)}: batch {batch:>7}  peak {status}{cap}{verdict}  ({why})")
        if point.error:
            raise errors.Error(f"measuring batch {batch} failed: {point.error}")
        return point

    print(f"budget {format_bytes(budget)}, margin {margin:.0%}: "
          f"usable {format_bytes(usable)}")
    if from_sweep:
        for point in sweep.read_sweep(from_sweep, spec):
            trials.append(point)
            verdict = "fits" if point.peak <= usable else "over"
            print(f"trial {len(trials)}: batch {point.batch_size:>7}  peak "
                  f"{format_bytes(point.peak)}  {verdict}  (from the sweep)")
    for batch in probe_sizes[:2]:
        if not _can_predict(trials, usable) and batch not in {p.batch_size for p in trials}:
            run(batch, "probe")
    fits = [p for p in trials if p.peak <= usable]
    smallest = min(trials, key=lambda p: p.batch_size)
    if not fits:
        raise errors.Error(
            f"even batch {smallest.batch_size} needs {format_bytes(smallest.peak)}, "
            f"over the usable {format_bytes(usable)}: give a larger --budget, a "
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
        intercept, slope = fit_linear((p.batch_size, p.peak) for p in pair)
        if slope <= 0:
            break
        guess = largest_batch(intercept, slope, usable)
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
        answer, confirmed = confirm_under_cap(answer, trials, usable, run)
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
    print(f"answer: batch {answer} ({format_bytes(confirmed.peak)} {how}, usable "
          f"{format_bytes(usable)}), {len(measured)} measured "
          f"{'trial' if len(measured) == 1 else 'trials'}, each in its own process"
          + (f", and {swept} points from the sweep" if swept else ""))
    print(f"note: doubling from 1 then bisecting would take {naive} trials, the one that "
          f"first doubles past {answer} running out of memory on the device")
    return answer


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
    return on_gpu or caps.cpu_bfc_requested()


def confirm_under_cap(answer, trials, usable, run):
    """The largest batch that runs with TensorFlow's allocator capped at the budget.

    The live tensors are not the whole cost: TensorFlow's BFC allocator (every GPU's,
    and the CPU's under a cap) hands out a whole free chunk when splitting it would
    leave too little, so near a cap a step can need more than its tensors (seen on
    an H200: the batch whose uncapped peak was 243 MiB ran out on a GPU capped at
    256 MiB). The linear model's answer is therefore run again under the cap; if it
    runs out or goes over, 10% less is tried, then bisection between what ran and
    what did not, to within 1%. Each run is its own process: an out-of-memory error
    there is the answer to a question, not a failure of the user's program.

    Args:
      answer: the batch the uncapped trials found.
      trials: the points measured so far (the smallest is the floor of the search).
      usable: bytes a batch's peak may reach.
      run: ``run(batch, why, capped=True) -> Point`` measures one trial.

    Returns:
      ``(batch, point)``: the largest batch that ran within ``usable`` under the cap,
      and its point.

    Raises:
      tf1mem.Error: even the smallest trial's batch does not run under the cap.
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
                f"{format_bytes(usable)} with the allocator capped at the budget: "
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
