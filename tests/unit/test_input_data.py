"""Unit tests of tf1mem.data.input_data (TF 1.15's MNIST loader) on small generated data.

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_input_data.py.
"""

import gzip
import io
import subprocess
import sys
import types
from pathlib import Path

import numpy
import pytest

from tests._mnist_fixtures import fake_mnist_payloads, idx_images, idx_labels, write_fake_mnist
from tf1mem.data import fetch, input_data
from tf1mem.errors import DataError


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """No real cache, no npm, no TF: every test sees only what it creates."""
    monkeypatch.setenv("TF1MEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", str(tmp_path / "nobin"))
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    state = numpy.random.get_state()
    yield
    numpy.random.set_state(state)


def _gz_file(payload: bytes, name: str = "x.gz") -> io.BytesIO:
    f = io.BytesIO(gzip.compress(payload))
    f.name = name
    return f


# -- parsing ---------------------------------------------------------------------


def test_extract_images_and_labels_parse_idx(capsys):
    images = numpy.arange(3 * 4 * 5, dtype=numpy.uint8).reshape(3, 4, 5)
    got = input_data.extract_images(_gz_file(idx_images(images), "a/img.gz"))
    assert got.shape == (3, 4, 5, 1) and got.dtype == numpy.uint8
    numpy.testing.assert_array_equal(got[..., 0], images)
    labels = numpy.array([3, 0, 9], dtype=numpy.uint8)
    dense = input_data.extract_labels(_gz_file(idx_labels(labels), "a/lab.gz"))
    numpy.testing.assert_array_equal(dense, labels)
    one_hot = input_data.extract_labels(_gz_file(idx_labels(labels), "a/lab.gz"), one_hot=True)
    assert one_hot.dtype == numpy.float64 and one_hot.shape == (3, 10)
    numpy.testing.assert_array_equal(one_hot.argmax(1), labels)
    assert capsys.readouterr().out == "Extracting a/img.gz\nExtracting a/lab.gz\nExtracting a/lab.gz\n"


@pytest.mark.parametrize(
    "extract, payload, message",
    [
        (input_data.extract_images, idx_labels(numpy.zeros(2)), "Invalid magic number 2049 in MNIST image file: f.gz"),
        (input_data.extract_labels, idx_images(numpy.zeros((1, 2, 2))), "Invalid magic number 2051 in MNIST label file: f.gz"),
    ],
)
def test_wrong_magic_is_tf1_value_error(extract, payload, message):
    with pytest.raises(ValueError) as info:
        extract(_gz_file(payload, "f.gz"))
    assert str(info.value) == message


