"""scripts/gpu_check.py on a machine without a GPU: a clear skip, exit 0.

The tests here: the commands in subprocesses; the rest: tests/unit/test_gpu_check.py.
"""

import json
import os
import stat

from tests import _subproc
from tests.unit.test_gpu_check import SCRIPT


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
