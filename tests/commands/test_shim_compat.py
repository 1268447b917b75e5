"""The shim's ``tf.compat``: ``tf.compat.v1.estimator`` and ``tf.compat.v2.estimator`` as
TF 1.15.5 had them, for user code only, undone by ``uninstall()``.

What TF 1.15.5 did (measured with the oracle): ``tf.compat.v1.estimator`` was
``tf.estimator`` (``Estimator``, ``RunConfig``, ``inputs.numpy_input_fn``, ...), also
through ``import tensorflow.compat.v1 as tf``, ``from tensorflow.compat.v1 import
estimator`` and ``from tensorflow.compat.v1.estimator[.inputs] import ...``;
``tf.compat.v2.estimator`` had the same names less ``inputs`` and ``tpu``, with
``EstimatorV2`` and V2 canned estimators; ``tf.compat.v1.contrib`` raised
AttributeError. Each case runs in its own interpreter: the shim changes process-wide state.
"""

import json
import textwrap

import pytest

from tests import _subproc

pytestmark = pytest.mark.slow

# The paths under test; each line prints "<expression> <module of the value's definer>".
_PATHS = [
    "tf.compat.v1.estimator", "tf.compat.v1.estimator.Estimator",
    "tf.compat.v1.estimator.RunConfig", "tf.compat.v1.estimator.inputs.numpy_input_fn",
    "tf.compat.v1.estimator.EstimatorSpec", "tf.compat.v2.estimator.Estimator",
    "tf.compat.v2.estimator.RunConfig", "tf.compat.v2.compat.v1.estimator.Estimator",
    "tfv1.estimator.Estimator", "tfv1.estimator.inputs.numpy_input_fn",
    "tfv2.estimator.Estimator",
]

ROUND_TRIP = r'''
import json, sys
import tensorflow as real_tf
# imported for real, as a program would anyway: they stay loaded after uninstall
import tensorflow.compat.v1, tensorflow.compat.v2

def snapshot():
    v1 = real_tf.compat.v1
    return {
        "modules": sorted(m for m in sys.modules if m.startswith("tensorflow.compat")),
        "compat": id(real_tf.compat), "v1": id(v1), "v2": id(real_tf.compat.v2),
        "v1_estimator": [hasattr(v1, "estimator"), "estimator" in vars(v1)],
        "v2_estimator": hasattr(real_tf.compat.v2, "estimator"),
    }

import tf1mem
before = snapshot()
tf = tf1mem.install()
import tensorflow.compat.v1 as tfv1
import tensorflow.compat.v2 as tfv2
from tensorflow.compat.v1 import estimator as from_v1
from tensorflow.compat.v1.estimator import RunConfig, inputs
from tensorflow.compat.v1.estimator.inputs import numpy_input_fn
from tensorflow.compat.v2.estimator import Estimator as V2Estimator
from tensorflow.compat import v1 as compat_v1
import thirdparty
resolved = {}
for path in PATHS:
    value = eval(path)
    resolved[path] = getattr(value, "__module__", None) or value.__name__
used = {
    "same_package": [tf.compat.v1.estimator is tf.estimator, from_v1 is tf.estimator,
                     tfv1.estimator is tf.estimator, compat_v1 is tf.compat.v1,
                     RunConfig is tf.estimator.RunConfig, inputs is tf.estimator.inputs,
                     numpy_input_fn is tf.estimator.inputs.numpy_input_fn,
                     V2Estimator is tf.compat.v2.estimator.Estimator,
                     tf.compat.v2.estimator.RunConfig is tf.estimator.RunConfig],
    "v2_is_subclass": issubclass(V2Estimator, tf.estimator.Estimator)
                      and V2Estimator is not tf.estimator.Estimator,
    "v1_view_keeps_tf2_names": tfv1.placeholder is real_tf.compat.v1.placeholder,
    "third_party": thirdparty.report(),
}
during = snapshot()
tf1mem.uninstall()
after = snapshot()
print(json.dumps({"before": before, "during": during, "after": after, "used": used,
                  "resolved": resolved}))
'''

THIRD_PARTY = '''\
import sys
import tensorflow as tf
import tensorflow.compat.v1 as tfv1


def report():
    """What a library sees while the shim is installed."""
    return {"tf_is_real": tf is sys.modules["tensorflow"],
            "v1_is_real": tfv1 is sys.modules["tensorflow.compat.v1"],
            "v1_estimator": hasattr(tf.compat.v1, "estimator"),
            "v2_estimator": hasattr(tf.compat.v2, "estimator")}
'''


def _site_packages(tmp_path):
    """A folder named site-packages: modules there are third-party code to the shim."""
    lib = tmp_path / "site-packages"
    lib.mkdir()
    (lib / "thirdparty.py").write_text(THIRD_PARTY)
    return lib


