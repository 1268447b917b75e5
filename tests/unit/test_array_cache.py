"""The decoded-array cache (tf1mem.data.arraycache): same arrays, every check kept,
a damaged or untrusted cache never used. Small generated data, in-process, fast."""

import gzip
import hashlib
import json
import logging
import os
import signal
import sys
import types

import numpy
import pytest

from tests._mnist_fixtures import FILE_NAMES, write_fake_mnist
from tf1mem.data import arraycache, fetch, idx, input_data
from tf1mem.errors import ConfigError, FetchError

NOWHERE = "file:///nonexistent-tf1mem-mirror/"  # a mirror that has nothing, at once
CACHE_LOG = "tf1mem.data.arraycache"


@pytest.fixture
def arrays_dir(tmp_path, monkeypatch):
    """The cache folder of this test (inside the per-user cache folder it names)."""
    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "user-cache" / "mnist"))
    monkeypatch.delenv(arraycache.ENV_VAR, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nobin"))  # no npm
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    state = numpy.random.get_state()
    yield tmp_path / "user-cache" / "mnist" / "arrays"
    numpy.random.set_state(state)


@pytest.fixture
def gunzips(monkeypatch):
    """Counts the files the fetcher decompresses (a warm read decompresses none)."""
    calls = []
    real = idx.gunzip

    def counting(data, where):
        calls.append(os.path.basename(where))
        return real(data, where)

    monkeypatch.setattr(idx, "gunzip", counting)
    return calls


def _data(tmp_path, name="data", **kwargs):
    folder = tmp_path / name
    write_fake_mnist(folder, n_train=120, n_test=30, **kwargs)
    return folder


def _read(folder, **kwargs):
    kwargs.setdefault("validation_size", 20)
    return input_data.read_data_sets(str(folder), **kwargs)


def _arrays(sets):
    return [(part, attr, getattr(getattr(sets, part), attr))
            for part in ("train", "validation", "test") for attr in ("images", "labels")]


def _assert_same(a, b):
    for (part, attr, x), (_, _, y) in zip(_arrays(a), _arrays(b)):
        where = f"{part}.{attr}"
        assert (x.dtype, x.shape, x.flags.writeable) == (y.dtype, y.shape, y.flags.writeable), where
        assert x.tobytes() == y.tobytes(), where


def _entry(arrays_dir, folder, filename):
    """The cache entry file of ``folder/filename``."""
    gz = (folder / filename).read_bytes()
    return arrays_dir / f"{gz[-8:].hex()}-{len(gz)}.idx"


# -- the same arrays -------------------------------------------------------------------


@pytest.mark.parametrize("one_hot", [False, True])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
@pytest.mark.parametrize("reshape", [True, False])
def test_a_warm_read_gives_the_cold_arrays_bit_for_bit(tmp_path, arrays_dir, gunzips,
                                                       one_hot, dtype, reshape):
    data = _data(tmp_path)
    options = dict(one_hot=one_hot, dtype=dtype, reshape=reshape, seed=7)
    def read(**kwargs):
        # Each read reseeds numpy's global RNG: a batch taken right after it is the
        # first shuffle of that read's rows (which also makes train's arrays copies).
        sets = _read(data, **options, **kwargs)
        return sets, sets.train.next_batch(50)

    cold, cold_batch = read(cache=False)
    assert not arrays_dir.exists()  # cache=False: nothing made, nothing written
    filled, filled_batch = read()
    assert sorted(p.name for p in arrays_dir.iterdir()) == sorted(
        _entry(arrays_dir, data, name).name for name in FILE_NAMES)
    del gunzips[:]
    warm, warm_batch = read()
    assert gunzips == []  # every file came from the cache
    for sets, batch in ((filled, filled_batch), (warm, warm_batch)):
        _assert_same(cold, sets)
        for a, b in zip(cold_batch, batch):
            assert a.tobytes() == b.tobytes()


def test_warm_pixels_start_on_a_64_byte_boundary(tmp_path, arrays_dir):
    # TensorFlow feeds an array in place only when its data is 64-byte aligned, and
    # copies it otherwise: the fast loop's run of MNIST reached 780.1 MiB of memory
    # from the cache before the pixels were aligned, 727.5 MiB after.
    data = _data(tmp_path)
    _read(data, dtype="uint8")  # fills the cache
    for _ in range(3):
        sets = _read(data, dtype="uint8", validation_size=0)
        for images in (sets.train.images, sets.test.images):
            assert images.ctypes.data % 64 == 0
            assert not images.flags.writeable


def test_the_cache_folder_is_private_and_inside_the_folder_the_user_named(tmp_path,
                                                                        arrays_dir):
    _read(_data(tmp_path))
    assert arraycache.default_dir() == arrays_dir
    assert oct(os.stat(arrays_dir).st_mode & 0o777) == "0o700"
    # nothing beside the folder TF1MEM_CACHE_DIR names
    assert sorted(p.name for p in (tmp_path / "user-cache").iterdir()) == ["mnist"]


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_an_entry_that_is_not_a_regular_file_is_rebuilt(tmp_path, arrays_dir, kind):
    """A folder or a FIFO in an entry's place neither crashes nor hangs a load: it is
    removed and the entry rebuilt."""
    data = _data(tmp_path)
    want = _read(data).train.images.copy()
    entries = sorted(p for p in arrays_dir.iterdir() if p.suffix == ".idx")
    assert entries
    for entry in entries:
        entry.unlink()
        entry.mkdir() if kind == "directory" else os.mkfifo(entry)
    def hung(signum, frame):
        raise AssertionError("a load waited on a cache entry that is not a regular file")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)  # a hang guard: a FIFO opened for reading waits for a writer
    try:
        for _ in range(2):  # the first run rebuilds, the second reads the rebuilt entries
            numpy.testing.assert_array_equal(_read(data).train.images, want)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert all(entry.is_file() for entry in entries)


