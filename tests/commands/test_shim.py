"""The TF1 shim: install/uninstall round trip, who sees TF1, contrib errors.

Each case runs in its own interpreter: the shim changes process-wide state
(TF 2 behaviour, builtins.__import__), which must not leak into other tests.

The tests here: the commands in subprocesses; the rest: tests/unit/test_shim.py.
"""

import json
import textwrap

import pytest

from tests import _subproc

pytestmark = pytest.mark.slow

ROUND_TRIP = r'''
import builtins, json, os, sys
os.environ.pop("TF_USE_LEGACY_KERAS", None)
import tensorflow as real_tf
from tensorflow.python import tf2
from tensorflow.python.ops import control_flow_ops

def snapshot():
    return {
        "modules": sorted(m for m in sys.modules
                          if m.startswith(("tensorflow.contrib", "tensorflow.examples"))),
        "import": id(builtins.__import__),
        "meta_path": [id(f) for f in sys.meta_path],
        "env": os.environ.get("TF_USE_LEGACY_KERAS"),
        "tf2": tf2.enabled(),
        "eager": real_tf.executing_eagerly(),
        "tf_attrs": sorted(a for a in ("contrib", "examples") if a in vars(real_tf)),
        "session_init": id(real_tf.compat.v1.Session.__mro__[1].__init__),
        "internal_aliases": [hasattr(sys.modules["tensorflow.python.framework.ops"], "Tensor"),
                             hasattr(control_flow_ops, "cond")],
    }

import tf1mem
before = snapshot()
tf1 = tf1mem.install(placement_report=None, force_config=True)
assert tf1mem.install() is tf1, "second install is a no-op returning the same module"
during = snapshot()
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
import tensorflow.contrib.slim as slim
used = {"tf_is_v1": hasattr(tf, "placeholder") and tf is tf1,
        "slim": slim.__name__, "input_data": input_data.__name__,
        "eager_in_shim": real_tf.executing_eagerly()}
tf1mem.uninstall()
after = snapshot()
print(json.dumps({"before": before, "during": during, "after": after, "used": used,
                  "second_uninstall": tf1mem.uninstall()}))
'''


def _json_tail(proc):
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_install_uninstall_restores_state_exactly(tmp_path):
    script = tmp_path / "round_trip.py"
    script.write_text(ROUND_TRIP)
    out = _json_tail(_subproc.run([script], cwd=tmp_path, check_rc=0))
    assert out["used"] == {"tf_is_v1": True, "slim": "tf_slim",
                           "input_data": "tf1mem.data.input_data", "eager_in_shim": False}
    assert out["during"] != out["before"]
    assert out["during"]["env"] == "1" and out["during"]["tf2"] is False
    assert out["during"]["internal_aliases"] == [True, True]  # tf-slim 1.1 needs them
    assert out["after"] == out["before"]
    assert out["second_uninstall"] is False


