"""tf.estimator under tf1mem (tf1mem.compat.tf.estimator).

The tests here: the commands in subprocesses; the rest: tests/tf/test_estimator.py.
"""

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tests import _subproc


FIXTURE = Path(__file__).resolve().parents[1] / "estimator_tf115"


# -- under the shim (subprocesses) -------------------------------------------------


def _run_script(tmp_path, body, *args):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    return _subproc.run(["-m", "tf1mem.run", script, *args], cwd=tmp_path, check_rc=0,
                        timeout=300)


RESTORE = r'''
import json, shutil, sys
import numpy as np
import tensorflow as tf
fixture = sys.argv[1]
sys.path.insert(0, fixture)
import models
out = {}
work = sys.argv[2]
shutil.copytree(fixture + "/custom", work + "/custom")
est = tf.estimator.Estimator(models.custom_model_fn, model_dir=work + "/custom",
                             params={"hidden": 3})
x, y = models.custom_data()
out["custom"] = {
    "evaluate": {k: float(v) for k, v in est.evaluate(models.numpy_fn(x, y, epochs=1)).items()},
    "predict": [p["y"].tolist() for p in est.predict(models.numpy_fn(x, None, epochs=1))],
    "variables": est.get_variable_names()}
shutil.copytree(fixture + "/dnn", work + "/dnn")
clf = models.dnn_classifier(tf, work + "/dnn")
fx, fy = models.dnn_data()
preds = list(clf.predict(models.numpy_fn(fx, None, epochs=1, key="m")))
out["dnn"] = {
    "evaluate": {k: float(v) for k, v in clf.evaluate(
        models.numpy_fn(fx, fy, epochs=1, key="m")).items()},
    "probabilities": [p["probabilities"].tolist() for p in preds],
    "classes": [p["classes"][0].decode() for p in preds],
    "variables": clf.get_variable_names()}
clf.train(models.numpy_fn(fx, fy, epochs=None, key="m"), steps=2)
out["dnn"]["resumed_logits_kernel"] = clf.get_variable_value("dnn/logits/kernel").tolist()
print(json.dumps(out))
'''


@pytest.mark.slow
def test_tf115_checkpoints_restore_evaluate_predict_and_resume(tmp_path):
    """A TF 1.15.5 model_dir (custom model_fn with Adam; DNNClassifier with Adagrad)."""
    expected = json.loads((FIXTURE / "expected.json").read_text())
    work = tmp_path / "work"
    work.mkdir()
    proc = _run_script(tmp_path, RESTORE, FIXTURE, work)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in ("custom", "dnn"):
        assert got[name]["variables"] == expected[name]["variables"]
        assert got[name]["evaluate"] == pytest.approx(expected[name]["evaluate"], abs=1e-5)
    assert np.allclose(got["custom"]["predict"], expected["custom"]["predict"], atol=1e-5)
    assert got["dnn"]["classes"] == expected["dnn"]["classes"]
    assert np.allclose(got["dnn"]["probabilities"], expected["dnn"]["probabilities"], atol=1e-5)
    # Training resumed from TF 1.15.5's Adagrad accumulators (t_0/Adagrad) gives its weights.
    assert np.allclose(got["dnn"]["resumed_logits_kernel"],
                       expected["dnn"]["resumed_logits_kernel"], atol=1e-5)


BEHAVIOUR = r'''
import os, sys
import numpy as np
import tensorflow as tf
import tensorflow.estimator as est_module
from tensorflow.estimator.inputs import numpy_input_fn
from tensorflow.core.util import event_pb2
print("module:", est_module is tf.estimator, numpy_input_fn is tf.estimator.inputs.numpy_input_fn)
model_dir = sys.argv[1]
x = np.arange(8, dtype=np.float32).reshape(8, 1)
y = (2 * x + 1).ravel()
est = tf.estimator.LinearRegressor([tf.feature_column.numeric_column("x")], model_dir=model_dir,
                                   config=tf.estimator.RunConfig(save_summary_steps=1,
                                                                  log_step_count_steps=2))
try:
    est.get_variable_names()
except ValueError as e:
    print("no checkpoint:", "Could not find trained model" in str(e))
train = numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=True)
spec_train = tf.estimator.TrainSpec(train, max_steps=6)
spec_eval = tf.estimator.EvalSpec(numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=1,
                                                 shuffle=False), steps=None, throttle_secs=0)
result, exports = tf.estimator.train_and_evaluate(est, spec_train, spec_eval)
print("train_and_evaluate:", int(result["global_step"]), sorted(result), exports)
def tags(folder):
    found = set()
    for name in os.listdir(folder):
        if name.startswith("events.out.tfevents"):
            for record in tf.python_io.tf_record_iterator(os.path.join(folder, name)):
                event = event_pb2.Event.FromString(record)
                found.update(v.tag for v in event.summary.value)
    return found
print("train tags:", sorted(t for t in tags(model_dir) if t in ("loss", "global_step/sec")))
print("eval tags:", sorted(t for t in tags(os.path.join(model_dir, "eval"))
                           if t in ("loss", "average_loss")))
try:
    list(est.predict(numpy_input_fn({"x": x}, batch_size=4, shuffle=False),
                     predict_keys=["nope"]))
except ValueError as e:
    print("bad key:", "nope" in str(e))
try:
    est.experimental_export_all_saved_models
except AttributeError as e:
    print("export:", "removed" in str(e), "saved_model" in str(e))
try:
    tf.estimator.Estimator(lambda features, labels: None, params={"a": 1})
except ValueError as e:
    print("params:", "does not include params" in str(e))
'''


@pytest.mark.slow
def test_estimator_behaviour_under_the_runner(tmp_path):
    proc = _run_script(tmp_path, BEHAVIOUR, tmp_path / "model")
    assert proc.stdout.splitlines() == [
        "module: True True",
        "no checkpoint: True",
        "train_and_evaluate: 6 ['average_loss', 'global_step', 'label/mean', 'loss', "
        "'prediction/mean'] []",
        "train tags: ['global_step/sec', 'loss']",
        "eval tags: ['average_loss', 'loss']",
        "bad key: True",
        "export: True True",
        "params: True",
    ], proc.stderr


DOORS = r'''
import tf1mem
import tf1mem.v1 as tf
print("v1:", tf.estimator.Estimator.__module__)
tf1mem.uninstall()
import tensorflow as real
print("after uninstall:", hasattr(real, "estimator"))
with tf1mem.legacy() as tf1:
    print("legacy:", tf1.estimator.ModeKeys.PREDICT)
'''


@pytest.mark.slow
def test_estimator_through_tf1mem_v1_and_legacy(tmp_path):
    script = tmp_path / "doors.py"
    script.write_text(DOORS)
    proc = _subproc.run([script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == [
        "v1: tf1mem.compat.tf.estimator.estimator", "after uninstall: False", "legacy: infer"]
