"""tf.contrib.learn (tf1mem's VocabularyProcessor, datasets, ModeKeys, RunConfig, Experiment,
learn_runner). Their outputs against TF 1.15.5 are the corpus scripts contrib_learn.py and
contrib_learn_experiment.py; these tests check the edges: bad input, the removed names and
their replacements, the TF1 import paths, learn_runner's schedule choice and errors (TF
1.15.5's, measured on the oracle), and how far each Experiment schedule trains.

The tests here: the commands in subprocesses; the rest: tests/tf/test_contrib_learn.py,
tests/unit/test_contrib_learn.py.
"""

import textwrap

import pytest

from tests import _subproc


def test_tf1_import_paths(tmp_path):
    script = tmp_path / "imports.py"
    script.write_text(
        "from tensorflow.contrib.learn.preprocessing import VocabularyProcessor\n"
        "from tensorflow.contrib.learn.python.learn.datasets import mnist as m1\n"
        "import tensorflow.contrib.learn.datasets.mnist as m2\n"
        "import tensorflow as tf\n"
        "from tensorflow.contrib.learn import learn_runner as r1\n"
        "from tensorflow.contrib.learn.python.learn import learn_runner as r2\n"
        "from tensorflow.contrib.learn.python.learn.experiment import Experiment\n"
        "from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils\n"
        "from tensorflow.contrib.learn.utils import saved_model_export_utils as u2\n"
        "print(saved_model_export_utils is u2 is tf.contrib.learn.utils."
        "saved_model_export_utils,\n"
        "      u2.make_export_strategy is tf.contrib.learn.make_export_strategy)\n"
        "print(m1 is m2, tf.contrib.learn.datasets.mnist is m2,\n"
        "      tf.contrib.learn.preprocessing.VocabularyProcessor is VocabularyProcessor)\n"
        "print(r1 is r2 is tf.contrib.learn.learn_runner, r1.run.__name__,\n"
        "      Experiment is tf.contrib.learn.Experiment)\n")
    proc = _subproc.run(["-m", "tf1mem.run", str(script)], cwd=tmp_path, check_rc=0)
    assert proc.stdout.strip().splitlines()[-3:] == ["True True", "True True True",
                                                     "True run True"]


# -- the schedules, trained (subprocess under the shim) ------------------------------


_SCHEDULES_SCRIPT = """
import os, tempfile
import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner

tf.logging.set_verbosity(tf.logging.ERROR)
evaluations = []

class Count(tf.train.SessionRunHook):
    def end(self, session):
        evaluations.append(int(session.run(tf.train.get_global_step())))

def model_fn(features, labels, mode):
    w = tf.get_variable('w', [], initializer=tf.zeros_initializer())
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={'y': features['x'] * w})
    loss = tf.reduce_mean(tf.square(features['x'] * w - labels))
    train = tf.train.GradientDescentOptimizer(0.001).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

x = np.arange(8, dtype=np.float32)
inp = tf.estimator.inputs.numpy_input_fn({'x': x}, 2 * x, batch_size=4, num_epochs=None,
                                         shuffle=False)

def run(schedule, save_steps=None, **kw):
    del evaluations[:]
    config = tf.contrib.learn.RunConfig(model_dir=tempfile.mkdtemp(),
                                        save_checkpoints_steps=save_steps)
    def experiment_fn(run_config, hparams):
        return tf.contrib.learn.Experiment(tf.estimator.Estimator(model_fn, config=run_config),
                                           inp, inp, eval_steps=1, eval_hooks=[Count()], **kw)
    result = learn_runner.run(experiment_fn, run_config=config, schedule=schedule)
    metrics = result[0] if isinstance(result, tuple) else result
    step = (metrics.get_variable_value('global_step') if hasattr(metrics, 'model_dir')
            else metrics['global_step'])
    servo = os.path.join(config.model_dir, 'export', 'Servo')
    exports = len(os.listdir(servo)) if os.path.isdir(servo) else 0
    returned = len(result[1]) if isinstance(result, tuple) else '-'
    print(schedule, int(step), evaluations, exports, returned)

def serving_input_fn():
    x = tf.placeholder(tf.float32, [None])
    return tf.estimator.export.ServingInputReceiver({'x': x}, {'x': x})

strategy = tf.contrib.learn.make_export_strategy(serving_input_fn, exports_to_keep=2)

run('train', train_steps=9, export_strategies=strategy)
run('train_and_evaluate', save_steps=5, train_steps=20, min_eval_frequency=10,
    export_strategies=[strategy])
run('train_and_evaluate', save_steps=5, train_steps=20, min_eval_frequency=7)
run('train_and_evaluate', save_steps=5, train_steps=20, min_eval_frequency=0)
run('local_run', save_steps=5, train_steps=6, export_strategies=[strategy])
run('continuous_train_and_eval', train_steps=25, export_strategies=[strategy])
run('test', train_steps=20, export_strategies=[strategy])
"""


@pytest.mark.slow
def test_schedules_train_to_train_steps_and_evaluate_as_tf115(tmp_path):
    # Each line's global step and evaluated steps are TF 1.15.5's for the same script.
    script = tmp_path / "schedules.py"
    script.write_text(textwrap.dedent(_SCHEDULES_SCRIPT))
    proc = _subproc.run(["-m", "tf1mem.run", str(script)], cwd=tmp_path, check_rc=0,
                        env={"TF_CONFIG": ""})
    # Exports: after the final evaluation only, after each continuous one (2 kept, the
    # last returned), after test(), none after train().
    assert proc.stdout.strip().splitlines()[-7:] == [
        "train 9 [] 0 -",
        "train_and_evaluate 20 [10, 20] 1 1",
        "train_and_evaluate 20 [5, 20] 0 0",
        "train_and_evaluate 20 [20] 0 0",
        "local_run 6 [6] 1 1",
        "continuous_train_and_eval 26 [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26] 2 1",
        "test 1 [] 1 -",  # TF 1.15.5's test() evaluates without eval_hooks
    ], _subproc.describe(proc)
