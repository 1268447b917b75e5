"""The MNIST loader against hostile files: decompression bombs, SHA256SUMS as sha256sum
writes it, and a seeded fuzz of corruptions (no raw traceback, no silently wrong data,
memory bounded). No TensorFlow: the loader and the fetcher are plain NumPy.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_loader_hostile.py.
"""

import gzip
import hashlib
import json
import random
import textwrap
from pathlib import Path

import pytest

from tests import _subproc
from tests._mnist_fixtures import write_fake_mnist
from tf1mem.data import fetch, idx, input_data
from tf1mem.errors import DataError, FetchError

IMAGES = "train-images-idx3-ubyte.gz"
NAMES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
         "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")


def _bomb(header: bytes, expand_mib: int) -> bytes:
    """A valid gzip file: ``header`` then ``expand_mib`` MiB of zeros, in 1 MiB members
    (about 1 KiB each compressed, so a GiB-sized bomb costs a MiB to make)."""
    zeros = gzip.compress(bytes(1 << 20), compresslevel=9, mtime=0)
    return gzip.compress(header, mtime=0) + zeros * expand_mib


def _images_header(count=40, rows=28, cols=28) -> bytes:
    return b"".join(v.to_bytes(4, "big") for v in (idx.IMAGES_MAGIC, count, rows, cols))


def _load(folder, **kwargs):
    empty_mirror = Path(folder).parent / "empty_mirror"
    empty_mirror.mkdir(exist_ok=True)
    return input_data.read_data_sets(str(folder), validation_size=10, progress=False,
                                      cache=False, source_url=empty_mirror.as_uri() + "/",
                                      **kwargs)


def test_a_bomb_stops_at_the_size_its_header_claims(tmp_path):
    bomb = _bomb(_images_header(), expand_mib=64)
    with pytest.raises(DataError, match=r"x\.gz: decompresses past the 31376 bytes its IDX "
                                        r"header claims"):
        idx.gunzip(bomb, "x.gz")


