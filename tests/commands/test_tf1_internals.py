"""TF1's internal module paths under tf1mem: every path the table maps imports from user code
and is the object the table names; TF1-era libraries' own import lines work from a module
that is user code; libraries keep TensorFlow's real modules; uninstall puts back what the
shim changed in TensorFlow (the moved names and the batch-norm module alias).

docs/INTERNALS.md ranks these paths by how often TF1 code imported them.

The tests here: the commands in subprocesses; the rest: tests/unit/test_tf1_internals.py.
"""

import json
import textwrap

import pytest

from tests import _subproc
from tf1mem.compat import table

pytestmark = pytest.mark.slow

# Paths below the prefixes, as TF1 code imported them.
PREFIX_SAMPLES = {
    "tensorflow.contrib.slim.python.slim": [
        "nets.vgg", "nets.inception_v3", "nets.resnet_v1", "learning", "model_analyzer",
        "evaluation", "data.tfexample_decoder"],
    "tensorflow.contrib.keras.python.keras": ["applications.imagenet_utils", "utils.data_utils",
                                              "layers", "backend"],
    "tensorflow.python.keras": [
        "applications.imagenet_utils", "utils.data_utils", "utils.generic_utils",
        "engine.input_spec", "engine.base_layer", "preprocessing.image",
        "preprocessing.sequence", "layers", "backend", "models", "optimizers", "callbacks",
        "losses", "regularizers", "initializers"],
    "tensorflow.python.estimator": ["estimator", "model_fn", "run_config", "export"],
}

