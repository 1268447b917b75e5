"""train_and_evaluate over a real TF_CONFIG cluster: 1 ps, a chief, a worker, an evaluator.

Each task is tests/cluster_scripts/estimator_tf_config.py under ``python -m tf1mem.run``
(servers on loopback through its bind shim), started here as a subprocess with its own
TF_CONFIG, in its own process group; every group is killed at the end, on failure too.

TF 1.15.5 (the oracle, each task under the same LD_PRELOAD loopback shim) ran the same
four tasks and printed the same lines this test checks: chief and worker
"global_step >= 100: True", the evaluator's last evaluation at global step 100 ("Exiting
evaluation, global_step=100 >= train max_steps=100") with metric keys "average_loss
global_step label/mean loss prediction/mean"; the loss values differ run to run (async
updates, shuffled input), so only "loss < 1" is checked.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import _subproc
from tf1mem.distributed import servers

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

SCRIPT = Path(__file__).resolve().parents[1] / "cluster_scripts" / "estimator_tf_config.py"
TIMEOUT_S = 240


def test_estimator_cluster_trains_checkpoints_and_evaluates(tmp_path):
    ports = servers.free_ports(3)
    cluster = {"ps": [f"127.0.0.1:{ports[0]}"], "chief": [f"127.0.0.1:{ports[1]}"],
               "worker": [f"127.0.0.1:{ports[2]}"]}
    model_dir = tmp_path / "model"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(SCRIPT.parents[2]), env.get("PYTHONPATH", "")) if p)
    procs = {}
    try:
        for job, index in (("ps", 0), ("chief", 0), ("worker", 0), ("evaluator", 0)):
            env["TF_CONFIG"] = json.dumps({"cluster": cluster,
                                           "task": {"type": job, "index": index}})
            log = open(tmp_path / f"{job}.log", "w")
            procs[job] = (subprocess.Popen(
                [sys.executable, "-m", "tf1mem.run", str(SCRIPT), "--model_dir",
                 str(model_dir)], env=dict(env), stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True), log)
        deadline = time.monotonic() + _subproc.bound(TIMEOUT_S)
        for job in ("chief", "worker", "evaluator"):
            proc = procs[job][0]
            rc = proc.wait(timeout=max(1, deadline - time.monotonic()))
            text = (tmp_path / f"{job}.log").read_text()
            assert rc == 0, f"{job} exited {rc}:\n{text[-4000:]}"
        assert procs["ps"][0].poll() is None, "the ps must serve until stopped"
    finally:
        for proc, log in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            log.close()
    logs = {job: (tmp_path / f"{job}.log").read_text() for job in procs}
    assert "chief: global_step >= 100: True" in logs["chief"]
    assert "worker: global_step >= 100: True" in logs["worker"]
    assert "evaluator: last global_step >= 100: True" in logs["evaluator"]
    assert ("evaluator: metric keys: average_loss global_step label/mean loss "
            "prediction/mean") in logs["evaluator"]
    assert "evaluator: loss < 1: True" in logs["evaluator"]
    # Only the chief saves: checkpoints in the shared model_dir, the last at >= max_steps.
    import tensorflow as tf

    latest = tf.train.latest_checkpoint(str(model_dir))
    assert latest and int(latest.rsplit("-", 1)[1]) >= 100
    assert "Start Tensorflow server." in logs["ps"]
