"""The MNIST loader against hostile files: decompression bombs, SHA256SUMS as sha256sum
writes it, and a seeded fuzz of corruptions (no raw traceback, no silently wrong data,
memory bounded). No TensorFlow: the loader and the fetcher are plain NumPy.

The tests here: the commands in subprocesses; the rest: tests/unit/test_loader_hostile.py.
"""

import textwrap

import pytest

from tests import _subproc
from tests._mnist_fixtures import write_fake_mnist
from tests.unit.test_loader_hostile import IMAGES, NAMES, _write_labels
from tf1mem.data import fetch


# --- labels out of range, counts that differ -----------------------------------------


@pytest.mark.slow
def test_train_exits_3_on_a_label_out_of_range(tmp_path):
    import numpy

    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=120, n_test=30, sha256sums=False)
    labels = numpy.arange(120, dtype=numpy.uint8) % 10
    labels[3] = 255
    _write_labels(folder, "train-labels-idx1-ubyte.gz", labels)
    proc = _subproc.run(["-m", "tf1mem.train", "--data-dir", folder, "--steps", "1"],
                        cwd=tmp_path, env={"TF1MEM_ARRAY_CACHE": "0"})
    assert proc.returncode == 3, _subproc.describe(proc)
    assert "label 255 at position 3" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- one fetch per file under concurrency ---------------------------------------------


def _slow_mirror(folder, counts, delay_s=0.5):
    """A loopback HTTP mirror of ``folder`` that counts requests per file and answers
    each after ``delay_s`` (so concurrent loads overlap)."""
    import http.server
    import threading
    import time

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def do_GET(self):
            name = self.path.lstrip("/")
            counts[name] = counts.get(name, 0) + 1
            time.sleep(delay_s)
            super().do_GET()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def test_four_processes_loading_at_once_download_each_file_once(tmp_path):
    mirror = tmp_path / "mirror"
    sums = write_fake_mnist(mirror, n_train=40, n_test=10, sha256sums=False)
    counts = {}
    server, url = _slow_mirror(mirror, counts)
    try:
        data = tmp_path / "data"
        code = textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {str(_subproc.REPO)!r})
            from tf1mem.data import input_data
            d = input_data.read_data_sets({str(data)!r}, validation_size=10, progress=False,
                                          cache=False, source_url={url!r},
                                          checksums={sums!r})
            print("OK", int(d.train.images.sum()))
        """)
        import subprocess
        import sys

        env = dict(__import__("os").environ, TF1MEM_CACHE_DIR=str(tmp_path / "cache"))
        procs = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(4)]
        outs = [p.communicate(timeout=_subproc.bound(600)) for p in procs]
    finally:
        server.shutdown()
        server.server_close()
    assert all(p.returncode == 0 for p in procs), outs
    assert len({out.split()[-1] for out, _ in outs}) == 1  # the same arrays everywhere
    assert counts == {name: 1 for name in NAMES}, counts
    assert any("tf1mem: waiting for process" in err for _, err in outs)


def test_a_fetcher_that_died_does_not_block_the_next(tmp_path, monkeypatch, capsys):
    """The kernel releases a dead holder's lock: the next process fetches at once."""
    import subprocess
    import sys

    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "cache"))
    mirror = tmp_path / "mirror"
    write_fake_mnist(mirror, n_train=40, n_test=10, sha256sums=False)
    fetcher = fetch.Fetcher(tmp_path / "data", mirror.as_uri() + "/", progress=False,
                            lock_timeout_s=30)
    lock = fetcher._lock_path(tmp_path / "data" / IMAGES)
    lock.parent.mkdir(parents=True)
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, time
        fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(600)
    """)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    holder.stdout.close()
    got = fetcher.fetch(IMAGES)
    # Not by how long it took: a lock still held makes the fetcher say it waits (and fail
    # after its 30 s); the lock was free at once.
    assert got.placed
    assert "tf1mem: waiting for" not in capsys.readouterr().err
