"""The article's example 2 (two in-process gRPC tasks) through ``tf1mem.train``.

The tests here: the commands in subprocesses; the rest: tests/tf/test_two_task.py.
"""

import re
import socket

import pytest

from tests._subproc import describe, run


@pytest.fixture
def mnist_dir(real_mnist_dir):
    return real_mnist_dir  # conftest's read-only-use copy of real MNIST


@pytest.mark.cluster
@pytest.mark.slow
def test_two_task_ends_with_the_test_accuracy_in_a_few_lines(mnist_dir):
    proc = run(["-m", "tf1mem.train", "--mode", "two-task", "--data-dir", mnist_dir,
                "--port-base", "0"], timeout=60, check_rc=0, env={"TF_CPP_MIN_LOG_LEVEL": "0"})
    lines = proc.stdout.strip().splitlines()
    losses = re.findall(r"^Partition (\d+) loss: [0-9.]+$", proc.stdout, re.M)
    # Every tenth partition's loss and the last; no placement dump or table.
    assert losses == ["0", "10", "20", "30", "40", "50", "54"], describe(proc)
    assert re.fullmatch(r"test accuracy: 0\.\d{4}", lines[-1]), describe(proc)
    assert 0.8 < float(lines[-1].split()[-1]) <= 1.0, describe(proc)
    assert len(lines) <= 15 and "Placement" not in proc.stdout, describe(proc)
    assert "(Mul): /job:local" not in proc.stderr + proc.stdout, describe(proc)
    # Nothing of TensorFlow's C++ log reaches the console.
    assert not re.search(r"^[IWE]\d{4} ", proc.stderr, re.M), describe(proc)


@pytest.mark.cluster
@pytest.mark.slow
def test_two_task_losses_fall_and_both_tasks_hold_nodes(mnist_dir):
    # --verbose: the article's output, every partition's loss and the placement.
    proc = run(["-m", "tf1mem.train", "--mode", "two-task", "--data-dir", mnist_dir,
                "--port-base", "0", "--verbose"], timeout=60, check_rc=0)
    losses = [float(v) for v in re.findall(r"^Partition \d+ loss: ([0-9.]+)$",
                                            proc.stdout, re.M)]
    assert len(losses) == 55, describe(proc)
    assert abs(losses[0] - 2.302585) < 1e-3, describe(proc)
    assert losses[-1] < 0.6 and losses[-1] < losses[0], describe(proc)
    table = proc.stdout.split("Placement of partition 0", 1)[1]
    task0 = re.findall(r"^/job:local/replica:0/task:0/\S+\s+(\S+)", table, re.M)
    task1 = re.findall(r"^/job:local/replica:0/task:1/\S+\s+(\S+)", table, re.M)
    assert {"Variable", "Variable_1", "Softmax"} <= set(task0), describe(proc)
    assert {"Log", "Mean"} <= set(task1), describe(proc)


@pytest.mark.cluster
@pytest.mark.slow
def test_two_task_port_in_use_is_a_cluster_error(mnist_dir):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        proc = run(["-m", "tf1mem.train", "--mode", "two-task", "--data-dir", mnist_dir,
                    "--port-base", port], timeout=60)
    assert proc.returncode == 4, describe(proc)
    assert str(port) in proc.stderr and "--port-base 0" in proc.stderr, describe(proc)
