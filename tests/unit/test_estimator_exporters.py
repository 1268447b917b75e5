"""tf.estimator exporters (Latest/Final/BestExporter) and EvalSpec's check of them.

The fast tests check the arguments as TF 1.15 did (each error names the value at fault).
The slow one runs train_and_evaluate under the runner with exporters into
model_dir/export/<name>/<timestamp>, garbage-collected to exports_to_keep, and loads the
exports back with tf.compat.v1.saved_model.loader; the corpus script
estimator_exporters.py checks the same layout against what TF 1.15.5 wrote.
"""

import json
import textwrap

import pytest

from tests import _subproc
from tf1mem.compat.tf.estimator import exporter, training


def _receiver():
    raise AssertionError("not called by these tests")


def _input_fn():
    raise AssertionError("not called by these tests")


def test_eval_spec_takes_one_exporter_or_a_list():
    latest = exporter.LatestExporter("latest", _receiver)
    assert training.EvalSpec(_input_fn, exporters=latest).exporters == (latest,)
    final = exporter.FinalExporter("final", _receiver)
    assert training.EvalSpec(_input_fn, exporters=[latest, final]).exporters == (latest, final)
    assert training.EvalSpec(_input_fn).exporters == ()


@pytest.mark.parametrize("bad, error, words", [
    ("not an exporter", TypeError, ["found not an exporter", "It is a str"]),
    (42, TypeError, ["found 42", "It is a int"]),
    ([None], TypeError, ["Element 0 (None) is a NoneType"]),
])
def test_eval_spec_rejects_what_is_no_exporter(bad, error, words):
    with pytest.raises(error) as info:
        training.EvalSpec(_input_fn, exporters=bad)
    assert str(info.value).startswith("`exporters` must be an Exporter, an iterable of "
                                      "Exporter, or `None`")
    for word in words:
        assert word in str(info.value)


class _Named(exporter.Exporter):
    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        return self._name

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        return None


def test_eval_spec_rejects_empty_non_string_and_repeated_names():
    with pytest.raises(ValueError, match=r"`exporters` must have unique names.*'a' is used "
                                         r"twice; all exporter names: \['a', 'b', 'a'\]"):
        training.EvalSpec(_input_fn, exporters=[_Named("a"), _Named("b"), _Named("a")])
    with pytest.raises(ValueError, match=r"cannot have a name that is `None` or empty.*"
                                         r"\['a', ''\]"):
        training.EvalSpec(_input_fn, exporters=[_Named("a"), _Named("")])
    with pytest.raises(ValueError, match=r"must have a string name.*int.*\(7\)"):
        training.EvalSpec(_input_fn, exporters=[_Named(7)])


def test_exporters_check_their_arguments():
    with pytest.raises(ValueError, match=r"LatestExporter: `exports_to_keep`.*got 0"):
        exporter.LatestExporter("x", _receiver, exports_to_keep=0)
    with pytest.raises(ValueError, match=r"BestExporter: `exports_to_keep`.*got -1"):
        exporter.BestExporter("x", _receiver, exports_to_keep=-1)
    with pytest.raises(ValueError, match=r"FinalExporter: serving_input_receiver_fn.*got "
                                         r"'nope'"):
        exporter.FinalExporter("x", "nope")
    with pytest.raises(ValueError, match=r"BestExporter: serving_input_receiver_fn.*None"):
        exporter.BestExporter()
    with pytest.raises(ValueError, match=r"LatestExporter: name must be a non-empty string"):
        exporter.LatestExporter("", _receiver)
    with pytest.raises(ValueError, match="`compare_fn` must not be None"):
        exporter.BestExporter("x", _receiver, compare_fn=None)
    with pytest.raises(ValueError, match=r"lacks \['current_eval_result'\]"):
        exporter.BestExporter("x", _receiver, compare_fn=lambda best_eval_result, b: True)
    with pytest.raises(ValueError, match="assets_extra must be a dict"):
        exporter.LatestExporter("x", _receiver, assets_extra=["a.txt"])
    assert exporter.LatestExporter("x", _receiver, exports_to_keep=None).name == "x"
    assert exporter.BestExporter(serving_input_receiver_fn=_receiver).name == "best_exporter"


def test_default_compare_fn_is_a_smaller_loss_and_needs_a_loss():
    assert exporter._loss_smaller({"loss": 2.0}, {"loss": 1.0})
    assert not exporter._loss_smaller({"loss": 1.0}, {"loss": 1.0})
    with pytest.raises(ValueError, match=r"current_eval_result cannot be empty or no loss.*"
                                         r"'auc'"):
        exporter._loss_smaller({"loss": 1.0}, {"auc": 0.5})
    with pytest.raises(ValueError, match="best_eval_result cannot be empty"):
        exporter._loss_smaller({}, {"loss": 1.0})


def test_garbage_collection_keeps_the_newest_timestamps_only(tmp_path):
    for name in ("100", "99", "1000", "temp-1001", "notes"):
        (tmp_path / name).mkdir()
    exporter._garbage_collect(str(tmp_path), 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["100", "1000", "notes", "temp-1001"]
    exporter._garbage_collect(str(tmp_path), None)
    assert len(list(tmp_path.iterdir())) == 4


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