CHECK = textwrap.dedent(r'''
    import importlib, json, sys
    import tensorflow as tf
    from tf1mem import _lazy
    from tf1mem.compat import table

    SAMPLES = json.loads(sys.argv[1])
    results = {}

    def user_import(path):
        """`import PATH as m` and `from PARENT import LEAF as m`, as user code writes them."""
        ns = {"__builtins__": __builtins__, "__name__": "__main__"}
        exec("import %s as m" % path, ns)
        first = ns["m"]
        parent, _, leaf = path.rpartition(".")
        exec("from %s import %s as m" % (parent, leaf), ns)
        if ns["m"] is not first:
            raise AssertionError("the two import forms give different objects")
        return first

    def load(source):
        return _lazy.resolve(source if ":" in source else source + ":")

    def same_names(module, source, at_most=60):
        """Every public name of ``source`` (up to at_most) is the same object in module."""
        expected = load(source)
        names = [n for n in dir(expected) if not n.startswith("_")][:at_most]
        wrong = [n for n in names if getattr(module, n) is not getattr(expected, n)]
        if wrong:
            raise AssertionError("not %s's: %s" % (source, wrong))
        return len(names)

    def check(key, fn):
        try:
            value = fn()
            results[key] = "ok" if value is True or isinstance(value, int) else repr(value)
        except BaseException as e:
            results[key] = "%s: %s" % (type(e).__name__, e)

    # tensorflow.contrib.* is the finder's, for all code alike: the module at each path.
    # (`import a.b.c as m` reads attributes; below one of CONTRIB_PACKAGES an attribute can
    # be the served module's name, as in TF 1.15: see the arg_scope identity below.)
    for path, target in table.CONTRIB_SUBMODULES.items():
        check("contrib:" + path, lambda p=path, t=target:
              importlib.import_module("tensorflow.contrib." + p) is getattr(tf.contrib, t)
              or "other")
    for path, served in table.CONTRIB_PACKAGES.items():
        source = served if "." in served else "tensorflow.contrib." + served
        check("package:" + path, lambda p=path, s=source:
              same_names(user_import("tensorflow.contrib." + p), s))
    for path, target in table.MODULE_ALIASES.items():
        check("alias:" + path, lambda p=path, t=target:
              importlib.import_module(p) is importlib.import_module(t) or "other")
    for prefix, rests in SAMPLES.items():
        home = table.MODULE_PREFIX_ALIASES.get(prefix) or table.INTERNAL_PREFIXES[prefix]
        for rest in rests:
            check("prefix:%s.%s" % (prefix, rest), lambda p=prefix, r=rest, h=home:
                  user_import(p + "." + r) is importlib.import_module(h + "." + r) or "other")
    for path, source in table.INTERNAL_MODULES.items():
        if isinstance(source, str):
            check("internal:" + path, lambda p=path, s=source:
                  user_import(p) is load(s) or "other")
        else:
            check("internal:" + path, lambda p=path, s=source: same_names(user_import(p), s[0]))

    # What TF1 code relied on: the internal path is the object its public name is.
    IDENTITIES = {
        "tensorflow.python.layers.core.Dense is tf.layers.Dense":
            "from tensorflow.python.layers.core import Dense as x; y = tf.layers.Dense",
        "tensorflow.python.layers.base.Layer is tf.layers.Layer":
            "from tensorflow.python.layers.base import Layer as x; y = tf.layers.Layer",
        "rnn_cell.LSTMCell is tf.nn.rnn_cell.LSTMCell":
            "from tensorflow.python.ops.rnn_cell import LSTMCell as x; y = tf.nn.rnn_cell.LSTMCell",
        "rnn_cell_impl.RNNCell is tf.nn.rnn_cell.RNNCell":
            "from tensorflow.python.ops import rnn_cell_impl; x = rnn_cell_impl.RNNCell; "
            "y = tf.nn.rnn_cell.RNNCell",
        "rnn.rnn_cell_impl is rnn_cell_impl":
            "from tensorflow.python.ops.rnn import rnn_cell_impl as x; "
            "from tensorflow.python.ops import rnn_cell_impl as y",
        "keras.layers.Dense is tf.keras.layers.Dense":
            "from tensorflow.python import keras; x = keras.layers.Dense; y = tf.keras.layers.Dense",
        "keras.backend.get_session is tf.keras.backend.get_session":
            "from tensorflow.python.keras import backend as K; x = K.get_session; "
            "y = tf.keras.backend.get_session",
        "tf.python.util.nest is tf.contrib.framework.nest":
            "x = tf.python.util.nest; y = tf.contrib.framework.nest",
        "framework.python.ops.arg_scope is the function":
            "from tensorflow.contrib.framework.python.ops import arg_scope as x; "
            "y = tf.contrib.framework.arg_scope",
        # TF 1.15 too: the package attribute, not sys.modules' submodule
        "import framework.python.ops.arg_scope as m gives the function":
            "import tensorflow.contrib.framework.python.ops.arg_scope as x; "
            "y = tf.contrib.framework.arg_scope",
        "audio_ops.decode_wav is tf.audio.decode_wav's op":
            "from tensorflow.contrib.framework.python.ops import audio_ops as a; "
            "x = a.decode_wav; from tensorflow.python.ops import gen_audio_ops as g; y = g.decode_wav",
        "array_ops.stack is tf.stack":
            "from tensorflow.python.ops import array_ops; x = array_ops.stack; y = tf.stack",
    }
    for name, code in IDENTITIES.items():
        def same(code=code):
            ns = {"__builtins__": __builtins__, "__name__": "__main__", "tf": tf}
            exec(code, ns)
            return ns["x"] is ns["y"] or "different: %r %r" % (ns["x"], ns["y"])
        check("identity:" + name, same)

    def missing(path):
        try:
            user_import(path)
        except ImportError as e:
            return "%s: %s" % (type(e).__name__, e)
        return "imported"
    results["missing:keras"] = missing("tensorflow.python.keras.no_such_module")
    results["missing:slim"] = missing("tensorflow.contrib.slim.python.slim.no_such_module")
    print(json.dumps(results))
''')


def _keys():
    keys = [f"contrib:{p}" for p in table.CONTRIB_SUBMODULES]
    keys += [f"package:{p}" for p in table.CONTRIB_PACKAGES]
    keys += [f"alias:{p}" for p in table.MODULE_ALIASES]
    keys += [f"prefix:{pre}.{rest}" for pre, rests in PREFIX_SAMPLES.items() for rest in rests]
    keys += [f"internal:{p}" for p in table.INTERNAL_MODULES]
    return keys


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("internals")
    script = folder / "check_paths.py"
    script.write_text(CHECK)
    proc = _subproc.run(["-m", "tf1mem.run", script, json.dumps(PREFIX_SAMPLES)],
                        cwd=folder, check_rc=0, timeout=400)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("key", _keys())
