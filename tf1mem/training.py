"""Training loops for the article's models: example 1's loop, as a library.

:func:`train_softmax` runs the article's example 1 exactly: softmax regression on
MNIST with placeholders, the hand-written cross-entropy, gradient descent, one
``next_batch`` per step fed through ``feed_dict``. The graph is built in a private
``tf.Graph`` and run by a ``tf.compat.v1.Session`` on it, so training changes no
process-wide TensorFlow mode. ``python -m tf1mem.train`` parses its flags into
:class:`TrainOptions` and calls this.
"""

import dataclasses
import math
import sys
import time
from typing import Optional, TextIO

from tf1mem import errors, models

__all__ = ["MODES", "TrainOptions", "TrainResult", "train_softmax"]

MODES = ("softmax", "two-task")


@dataclasses.dataclass(frozen=True)
class TrainOptions:
    """Everything one training run needs; built once from the command line."""

    mode: str = "softmax"
    batch_size: int = models.BATCH_SIZE
    steps: int = models.STEPS
    learning_rate: float = models.LEARNING_RATE
    data_dir: str = models.DATA_DIR
    seed: Optional[int] = None
    json: bool = False
    progress: bool = True
    port_base: int = 2222
    allow_remote: bool = False
    session: object = None  # tf1mem.config.SessionOptions (flags + TF1MEM_* env), or None


@dataclasses.dataclass(frozen=True)
class TrainResult:
    """What a softmax run measured."""

    test_accuracy: float
    final_loss: float
    steps: int
    batch_size: int
    learning_rate: float
    seed: Optional[int]
    train_seconds: float
    total_seconds: float
    examples_per_second: float


def train_softmax(opts: TrainOptions, err: Optional[TextIO] = None) -> TrainResult:
    """Runs the article's example 1 with ``opts`` and returns what it measured.

    Args:
      opts: the run's options; ``opts.session`` becomes the session's ConfigProto.
      err: where the config report and the progress bar go (default stderr).

    Returns:
      A :class:`TrainResult`.

    Raises:
      TrainingError: the loss became NaN or infinite.
      DataError: MNIST cannot be had intact.
    """
    start = time.perf_counter()
    err = sys.stderr if err is None else err
    import tensorflow as tf
    from tqdm import tqdm

    from tf1mem import config
    from tf1mem.data import input_data

    v1 = tf.compat.v1
    mnist = input_data.read_data_sets(opts.data_dir, one_hot=True, seed=opts.seed)
    session_config = (opts.session or config.SessionOptions()).to_config()
    config.note_session_config(session_config)
    for line in config.describe_config(session_config):
        if "(default" not in line:  # only what the user asked for, and its effect
            print(f"tf1mem: {line}", file=err)

    graph = tf.Graph()
    with graph.as_default():
        x, y = models.placeholders()
        y_pred = models.inference(x)
        cross_entropy = models.loss(y_pred, y)
        train_step = models.training(cross_entropy, opts.learning_rate)
        accuracy = models.evaluation(y_pred, y)
        init = v1.global_variables_initializer()
    graph.finalize()

    with v1.Session(graph=graph, config=session_config) as sess:
        sess.run(init)
        train_start = time.perf_counter()
        loss_val = float("nan")
        bar = tqdm(range(opts.steps), desc="train", unit="step", file=err,
                   disable=not opts.progress or not err.isatty(), leave=False)
        for step in bar:
            batch_xs, batch_ys = mnist.train.next_batch(opts.batch_size)
            _, loss_val = sess.run([train_step, cross_entropy],
                                   feed_dict={x: batch_xs, y: batch_ys})
            if not math.isfinite(loss_val):
                # Every later step would train on NaN weights: stop and say why.
                raise errors.TrainingError(
                    f"the loss became {loss_val} at step {step + 1} of {opts.steps} "
                    f"(learning rate {opts.learning_rate:g}, batch {opts.batch_size}); "
                    f"the weights are no longer numbers. Lower --learning-rate (the "
                    f"article uses {models.LEARNING_RATE}).")
        train_seconds = time.perf_counter() - train_start
        test_accuracy = sess.run(
            accuracy, feed_dict={x: mnist.test.images, y: mnist.test.labels})
    return TrainResult(
        test_accuracy=float(test_accuracy), final_loss=float(loss_val),
        steps=opts.steps, batch_size=opts.batch_size,
        learning_rate=opts.learning_rate, seed=opts.seed,
        train_seconds=train_seconds, total_seconds=time.perf_counter() - start,
        examples_per_second=opts.steps * opts.batch_size / train_seconds)