def test_a_gigabyte_bomb_in_train_dir_is_moved_aside_within_a_memory_cap(tmp_path):
    """A 1 GiB bomb whose header claims 31 KB: rejected by name and moved aside, in a
    process whose address space is capped well below the bomb's size."""
    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10)
    (folder / IMAGES).write_bytes(_bomb(_images_header(), expand_mib=1024))
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))
        sys.path.insert(0, {str(_subproc.REPO)!r})
        from tests.unit.test_loader_hostile import _load
        from tf1mem.errors import Error
        try:
            _load({str(folder)!r})
        except Error as exc:
            print("ERROR", type(exc).__name__, exc)
    """)
    proc = _subproc.run(["-c", code], check_rc=0)
    assert "ERROR FetchError" in proc.stdout, _subproc.describe(proc)
    assert "decompresses past the 31376 bytes its IDX header claims" in proc.stdout
    assert "MemoryError" not in proc.stdout + proc.stderr
    assert [p.name for p in folder.glob(IMAGES + ".corrupt-*")], "the bomb was not moved aside"


def test_a_download_is_bounded_by_its_known_size(tmp_path):
    """An official MNIST name from the default source may not expand past its official
    size even where its header claims more."""
    fetcher = fetch.Fetcher(tmp_path / "d", progress=False)
    assert fetcher.expected_size("t10k-labels-idx1-ubyte.gz") == \
        fetch.MNIST_SIZES["t10k-labels-idx1-ubyte"]
    labels = (idx.LABELS_MAGIC.to_bytes(4, "big") + (10**6).to_bytes(4, "big")
              + bytes(10**6))
    with pytest.raises(DataError, match="decompresses past the 10008 bytes expected"):
        idx.gunzip(gzip.compress(labels), "t10k-labels-idx1-ubyte.gz",
                   limit=fetcher.expected_size("t10k-labels-idx1-ubyte.gz"))


def _sha256sum_lines(folder, names, binary=False, spoil=None):
    lines = []
    for name in names:
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        if name == spoil:
            digest = "0" * 64
        lines.append(f"{digest} {'*' if binary else ' '}{name}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("binary", [False, True])
def test_sha256sum_of_the_gz_files_is_checked(tmp_path, binary, capsys):
    """`sha256sum *.gz > SHA256SUMS` (text or binary mode): the listed .gz bytes are
    checked; a wrong entry rejects that file instead of loading it."""
    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10, sha256sums=False)
    (folder / "SHA256SUMS").write_text(_sha256sum_lines(folder, NAMES, binary))
    data = _load(folder)
    assert data.train.num_examples == 30
    (folder / "SHA256SUMS").write_text(_sha256sum_lines(folder, NAMES, binary, spoil=IMAGES))
    with pytest.raises(FetchError, match=r"lists 0{64} for train-images-idx3-ubyte\.gz"):
        _load(folder)
    assert list(folder.glob(IMAGES + ".corrupt-*"))


def test_sha256sums_with_paths_uses_the_file_name(tmp_path):
    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10, sha256sums=False)
    text = _sha256sum_lines(folder, NAMES).replace("  t", "  ./data/t")
    (folder / "SHA256SUMS").write_text(text)
    assert fetch.read_sha256sums(folder / "SHA256SUMS").keys() == set(NAMES)


def test_a_binary_sha256sums_is_a_clear_error_naming_the_line(tmp_path):
    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10, sha256sums=False)
    (folder / "SHA256SUMS").write_bytes(b"# sums\n\xff\xfe\x00garbage\n")
    with pytest.raises(DataError, match=r"SHA256SUMS, line 2: not text"):
        _load(folder)


# --- the fuzz ----------------------------------------------------------------------

def _corruptions(rng, blob):
    """Seeded ways to spoil one .gz file (each returns new bytes)."""
    payload = gzip.decompress(blob)

    def flip():
        b = bytearray(blob)
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)

    def truncate():
        return blob[:rng.randrange(len(blob))]

    def header_count():
        p = bytearray(payload)
        p[4:8] = rng.randrange(1 << 32).to_bytes(4, "big")
        return gzip.compress(bytes(p))

    def payload_byte():
        p = bytearray(payload)
        p[rng.randrange(len(p))] ^= 0xFF
        return gzip.compress(bytes(p))

    def bomb():
        return gzip.compress(payload[:16], mtime=0) + gzip.compress(
            bytes(1 << 20), compresslevel=9, mtime=0) * rng.randrange(64, 512)

    def garbage():
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))

    def empty():
        return b""

    return [flip, truncate, header_count, payload_byte, bomb, garbage, empty]


def test_seeded_fuzz_no_raw_traceback_no_wrong_data_memory_bounded(tmp_path):
    """60 seeded corruptions of one file of a folder the user keeps a SHA256SUMS for:
    each load either gives exactly the original arrays or fails with tf1mem's own
    error; the whole run stays under a capped address space (bombs up to 512 MiB)."""
    cases = []
    rng = random.Random(20261207)
    pristine = tmp_path / "pristine"
    write_fake_mnist(pristine, n_train=40, n_test=10)  # SHA256SUMS of the payloads
    for i in range(60):
        name = rng.choice(NAMES)
        spoil = rng.choice(_corruptions(rng, (pristine / name).read_bytes()))
        cases.append((name, spoil.__name__, spoil()))
    blobs = tmp_path / "cases"
    blobs.mkdir()
    for i, (name, kind, data) in enumerate(cases):
        (blobs / f"{i}.bin").write_bytes(data)
    index = [(name, kind) for name, kind, _ in cases]
    code = textwrap.dedent(f"""
        import json, resource, shutil, sys
        from pathlib import Path
        resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))
        sys.path.insert(0, {str(_subproc.REPO)!r})
        import numpy
        from tests.unit.test_loader_hostile import _load
        from tf1mem.errors import Error
        pristine, blobs, work = Path({str(pristine)!r}), Path({str(blobs)!r}), Path({str(tmp_path / "work")!r})
        index = json.loads({json.dumps(json.dumps(index))})
        good = _load(pristine)
        want = [getattr(good, s).images for s in ("train", "validation", "test")]
        results = []
        for i, (name, kind) in enumerate(index):
            folder = work / str(i) / "data"
            shutil.copytree(pristine, folder)
            (folder / name).write_bytes((blobs / f"{{i}}.bin").read_bytes())
            try:
                got = _load(folder)
            except Error as exc:
                results.append([kind, "error", type(exc).__name__])
                continue
            same = all(numpy.array_equal(getattr(got, s).images, w)
                       for s, w in zip(("train", "validation", "test"), want))
            results.append([kind, "loaded", same])
        print(json.dumps(results))
    """)
    proc = _subproc.run(["-c", code], check_rc=0, timeout=900)
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(results) == 60
    wrong = [r for r in results if r[1] == "loaded" and not r[2]]
    assert not wrong, f"silently wrong data: {wrong}"
    assert {r[0] for r in results if r[1] == "error"} >= {"bomb", "payload_byte"}
    assert "Traceback" not in proc.stderr, proc.stderr


# --- labels out of range, counts that differ -----------------------------------------

def _write_labels(folder, name, labels):
    from tests._mnist_fixtures import idx_labels

    (folder / name).write_bytes(gzip.compress(idx_labels(labels), mtime=0))


def test_a_label_out_of_range_is_a_data_error_naming_the_file(tmp_path):
    import numpy

    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10, sha256sums=False)
    labels = numpy.arange(40, dtype=numpy.uint8) % 10
    labels[17] = 255
    _write_labels(folder, "train-labels-idx1-ubyte.gz", labels)
    with pytest.raises(DataError, match=r"train-labels-idx1-ubyte\.gz: label 255 at position "
                                        r"17 is outside 0\.\.9"):
        _load(folder, one_hot=True)
    assert _load(folder).train.num_examples == 30  # TF1 gave raw labels as they are


def test_images_and_labels_of_other_counts_are_a_data_error_naming_both(tmp_path):
    import numpy

    folder = tmp_path / "data"
    write_fake_mnist(folder, n_train=40, n_test=10, sha256sums=False)
    _write_labels(folder, "t10k-labels-idx1-ubyte.gz", numpy.arange(9, dtype=numpy.uint8))
    with pytest.raises(DataError, match=r"t10k-images-idx3-ubyte\.gz holds 10 images but "
                                        r".*t10k-labels-idx1-ubyte\.gz holds 9 labels"):
        _load(folder)


# --- one fetch per file under concurrency ---------------------------------------------


def test_a_hung_fetcher_is_named_after_the_bounded_wait(tmp_path, monkeypatch):
    import fcntl
    import os

    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "cache"))
    fetcher = fetch.Fetcher(tmp_path / "data", (tmp_path / "none").as_uri() + "/",
                            progress=False, lock_timeout_s=1)
    lock = fetcher._lock_path(tmp_path / "data" / IMAGES)
    lock.parent.mkdir(parents=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    os.write(fd, b"process 424242")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(FetchError, match=r"process 424242 has been fetching "
                                             r"train-images-idx3-ubyte\.gz for more than 1 s"):
            fetcher.fetch(IMAGES)
    finally:
        os.close(fd)
