"""tf.contrib.opt (tf1mem's optimizers on TF's v1 machinery). Their values against
TF 1.15.5 are the corpus script contrib_opt.py; these tests check the edges: resource
variables against NumPy's Adam, the error paths, the names the table sends to removed.

The tests here: the commands in subprocesses; the rest: tests/tf/test_contrib_opt.py.
"""

import json
import textwrap

from tests import _subproc


SCRIPT = r'''
import json
import numpy as np
import tensorflow as tf

out = {}
# Resource variables: LazyAdam's sparse path, AdamW's dense one, against NumPy's Adam.
with tf.Graph().as_default():
    emb = tf.get_variable("e", initializer=tf.ones([3, 2]), use_resource=True)
    w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]), use_resource=True)
    loss = tf.reduce_sum(tf.gather(emb, [1]) * 2.0) + tf.reduce_sum(w * w)
    lazy = tf.contrib.opt.LazyAdamOptimizer(0.1)
    adamw = tf.contrib.opt.AdamWOptimizer(weight_decay=0.5, learning_rate=0.1)
    train = tf.group(lazy.minimize(loss, var_list=[emb]), adamw.minimize(loss, var_list=[w]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        out["emb"] = sess.run(emb).tolist()
        out["m"] = sess.run(lazy.get_slot(emb, "m")).tolist()
        out["w"] = sess.run(w).tolist()
errors = {}
with tf.Graph().as_default():
    try:
        tf.contrib.opt.extend_with_decoupled_weight_decay("adam")
    except TypeError as e:
        errors["extend"] = str(e)
    try:
        tf.contrib.opt.MovingAverageOptimizer(0.1)
    except TypeError as e:
        errors["ma_type"] = str(e)
    try:
        tf.contrib.opt.MovingAverageOptimizer(tf.train.AdamOptimizer()).swapping_saver()
    except RuntimeError as e:
        errors["ma_saver"] = str(e)
    v = tf.Variable(1.0)
    other = tf.Variable(2.0, trainable=False)
    try:
        tf.contrib.opt.ScipyOptimizerInterface(tf.square(v), var_to_bounds={other: (0, 1)})
    except ValueError as e:
        errors["bounds"] = str(e)
    try:
        tf.contrib.opt.ScipyOptimizerInterface(tf.square(v)).minimize()
    except ValueError as e:
        errors["session"] = str(e)
out["errors"] = errors
print(json.dumps(out))
'''


def test_resource_variables_and_error_paths(tmp_path):
    import numpy as np

    script = tmp_path / "opt_edges.py"
    script.write_text(textwrap.dedent(SCRIPT))
    proc = _subproc.run(["-m", "tf1mem.run", str(script)], cwd=tmp_path, check_rc=0)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    # One Adam step from zero moments moves each touched entry by lr * g / (|g| + eps').
    lr, eps = 0.1, 1e-8
    step = lambda g: lr * np.sqrt(1 - 0.999) / (1 - 0.9) * (0.1 * g) / (
        np.sqrt(0.001 * g * g) + eps)
    want_emb = np.ones((3, 2))
    want_emb[1] -= step(2.0)
    assert np.allclose(got["emb"], want_emb, atol=1e-6)  # rows 0 and 2 untouched
    assert np.allclose(got["m"], [[0, 0], [0.2, 0.2], [0, 0]], atol=1e-7)
    w = np.array([1.0, -2.0])
    assert np.allclose(got["w"], w * (1 - 0.5) - step(2 * w), atol=1e-6)
    errors = got["errors"]
    assert "base_optimizer must be a tf.train.Optimizer subclass" in errors["extend"]
    assert "opt must be a tf.train.Optimizer instance" in errors["ma_type"]
    assert "call minimize() or apply_gradients() first" in errors["ma_saver"]
    assert "not in var_list" in errors["bounds"]
    assert "pass a session" in errors["session"]
