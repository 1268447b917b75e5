"""The article's two scripts, byte for byte, run unchanged through the runner."""

import csv
import re
import socket

import pytest

from tests import _subproc

pytestmark = pytest.mark.slow

LEGACY = _subproc.REPO / "scripts" / "legacy"


@pytest.fixture
def article_cwd(real_mnist_dir, tmp_path):
    """A working folder where ``read_data_sets("MNIST_data/")`` finds real MNIST."""
    (tmp_path / "MNIST_data").symlink_to(real_mnist_dir, target_is_directory=True)
    return tmp_path


def test_example1_through_runner_matches_tf1mem_train(article_cwd):
    proc = _subproc.run(["-m", "tf1mem.run", "--seed", "1", LEGACY / "softmax_mnist.py"],
                        cwd=article_cwd, check_rc=0)
    accuracy = float(proc.stdout.strip().splitlines()[-1])
    assert accuracy >= 0.90, _subproc.describe(proc)
    # --seed N is tf.set_random_seed(N): the loader seeds numpy with N, as
    # read_data_sets(seed=N) does, so both paths train on the same batches.
    train = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--seed", "1"],
                         cwd=article_cwd, check_rc=0)
    assert train.stdout.strip().endswith(f"test accuracy: {accuracy:.4f}")


def _port_busy(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_example2_through_runner_trains_on_both_tasks(article_cwd):
    busy = [p for p in (2222, 2223) if _port_busy(p)]
    if busy:
        pytest.skip(f"the article's script needs ports 2222 and 2223; in use: {busy}")
    report = article_cwd / "placement.csv"
    proc = _subproc.run(["-m", "tf1mem.run", "--placement-report", report,
                         LEGACY / "two_task_placement.py"], cwd=article_cwd, check_rc=0,
                        timeout=300, env={"TF_CPP_MIN_LOG_LEVEL": "0"})
    losses = [float(m.group(2)) for m in
              re.finditer(r"^Partition (\d+) loss: ([0-9.]+)$", proc.stdout, re.M)]
    assert len(losses) == 55, _subproc.describe(proc)
    assert 2.2 < losses[0] < 2.4 and losses[-1] < 0.6
    # Each partition is new data, so single steps are noisy; the trend falls.
    assert sum(losses[-10:]) < sum(losses[:10]) / 2
    with open(report, newline="") as f:
        devices = {row["device"] for row in csv.DictReader(f)}
    assert any("/job:local/replica:0/task:0/" in d for d in devices), devices
    assert any("/job:local/replica:0/task:1/" in d for d in devices), devices
    # log_device_placement=True in the script: TF's own log names both tasks too.
    assert "/job:local/replica:0/task:1/device:CPU:0" in proc.stderr
