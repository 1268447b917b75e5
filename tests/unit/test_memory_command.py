"""``python -m tf1mem.memory``: measure, sweep, fit and the out-of-memory explanation, run
as a user runs them (subprocesses), on real measurements.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_memory_command.py.
"""

import csv
import re

import pytest

from tf1mem import memory as memory_cmd
from tf1mem.observe import fit, sweep, text


class _CappedRuns:
    """A fake ``run`` for fit's capped confirmation: batches up to ``fits`` run
    within the usable memory; larger ones run out under the cap."""

    def __init__(self, fits):
        self.fits, self.batches = fits, []

    def __call__(self, batch, why, capped=False):
        assert capped
        self.batches.append(batch)
        if batch > self.fits:
            return sweep.Point(batch, {}, None, error="exit 1", out_of_memory=True)
        return sweep.Point(batch, {"/device:GPU:0": 100 + batch}, 0.01)


def _probes():
    return [sweep.Point(b, {"/device:GPU:0": 100 + b}, 0.01) for b in (256, 1024)]


def test_a_capped_run_killed_by_a_signal_did_not_run_in_that_memory(monkeypatch):
    # TensorFlow 2.21 died of SIGSEGV instead of raising ResourceExhaustedError for
    # the MLP at batch 40000 under a 32 MiB cap: the batch does not run there.
    import subprocess

    def killed(args, **kw):
        assert args[args.index("--memory-limit") + 1] == str(32 * 2**20)
        return subprocess.CompletedProcess(args, -11, "", "Fatal Python error: "
                                           "Segmentation fault\n")

    monkeypatch.setattr(sweep.subprocess, "run", killed)
    spec = sweep.ModelSpec(model="mlp", hidden=256, dtype="float32", steps=1)
    point = sweep.measure_point(spec, 40000, 32 * 2**20)
    assert point.out_of_memory and point.error.startswith("killed by signal 11")
    monkeypatch.setattr(sweep.subprocess, "run", lambda args, **kw:
                        subprocess.CompletedProcess(args, -11, "", "crash\n"))
    uncapped = sweep.measure_point(spec, 40000)
    assert not uncapped.out_of_memory and uncapped.error.startswith("killed by signal 11")


def test_fit_confirmation_under_the_cap_steps_down_to_what_runs():
    # On an H200 the linear model's answer (22064, uncapped peak 243 MiB) ran out on
    # a GPU capped at 256 MiB. The confirmation must then find, under the cap, the
    # largest batch that runs, to within 1%, in a handful of runs.
    runs = _CappedRuns(fits=20500)
    answer, point = fit.confirm_under_cap(22064, _probes(), 10**9, runs)
    assert runs.batches[:2] == [22064, 19857]  # the answer, then 10% less
    assert 20500 - 205 <= answer <= 20500 and point.batch_size == answer
    assert all(b <= 20500 for b in runs.batches if b == answer)
    assert len(runs.batches) <= 7


def test_fit_confirmation_keeps_an_answer_that_runs_under_the_cap():
    runs = _CappedRuns(fits=30000)
    assert fit.confirm_under_cap(22064, _probes(), 10**9, runs)[0] == 22064
    assert runs.batches == [22064]


def test_fit_confirmation_far_off_bisects_from_the_smallest_probe():
    runs = _CappedRuns(fits=3000)
    answer, _ = fit.confirm_under_cap(22064, _probes(), 10**9, runs)
    assert runs.batches[:3] == [22064, 19857, 256]
    assert 3000 - 30 <= answer <= 3000


def test_fit_confirmation_gives_up_clearly_when_nothing_runs_under_the_cap():
    with pytest.raises(memory_cmd.errors.Error, match="even batch 256 does not run"):
        fit.confirm_under_cap(22064, _probes(), 10**9, _CappedRuns(fits=100))


def test_sweep_leaves_out_a_device_that_held_nothing(monkeypatch, tmp_path, capsys):
    # On the H200 the host CPU appeared in every point's trace with a peak of 0 (only
    # the feeds' _Arg nodes ran there): its column and plot line said nothing.
    import argparse

    gpu, cpu = "/device:GPU:0", "/device:CPU:0"
    monkeypatch.setattr(sweep, "measure_point", lambda ns, batch, limit=None:
                        sweep.Point(batch, {cpu: 0, gpu: 1000 * batch}, 0.01))
    ns = argparse.Namespace(model="mlp", hidden=8, dtype="float32", steps=1,
                            batch_sizes=(2, 4), csv=str(tmp_path / "s.csv"),
                            png=str(tmp_path / "s.png"), progress=False,
                            keep_reports=False)
    assert memory_cmd._sweep(ns) == 0
    out = capsys.readouterr().out
    assert "peak GPU:0" in out and "peak CPU:0" not in out
    assert "CPU" not in (tmp_path / "s.csv").read_text()


