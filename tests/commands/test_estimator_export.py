"""SavedModel export of a tf.estimator under tf1mem (export_saved_model, tf.contrib.predictor).

The slow test trains a canned estimator under the runner, exports it with both serving
receivers TF 1.15 offered, and serves the exports with ``saved_model_cli`` (TF 2.21's own
tool, in a subprocess): the signatures are TF 1.15's ('serving_default', 'classification',
'predict') and the served predictions equal ``Estimator.predict``'s, and so do tf.contrib.predictor's
(from_saved_model and from_estimator).

The tests here: the commands in subprocesses; the rest: tests/tf/test_estimator_export.py.
"""

import json
import textwrap

import numpy as np
import pytest

from tests import _subproc


EXPORT = r'''
import json, os, sys
import numpy as np
import tensorflow as tf
from tensorflow.estimator.inputs import numpy_input_fn
base = sys.argv[1]
x = np.array([[0.0], [1.0], [2.0], [5.0], [6.0], [7.0]], dtype=np.float32)
y = (x.ravel() > 3).astype(np.int32)
cols = [tf.feature_column.numeric_column("x")]
est = tf.estimator.LinearClassifier(cols, model_dir=os.path.join(base, "model"))
try:
    est.export_saved_model(os.path.join(base, "early"), lambda: None)
except ValueError as e:
    print("untrained:", "Couldn't find trained model" in str(e))
est.train(numpy_input_fn({"x": x}, y, batch_size=3, num_epochs=None, shuffle=False), steps=5)
try:
    est.export_saved_model(os.path.join(base, "bad"), lambda: {"x": 1})
except ValueError as e:
    print("bad receiver:", "ServingInputReceiver" in str(e))
spec = tf.feature_column.make_parse_example_spec(cols)
parsing = est.export_saved_model(
    os.path.join(base, "parsing"),
    tf.estimator.export.build_parsing_serving_input_receiver_fn(spec))
raw = est.export_savedmodel(
    os.path.join(base, "raw"),
    tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 1])}))
print("types:", type(parsing).__name__, os.path.basename(os.path.dirname(parsing)).decode(),
      os.path.basename(parsing).decode().isdigit(), sorted(os.listdir(raw)))
preds = list(est.predict(numpy_input_fn({"x": x}, shuffle=False)))
from tensorflow.contrib import predictor
served = predictor.from_saved_model(raw, signature_def_key="predict")({"x": x})
from_est = predictor.from_estimator(est, tf.estimator.export.build_parsing_serving_input_receiver_fn(
    spec))
examples = [tf.train.Example(features=tf.train.Features(feature={"x": tf.train.Feature(
    float_list=tf.train.FloatList(value=[float(v)]))})).SerializeToString() for v in x.ravel()]
scores = from_est({"inputs": examples})["scores"]
try:
    predictor.from_saved_model(raw)
except ValueError as e:
    print("no default:", "serving_default" in str(e), "'predict'" in str(e))
try:
    from_est({"nope": examples})
except ValueError as e:
    print("bad input:", "nope" in str(e))
print(json.dumps({"predictor_raw": served["probabilities"].tolist(),
                  "predictor_estimator": scores.tolist(),
                  "predictor_classes": [c[0].decode() for c in served["classes"]],
"parsing": parsing.decode(), "raw": raw.decode(),
                  "probabilities": [p["probabilities"].tolist() for p in preds],
                  "classes": [p["classes"][0].decode() for p in preds]}))
'''


def _cli(tmp_path, *args):
    return _subproc.run(["-m", "tensorflow.python.tools.saved_model_cli", *args],
                        cwd=tmp_path, check_rc=0, timeout=300)


@pytest.mark.slow
def test_exported_estimator_serves_its_predictions_with_saved_model_cli(tmp_path):
    script = tmp_path / "export.py"
    script.write_text(textwrap.dedent(EXPORT))
    proc = _subproc.run(["-m", "tf1mem.run", script, tmp_path], cwd=tmp_path, check_rc=0,
                        timeout=300)
    lines = proc.stdout.strip().splitlines()
    assert lines[:3] == ["untrained: True", "bad receiver: True",
                         "types: bytes parsing True [b'saved_model.pb', b'variables']"], proc.stderr
    assert lines[3:5] == ["no default: True True", "bad input: True"], proc.stderr
    got = json.loads(lines[-1])
    # tf.contrib.predictor serves the same numbers in-process.
    assert np.allclose(got["predictor_raw"], got["probabilities"], atol=1e-6)
    assert np.allclose(got["predictor_estimator"], got["probabilities"], atol=1e-6)
    assert got["predictor_classes"] == got["classes"]

    shown = _cli(tmp_path, "show", "--all", "--dir", got["parsing"]).stdout
    signatures = sorted(line.split("'")[1] for line in shown.splitlines()
                        if line.startswith("signature_def["))
    assert signatures == ["classification", "predict", "serving_default"], shown
    assert "tensorflow/serving/classify" in shown and "inputs['inputs']" in shown

    examples = "inputs=[" + ",".join('{"x":[%r]}' % float(v) for v in (0, 1, 2, 5, 6, 7)) + "]"
    out = tmp_path / "served_default"
    _cli(tmp_path, "run", "--dir", got["parsing"], "--tag_set", "serve", "--signature_def",
         "serving_default", "--input_examples", examples, "--outdir", out)
    assert np.allclose(np.load(out / "scores.npy"), got["probabilities"], atol=1e-6)
    assert np.load(out / "classes.npy", allow_pickle=True).tolist() == [[b"0", b"1"]] * 6

    out = tmp_path / "served_raw"
    _cli(tmp_path, "run", "--dir", got["raw"], "--tag_set", "serve", "--signature_def",
         "predict", "--input_exprs", "x=[[0.0],[1.0],[2.0],[5.0],[6.0],[7.0]]",
         "--outdir", out)
    assert np.allclose(np.load(out / "probabilities.npy"), got["probabilities"], atol=1e-6)
    assert [c[0].decode() for c in np.load(out / "classes.npy", allow_pickle=True)] == got["classes"]
