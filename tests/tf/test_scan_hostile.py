"""The scanner against hostile or unusual files: it reads what python reads, never
opens what is not a regular file, caps the size it reads, turns a per-file failure
into that file's error and goes on, and says "will stop" only for a line that runs
when the module runs."""

import os
import subprocess
import sys
import threading

import pytest

from tf1mem.migrate import scanner

REMOVED = "import tensorflow as tf\n"


@pytest.fixture(scope="module")
def knowledge():
    from tf1mem.migrate.knowledge import Knowledge

    with Knowledge() as k:
        yield k


def _scan(path, knowledge):
    result = {}

    def work():
        result["report"] = scanner.scan_file(path, knowledge)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(120)  # a hang guard: a FIFO opened for reading waits for a writer
    assert not thread.is_alive(), f"the scan of {path} hung"
    return result["report"]


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


def test_a_fifo_and_a_link_to_a_device_are_skipped_never_opened(tmp_path, knowledge):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    for name in ("pipe.py", "zero.py"):
        report = _scan(tmp_path / name, knowledge)
        assert report.errors == ["was skipped: not a regular file (a FIFO, device or "
                                 "folder is never opened)"], report.errors
        assert report.verdict().startswith("not scanned")
    files = scanner.iter_files([tmp_path])
    assert sorted(p.name for p in files) == ["pipe.py", "zero.py"]  # listed, not dropped


def test_a_file_over_the_cap_is_skipped_with_the_cap_stated(tmp_path, knowledge):
    big = tmp_path / "big.py"
    with open(big, "wb") as f:
        f.truncate(scanner.MAX_BYTES + 1)
    report = scanner.scan_file(big, knowledge)
    assert report.errors == [f"was skipped: {scanner.MAX_BYTES + 1} bytes, over the "
                             f"scanner's {scanner.MAX_BYTES} byte limit"]


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


def test_a_removed_name_in_a_function_stops_only_when_it_is_called(tmp_path, knowledge):
    path = tmp_path / "lazy.py"
    path.write_text(REMOVED +
                    "def train():\n"
                    "    return tf.contrib.opt.LARSOptimizer\n"
                    "class Model:\n"
                    "    def build(self):\n"
                    "        return tf.contrib.opt.LARSOptimizer\n"
                    "print('ok')\n")
    report = scanner.scan_file(path, knowledge)
    assert report.stop is None
    assert report.verdict().startswith("runs under tf1mem.run; calling train() would stop "
                                       "at line 3 because")
    assert [f.function for f in report.findings] == ["train", "Model.build"]
    # a decorator, a default value and a class body run with the module
    path.write_text(REMOVED + "class C:\n    k = tf.contrib.opt.LARSOptimizer\n")
    assert scanner.scan_file(path, knowledge).stop.line == 3
    path.write_text(REMOVED + "def f(k=tf.contrib.opt.LARSOptimizer):\n    pass\n")
    assert scanner.scan_file(path, knowledge).stop.line == 2