def test_mapped_path_imports_from_user_code_as_the_table_says(checked, key):
    assert checked[key] == "ok", checked[key]


def test_internal_paths_are_the_objects_tf1_code_relied_on(checked):
    wrong = {k: v for k, v in checked.items() if k.startswith("identity:") and v != "ok"}
    assert len([k for k in checked if k.startswith("identity:")]) == 12
    assert not wrong, wrong


def test_a_missing_path_says_where_it_looked(checked):
    assert checked["missing:keras"].startswith("ModuleNotFoundError") \
        and "tf_keras.src" in checked["missing:keras"]
    assert checked["missing:slim"].startswith("RemovedModuleError") \
        and "tf.contrib.slim.python.slim.no_such_module" in checked["missing:slim"]


# The TF1-era libraries' own import lines (tflearn 0.3.2 and 0.5.0, tensornets 0.4.6,
# dm-sonnet 1.36), in a module of the user's, then used.
LIBRARY_LINES = textwrap.dedent(r'''
    import tensorflow as tf
    # tflearn 0.3.2 / 0.5.0
    from tensorflow.contrib.framework.python.ops import add_arg_scope as contrib_add_arg_scope
    from tensorflow.contrib.layers.python.layers.initializers import xavier_initializer
    from tensorflow.contrib.layers.python.layers.initializers import \
        variance_scaling_initializer
    from tensorflow.python.ops.rnn import rnn_cell_impl as _rnn_cell, dynamic_rnn as _drnn, \
        static_rnn as _rnn, bidirectional_dynamic_rnn as _brnn
    from tensorflow.contrib.rnn.python.ops import core_rnn_cell
    from tensorflow.contrib.rnn.python.ops.core_rnn import static_rnn, static_bidirectional_rnn
    from tensorflow.python.util.nest import is_sequence
    from tensorflow.contrib.learn.python.learn.preprocessing.text import \
        VocabularyProcessor as _VocabularyProcessor
    from tensorflow.python.training import moving_averages
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import standard_ops, state_ops, array_ops, math_ops
    from tensorflow.contrib import framework
    # tensornets 0.4.6
    from tensorflow.python.keras.applications.imagenet_utils import decode_predictions
    from tensorflow.python.keras.utils.data_utils import get_file
    from tensorflow.python.keras.engine import input_spec
    from tensorflow.python.layers import base
    from tensorflow.contrib.layers.python.layers.utils import collect_named_outputs
    # dm-sonnet 1.36
    from tensorflow.contrib import framework as contrib_framework
    from tensorflow.contrib.eager.python import tfe as contrib_eager
    from tensorflow.python.layers import utils
    from tensorflow.python.ops import rnn_cell_impl

    @contrib_add_arg_scope
    def scaled(x, factor=1.0):
        return x * factor

    def build():
        """A tflearn-style cell and arg_scope, a xavier variable, a vocabulary: what they give."""
        class Cell(_rnn_cell.RNNCell):
            @property
            def state_size(self):
                return 2

            @property
            def output_size(self):
                return 2

            def __call__(self, inputs, state, scope=None):
                with tf.variable_scope(scope or "cell"):
                    w = tf.get_variable("w", [4, 2], initializer=tf.constant_initializer(0.5))
                    out = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), w))
                return out, out

        x = tf.constant([[[1.0, 2.0]], [[0.5, -1.0]]])  # [batch 2, time 1, depth 2]
        outputs, state = _drnn(Cell(), x, dtype=tf.float32)
        with framework.arg_scope([scaled], factor=3.0):
            y = scaled(tf.constant(2.0))
        w = tf.get_variable("xavier", [3, 3], initializer=xavier_initializer(seed=1))
        vocab = _VocabularyProcessor(4)
        ids = list(vocab.fit_transform(["a b c", "b c"]))
        return {"outputs": outputs, "y": y, "w": w, "ids": ids,
                "is_sequence": [is_sequence((1,)), contrib_framework.nest.is_sequence("ab")],
                "named": collect_named_outputs("coll", "alias", y),
                "input_spec": input_spec.InputSpec(ndim=2).ndim,
                "nest_up_to": contrib_framework.nest.flatten_up_to([0, 0], [[1, 2], 3])}
''')

