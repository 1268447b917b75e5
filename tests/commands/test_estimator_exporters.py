"""tf.estimator exporters (Latest/Final/BestExporter) and EvalSpec's check of them.

The tests here: the commands in subprocesses; the rest:
tests/unit/test_estimator_exporters.py.
"""

import json
import textwrap

import pytest

from tests import _subproc


EXPORTERS = r'''
import json, os, sys
import numpy as np
import tensorflow as tf
model_dir = sys.argv[1]
extra = os.path.join(os.path.dirname(model_dir), "vocab.txt")
with open(extra, "w") as f:
    f.write("a\nb\n")
cols = [tf.feature_column.numeric_column("x")]
config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=1)
est = tf.estimator.LinearRegressor(cols, config=config)
x = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)
y = np.array([0.0, -1.0, -2.0, -3.0], np.float32)
fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None,
                                        shuffle=False)
eval_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=1,
                                             shuffle=False)
serving = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {"x": tf.placeholder(tf.float32, [None, 1])})
exporters = [
    tf.estimator.LatestExporter("latest", serving, exports_to_keep=1, as_text=True,
                                assets_extra={"vocab/vocab.txt": extra}),
    tf.estimator.FinalExporter("final", serving),
    # no event files to read: the first evaluation is exported too
    tf.estimator.BestExporter("best", serving, event_file_pattern=None, exports_to_keep=None),
    tf.estimator.BestExporter("never", serving,
                              compare_fn=lambda best_eval_result, current_eval_result: False),
]
result, exported = tf.estimator.train_and_evaluate(
    est, tf.estimator.TrainSpec(fn, max_steps=3),
    tf.estimator.EvalSpec(eval_fn, steps=None, exporters=exporters, start_delay_secs=0,
                          throttle_secs=0))
base = os.path.join(model_dir, "export")
layout = {name: sorted(os.listdir(os.path.join(base, name))) for name in os.listdir(base)}
loaded = {}
for name, versions in layout.items():
    for version in versions:
        folder = os.path.join(base, name, version)
        with tf.Graph().as_default(), tf.Session() as session:
            meta = tf.compat.v1.saved_model.loader.load(session, ["serve"], folder)
            sig = meta.signature_def["predict"]
            out = session.run(sig.outputs["predictions"].name, {sig.inputs["x"].name: x})
        loaded[name + "/" + version] = {"files": sorted(os.listdir(folder)),
                                        "predictions": out[:, 0].tolist()}
print(json.dumps({"step": int(result["global_step"]), "layout": layout, "loaded": loaded,
                  "returned": [r.decode() if r else r for r in exported],
                  "extra": sorted(os.listdir(os.path.join(
                      base, "latest", layout["latest"][0], "assets.extra", "vocab"))),
                  "predict": [p["predictions"][0].item() for p in est.predict(
                      tf.estimator.inputs.numpy_input_fn({"x": x}, shuffle=False))]}))
'''


@pytest.mark.slow
def test_train_and_evaluate_exports_into_model_dir_export(tmp_path):
    script = tmp_path / "exporters.py"
    script.write_text(textwrap.dedent(EXPORTERS))
    model_dir = tmp_path / "model"
    proc = _subproc.run(["-m", "tf1mem.run", script, model_dir], cwd=tmp_path, check_rc=0,
                        timeout=300)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["step"] == 3
    layout = got["layout"]
    # Checkpoints at steps 1, 2, 3: three evaluations. Latest kept 1 of 3; final only at
    # step 3; best (no earlier events) exported all three, as the loss fell each time;
    # "never" never beat the first evaluation, which it read back from the event file.
    assert sorted(layout) == ["best", "final", "latest"]
    assert [len(layout[k]) for k in ("latest", "final", "best")] == [1, 1, 3]
    assert all(v.isdigit() for versions in layout.values() for v in versions)
    # The last evaluation exports to all three, in the exporters' order, each into a directory
    # named by the second it began (TF 1.15 too): the names agree unless a second boundary
    # falls between two exports, so allow a few seconds, never a step back.
    last = [int(layout[name][-1]) for name in ("latest", "final", "best")]
    assert last == sorted(last) and last[-1] - last[0] <= 5, layout
    assert [int(v) for v in layout["best"]] == sorted(int(v) for v in layout["best"])
    assert got["returned"][:3] == [str(model_dir / "export" / name / layout[name][-1])
                                   for name in ("latest", "final", "best")]
    assert got["returned"][3] is None
    latest = got["loaded"]["latest/" + layout["latest"][0]]
    assert latest["files"] == ["assets.extra", "saved_model.pbtxt", "variables"]
    assert got["extra"] == ["vocab.txt"]
    assert got["loaded"]["final/" + layout["final"][0]]["files"] == [
        "saved_model.pb", "variables"]
    # The final export serves what the trained estimator predicts; earlier ones differ.
    for name in ("latest", "final"):
        served = got["loaded"][name + "/" + layout[name][0]]["predictions"]
        assert served == pytest.approx(got["predict"], abs=1e-6)
    first = got["loaded"]["best/" + layout["best"][0]]["predictions"]
    assert first != pytest.approx(got["predict"], abs=1e-3)
