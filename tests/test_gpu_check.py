"""scripts/gpu_check.py on a machine without a GPU: a clear skip, exit 0."""

import json
import os
import stat
import sys

from tests import _subproc

SCRIPT = _subproc.REPO / "scripts" / "gpu_check.py"


def test_no_nvidia_smi_skips(tmp_path):
    out = tmp_path / "gpu.json"
    proc = _subproc.run([SCRIPT, "--json", out], env={"PATH": str(tmp_path)}, timeout=60,
                        check_rc=0)
    assert "gpu_check: no GPU: skipped (nvidia-smi not found)" in proc.stdout
    assert json.loads(out.read_text()) == {"skipped": "nvidia-smi not found"}


def test_nvidia_smi_without_gpu_skips(tmp_path):
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho 'No devices were found' >&2\nexit 6\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    out = tmp_path / "gpu.json"
    proc = _subproc.run([SCRIPT, "--json", out],
                        env={"PATH": os.pathsep.join([str(tmp_path), os.environ["PATH"]])},
                        timeout=60, check_rc=0)
    assert "no GPU: skipped (nvidia-smi -L lists no GPU (exit 6))" in proc.stdout, proc.stdout
    assert json.loads(out.read_text())["skipped"].startswith("nvidia-smi -L lists no GPU")


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