def test_xdg_cache_home_moves_it_and_a_relative_one_is_ignored(tmp_path, monkeypatch):
    monkeypatch.delenv("TF1MEM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert arraycache.default_dir() == tmp_path / "xdg" / "tf1mem" / "arrays"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/xdg")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert arraycache.default_dir() == tmp_path / "home" / ".cache" / "tf1mem" / "arrays"


@pytest.mark.parametrize("value, on", [("0", False), ("off", False), ("No", False),
                                       ("1", True), ("", True), ("yes", True)])
def test_the_environment_variable_switches_it(tmp_path, arrays_dir, monkeypatch, value, on):
    monkeypatch.setenv(arraycache.ENV_VAR, value)
    _read(_data(tmp_path))
    assert arrays_dir.exists() == on
    _read(_data(tmp_path, "again"), cache=True)  # the calling code's word wins
    assert arrays_dir.exists()


def test_a_bad_environment_value_is_a_usage_error_naming_it(tmp_path, arrays_dir, monkeypatch):
    monkeypatch.setenv(arraycache.ENV_VAR, "maybe")
    with pytest.raises(ConfigError, match="TF1MEM_ARRAY_CACHE .* got 'maybe'"):
        _read(_data(tmp_path))
    _read(_data(tmp_path), cache=False)  # not read when the code decides
    with pytest.raises(TypeError, match="cache must be True, False or None"):
        _read(_data(tmp_path), cache="no")


def test_importing_the_loader_touches_no_cache(tmp_path):
    env = dict(os.environ, TF1MEM_CACHE_DIR=str(tmp_path / "c" / "mnist"))
    code = "import tf1mem.data.input_data, tf1mem.data.arraycache"
    import subprocess

    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    assert not (tmp_path / "c").exists()


# -- a change, damage, distrust --------------------------------------------------------


def test_a_changed_source_file_misses_the_cache(tmp_path, arrays_dir, gunzips):
    data = _data(tmp_path, sha256sums=False)
    before = _read(data, one_hot=False)
    write_fake_mnist(data, n_train=120, n_test=30, seed=4, sha256sums=False)  # other data
    del gunzips[:]
    after = _read(data, one_hot=False)
    assert sorted(gunzips) == sorted(FILE_NAMES)
    _assert_same(after, _read(data, one_hot=False, cache=False))
    assert after.test.labels.tobytes() != before.test.labels.tobytes()


def test_same_trailer_and_size_but_other_bytes_is_a_miss(tmp_path, arrays_dir, gunzips):
    """The entry is found by the gzip trailer, but used only for the same sha256."""
    data = _data(tmp_path)
    _read(data)
    target = data / "t10k-labels-idx1-ubyte.gz"
    gz = bytearray(target.read_bytes())
    gz[4] ^= 0x01  # the gzip header's mtime: same payload, trailer and size
    target.write_bytes(bytes(gz))
    entry = _entry(arrays_dir, data, target.name)
    old_record = entry.read_bytes().split(b"\n", 1)[0]
    del gunzips[:]
    _read(data)
    assert gunzips == [target.name]
    new_record = json.loads(entry.read_bytes().split(b"\n", 1)[0])
    assert new_record["gz_sha256"] == hashlib.sha256(bytes(gz)).hexdigest()
    assert new_record["gz_sha256"] != json.loads(old_record)["gz_sha256"]