class _LinearDevice:
    """A fake ``sweep.measure_point``: the peak on ``device`` is linear in the batch;
    under a cap, a batch runs if its peak is within the cap."""

    def __init__(self, device="/device:GPU:0", base=3_000_000, per_example=11_000):
        self.device, self.base, self.per_example = device, base, per_example
        self.calls = []

    def __call__(self, ns, batch, limit=None):
        self.calls.append((batch, limit))
        peak = self.base + self.per_example * batch
        if limit is not None and peak > limit:
            return sweep.Point(batch, {}, None, error="exit 1", out_of_memory=True)
        return sweep.Point(batch, {self.device: peak}, 0.001 * batch / 1000,
                           allocator_peaks={self.device: peak + 4096})


def _sweep_csv(monkeypatch, tmp_path, hidden=1024, batches=(256, 1024, 4096)):
    import argparse

    monkeypatch.setattr(sweep, "measure_point", _LinearDevice())
    ns = argparse.Namespace(model="mlp", hidden=hidden, dtype="float32", steps=1,
                            batch_sizes=batches, csv=str(tmp_path / "sweep.csv"),
                            png=str(tmp_path / "sweep.png"), progress=False,
                            keep_reports=False)
    assert memory_cmd._sweep(ns) == 0
    return ns.csv


FIT_MLP = ["fit", "--model", "mlp", "--hidden", "1024", "--budget", "256MiB", "--no-progress"]


def test_sweep_csv_keeps_the_allocator_peak(monkeypatch, tmp_path):
    with open(_sweep_csv(monkeypatch, tmp_path)) as f:
        rows = list(csv.DictReader(f))
    assert [(r["batch_size"], r["peak_bytes"], r["allocator_peak_bytes"]) for r in rows] == [
        (str(b), str(3_000_000 + 11_000 * b), str(3_000_000 + 11_000 * b + 4096))
        for b in (256, 1024, 4096)]


def test_fit_from_a_sweep_measures_only_what_the_sweep_did_not(monkeypatch, tmp_path, capsys):
    # A sweep already measured 256, 1024 and 4096: fit must not measure them again, and
    # its linear model through 1024 and 4096 lands on the answer at once.
    path = _sweep_csv(monkeypatch, tmp_path)
    device = _LinearDevice()
    monkeypatch.setattr(sweep, "measure_point", device)
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", path]) == 0
    out = capsys.readouterr().out
    usable = int(256 * 2**20 * 0.95)
    best = (usable - 3_000_000) // 11_000
    assert device.calls == [(best, None), (best, 256 * 2**20)], out
    assert f"answer: batch {best} " in out
    assert "2 measured trials, each in its own process, and 3 points from the sweep" in out
    assert out.count("(from the sweep)") == 3


def test_fit_from_a_sweep_of_one_point_measures_a_probe(monkeypatch, tmp_path, capsys):
    path = _sweep_csv(monkeypatch, tmp_path, batches=(4096,))
    device = _LinearDevice()
    monkeypatch.setattr(sweep, "measure_point", device)
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", path]) == 0
    assert device.calls[0] == (256, None)  # one probe, below the sweep's point
    assert [b for b, _ in device.calls].count(4096) == 0


def test_fit_from_a_sweep_of_another_model_is_refused(monkeypatch, tmp_path, capsys):
    path = _sweep_csv(monkeypatch, tmp_path, hidden=256)
    device = _LinearDevice()
    monkeypatch.setattr(sweep, "measure_point", device)
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", path]) == 2
    err = capsys.readouterr().err
    assert f"--from-sweep {path!r} holds mlp (float32, hidden 256), not mlp (float32, " \
        "hidden 1024)" in err
    assert device.calls == []


def test_fit_from_a_sweep_on_another_device_is_refused(monkeypatch, tmp_path, capsys):
    # The sweep ran on a GPU; here the model runs on the CPU: its points do not apply.
    path = _sweep_csv(monkeypatch, tmp_path, batches=(256, 1024))
    monkeypatch.setattr(sweep, "measure_point", _LinearDevice("/device:CPU:0"))
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", path]) == 2
    err = capsys.readouterr().err
    assert "measured the model on GPU:0, but here it runs on CPU:0" in err


