"""Example 2 on TF 2 natively: device placement, and the data-parallel form.

The article's example 2 (:mod:`tf1mem.distributed.two_task`) puts the input, ``W``,
``b`` and the softmax on ``/job:local/task:0`` and the labels, the cross-entropy and
gradient descent on ``/job:local/task:1``, then trains on the 55 000 training
examples as 55 partitions of 1 000 (``next_batch``), one step each. Two TF 2 forms:

- :func:`train_placed`: the same split with ``tf.device`` inside a ``tf.function``,
  over two devices of this process (two logical CPUs here, two GPUs where there are).
  TF 2 needs no server for devices of one process; ``tf.distribute.Server`` plus
  ``/job:.../task:N`` device strings is the multi-process form.
- :func:`train_mirrored`: the TF 2 way to use two devices for one model,
  ``tf.distribute.MirroredStrategy``: each replica takes half of each partition,
  gradients are summed across replicas, each replica's loss is its examples' sum over
  the global batch, so the step and its loss equal the one-device step.

:func:`two_logical_cpus` splits the CPU into two logical devices; TensorFlow allows that
only before its runtime starts, so call it first in a fresh process (the tests run each
twin in its own subprocess).
"""

from typing import Dict, List, Sequence

from tf1mem import models
from tf1mem.examples import softmax_tf2

__all__ = ["PARTITION_SIZE", "two_logical_cpus", "partitions", "train_placed",
           "placement", "train_mirrored"]

PARTITION_SIZE = 1000  # the article's examples per partition (and per step)


def _SPEC():  # noqa: N802
    import tensorflow as tf

    return (tf.TensorSpec([None, models.IMAGE_PIXELS], tf.float32),
            tf.TensorSpec([None, models.NUM_CLASSES], tf.float32))


def two_logical_cpus() -> List[str]:
    """Makes two logical CPU devices and returns their names.

    Raises:
      RuntimeError: TensorFlow's runtime already started (TensorFlow's own error).
    """
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return [d.name for d in tf.config.list_logical_devices("CPU")]


def partitions(mnist, partition_size: int = PARTITION_SIZE):
    """The article's partitions: ``num_examples // partition_size`` ``next_batch`` calls."""
    count = mnist.train.num_examples // partition_size
    return [mnist.train.next_batch(partition_size) for _ in range(count)]


def _placed_step(devices, learning_rate):
    import tensorflow as tf

    with tf.device(devices[0]):
        model = softmax_tf2.softmax_module()
    lr = tf.constant(learning_rate, tf.float32)

    @tf.function(input_signature=_SPEC())
    def step(x, y):
        with tf.GradientTape() as tape:
            with tf.device(devices[0]):
                y_pred = model(x)
            with tf.device(devices[1]):
                loss = tf.reduce_mean(softmax_tf2.cross_entropy(y_pred, y))
        with tf.device(devices[1]):
            grads = tape.gradient(loss, [model.W, model.b])
            model.W.assign_sub(lr * grads[0])
            model.b.assign_sub(lr * grads[1])
        return loss

    return step


def train_placed(parts, devices: Sequence[str],
                 learning_rate: float = models.LEARNING_RATE) -> List[float]:
    """Example 2's split, TF 2 style: forward on ``devices[0]``, loss and update on
    ``devices[1]``; returns the loss of each partition's step."""
    step = _placed_step(devices, learning_rate)
    return [float(step(xs, ys)) for xs, ys in parts]


def placement(devices: Sequence[str]) -> Dict[str, List[str]]:
    """``{op type: [device, ...]}`` of :func:`train_placed`'s step as traced (the
    devices its ``tf.device`` scopes assign)."""
    step = _placed_step(devices, models.LEARNING_RATE)
    graph = step.get_concrete_function().graph
    found: Dict[str, List[str]] = {}
    for op in graph.get_operations():
        found.setdefault(op.type, []).append(op.device)
    return found


def train_mirrored(parts, devices: Sequence[str],
                   learning_rate: float = models.LEARNING_RATE) -> List[float]:
    """Data parallel over ``devices`` with ``tf.distribute.MirroredStrategy``; returns
    the loss of each partition's step (the global batch's mean, as one device)."""
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy(list(devices))
    with strategy.scope():
        # Gradients are all-reduced before the update, so every replica applies the
        # same one: the first replica's value is the variable's.
        model = softmax_tf2.softmax_module(
            aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    lr = tf.constant(learning_rate, tf.float32)
    global_batch = len(parts[0][0])
    # float32, as the TF1 placeholders cast what feed_dict gives them
    xs = tf.concat([tf.cast(p[0], tf.float32) for p in parts], axis=0)
    ys = tf.concat([tf.cast(p[1], tf.float32) for p in parts], axis=0)
    dataset = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(global_batch)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = (
        tf.data.experimental.AutoShardPolicy.DATA)
    dist = strategy.experimental_distribute_dataset(dataset.with_options(options))

    def replica_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(softmax_tf2.cross_entropy(model(x), y)) / global_batch
        grads = tape.gradient(loss, [model.W, model.b])
        grads = tf.distribute.get_replica_context().all_reduce(
            tf.distribute.ReduceOp.SUM, grads)
        model.W.assign_sub(lr * grads[0])
        model.b.assign_sub(lr * grads[1])
        return loss

    @tf.function
    def step(x, y):
        per_replica = strategy.run(replica_step, args=(x, y))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    return [float(step(x, y)) for x, y in dist]
