"""The observe wing's memory measurement against an analytic count of the same tensors.

The tests here: the commands in subprocesses; the rest: tests/tf/test_memory.py,
tests/unit/test_memory.py.
"""

import json

import pytest

from tests import _subproc
from tests.tf.test_memory import _within


@pytest.mark.slow
def test_allocator_peak_cross_checks_the_sweep_under_cpu_bfc(tmp_path):
    """With TF_CPU_ALLOCATOR_USE_BFC=1 the allocator's own peak agrees with the sweep."""
    code = (
        "import json, numpy as np, tensorflow as tf\n"
        "from tf1mem import models\nfrom tf1mem.observe import step_memory\n"
        "v1 = tf.compat.v1\ng = tf.Graph()\n"
        "with g.as_default():\n"
        "    net = models.train_graph('mlp', hidden=512)\n"
        "    init = v1.global_variables_initializer()\n"
        "s = v1.Session(graph=g); s.run(init)\n"
        "B = 4000\n"
        "r = step_memory.measure_step(s, net.train_op, {net.x: np.ones((B, 784), np.float32),"
        " net.y: np.ones((B, 10), np.float32)}, batch_size=B)\n"
        "(d,) = r.devices.values()\n"
        "print(json.dumps([d.peak_bytes, d.allocator_peak_bytes]))\n")
    proc = _subproc.run(["-c", code], env={"TF_CPU_ALLOCATOR_USE_BFC": "1"}, check_rc=0)
    sweep, allocator = json.loads(proc.stdout.strip().splitlines()[-1])
    assert allocator is not None
    _within(allocator, sweep, 0.15)