def test_compat_estimator_paths_for_user_code_only_and_uninstall_restores(tmp_path):
    lib = _site_packages(tmp_path)
    script = tmp_path / "round_trip.py"
    script.write_text(f"PATHS = {_PATHS!r}\n" + ROUND_TRIP)
    proc = _subproc.run([script], cwd=tmp_path, check_rc=0,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{lib}"})
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    resolved = out["resolved"]
    assert resolved.pop("tf.compat.v1.estimator") == "tf1mem.compat.tf.estimator"
    assert resolved.pop("tf.compat.v1.estimator.inputs.numpy_input_fn") \
        == "tf1mem.compat.tf.estimator.inputs"
    assert resolved.pop("tfv1.estimator.inputs.numpy_input_fn") \
        == "tf1mem.compat.tf.estimator.inputs"
    assert all(module.startswith("tf1mem.compat.tf.estimator.") for module in resolved.values()), \
        resolved
    assert out["used"] == {"same_package": [True] * 9, "v2_is_subclass": True,
                           "v1_view_keeps_tf2_names": True,
                           "third_party": {"tf_is_real": True, "v1_is_real": True,
                                           "v1_estimator": False, "v2_estimator": False}}
    # TF 2.21's modules are never changed, during or after; no sys.modules entry added
    assert out["before"]["v1_estimator"] == [False, False]
    assert out["during"] == out["before"]
    assert out["after"] == out["before"]


RUNNER_MAIN = '''\
from tensorflow.compat.v1.estimator import RunConfig
import tensorflow.compat.v1 as tf
import thirdparty
import helper

print("user", RunConfig.__module__, tf.estimator.Estimator.__module__,
      tf.estimator.inputs.numpy_input_fn.__name__)
print("helper", helper.tf.compat.v1.estimator is tf.estimator)
print("third party", sorted(thirdparty.report().items()))
for expr in ("tf.contrib", "tf.compat.v2.estimator.inputs", "tf.compat.v2.estimator.DNNClassifier"):
    try:
        eval(expr)
    except AttributeError as exc:
        print(expr, type(exc).__name__, "|", exc)
for stmt in ("from tensorflow.compat.v2.estimator.inputs import numpy_input_fn",
             "import tensorflow.compat.v1.estimator.tpu"):
    try:
        exec(stmt)
    except ImportError as exc:
        print(stmt.split()[1], type(exc).__name__, "|", exc)
try:
    tf.compat.v2.estimator.Estimator(lambda features: None).export_savedmodel("x", None)
except AttributeError as exc:
    print("export_savedmodel", "|", exc)
'''


def test_runner_gives_compat_estimator_to_user_modules_not_libraries(tmp_path):
    lib = _site_packages(tmp_path)
    app = tmp_path / "app"
    app.mkdir()
    (app / "helper.py").write_text("import tensorflow as tf\n")
    (app / "main.py").write_text(RUNNER_MAIN)
    proc = _subproc.run(["-m", "tf1mem.run", app / "main.py"], cwd=tmp_path, check_rc=0,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{lib}"})
    lines = proc.stdout.splitlines()
    assert lines[:3] == [
        "user tf1mem.compat.tf.estimator.run_config tf1mem.compat.tf.estimator.estimator "
        "numpy_input_fn",
        "helper True",
        "third party [('tf_is_real', True), ('v1_estimator', False), "
        "('v1_is_real', True), ('v2_estimator', False)]"], _subproc.describe(proc)
    errors = dict(line.split(" | ", 1) for line in lines[3:])
    assert errors.keys() == {
        "tf.contrib AttributeError", "tf.compat.v2.estimator.inputs AttributeError",
        "tf.compat.v2.estimator.DNNClassifier RemovedAttributeError",
        "tensorflow.compat.v2.estimator.inputs ModuleNotFoundError",
        "tensorflow.compat.v1.estimator.tpu RemovedModuleError", "export_savedmodel"}, lines
    # each error names the value and says what to use
    assert "import tensorflow as tf" in errors["tf.contrib AttributeError"]
    # TF 2.21 has no tf.compat.v1.estimator; the advice names what exists under the
    # runner: tf1mem's tf.estimator.inputs
    assert "use tf.estimator.inputs" in errors[
        "tf.compat.v2.estimator.inputs AttributeError"]
    assert "tf.compat.v1.estimator.DNNClassifier" in errors[
        "tf.compat.v2.estimator.DNNClassifier RemovedAttributeError"]
    assert "tensorflow.compat.v1.estimator.inputs" in errors[
        "tensorflow.compat.v2.estimator.inputs ModuleNotFoundError"]
    assert "export_saved_model" in errors["export_savedmodel"]


def test_star_import_of_compat_v1_includes_estimator(tmp_path):
    script = tmp_path / "star.py"
    script.write_text(textwrap.dedent('''\
        from tensorflow.compat.v1 import *
        import builtins
        builtins.print(estimator.__name__, Session.__name__, callable(placeholder))
    '''))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["tf1mem.compat.tf.estimator", "Session", "True"]
