"""scripts/gpu_check.py on a machine without a GPU: a clear skip, exit 0.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_gpu_check.py.
"""

import json

from tests import _subproc

SCRIPT = _subproc.REPO / "scripts" / "gpu_check.py"


def _load_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reserved_memory_falls_back_to_the_device_rise():
    # Where nvidia-smi lists no processes (a container's own PID namespace), what a
    # process holds is the rise in the device's memory in use while it runs.
    gpu_check = _load_script()
    assert gpu_check._reserve_mib({"nvidia_smi_process_mib": 512,
                                   "nvidia_smi_used_before_mib": 0,
                                   "nvidia_smi_used_mib": 900}) == 512
    assert gpu_check._reserve_mib({"nvidia_smi_process_mib": None,
                                   "nvidia_smi_used_before_mib": 4,
                                   "nvidia_smi_used_mib": 29000}) == 28996
    assert gpu_check._reserve_mib({"nvidia_smi_process_mib": None,
                                   "nvidia_smi_used_before_mib": None,
                                   "nvidia_smi_used_mib": 29000}) is None


def test_a_check_that_raises_is_a_failed_check_and_the_run_goes_on():
    gpu_check = _load_script()

    def broken():
        raise RuntimeError("exit 1: no kernel image for this device")

    result = gpu_check._timed(broken)
    assert result["ok"] is False
    assert result["error"] == "RuntimeError: exit 1: no kernel image for this device"
    assert "seconds" in result
    assert gpu_check._timed(lambda: {"ok": True})["ok"] is True


def test_the_fit_check_reads_an_answer_confirmed_under_the_cap(monkeypatch, tmp_path,
                                                               capsys):
    # gpu_check passes when fit started from the sweep and confirmed under the cap; the
    # line it looks for is fit's own (here fit runs on a fake GPU whose peak is linear).
    from tests.unit.test_memory_command import FIT_MLP, _LinearDevice, _sweep_csv
    from tf1mem import memory as memory_cmd
    from tf1mem.observe import sweep

    gpu_check = _load_script()
    path = _sweep_csv(monkeypatch, tmp_path)
    assert memory_cmd.main([*FIT_MLP, "--from-sweep", path]) == 0
    out = capsys.readouterr().out
    match = gpu_check.FIT_ANSWER.search(out)
    assert match and f"answer: batch {match.group(1)} " in out, out
    # Where the allocator cannot be capped (the CPU's default), the check must not pass.
    monkeypatch.setattr(sweep, "measure_point", _LinearDevice("/device:CPU:0"))
    monkeypatch.delenv("TF_CPU_ALLOCATOR_USE_BFC", raising=False)
    assert memory_cmd.main(FIT_MLP) == 0
    assert gpu_check.FIT_ANSWER.search(capsys.readouterr().out) is None


class _Finished:
    """A child that already printed its JSON (what _python_beside returns)."""

    args, returncode = ["measure"], 0

    def __init__(self, data):
        self.out = json.dumps(data) + "\n"

    def communicate(self, timeout=None):
        return self.out, ""

    def poll(self):
        return self.returncode


def test_prediction_is_the_cpu_peak_plus_feeds_against_the_sweeps_gpu_point():
    gpu_check = _load_script()
    cpu = {"devices": {"/job:localhost/replica:0/task:0/device:CPU:0": {
        "peak_bytes": 37015632, "fed_bytes": 13008896}}}
    rows = [{"batch_size": "1024", "device": "/device:GPU:0", "peak_bytes": "14985000",
             "allocator_peak_bytes": "15000000"},
            {"batch_size": str(gpu_check.BATCH), "device": "/device:GPU:0",
             "peak_bytes": "50024488", "allocator_peak_bytes": "49867264"}]
    result = gpu_check._check_prediction(_Finished(cpu), {"sweep": {"rows": rows}})
    assert result["predicted_bytes"] == 37015632 + 13008896
    assert result["ok"] and abs(result["ratio"] - 1) < 1e-6
    rows[1]["peak_bytes"] = str(int(50024528 * 1.2))  # off by 20%: a failed check
    assert not gpu_check._check_prediction(_Finished(cpu), {"sweep": {"rows": rows}})["ok"]
    result = gpu_check._timed(gpu_check._check_prediction, _Finished(cpu),
                              {"sweep": {"rows": rows[:1]}})
    assert result["error"] == f"RuntimeError: the sweep has no GPU point at batch " \
                              f"{gpu_check.BATCH}"


