"""tf.contrib.opt (tf1mem's optimizers on TF's v1 machinery). Their values against
TF 1.15.5 are the corpus script contrib_opt.py; these tests check the edges: resource
variables against NumPy's Adam, the error paths, the names the table sends to removed.

The tests here: TensorFlow in the test process (the optimizers subclass TF's, so their
module imports it); the rest: tests/commands/test_contrib_opt.py.
"""

import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat.runtime import composite
from tf1mem.migrate import inventory


@pytest.mark.slow
def test_adamax_resource_variables_update_as_ref_variables():
    # The corpus script contrib_opt_adamax.py checks ref variables (the shim's default)
    # against TF 1.15.5; a script that asks for resource variables gets the same values.
    import numpy as np
    import tensorflow as tf

    from tf1mem.compat.tf.contrib import opt as contrib_opt

    v1 = tf.compat.v1
    results = []
    for resource in (False, True):
        with tf.Graph().as_default():
            w = v1.Variable([[0.5, -1.0], [2.0, 0.25]], use_resource=resource)
            emb = v1.Variable(np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0,
                              use_resource=resource)
            rows = tf.nn.embedding_lookup(emb, [0, 2, 2])
            loss = tf.reduce_sum(tf.square(tf.matmul(tf.ones([2, 2]), w) - 1.0)) + \
                tf.reduce_sum(rows * rows)
            train = contrib_opt.AdaMaxOptimizer(0.1, 0.8, 0.9).minimize(loss)
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                results.append(sess.run([w, emb]))
    for ref, res in zip(*results):
        np.testing.assert_allclose(ref, res, rtol=1e-6)
    assert results[0][1][1].tolist() == [0.30000001192092896, 0.4000000059604645,
                                         0.5]  # a row no step touched


def _module():
    return composite.make_composite("tensorflow.contrib.opt", "opt")


def test_table_says_reimplemented_and_names_replacements():
    row = next(r for r in inventory.ranked_table() if r[1] == "opt")
    assert row[3] == "re-implemented"
    opt = _module()
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"LARSOptimizer.*Use instead"):
        opt.LARSOptimizer
    with pytest.raises(compat_errors.RemovedAttributeError, match="optax"):
        opt.ShampooOptimizer