def _damage(entry, how):
    raw = bytearray(entry.read_bytes())
    head, payload = raw.split(b"\n", 1)
    if how == "truncated":
        entry.write_bytes(bytes(raw[:-3]))
    elif how == "a payload byte flipped":
        raw[-1] ^= 0x01  # the last label changes to another valid label
        entry.write_bytes(bytes(raw))
    elif how == "its record altered":
        record = json.loads(head)
        record["payload_sha256"] = "0" * 64
        entry.write_bytes(json.dumps(record).encode() + b"\n" + payload)
    elif how == "junk":
        entry.write_bytes(b"not an entry at all")
    elif how == "a symbolic link":
        other = entry.with_name("elsewhere")
        entry.rename(other)
        entry.symlink_to(other)
    elif how == "group-writable":
        os.chmod(entry, 0o664)


@pytest.mark.parametrize("how", ["truncated", "a payload byte flipped", "its record altered",
                                 "junk", "a symbolic link", "group-writable"])
def test_a_damaged_entry_is_never_used_and_is_rebuilt(tmp_path, arrays_dir, gunzips,
                                                      caplog, how):
    data = _data(tmp_path)
    cold = _read(data, cache=False)
    _read(data)
    name = "t10k-labels-idx1-ubyte.gz"
    entry = _entry(arrays_dir, data, name)
    _damage(entry, how)
    del gunzips[:]
    with caplog.at_level(logging.WARNING, logger=CACHE_LOG):
        warm = _read(data)
    _assert_same(cold, warm)
    assert gunzips == [name]
    lines = [r.getMessage() for r in caplog.records if r.name == CACHE_LOG]
    assert len(lines) == 1 and f"{entry} not used" in lines[0], lines
    assert entry.is_file() and not entry.is_symlink()  # rebuilt
    del gunzips[:]
    _assert_same(cold, _read(data))
    assert gunzips == []


