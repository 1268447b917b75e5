"""tf.estimator.experimental's hooks and tf.contrib.estimator's extenders under tf1mem.

What TF 1.15.5 printed for them is checked by the corpus scripts
(``estimator_early_stopping.py``, ``estimator_in_memory_evaluator.py``,
``contrib_estimator_extenders.py``). These tests cover what the corpus does not: a
worker's side of early stopping and of the stop-at-step hook, a metric the evaluations
lack, a damaged event file, the forwarded feature in an exported signature, the
refusals, numpy_input_fn's one stream per call, and the names tf1mem does not provide.
"""

import json

import pytest

from tests import _subproc

SCRIPT = r'''
import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

from tf1mem.compat.tf.estimator import early_stopping

tf.logging.set_verbosity(tf.logging.ERROR)
out = {}
X = np.array([[1.], [2.], [3.], [4.]], np.float32)


def model_fn(features, labels, mode):
    w = tf.get_variable('w', [1, 1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features['x'], w)
    loss = tf.losses.mean_squared_error(labels, predictions)
    train_op = tf.train.GradientDescentOptimizer(0.01).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      predictions={'y': predictions})


def input_fn(epochs, batch_size=4):
    return tf.estimator.inputs.numpy_input_fn({'x': X}, 2. * X, batch_size=batch_size,
                                              num_epochs=epochs, shuffle=False)


def error(fn):
    try:
        fn()
    except Exception as exc:  # the test asserts the type and the words
        return [type(exc).__name__, str(exc)]
    return None


# numpy_input_fn: one stream per input_fn call; each session of the graph reads on.
fn = tf.estimator.inputs.numpy_input_fn({'x': X}, X, batch_size=3, num_epochs=1,
                                        shuffle=False)
with tf.Graph().as_default():
    features, _ = fn()
    first, rest = [], []
    for batches in (first, rest):
        with tf.train.MonitoredSession() as session:
            while not session.should_stop():
                batches.append(session.run(features['x'])[:, 0].tolist())
    again, _ = fn()
    with tf.train.MonitoredSession() as session:
        fresh = session.run(again['x'])[:, 0].tolist()
out['stream'] = [first, rest, fresh]

# A worker's hooks: early stopping waits for the chief's STOP, and the stop-at-step
# hook reads the newest checkpoint's global step.
os.environ['TF_CONFIG'] = json.dumps({
    'cluster': {'chief': ['localhost:1'], 'worker': ['localhost:2']},
    'task': {'type': 'worker', 'index': 0}})
worker = tf.estimator.Estimator(model_fn, model_dir=tempfile.mkdtemp())
del os.environ['TF_CONFIG']
hook = tf.estimator.experimental.make_early_stopping_hook(
    worker, lambda: True, run_every_secs=None, run_every_steps=1)
at_step = tf.estimator.experimental.make_stop_at_checkpoint_step_hook(
    worker, 3, wait_after_file_check_secs=0)
with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    with tf.variable_scope('signal_early_stopping'):
        tf.get_variable('STOP', [], tf.bool, initializer=tf.constant_initializer(True),
                        collections=[tf.GraphKeys.GLOBAL_VARIABLES], trainable=False)
    increment = tf.assign_add(step, 1)
    runs = 0
    with tf.train.MonitoredSession(hooks=[hook]) as session:
        while not session.should_stop() and runs < 5:
            session.run(increment)
            runs += 1
out['worker_early_stop'] = [type(hook).__name__, runs]


def run_with_stop_at_step(limit):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        increment = tf.assign_add(step, 1)
        runs = 0
        with tf.train.MonitoredSession(hooks=[at_step]) as session:
            while not session.should_stop() and runs < limit:
                session.run(increment)
                runs += 1
    return runs


no_checkpoint_runs = run_with_stop_at_step(6)
with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    with tf.Session() as session:
        session.run(tf.assign(step, 5))
        tf.train.Saver().save(session, os.path.join(worker.model_dir, 'model.ckpt'),
                              global_step=step)
runs = run_with_stop_at_step(10)
out['worker_stop_at_step'] = [type(at_step).__name__, no_checkpoint_runs, runs]

# A metric the evaluations do not have; a damaged event file.
estimator = tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig(
    model_dir=tempfile.mkdtemp(), tf_random_seed=1))
# Every train() passes an early-stopping hook: a checkpoint saved without its variable
# cannot be restored into a graph with it (TF 1.15's NotFoundError).
never = tf.estimator.experimental.stop_if_lower_hook(
    estimator, 'loss', 0.0, min_steps=10 ** 9, run_every_secs=None, run_every_steps=1)
estimator.train(input_fn(None), steps=2, hooks=[never])
estimator.evaluate(input_fn(1))
missing = tf.estimator.experimental.stop_if_higher_hook(
    estimator, 'accuracy', 0.5, run_every_secs=None, run_every_steps=1)
out['missing_metric'] = error(lambda: estimator.train(input_fn(None), steps=2,
                                                      hooks=[missing]))
eval_files = [f for f in os.listdir(estimator.eval_dir()) if 'tfevents' in f]
path = os.path.join(estimator.eval_dir(), eval_files[0])
data = open(path, 'rb').read()
before = early_stopping.read_eval_metrics(estimator.eval_dir())
open(path, 'wb').write(data + data[-20:])
after = early_stopping.read_eval_metrics(estimator.eval_dir())
out['damaged'] = [list(before), list(after), after == before]
out['no_dir'] = list(early_stopping.read_eval_metrics(os.path.join(estimator.model_dir,
                                                                   'none')))

# forward_features: the forwarded feature is in the exported 'predict' signature.
columns = [tf.feature_column.numeric_column('x')]
regressor = tf.estimator.LinearRegressor(columns, config=tf.estimator.RunConfig(
    model_dir=tempfile.mkdtemp(), tf_random_seed=1))
ids = np.array([[7], [8], [9], [10]], np.int64)
regressor.train(tf.estimator.inputs.numpy_input_fn({'x': X, 'id': ids}, 2. * X,
                                                   batch_size=4, shuffle=False), steps=1)
forwarding = tf.contrib.estimator.forward_features(regressor, 'id')
serving = tf.estimator.export.build_raw_serving_input_receiver_fn({
    'x': tf.placeholder(tf.float32, [None, 1]), 'id': tf.placeholder(tf.int64, [None, 1])})
export_dir = forwarding.export_saved_model(tempfile.mkdtemp(), serving)
with tf.Graph().as_default(), tf.Session() as session:
    meta = tf.saved_model.loader.load(session, ['serve'], export_dir)
    out['signature'] = sorted(meta.signature_def['predict'].outputs)


def sparse_input():
    sparse = tf.SparseTensor([[0, 0]], [1.], [4, 1])
    return {'x': tf.constant(X), 's': sparse}, tf.constant(2. * X)


out['sparse'] = error(lambda: list(tf.contrib.estimator.forward_features(
    regressor, 's').predict(lambda: sparse_input()[0])))

# Refusals and the names tf1mem does not provide.
out['keras_optimizer'] = error(lambda: tf.contrib.estimator.clip_gradients_by_norm(
    tf.keras.optimizers.SGD(0.1), 5.0))
out['not_estimator'] = error(lambda: tf.estimator.experimental.InMemoryEvaluatorHook(
    object(), input_fn(1)))
os.environ['TF_CONFIG'] = json.dumps({
    'cluster': {'chief': ['localhost:1'], 'ps': ['localhost:3']},
    'task': {'type': 'chief', 'index': 0}})
clustered = tf.estimator.Estimator(model_fn, model_dir=tempfile.mkdtemp())
del os.environ['TF_CONFIG']
out['cluster'] = error(lambda: tf.estimator.experimental.InMemoryEvaluatorHook(
    clustered, input_fn(1)))


def init_fn_model(features, labels, mode):
    spec = model_fn(features, labels, mode)
    return spec._replace(scaffold=tf.train.Scaffold(init_fn=lambda scaffold, sess: None))


own_init = tf.estimator.Estimator(init_fn_model, model_dir=tempfile.mkdtemp())
out['init_fn'] = error(lambda: own_init.train(input_fn(None), steps=1, hooks=[
    tf.estimator.experimental.InMemoryEvaluatorHook(own_init, input_fn(1))]))
out['replicate'] = error(lambda: tf.contrib.estimator.replicate_model_fn)
out['sdca'] = error(lambda: tf.estimator.experimental.LinearSDCA)
out['same_objects'] = [
    tf.contrib.estimator.stop_if_no_decrease_hook
    is tf.estimator.experimental.stop_if_no_decrease_hook,
    tf.contrib.estimator.InMemoryEvaluatorHook
    is tf.estimator.experimental.InMemoryEvaluatorHook]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extras")
    script = folder / "extras.py"
    script.write_text(SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=folder, check_rc=0, timeout=300)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_numpy_input_fn_keeps_one_stream_per_call(results):
    # TF 1.15's feeding queue kept its place in Python: data a session of the graph
    # used up stays used up for the next session (InMemoryEvaluatorHook's evaluations
    # after the first read nothing); a new input_fn call starts again.
    assert results["stream"] == [[[1.0, 2.0, 3.0], [4.0]], [], [1.0, 2.0, 3.0]]


@pytest.mark.slow
def test_workers_follow_the_chief(results):
    assert results["worker_early_stop"] == ["_CheckForStoppingHook", 1]
    # Without a checkpoint at last_step 3 the worker goes on (6 of 6 runs); with one at
    # step 5 it stops once its own step nears 3 (the hook reads the global step in the
    # same run that increments it, so after the 2nd or the 3rd run).
    kind, no_checkpoint_runs, runs = results["worker_stop_at_step"]
    assert (kind, no_checkpoint_runs) == ("_StopAtCheckpointStepHook", 6)
    assert runs in (2, 3)


@pytest.mark.slow
def test_a_missing_metric_is_named_with_those_there(results):
    kind, message = results["missing_metric"]
    assert kind == "KeyError"
    assert "'accuracy'" in message and "'loss'" in message and "eval_metric_ops" in message


@pytest.mark.slow
def test_event_files_read_up_to_damage_and_a_missing_folder_is_no_metrics(results):
    before, after, same = results["damaged"]
    assert before == [2] and after == before and same
    assert results["no_dir"] == []


@pytest.mark.slow
def test_forwarded_feature_reaches_the_exported_signature(results):
    assert results["signature"] == ["id", "predictions"]
    kind, message = results["sparse"]
    assert kind == "ValueError" and "should be a Tensor" in message


@pytest.mark.slow
def test_refusals_name_the_value_and_what_to_do(results):
    kind, message = results["keras_optimizer"]
    assert kind == "TypeError" and "global_clipnorm=5.0" in message
    assert results["not_estimator"][0] == "TypeError"
    assert results["cluster"] == [
        "ValueError", "InMemoryEvaluator supports only single machine (aka Local) setting."]
    assert results["init_fn"] == [
        "ValueError", "InMemoryEvaluator does not support custom init_fn"]


@pytest.mark.slow
def test_names_not_provided_say_what_to_use(results):
    kind, message = results["replicate"]
    assert kind == "RemovedAttributeError" and "MirroredStrategy" in message
    kind, message = results["sdca"]
    assert kind == "RemovedAttributeError" and "LinearClassifier" in message
    assert results["same_objects"] == [True, True]