def test_truncated_gzip_and_short_payload_are_data_errors():
    blob = gzip.compress(idx_images(numpy.ones((4, 28, 28))))
    cut = io.BytesIO(blob[: len(blob) // 2])
    cut.name = "cut.gz"
    with pytest.raises(DataError, match="cut.gz: not a complete gzip file"):
        input_data.extract_images(cut)
    short = idx_images(numpy.ones((4, 28, 28)))[:-10]
    with pytest.raises(DataError, match="header says 4 images of 28x28"):
        input_data.extract_images(_gz_file(short, "short.gz"))
    with pytest.raises(DataError, match="header says 5 labels"):
        input_data.extract_labels(_gz_file(idx_labels(numpy.ones(5))[:-1], "l.gz"))


def test_dense_to_one_hot():
    got = input_data.dense_to_one_hot(numpy.array([0, 2, 1], dtype=numpy.uint8), 3)
    numpy.testing.assert_array_equal(got, [[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    assert got.dtype == numpy.float64


# -- DataSet ------------------------------------------------------------------------


def _images(n, rows=2, cols=2):
    values = numpy.arange(n * rows * cols) % 256
    return values.astype(numpy.uint8).reshape(n, rows, cols, 1)


def test_float32_scaling_is_float32_multiply_for_all_256_values():
    pixels = numpy.arange(256, dtype=numpy.uint8).reshape(1, 16, 16, 1)
    ds = input_data.DataSet(pixels, numpy.zeros(1, numpy.uint8), seed=0)
    got = ds.images.ravel()
    expected = numpy.arange(256).astype(numpy.float32) * numpy.float32(1.0 / 255.0)
    assert got.dtype == numpy.float32 and ds.images.shape == (1, 256)
    assert got.tobytes() == expected.tobytes()
    divided = (numpy.arange(256) / 255.0).astype(numpy.float32)
    assert int(numpy.sum(got != divided)) == 126
    assert got[255] == 1.0 and got[0] == 0.0


@pytest.mark.parametrize(
    "dtype, expected",
    [
        ("uint8", numpy.uint8),
        (numpy.uint8, numpy.uint8),
        (numpy.dtype("float32"), numpy.float32),
        ("float32", numpy.float32),
        (types.SimpleNamespace(name="uint8", as_numpy_dtype=numpy.uint8, base_dtype=None), numpy.uint8),
    ],
)
def test_dtype_accepts_tf_numpy_and_strings(dtype, expected):
    if getattr(dtype, "base_dtype", 0) is None:  # a TF-like DType whose base is itself
        dtype.base_dtype = dtype
    ds = input_data.DataSet(_images(3), numpy.zeros(3, numpy.uint8), dtype=dtype, seed=1)
    assert ds.images.dtype == expected


def test_tf_ref_dtype_uses_base_dtype():
    base = types.SimpleNamespace(name="float32", as_numpy_dtype=numpy.float32)
    base.base_dtype = base
    ref = types.SimpleNamespace(name="float32_ref", as_numpy_dtype=numpy.float32, base_dtype=base)
    ds = input_data.DataSet(_images(2), numpy.zeros(2, numpy.uint8), dtype=ref)
    assert ds.images.dtype == numpy.float32


def test_invalid_dtype_raises_after_reseeding():
    numpy.random.seed(123)
    with pytest.raises(TypeError) as info:
        input_data.DataSet(_images(2), numpy.zeros(2, numpy.uint8), dtype="float64", seed=5)
    assert str(info.value) == "Invalid image dtype tf.float64, expected uint8 or float32"
    assert numpy.random.random_sample() == numpy.random.RandomState(5).random_sample()
    with pytest.raises(TypeError, match="Cannot convert value 'bogus'"):
        input_data.DataSet(_images(2), numpy.zeros(2, numpy.uint8), dtype="bogus")


def test_length_mismatch_is_value_and_assertion_error():
    with pytest.raises(ValueError) as info:
        input_data.DataSet(_images(3), numpy.zeros(2, numpy.uint8))
    assert isinstance(info.value, AssertionError)
    assert str(info.value) == "images.shape: (3, 2, 2, 1) labels.shape: (2,)"


def test_uint8_without_reshape_keeps_pixels():
    ds = input_data.DataSet(_images(3, 4, 5), numpy.zeros(3, numpy.uint8), dtype="uint8", reshape=False)
    assert ds.images.shape == (3, 4, 5, 1) and ds.images.dtype == numpy.uint8
    assert ds.num_examples == 3 and ds.epochs_completed == 0


def _reference_batches(n, batch_size, calls, seed, shuffle=True):
    """The SPEC's next_batch algorithm over example indices, with a private RNG."""
    rng = numpy.random.RandomState(seed)
    order = numpy.arange(n)
    index, epochs, out = 0, 0, []
    for _ in range(calls):
        start = index
        if epochs == 0 and start == 0 and shuffle:
            perm = numpy.arange(n)
            rng.shuffle(perm)
            order = order[perm]
        if start + batch_size > n:
            epochs += 1
            rest = order[start:n]
            if shuffle:
                perm = numpy.arange(n)
                rng.shuffle(perm)
                order = order[perm]
            index = batch_size - len(rest)
            out.append((numpy.concatenate([rest, order[:index]]), epochs))
        else:
            index += batch_size
            out.append((order[start:index], epochs))
    return out


@pytest.mark.parametrize("seed, shuffle", [(0, True), (42, True), (2**40 + 3, True), (7, False)])
def test_next_batch_matches_spec_algorithm_across_epochs(tmp_path, seed, shuffle, capsys):
    write_fake_mnist(tmp_path, n_train=130, n_test=10, seed=3)
    mnist = input_data.read_data_sets(tmp_path, dtype="uint8", validation_size=20, seed=seed)
    train_all = numpy.frombuffer(fake_mnist_payloads(130, 10, 3)["train-images-idx3-ubyte"][16:], numpy.uint8)
    train_all = train_all.reshape(130, 784)[20:]
    labels_all = numpy.frombuffer(fake_mnist_payloads(130, 10, 3)["train-labels-idx1-ubyte"][8:], numpy.uint8)[20:]
    # seed % (2**31 - 1) is what TF feeds numpy.
    reference = _reference_batches(110, 25, 12, seed % 2147483647, shuffle)
    for call, (indices, epochs) in enumerate(reference, 1):
        images, labels = mnist.train.next_batch(25, shuffle=shuffle)
        numpy.testing.assert_array_equal(images, train_all[indices], err_msg=f"call {call}")
        numpy.testing.assert_array_equal(labels, labels_all[indices])
        assert mnist.train.epochs_completed == epochs
    assert [e for _, e in reference].index(1) == 4  # call 5 crosses the boundary


def test_read_data_sets_split_shapes_and_prints(tmp_path, capsys):
    write_fake_mnist(tmp_path, n_train=50, n_test=12)
    mnist = input_data.read_data_sets(str(tmp_path) + "/", one_hot=True, validation_size=8)
    assert isinstance(mnist, input_data.Datasets) and mnist._fields == ("train", "validation", "test")
    assert (mnist.train.num_examples, mnist.validation.num_examples, mnist.test.num_examples) == (42, 8, 12)
    assert mnist.train.images.shape == (42, 784) and mnist.train.images.dtype == numpy.float32
    assert mnist.train.labels.shape == (42, 10) and mnist.train.labels.dtype == numpy.float64
    payload = fake_mnist_payloads(50, 12)["train-images-idx3-ubyte"]
    first = numpy.frombuffer(payload[16 : 16 + 784], numpy.uint8)
    numpy.testing.assert_array_equal(mnist.validation.images[0], first.astype(numpy.float32) * numpy.float32(1 / 255))
    out = capsys.readouterr().out
    assert out == "".join(f"Extracting {tmp_path}/{name}\n" for name in fetch.MNIST_FILES)


@pytest.mark.parametrize("size", [-1, 51])
def test_validation_size_out_of_range(tmp_path, size):
    write_fake_mnist(tmp_path, n_train=50, n_test=5)
    with pytest.raises(ValueError) as info:
        input_data.read_data_sets(tmp_path, validation_size=size)
    assert str(info.value) == f"Validation size should be between 0 and 50. Received: {size}."


def test_validation_size_bounds_are_inclusive(tmp_path):
    write_fake_mnist(tmp_path, n_train=50, n_test=5)
    assert input_data.read_data_sets(tmp_path, validation_size=0).validation.num_examples == 0
    assert input_data.read_data_sets(tmp_path, validation_size=50).train.num_examples == 0


@pytest.mark.parametrize("seed, expected_calls", [(7, [7, 7, 7]), (None, [None, None, None]), (2**31, [1, 1, 1])])
def test_read_data_sets_reseeds_global_rng_three_times(tmp_path, monkeypatch, seed, expected_calls):
    write_fake_mnist(tmp_path, n_train=30, n_test=5)
    calls = []
    real_seed = numpy.random.seed
    monkeypatch.setattr(numpy.random, "seed", lambda s=None: (calls.append(s), real_seed(s))[1])
    input_data.read_data_sets(tmp_path, validation_size=10, seed=seed)
    assert calls == expected_calls


def test_global_rng_state_after_loading_is_seeded(tmp_path):
    write_fake_mnist(tmp_path, n_train=30, n_test=5)
    input_data.read_data_sets(tmp_path, validation_size=10, seed=11)
    assert numpy.random.random_sample() == numpy.random.RandomState(11).random_sample()


def test_fake_data(tmp_path):
    target = tmp_path / "never_made"
    mnist = input_data.read_data_sets(target, fake_data=True, one_hot=True)
    assert not target.exists()
    assert mnist.train.num_examples == mnist.test.num_examples == 10000
    images, labels = mnist.train.next_batch(3, fake_data=True)
    assert images == [[1] * 784] * 3 and labels == [[1] + [0] * 9] * 3
    dense = input_data.read_data_sets(target, fake_data=True)
    assert dense.validation.next_batch(2, fake_data=True)[1] == [0, 0]


def test_get_seed_rule_without_tensorflow():
    assert input_data.get_seed(None) == (None, None)
    assert input_data.get_seed(42) == (87654321, 42)
    assert input_data.get_seed(2**31 - 1) == (87654321, 0)
    assert input_data.get_seed(-1) == (87654321, 2**31 - 2)


def test_get_seed_delegates_to_imported_tensorflow(monkeypatch):
    fake_tf = types.ModuleType("tensorflow")
    fake_tf.compat = types.SimpleNamespace(v1=types.SimpleNamespace(get_seed=lambda s: (5, 6 if s is None else s)))
    monkeypatch.setitem(sys.modules, "tensorflow", fake_tf)
    assert input_data.get_seed(None) == (5, 6)
    calls = []
    monkeypatch.setattr(numpy.random, "seed", calls.append)
    input_data.DataSet(_images(2), numpy.zeros(2, numpy.uint8))
    input_data.DataSet(_images(2), numpy.zeros(2, numpy.uint8), seed=9)
    assert calls == [5, 9]


def test_import_is_cheap_and_does_not_import_tensorflow():
    code = "import sys, tf1mem.data.input_data, tf1mem.data.fetch; assert 'tensorflow' not in sys.modules; assert 'tqdm' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


@pytest.mark.slow
def test_real_mnist_loads_and_verifies(real_mnist_dir):
    before = {p.name: p.stat().st_mtime_ns for p in real_mnist_dir.iterdir()}
    mnist = input_data.read_data_sets(str(real_mnist_dir), one_hot=True, seed=0)
    assert (mnist.train.num_examples, mnist.validation.num_examples, mnist.test.num_examples) == (55000, 5000, 10000)
    assert mnist.train.images.shape == (55000, 784) and mnist.train.images.dtype == numpy.float32
    assert mnist.test.labels.shape == (10000, 10) and mnist.test.labels.dtype == numpy.float64
    with fetch.Fetcher(real_mnist_dir) as fetcher:
        for name in fetch.MNIST_FILES:
            got = fetcher.fetch(name)
            assert got.sha256 == fetch.MNIST_SHA256[fetch.payload_name(name)] and not got.placed
    # Reading verified official files writes nothing into the folder.
    assert {p.name: p.stat().st_mtime_ns for p in real_mnist_dir.iterdir()} == before
