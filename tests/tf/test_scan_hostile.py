"""The scanner against hostile or unusual files: it reads what python reads, never
opens what is not a regular file, caps the size it reads, turns a per-file failure
into that file's error and goes on, and says "will stop" only for a line that runs
when the module runs.

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_scan_hostile.py.
"""

import os
import threading
import warnings

import pytest

from tf1mem.migrate import scanner

REMOVED = "import tensorflow as tf\n"


# The scanner installs the shim in this process. When an earlier test (or the collection
# of tests/tf/test_config.py) has imported TensorFlow, and with it Keras 3, the shim warns
# that tf.layers may fail; nothing scanned here builds a Keras layer.
KERAS_FIRST = "Keras 3 was imported before tf1mem's shim"


@pytest.fixture(scope="module")
def knowledge():
    from tf1mem.migrate.knowledge import Knowledge

    knowledge = Knowledge()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=KERAS_FIRST, category=RuntimeWarning)
        knowledge.__enter__()
    try:
        yield knowledge
    finally:
        knowledge.__exit__(None, None, None)


def _scan(path, knowledge):
    result = {}

    def work():
        result["report"] = scanner.scan_file(path, knowledge)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(120)  # a hang guard: a FIFO opened for reading waits for a writer
    assert not thread.is_alive(), f"the scan of {path} hung"
    return result["report"]


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
