"""Makes this folder's fixture with TensorFlow 1.15.5 (run with the oracle interpreter).

    /work/oracle/bin/python tests/rnn_more_tf115/make_fixture.py

Builds model.py's cells with TF 1.15.5's tf.contrib.rnn, loads model.values into their
variables, keeps the checkpoint (``checkpoint``, ``model.ckpt.index``,
``model.ckpt.data-*``: a few KB) and ``expected.json``: the variables' names and shapes
in creation order and what the cells computed. tests/commands/test_contrib_rnn.py restores it
under tf1mem and compares.
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model  # noqa: E402

fetches = model.build()
variables = tf.global_variables()
with tf.Session() as sess:
    for variable, value in zip(variables, model.values(variables)):
        variable.load(value, sess)
    tf.train.Saver().save(sess, os.path.join(HERE, "model.ckpt"), write_meta_graph=False)
    outputs = {k: np.round(v, 6).tolist() for k, v in sess.run(fetches).items()}
with open(os.path.join(HERE, "checkpoint")) as f:
    text = f.read()
with open(os.path.join(HERE, "checkpoint"), "w") as f:  # relative paths: the folder moves
    f.write(text.replace(os.path.join(HERE, ""), ""))
expected = {"variables": [[v.op.name, v.shape.as_list()] for v in variables],
            "outputs": outputs}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
