"""Makes this folder's fixture with TensorFlow 1.15.5 (run with the oracle interpreter).

    /work/oracle/bin/python tests/estimator_tf115/make_fixture.py

Trains two small models with TF 1.15.5's tf.estimator and keeps, for each, what
restoring needs (``checkpoint``, ``model.ckpt-N.index``, ``model.ckpt-N.data-*``: a few
KB) plus ``expected.json``: the evaluate dict and the predictions TF 1.15.5 computed from
that checkpoint. ``tests/commands/test_estimator.py`` restores them under tf1mem and compares.
The model functions are in ``models.py``, shared with the test.
"""
import glob
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models  # noqa: E402


def keep(model_dir, name):
    out = os.path.join(HERE, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    latest = tf.train.latest_checkpoint(model_dir)
    base = os.path.basename(latest)
    for path in glob.glob(latest + ".index") + glob.glob(latest + ".data-*"):
        shutil.copy(path, out)
    with open(os.path.join(out, "checkpoint"), "w") as f:
        f.write('model_checkpoint_path: "%s"\nall_model_checkpoint_paths: "%s"\n' % (base, base))


def as_json(value):
    value = np.asarray(value)
    if value.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in value.reshape(-1).tolist()]
    return value.tolist()


def main():
    expected = {"tensorflow": tf.__version__}
    x, y = models.custom_data()
    d = tempfile.mkdtemp()
    est = tf.estimator.Estimator(models.custom_model_fn, model_dir=d, params={"hidden": 3},
                                 config=tf.estimator.RunConfig(tf_random_seed=7))
    est.train(models.numpy_fn(x, y, epochs=None), steps=20)
    keep(d, "custom")
    expected["custom"] = {
        "evaluate": {k: float(v) for k, v in est.evaluate(models.numpy_fn(x, y, epochs=1)).items()},
        "predict": [as_json(p["y"]) for p in est.predict(models.numpy_fn(x, None, epochs=1))],
        "variables": est.get_variable_names(),
    }
    fx, fy = models.dnn_data()
    d = tempfile.mkdtemp()
    clf = models.dnn_classifier(tf, d)
    clf.train(models.numpy_fn(fx, fy, epochs=None, key="m"), steps=30)
    keep(d, "dnn")
    preds = list(clf.predict(models.numpy_fn(fx, None, epochs=1, key="m")))
    expected["dnn"] = {
        "evaluate": {k: float(v) for k, v in clf.evaluate(
            models.numpy_fn(fx, fy, epochs=1, key="m")).items()},
        "probabilities": [as_json(p["probabilities"]) for p in preds],
        "classes": [as_json(p["classes"])[0] for p in preds],
        "variables": clf.get_variable_names(),
    }
    clf.train(models.numpy_fn(fx, fy, epochs=None, key="m"), steps=2)
    expected["dnn"]["resumed_logits_kernel"] = as_json(clf.get_variable_value("dnn/logits/kernel"))
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
