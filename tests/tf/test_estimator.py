"""tf.estimator under tf1mem (tf1mem.compat.tf.estimator).

Fast tests check the pieces without a session (RunConfig and TF_CONFIG, numpy_input_fn's
batching and errors, EstimatorSpec's validation); the slow ones train in a subprocess under
the shim: restoring TF 1.15.5-made checkpoints (tests/estimator_tf115, made by its
make_fixture.py with the oracle) gives TF 1.15.5's evaluate and predict results; event
files, errors, the three doors (runner, tf1mem.v1, tf1mem.legacy()).

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_estimator.py.
"""

import json

import numpy as np
import pytest

from tf1mem.compat.tf.estimator import inputs, run_config


# -- RunConfig ---------------------------------------------------------------------

def test_run_config_defaults_are_tf1s(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = run_config.RunConfig()
    assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (600, None)
    assert (config.save_summary_steps, config.keep_checkpoint_max,
            config.log_step_count_steps) == (100, 5, 100)
    assert (config.task_type, config.task_id, config.is_chief, config.master) == (
        "worker", 0, True, "")
    assert config.session_config.allow_soft_placement
    stepped = config.replace(save_checkpoints_steps=10)
    assert (stepped.save_checkpoints_steps, stepped.save_checkpoints_secs) == (10, None)
    with pytest.raises(ValueError, match="cannot both be set"):
        run_config.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=1)
    with pytest.raises(ValueError, match="tf_random_seed"):
        run_config.RunConfig(tf_random_seed="1")


@pytest.mark.parametrize("task, chief, master, ps, workers", [
    ({"type": "chief", "index": 0}, True, "grpc://localhost:1000", 1, 3),
    ({"type": "worker", "index": 1}, False, "grpc://localhost:1002", 1, 3),
    ({"type": "ps", "index": 0}, False, "grpc://localhost:2000", 1, 3),
    ({"type": "evaluator", "index": 0}, False, "", 0, 0),
])
def test_run_config_reads_tf_config(monkeypatch, task, chief, master, ps, workers):
    cluster = {"chief": ["localhost:1000"], "worker": ["localhost:1001", "localhost:1002"],
               "ps": ["localhost:2000"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": task}))
    config = run_config.RunConfig()
    # TF 1.15.5: the evaluator is outside the cluster (empty ClusterSpec, no replicas);
    # each training task's session sees only the ps and itself.
    if task["type"] == "evaluator":
        assert config.cluster_spec.as_dict() == {}
        assert list(config.session_config.device_filters) == []
    else:
        assert config.cluster_spec.as_dict() == cluster
        own = {"chief": "/job:chief", "worker": "/job:worker/task:1",
               "ps": "/job:worker"}[task["type"]]
        assert "/job:ps" in config.session_config.device_filters
        assert own in config.session_config.device_filters
    assert (config.task_type, config.task_id) == (task["type"], task["index"])
    assert (config.is_chief, config.master) == (chief, master)
    assert (config.num_ps_replicas, config.num_worker_replicas) == (ps, workers)


def test_run_config_worker_0_is_chief_without_a_chief_and_bad_tf_config_fails(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["localhost:1", "localhost:2"]},
        "task": {"type": "worker", "index": 0}}))
    assert run_config.RunConfig().is_chief
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 3}}))
    with pytest.raises(ValueError, match="index 3 is out of range"):
        run_config.RunConfig()
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(ValueError, match="TF_CONFIG is not valid JSON"):
        run_config.RunConfig()


# -- numpy_input_fn ----------------------------------------------------------------

def _read(input_fn, seed=None, limit=50):
    """Runs ``input_fn``'s graph in a MonitoredSession (which starts its queue runners);
    returns the label batches read before OutOfRange (or ``limit`` of them) and the ops
    input_fn built."""
    import tensorflow as tf

    v1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        if seed is not None:
            v1.set_random_seed(seed)
        _, labels = input_fn()
        ops = graph.get_operations()
        out = []
        with v1.train.MonitoredSession() as session:
            while not session.should_stop() and len(out) < limit:
                out.append(session.run(labels).tolist())
    return out, ops