@pytest.mark.parametrize("text,needle", [
    ("a,b\n1,2\n", "is not a CSV written by `tf1mem.memory sweep`"),
    ("", "is not a CSV written by `tf1mem.memory sweep`"),
    ("model,dtype,hidden,batch_size,device,peak_bytes\nmlp,float32,1024,many,GPU:0,5\n",
     "line 2: batch_size 'many'"),
])
def test_fit_from_a_file_that_is_not_a_sweep_is_refused(tmp_path, capsys, text, needle):
    path = tmp_path / "other.csv"
    path.write_text(text)
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", str(path)]) == 2
    assert needle in capsys.readouterr().err
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", str(tmp_path / "none.csv")]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_fit_bisects_where_memory_steps_instead_of_growing_linearly(monkeypatch, capsys):
    # Measured on this CPU with TF_CPU_ALLOCATOR_USE_BFC=1 (MLP, hidden 256): the peak
    # was 34.00 MiB at batch 16384 and 66.00 MiB at 16385, as the allocator grows its
    # regions in powers of two and hands a new region whole to a tensor over half of
    # it. The linear model then lands over the budget again and again; fit must
    # switch to bisection and still find the step, to within 1%.
    def stepped(ns, batch, limit=None):
        calls.append(batch)
        peak = 1_000_000 + 2048 * batch
        return sweep.Point(batch, {"/device:CPU:0": peak if batch <= 16384 else 2 * peak},
                           0.01)

    calls = []
    monkeypatch.setattr(sweep, "measure_point", stepped)
    monkeypatch.delenv("TF_CPU_ALLOCATOR_USE_BFC", raising=False)
    assert memory_cmd.main(["fit", "--model", "mlp", "--hidden", "256", "--budget", "64MiB",
                            "--no-progress"]) == 0
    out = capsys.readouterr().out
    answer = int(re.search(r"^answer: batch (\d+)", out, re.M).group(1))
    assert 16384 - 163 <= answer <= 16384, out
    # On the real CPU, four linear guesses and bisection to the exact batch took 20 runs.
    assert len(calls) <= 12 and "(bisect)" in out, out


def test_fit_goes_on_predicting_when_a_guess_lands_just_over(monkeypatch, capsys):
    # A real run: the budget was batch 3000's measured peak; the probes under-stated
    # the slope, so the first guess landed well over, and the second, 3000, measured
    # a few bytes more than before. The linear model is right there; bisecting from
    # 1024 would cost seven more runs.
    def noisy(ns, batch, limit=None):
        calls.append(batch)
        peak = peak_at(batch) + (64 if batch == 3000 else 0)
        return sweep.Point(batch, {"/device:CPU:0": peak}, 0.01)

    def peak_at(batch):
        return 1_000_000 + 2000 * batch + 500 * max(0, batch - 1024)

    calls = []
    monkeypatch.setattr(sweep, "measure_point", noisy)
    monkeypatch.delenv("TF_CPU_ALLOCATOR_USE_BFC", raising=False)
    assert memory_cmd.main(["fit", "--budget", str(peak_at(3000)), "--margin", "0",
                            "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert calls == [256, 1024, 3494, 3000, 2999] and "answer: batch 2999 " in out, out


def test_doubling_bisection_count():
    # 1,2,4,8 fit; 16 fails; bisect 8..16: 12 fails, 10 fits, 11 fails -> 8 trials.
    assert fit.doubling_bisection_trials(10) == 8
    assert fit.doubling_bisection_trials(1) == 2


@pytest.mark.parametrize("args,needle", [
    (["fit", "--budget", "lots"], "--budget must be a size such as 512MiB"),
    (["fit", "--budget", "lots"], "'lots'"),
    (["fit", "--budget", "1GiB", "--margin", "150%"], "--margin must be in [0, 1)"),
    (["sweep", "--batch-sizes", "32,x"], "bad item 'x'"),
    (["measure", "--batch-size", "0"], "--batch-size must be an integer >= 1, got 0"),
])
def test_bad_values_are_named(args, needle, capsys):
    with pytest.raises(SystemExit) as exc:
        memory_cmd.main(args)
    assert exc.value.code == 2
    assert needle in capsys.readouterr().err


def test_device_labels_tell_tasks_apart():
    # The table must tell the two tasks' CPUs apart (both are "CPU:0").
    labels = text.device_labels(["/job:local/replica:0/task:0/device:CPU:0",
                                 "/job:local/replica:0/task:1/device:CPU:0"])
    assert sorted(labels.values()) == ["local:task0/CPU:0", "local:task1/CPU:0"]
    assert text.device_labels(["/job:localhost/replica:0/task:0/device:CPU:0"]) == {
        "/job:localhost/replica:0/task:0/device:CPU:0": "CPU:0"}
