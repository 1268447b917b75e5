"""The scanner against hostile or unusual files: it reads what python reads, never
opens what is not a regular file, caps the size it reads, turns a per-file failure
into that file's error and goes on, and says "will stop" only for a line that runs
when the module runs.

The tests here: the commands in subprocesses; the rest: tests/tf/test_scan_hostile.py.
"""

import os
import subprocess
import sys

import pytest

from tests.tf.test_scan_hostile import REMOVED, knowledge  # noqa: F401 (fixture: knowledge)
from tf1mem.migrate import scanner


def test_a_long_expression_is_that_files_error_or_scanned_and_the_scan_goes_on(
        tmp_path, knowledge):
    deep = tmp_path / "deep.py"
    deep.write_text(REMOVED + "x = " + " + ".join(["tf.constant(1)"] * 800) + "\n")
    other = tmp_path / "other.py"
    other.write_text(REMOVED + "tf.contrib.opt.LARSOptimizer\n")
    reports = [scanner.scan_file(p, knowledge) for p in (deep, other)]
    assert subprocess.run([sys.executable, str(deep)], capture_output=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")).returncode == 0
    # python runs it; the scanner either scans it or says why not, and goes on
    assert not reports[0].errors or "nested too deeply" in reports[0].errors[0]
    assert reports[1].stop is not None


@pytest.mark.parametrize("data", [
    "# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = 'caf\xe9'\n"
    "tf.contrib.opt.LARSOptimizer\n".encode("latin-1"),
    b"\xef\xbb\xbfimport tensorflow as tf\ntf.contrib.opt.LARSOptimizer\n",
], ids=["latin-1 cookie", "utf-8 bom"])
def test_files_python_reads_are_read(tmp_path, knowledge, data):
    path = tmp_path / "f.py"
    path.write_bytes(data)
    assert subprocess.run([sys.executable, "-c", f"compile(open({str(path)!r}, 'rb').read(), "
                           f"'f', 'exec')"]).returncode == 0  # python reads it
    report = scanner.scan_file(path, knowledge)
    assert not report.errors, report.errors
    assert report.stop is not None and report.stop.line == data.count(b"\n")