@pytest.mark.slow
def test_numpy_input_fn_streams_across_epochs_as_tf115():
    # TF 1.15.5 (oracle), x = arange(5), y = 10 * x, batch_size=2, shuffle=False:
    # num_epochs=2 -> [0,10] [20,30] [40,0] [10,20] [30,40] then OutOfRange.
    x, y = {"a": np.arange(5.)}, np.arange(5) * 10
    batches, ops = _read(inputs.numpy_input_fn(x, y, batch_size=2, num_epochs=2,
                                               shuffle=False))
    assert batches == [[0, 10], [20, 30], [40, 0], [10, 20], [30, 40]]
    # TF 1.15.5's 19 ops, in its order (a seeded model built after them draws its weights)
    assert [op.type for op in ops] == [
        "FIFOQueueV2", "Placeholder", "Placeholder", "Placeholder", "QueueEnqueueManyV2",
        "QueueCloseV2", "QueueCloseV2", "QueueSizeV2", "Const", "Sub", "Const", "Maximum",
        "Cast", "Const", "Mul", "Const", "ScalarSummary", "Const", "QueueDequeueUpToV2"]
    forever, _ = _read(inputs.numpy_input_fn(x, y, batch_size=2, num_epochs=None,
                                             shuffle=False), limit=7)
    assert forever == [[0, 10], [20, 30], [40, 0], [10, 20], [30, 40], [0, 10], [20, 30]]
    # two threads each feed every epoch, as TF 1.15's did: every row twice
    twice, _ = _read(inputs.numpy_input_fn(x, y, batch_size=2, num_epochs=1, shuffle=False,
                                           num_threads=2))
    assert sorted(sum(twice, [])) == [0, 0, 10, 10, 20, 20, 30, 30, 40, 40]


@pytest.mark.slow
def test_numpy_input_fn_shuffles_in_tf115s_seeded_queue():
    x, y = {"a": np.arange(10.)}, np.arange(10)
    fn = inputs.numpy_input_fn(x, y, batch_size=4, num_epochs=1, shuffle=True,
                               queue_capacity=8)
    shuffled, ops = _read(fn, seed=3)
    queue = ops[0]
    assert queue.type == "RandomShuffleQueueV2"
    assert (queue.get_attr("seed"), queue.get_attr("seed2"), queue.get_attr("capacity"),
            queue.get_attr("min_after_dequeue")) == (3, 0, 8, 2)
    assert sorted(sum(shuffled, [])) == list(range(10)) and [len(b) for b in shuffled] == [
        4, 4, 2]
    assert shuffled != [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_numpy_input_fn_rejects_what_tf115_rejected():
    x = {"a": np.arange(5.)}
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set as "
                                         "boolean"):
        inputs.numpy_input_fn(x, np.arange(5))
    with pytest.raises(ValueError, match="Length of tensors in x and y is mismatched"):
        inputs.numpy_input_fn(x, np.arange(3), shuffle=False)()
    with pytest.raises(ValueError, match="1 duplicate keys are found in both x and y"):
        inputs.numpy_input_fn(x, {"a": np.arange(5)}, shuffle=False)()
    with pytest.raises(ValueError, match="num_epochs must be a positive integer or None"):
        inputs.numpy_input_fn(x, shuffle=False, num_epochs=0)
    with pytest.raises(ValueError, match="num_threads must be a positive integer, got 0"):
        inputs.numpy_input_fn(x, shuffle=False, num_threads=0)
    with pytest.raises(ValueError, match="queue_capacity=2 is too small"):
        inputs.numpy_input_fn(x, shuffle=True, queue_capacity=2)


# -- EstimatorSpec -----------------------------------------------------------------

def test_estimator_spec_is_validated_when_built():
    import tensorflow as tf

    from tf1mem.compat.tf.estimator import EstimatorSpec, ModeKeys

    with tf.Graph().as_default():
        loss = tf.constant(1.0)
        with pytest.raises(ValueError, match="train_op is missing"):
            EstimatorSpec(ModeKeys.TRAIN, loss=loss)
        with pytest.raises(ValueError, match="loss is missing"):
            EstimatorSpec(ModeKeys.EVAL)
        with pytest.raises(ValueError, match="predictions are missing"):
            EstimatorSpec(ModeKeys.PREDICT)
        with pytest.raises(ValueError, match="loss must be a scalar"):
            EstimatorSpec(ModeKeys.EVAL, loss=tf.constant([1.0, 2.0]))
        with pytest.raises(ValueError, match="mode='training' is not one of"):
            EstimatorSpec("training", loss=loss)
        with pytest.raises(TypeError, match="must be a \\(metric_tensor, update_op\\) tuple"):
            EstimatorSpec(ModeKeys.EVAL, loss=loss, eval_metric_ops={"m": loss})
        spec = EstimatorSpec(ModeKeys.EVAL, loss=tf.constant([2.0]))
        assert spec.loss.shape.rank == 0 and spec.scaffold is not None
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="must be from the default graph"):
            EstimatorSpec(ModeKeys.EVAL, loss=loss)