LIBRARY_MAIN = textwrap.dedent(r'''
    import json
    import numpy as np
    import tensorflow as tf
    import tf1_library_lines
    got = tf1_library_lines.build()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        outputs, y, w = sess.run([got["outputs"], got["y"], got["w"]])
    print(json.dumps({"outputs": np.round(outputs.astype(float), 5).tolist(), "y": float(y),
                      "w_limit": bool(np.all(np.abs(w) <= np.sqrt(6.0 / 6))),
                      "ids": [list(map(int, i)) for i in got["ids"]],
                      "is_sequence": got["is_sequence"], "input_spec": got["input_spec"],
                      "nest_up_to": got["nest_up_to"]}))
''')


def test_tf1_libraries_import_lines_work_from_user_code(tmp_path):
    (tmp_path / "tf1_library_lines.py").write_text(LIBRARY_LINES)
    (tmp_path / "main.py").write_text(LIBRARY_MAIN)
    proc = _subproc.run(["-m", "tf1mem.run", tmp_path / "main.py"], cwd=tmp_path, check_rc=0,
                        timeout=300)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    # tanh([1, 2, 0, 0] . 0.5) = tanh(1.5); tanh([0.5, -1, 0, 0] . 0.5) = tanh(-0.25)
    assert got["outputs"] == [[[0.90515, 0.90515]], [[-0.24492, -0.24492]]]
    assert got["y"] == 6.0 and got["w_limit"] is True
    assert got["ids"] == [[1, 2, 3, 0], [2, 3, 0, 0]]
    assert got["is_sequence"] == [True, False]
    assert got["input_spec"] == 2 and got["nest_up_to"] == [[1, 2], 3]


ISOLATION = textwrap.dedent(r'''
    import json, sys
    import tensorflow as real_tf
    from tensorflow.python.layers import normalization
    from tensorflow.python.ops import array_ops
    from tensorflow.python import keras as real_keras
    loader = normalization.__dict__["normalization"]
    import tf1mem
    with tf1mem.legacy():
        import user_code, library_code
        x = real_tf.compat.v1.placeholder(real_tf.float32, [None, 3])
        bn = normalization.batch_normalization(x, fused=False)  # tf-slim's way in
        during = {
            "user_keras": user_code.keras.__name__,
            "library_keras_is_real": library_code.keras is real_keras,
            "user_dense": user_code.Dense.__module__,
            "library_dense": library_code.Dense.__module__,
            "sys_modules_keras_is_real": sys.modules["tensorflow.python.keras"] is real_keras,
            "normalization_module": normalization.normalization.__name__,
            "stack": hasattr(array_ops, "stack"),
            "batch_norm": bn.shape.as_list(),
        }
    after = {"loader_back": normalization.__dict__["normalization"] is loader,
             "stack": hasattr(array_ops, "stack")}
    print(json.dumps({"during": during, "after": after}))
''')


def test_libraries_keep_tensorflow_modules_and_uninstall_restores_them(tmp_path):
    lib = tmp_path / "site-packages"  # a library folder: its code is not user code
    lib.mkdir()
    imports = ("from tensorflow.python import keras\n"
               "from tensorflow.python.layers.core import Dense\n")
    (lib / "library_code.py").write_text(imports)
    app = tmp_path / "app"
    app.mkdir()
    (app / "user_code.py").write_text(imports)
    (app / "main.py").write_text(ISOLATION)
    proc = _subproc.run([app / "main.py"], cwd=app, check_rc=0, timeout=300,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{lib}:{app}"})
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["during"] == {
        "user_keras": "tf_keras.src", "library_keras_is_real": True,
        "user_dense": "tf_keras.src.legacy_tf_layers.core",
        "library_dense": "tensorflow.python.keras.legacy_tf_layers.core",
        "sys_modules_keras_is_real": True,
        "normalization_module": "tf_keras.src.legacy_tf_layers.normalization",
        "stack": True, "batch_norm": [None, 3]}
    assert got["after"] == {"loader_back": True, "stack": False}