def test_one_run_puts_every_check_in_the_report_and_the_summary(monkeypatch, tmp_path,
                                                                capsys):
    # The orchestration, with the GPU work faked: what a lent GPU runs in one go.
    gpu_check = _load_script()
    mode = {"nvidia_smi_process_mib": None, "nvidia_smi_used_before_mib": 10,
            "tf_current_bytes": 0, "tf_peak_bytes": 4 << 20, "device_limit_bytes": 1 << 30}
    modes = {"default": {**mode, "nvidia_smi_used_mib": 9000, "reserved_mib": 8990,
                         "about": {"tensorflow": "2.21.0", "build": {}, "gpu_details": []}},
             "allow_growth": {**mode, "nvidia_smi_used_mib": 500, "reserved_mib": 490,
                              "warning": {"warned": ["ignored"], "first_limit_bytes": [1],
                                          "second_limit_bytes": [1]}},
             "fraction_0.2": {**mode, "nvidia_smi_used_mib": 2000, "reserved_mib": 1990,
                              "memory_stats": {"max_bytes_in_use": 4 << 20,
                                               "bytes_limit": 1 << 30}}}
    monkeypatch.setattr(gpu_check, "_nvidia_smi", lambda *q: "NVIDIA H200, 1, 143771 MiB")
    monkeypatch.setattr(gpu_check, "_check_reserve", lambda: {"ok": True, "modes": modes})
    rows = [{"batch_size": str(gpu_check.BATCH), "device": "/device:GPU:0",
             "peak_bytes": "1000", "allocator_peak_bytes": "1000"}]
    monkeypatch.setattr(gpu_check, "_check_sweep_fit", lambda folder, warm=False: {
        "ok": True, "sweep": {"stdout": "sweep table\n", "rows": rows},
        "fit": {"stdout": "answer: batch 7\n"}})
    monkeypatch.setattr(gpu_check, "_measure_cpu", lambda: _Finished(
        {"devices": {"/device:CPU:0": {"peak_bytes": 900, "fed_bytes": 100}}}))
    report = gpu_check._run_checks(str(tmp_path))
    assert [k for k in report if isinstance(report[k], dict) and "ok" in report[k]] == [
        "reserve", "warning", "memory_stats", "sweep_fit", "prediction", "total"]
    assert report["warning"]["ok"] and report["prediction"]["ratio"] == 1.0
    assert report["memory_stats"]["ok"]
    assert report["about"]["tensorflow"] == "2.21.0"
    assert report["total"]["ok"] and report["total"]["seconds"] < gpu_check.GOAL_SECONDS
    assert gpu_check._summary(report) == []
    out = capsys.readouterr().out
    assert "reserve allow_growth: 490 MiB held" in out and "answer: batch 7" in out
    assert "memory_stats: BytesLimit 1073741824 B (device limit 1073741824 B)" in out
    # BytesLimit reporting what the eager runtime would compute, not the session's
    # limit, is a failed check
    modes["fraction_0.2"]["memory_stats"]["bytes_limit"] = 80 << 30
    assert not gpu_check._check_memory_stats({"modes": modes})["ok"]
    assert "total: ok  (the whole run within 240 s)" in out


def test_a_fit_that_times_out_keeps_the_sweep_and_its_trials(monkeypatch, tmp_path):
    import subprocess

    gpu_check = _load_script()

    def python(args, timeout=None, **env):
        if "sweep" in args:
            csv_path = args[args.index("--csv") + 1]
            with open(csv_path, "w") as f:
                f.write("model,dtype,hidden,batch_size,device,peak_bytes,allocator_peak_bytes,"
                        "step_seconds,examples_per_second\n"
                        "mlp,float32,1024,4096,/device:GPU:0,50024488,49867264,0.005,815078\n")
            return subprocess.CompletedProcess(args, 0, "sweep table\n", "")
        assert timeout == gpu_check.COMMAND_TIMEOUT
        raise subprocess.TimeoutExpired(args, timeout, output=b"trial 1: batch 256\n",
                                        stderr=b"")

    monkeypatch.setattr(gpu_check, "_python", python)
    result = gpu_check._check_sweep_fit(str(tmp_path))
    assert not result["ok"]
    assert result["sweep"]["rows"][0]["peak_bytes"] == "50024488"
    assert result["fit"]["stdout"] == "trial 1: batch 256\n"
    assert result["fit"]["stderr_tail"].startswith(
        f"timed out after {gpu_check.COMMAND_TIMEOUT} s")