def test_the_record_checks_itself(tmp_path, arrays_dir):
    data = _data(tmp_path)
    _read(data)
    entry = _entry(arrays_dir, data, "train-labels-idx1-ubyte.gz")
    head, payload = entry.read_bytes().split(b"\n", 1)
    record = json.loads(head)
    fields = {k: v for k, v in record.items() if k != "record_sha256"}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    assert record["record_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert record["payload_sha256"] == hashlib.sha256(payload).hexdigest()
    assert record["gz_sha256"] == hashlib.sha256(
        (data / "train-labels-idx1-ubyte.gz").read_bytes()).hexdigest()


@pytest.mark.parametrize("how", ["group-writable", "another user's", "a symbolic link",
                                 "a file"])
def test_an_untrusted_cache_folder_is_not_used(tmp_path, arrays_dir, gunzips, caplog,
                                               monkeypatch, how):
    data = _data(tmp_path)
    cold = _read(data, cache=False)
    arrays_dir.parent.mkdir(parents=True)
    if how == "group-writable":
        arrays_dir.mkdir(mode=0o700)
        os.chmod(arrays_dir, 0o770)
    elif how == "another user's":
        arrays_dir.mkdir(mode=0o700)
        if os.geteuid() == 0:
            os.chown(arrays_dir, 65534, 65534)
        else:  # it then looks foreign to the cache, as another user's folder would
            real = os.geteuid()
            monkeypatch.setattr(arraycache.os, "geteuid", lambda: real + 1)
    elif how == "a symbolic link":
        (tmp_path / "target").mkdir(mode=0o700)
        arrays_dir.symlink_to(tmp_path / "target")
    else:
        arrays_dir.write_bytes(b"")
    with caplog.at_level(logging.WARNING, logger=CACHE_LOG):
        warm = _read(data)
        _read(data)
    _assert_same(cold, warm)
    assert len(gunzips) == 3 * len(FILE_NAMES)  # every read the slow way
    lines = [r.getMessage() for r in caplog.records if r.name == CACHE_LOG]
    assert len(lines) == 2 and "not used" in lines[0] and arraycache.ENV_VAR in lines[0], lines
    listing = list(arrays_dir.iterdir()) if arrays_dir.is_dir() else []
    assert listing == [] and list((tmp_path / "target").glob("*")) == []


# -- the data policy still applies to a hit ---------------------------------------------


def test_the_not_official_note_still_appears_on_a_warm_hit(tmp_path, arrays_dir, gunzips,
                                                          capsys):
    data = _data(tmp_path, sha256sums=False)  # a valid set that is not official MNIST
    _read(data)
    cold = capsys.readouterr()
    del gunzips[:]
    _read(data)
    warm = capsys.readouterr()
    assert gunzips == []
    assert warm.err.count("is not the official MNIST") == 4, warm.err
    assert (warm.out, warm.err) == (cold.out, cold.err)  # the same lines, TF1's included


def _wrong_sums(data, name):
    (data / "SHA256SUMS").write_text(f"{'0' * 64}  {name}\n")
    return {}, f"listed in {data / 'SHA256SUMS'}"


def _wrong_checksums_argument(data, name):
    return {"checksums": {name: "1" * 64}}, "checksums= argument"


def _wrong_fetch_record(data, name):
    (data / fetch.RECORD_NAME).write_text(f"{'2' * 64}  {name}\n")
    return {}, "when tf1mem placed it"


@pytest.mark.parametrize("check", [_wrong_sums, _wrong_checksums_argument, _wrong_fetch_record])
def test_every_checksum_applies_to_a_hit(tmp_path, arrays_dir, gunzips, check):
    data = _data(tmp_path)
    _read(data)
    name = "t10k-labels-idx1-ubyte"
    kwargs, origin = check(data, name)
    del gunzips[:]
    with pytest.raises(FetchError) as caught:
        _read(data, source_url=NOWHERE, **kwargs)
    assert name + ".gz" not in gunzips  # judged on the cached payload's sha256
    assert "sha256 of the decompressed payload is" in str(caught.value)
    assert origin in str(caught.value)
    assert list(data.glob(f"{name}.gz.corrupt-*"))  # moved aside, as without the cache


@pytest.mark.parametrize("corruption", ["the middle", "the trailer", "all of it"])
def test_a_corrupt_gz_is_still_rejected_on_a_warm_cache(tmp_path, arrays_dir, corruption):
    data = _data(tmp_path)
    _read(data)
    target = data / "t10k-images-idx3-ubyte.gz"
    gz = bytearray(target.read_bytes())
    if corruption == "the middle":  # same trailer and size: the entry is found, not used
        gz[len(gz) // 2] ^= 0xFF
    elif corruption == "the trailer":
        gz[-5] ^= 0xFF
    else:
        gz = bytearray(gzip.compress(b"\x00\x00\x08\x03 not an idx file"))
    target.write_bytes(bytes(gz))
    with pytest.raises(FetchError, match="t10k-images-idx3-ubyte.gz"):
        _read(data, source_url=NOWHERE)
    assert not target.exists()
    assert list(data.glob("t10k-images-idx3-ubyte.gz.corrupt-*"))


def test_cached_bytes_under_another_name_fail_the_structural_checks(tmp_path, arrays_dir):
    data = _data(tmp_path)
    _read(data)
    (data / "t10k-images-idx3-ubyte.gz").write_bytes(
        (data / "t10k-labels-idx1-ubyte.gz").read_bytes())
    with pytest.raises(FetchError, match="Invalid magic number 2049 in MNIST image file"):
        _read(data, source_url=NOWHERE)


def test_a_read_only_data_folder_works_and_is_never_written(tmp_path, arrays_dir, gunzips):
    data = _data(tmp_path, sha256sums=False)
    os.chmod(data, 0o555)
    try:
        before = {p.name: p.stat().st_mtime_ns for p in data.iterdir()}
        cold = _read(data)
        del gunzips[:]
        warm = _read(data)
        after = {p.name: p.stat().st_mtime_ns for p in data.iterdir()}
    finally:
        os.chmod(data, 0o755)
    assert gunzips == [] and after == before
    _assert_same(cold, warm)


# -- housekeeping, and the payload hashed once ------------------------------------------


def test_least_recently_used_entries_beyond_the_budget_are_removed(tmp_path, arrays_dir,
                                                                  monkeypatch):
    first, second = _data(tmp_path, "first", seed=1), _data(tmp_path, "second", seed=2)
    _read(first)
    entries = sorted(arrays_dir.iterdir())
    for entry in entries:  # used long ago
        os.utime(entry, (1000, 1000))
    stale = arrays_dir / ".x.idx.0123.part"
    stale.write_bytes(b"half")
    os.utime(stale, (1, 1))
    monkeypatch.setattr(arraycache, "MAX_BYTES", sum(p.stat().st_size for p in entries))
    _read(second)
    kept = {p.name for p in arrays_dir.iterdir()}
    assert kept == {_entry(arrays_dir, second, n).name for n in FILE_NAMES}


def test_each_payload_is_hashed_once(tmp_path, arrays_dir, monkeypatch):
    """Cold, from the data folder and from a mirror: one sha256 per payload."""
    sizes = []

    def sha256(data=b""):
        sizes.append(len(data))
        return hashlib.sha256(data)

    monkeypatch.setattr(fetch, "hashlib", types.SimpleNamespace(sha256=sha256))
    mirror = _data(tmp_path, "mirror", sha256sums=False)
    payloads = {len(gzip.decompress((mirror / n).read_bytes())) for n in FILE_NAMES}
    _read(mirror, cache=False)
    assert sorted(s for s in sizes if s in payloads) == sorted(payloads)
    del sizes[:]
    _read(tmp_path / "fresh", source_url=mirror.as_uri() + "/", cache=False)
    assert sorted(s for s in sizes if s in payloads) == sorted(payloads)
