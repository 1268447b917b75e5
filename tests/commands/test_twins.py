"""The TF2-native twins (tf1mem/examples/) give the TF1 graphs' loss at every step.

Each side runs in its own subprocess (TensorFlow's logical devices can only be set
before its runtime starts, and no test's TensorFlow state leaks into another).
"""

import json
import re

import pytest

from tests._subproc import describe, run

pytestmark = pytest.mark.slow

_EXAMPLE1 = """
import json, sys
from tf1mem.data import input_data
from tf1mem.examples import softmax_tf2
data_dir, seed, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
read = lambda: input_data.read_data_sets(data_dir, one_hot=True, seed=seed)
print(json.dumps({"tf1": softmax_tf2.tf1_graph_losses(read(), steps),
                  "tf2": softmax_tf2.train_tf2(read(), steps)}))
"""

_EXAMPLE2 = """
import json, sys
from tf1mem.examples import placement_tf2
devices = placement_tf2.two_logical_cpus()
from tf1mem.data import input_data
parts = placement_tf2.partitions(
    input_data.read_data_sets(sys.argv[1], one_hot=True, seed=int(sys.argv[2])))
print(json.dumps({"devices": devices, "placement": placement_tf2.placement(devices),
                  "placed": placement_tf2.train_placed(parts, devices),
                  "mirrored": placement_tf2.train_mirrored(parts, devices)}))
"""


def _json_tail(proc):
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("seed", [5, 11])
def test_example1_twin_matches_the_tf1_graph_per_step(real_mnist_dir, seed):
    proc = run(["-c", _EXAMPLE1, real_mnist_dir, seed, 200], timeout=240, check_rc=0)
    got = _json_tail(proc)
    tf1, tf2 = got["tf1"], got["tf2"]
    assert len(tf1) == len(tf2) == 200
    assert abs(tf1[0] - 2.302585) < 1e-5  # zero weights: log(10)
    assert tf1[-1] < 0.6  # it trained (so equal losses are not two constant lists)
    worst = max(abs(a - b) for a, b in zip(tf1, tf2))
    assert worst < 1e-5, (worst, describe(proc))


@pytest.mark.cluster
def test_example2_twins_match_the_two_task_run_per_partition(real_mnist_dir):
    seed = 3
    # --verbose: every partition's loss, as the article printed them.
    article = run(["-m", "tf1mem.train", "--mode", "two-task", "--data-dir", real_mnist_dir,
                   "--port-base", "0", "--seed", seed, "--verbose"], timeout=180, check_rc=0)
    tf1 = [float(v) for v in re.findall(r"^Partition \d+ loss: ([0-9.]+)$", article.stdout,
                                        re.M)]
    assert len(tf1) == 55, describe(article)
    twin = run(["-c", _EXAMPLE2, real_mnist_dir, seed], timeout=240, check_rc=0)
    got = _json_tail(twin)
    assert got["devices"] == ["/device:CPU:0", "/device:CPU:1"]
    # the article's split: the softmax on the first device, the loss on the second
    where = got["placement"]
    assert set(where["Softmax"]) == {"/device:CPU:0"}, where
    assert set(where["Log"]) == set(where["Mean"]) == {"/device:CPU:1"}, where
    for form in ("placed", "mirrored"):
        assert len(got[form]) == 55
        # two_task prints %f: 6 decimals, so up to 5e-7 of rounding plus float error
        worst = max(abs(a - b) for a, b in zip(tf1, got[form]))
        assert worst < 3e-6, (form, worst, tf1[:3], got[form][:3])
    assert tf1[-1] < tf1[0] - 1.0