def test_uninstall_restores_a_preexisting_env_value(tmp_path):
    script = tmp_path / "env.py"
    script.write_text(textwrap.dedent('''
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "0"
        import tf1mem
        with tf1mem.legacy() as tf:
            inside = os.environ["TF_USE_LEGACY_KERAS"]
        print(inside, os.environ["TF_USE_LEGACY_KERAS"])
    '''))
    proc = _subproc.run([script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["1", "0"]


def test_legacy_block_with_graph_work_restores_eager(tmp_path):
    script = tmp_path / "block.py"
    script.write_text(textwrap.dedent('''
        import tf1mem
        with tf1mem.legacy() as tf:
            x = tf.placeholder(tf.float32, [2])
            with tf.Session() as s:
                print(s.run(x * 2, {x: [1, 2]}).tolist())
        import tensorflow as tf2
        print(tf2.executing_eagerly(), int(tf2.constant(3).numpy()))
    '''))
    proc = _subproc.run([script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == ["[2.0, 4.0]", "True 3"]


def test_import_tf1mem_changes_nothing(tmp_path):
    script = tmp_path / "cheap.py"
    script.write_text(textwrap.dedent('''
        import builtins, os, sys
        imp, env, meta = builtins.__import__, dict(os.environ), list(sys.meta_path)
        import importlib, pkgutil, tf1mem
        for info in pkgutil.iter_modules(tf1mem.__path__):
            if info.name != "__main__":
                importlib.import_module("tf1mem." + info.name)
        assert "tensorflow" not in sys.modules, "tf1mem imported TensorFlow"
        assert builtins.__import__ is imp and dict(os.environ) == env and sys.meta_path == meta
        print("ok")
    '''))
    assert _subproc.run([script], cwd=tmp_path, check_rc=0).stdout.strip() == "ok"


def test_third_party_module_keeps_tf2(tmp_path):
    lib = tmp_path / "site-packages"
    lib.mkdir()
    (lib / "thirdparty.py").write_text("import tensorflow as tf\nTF = tf\n")
    app = tmp_path / "app"
    app.mkdir()
    (app / "helper.py").write_text("import tensorflow as tf\nTF = tf\n")
    (app / "main.py").write_text(textwrap.dedent('''
        import tensorflow as tf
        import helper, thirdparty
        print("script", hasattr(tf, "placeholder"))
        print("user module", helper.TF is tf)
        print("third party", hasattr(thirdparty.TF, "placeholder"), thirdparty.TF.__name__)
    '''))
    proc = _subproc.run(["-m", "tf1mem.run", app / "main.py"], cwd=tmp_path, check_rc=0,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{lib}"})
    assert proc.stdout.splitlines() == [
        "script True", "user module True", "third party False tensorflow"]


def test_v1_module_installs_on_first_use(tmp_path):
    script = tmp_path / "mig.py"
    script.write_text(textwrap.dedent('''
        import sys
        import tf1mem.v1 as tf
        import tf1mem.compat as shim
        print("before", shim.is_installed(), "tensorflow" in sys.modules)
        x = tf.placeholder(tf.float32, [2])
        with tf.Session() as s:
            print(s.run(x * 2, {x: [1, 2]}).tolist())
        print("after", shim.is_installed())
    '''))
    proc = _subproc.run([script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == ["before False False", "[2.0, 4.0]", "after True"]


@pytest.mark.parametrize("statement, needle", [
    ("import tensorflow as tf\ntf.contrib.bayesflow.monte_carlo",
     "tf.contrib.bayesflow was removed with TensorFlow 2"),
    ("import tensorflow as tf\ntf.contrib.factorization.WALSModel",
     "tf.contrib.factorization.WALSModel was removed"),
    ("from tensorflow.contrib import nccl",
     "tf.contrib.nccl was removed with TensorFlow 2"),
    ("import tensorflow as tf\ntf.estimator.BoostedTreesClassifier",
     "tf.estimator.BoostedTreesClassifier was removed with TensorFlow 2"),
    ("import tensorflow as tf\ntf.estimator.tpu", "tf.estimator.tpu was removed"),
    ("import tensorflow as tf\ntf.contrib.rnn.CompiledWrapper",
     "tf.contrib.rnn.CompiledWrapper was removed"),
    ("import tensorflow.examples.tutorials.word2vec", "tensorflow.examples.tutorials.word2vec"),
])
def test_removed_apis_fail_clearly(tmp_path, statement, needle):
    script = tmp_path / "removed.py"
    script.write_text(statement + "\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=1)
    assert needle in proc.stderr
    assert 'removed.py", line' in proc.stderr  # traceback points into the user's file
    assert "runpy" not in proc.stderr


MODULES_ROUND_TRIP = r'''
import builtins, importlib, json, sys
import tensorflow as real_tf
import tf1mem
from tf1mem import compat as shim

def snapshot():
    return {"import": id(builtins.__import__),
            "meta_path": [id(f) for f in sys.meta_path],
            "path_hooks": [id(h) for h in sys.path_hooks],
            # the finders of this (user) folder; library folders may be added meanwhile
            "cache": sorted((k, type(f).__name__) for k, f in sys.path_importer_cache.items()
                            if f is not None and k.startswith(sys.path[0]))}

before = snapshot()
tf1mem.install(import_hook="modules")
during = snapshot()
import helper  # a user module, in this script's folder: gets the TF1 API
import json as lib_module  # library code: Python's own import, untouched
used = {"helper_tf1": hasattr(helper.tf, "placeholder"),
        "helper_builtins_own": type(helper.__builtins__).__name__,
        "main_import_is_pythons": type(builtins.__import__).__name__ == "builtin_function_or_method",
        "lib_builtins_plain": type(vars(lib_module)["__builtins__"]).__name__,
        "user_globals": sorted(shim.user_globals())}
tf1mem.uninstall()
after = snapshot()
print(json.dumps({"before": before, "during": during, "after": after, "used": used}))
'''


def test_modules_hook_touches_only_user_modules_and_uninstalls_exactly(tmp_path):
    """The runner's hook: builtins.__import__ stays Python's; user modules get TF1."""
    (tmp_path / "helper.py").write_text("import tensorflow as tf\n")
    script = tmp_path / "round_trip.py"
    script.write_text(MODULES_ROUND_TRIP)
    out = _json_tail(_subproc.run([script], cwd=tmp_path, check_rc=0))
    assert out["used"] == {"helper_tf1": True, "helper_builtins_own": "_UserBuiltins",
                           "main_import_is_pythons": True, "lib_builtins_plain": "dict",
                           "user_globals": ["__builtins__"]}
    assert out["during"]["import"] == out["before"]["import"]
    assert out["during"]["path_hooks"] != out["before"]["path_hooks"]
    assert out["before"]["cache"] and all(kind == "FileFinder" for _, kind in out["before"]["cache"])
    assert out["after"] == out["before"]


def test_runner_user_code_sees_late_builtins_and_exec_gets_tf1(tmp_path):
    script = tmp_path / "main.py"
    script.write_text(textwrap.dedent('''
        import builtins, importlib
        builtins.added_later = 42  # as gettext.install() does with _
        print("late builtin", added_later)
        g = {}
        exec("import tensorflow as t; ok = hasattr(t, 'placeholder')", g)
        print("exec", g["ok"])
        print("python's import", type(builtins.__import__).__name__ == "builtin_function_or_method")
    '''))
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == ["late builtin 42", "exec True", "python's import True"]


def test_a_lazy_install_imports_nothing_and_undoes_cleanly_before_tensorflow(tmp_path):
    """``install(lazy=True)`` (the runner's) leaves no trace when TensorFlow never came."""
    code = textwrap.dedent("""\
        import os, sys
        from tf1mem import compat as shim
        before = (list(sys.meta_path), list(sys.path_hooks), os.environ.get('TF_USE_LEGACY_KERAS'))
        assert shim.install(import_hook='modules', lazy=True) is None
        print('tensorflow' in sys.modules, os.environ.get('TF_USE_LEGACY_KERAS'))
        shim.uninstall()
        after = (list(sys.meta_path), list(sys.path_hooks), os.environ.get('TF_USE_LEGACY_KERAS'))
        print(after == before, 'tensorflow' in sys.modules)
        try:
            shim.install(lazy=True)
        except Exception as exc:
            print(type(exc).__name__, 'modules' in str(exc))
        """)
    proc = _subproc.run(["-c", code], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["False", "1", "True", "False", "ShimError", "True"], \
        _subproc.describe(proc)
