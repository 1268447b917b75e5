"""``python -m tf1mem.train``: the article's examples on today's TensorFlow.

Modes:

- ``softmax`` (default): example 1, exactly. Softmax regression on MNIST with
  placeholders, the hand-written cross-entropy, gradient descent at 0.5, batch 100,
  1000 steps, data from ``MNIST_data/`` (fetched and verified if missing). The last
  line printed is the test accuracy.
- ``two-task``: example 2, the two in-process gRPC servers with the forward pass on
  ``/job:local/task:0`` and the loss and optimizer on ``/job:local/task:1``
  (see :mod:`tf1mem.two_task`).

The graph is built in a private ``tf.Graph`` and run by a ``tf.compat.v1.Session``
on it, so training changes no process-wide TensorFlow mode. Exit codes are those of
:mod:`tf1mem.errors` (0 ok, 1 failure, 2 usage, 3 data, 4 cluster, 130 interrupted).
"""

import argparse
import dataclasses
import json
import sys
import time
from typing import Optional, Sequence, TextIO

from tf1mem import errors

__all__ = ["TrainOptions", "TrainResult", "train_softmax", "parse_args", "main", "entry"]

MODES = ("softmax", "two-task")


@dataclasses.dataclass(frozen=True)
class TrainOptions:
    """Everything one training run needs; built once from the command line."""

    mode: str = "softmax"
    batch_size: int = 100
    steps: int = 1000
    learning_rate: float = 0.5
    data_dir: str = "MNIST_data/"
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


def _int_flag(flag, minimum, maximum=None, what=None):
    """An argparse type: an int in [minimum, maximum], else an error naming ``flag``."""
    what = what or (f"an integer >= {minimum}" if maximum is None
                    else f"an integer in {minimum}..{maximum}")

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be {what}, got {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{flag} must be {what}, got {value}")
        return value

    return parse


def _learning_rate(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--learning-rate must be a number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            f"--learning-rate must be a finite number > 0, got {text!r}")
    return value


def _parser():
    from tf1mem import config, loopback

    parser = argparse.ArgumentParser(
        prog="python -m tf1mem.train",
        description="Train the article's MNIST models on current TensorFlow.",
        epilog="Exit codes: 0 ok, 1 failure, 2 usage error, 3 data error, "
               "4 cluster error, 130 interrupted.")
    parser.add_argument("--mode", choices=MODES, default="softmax",
                        help="softmax: example 1 (default); two-task: example 2")
    parser.add_argument("--batch-size", type=_int_flag("--batch-size", 1), default=100)
    parser.add_argument("--steps", type=_int_flag("--steps", 1), default=1000)
    parser.add_argument("--learning-rate", type=_learning_rate, default=0.5)
    parser.add_argument("--data-dir", default="MNIST_data/",
                        help="folder with (or for) the four MNIST .gz files")
    parser.add_argument("--seed", type=_int_flag("--seed", 0), default=None,
                        help="seed for the batch order; same seed, same output")
    parser.add_argument("--port-base", type=_int_flag(
                            "--port-base", 0, 65534, "0 (pick free ports) or a port 1..65534"), default=2222,
                        help="two-task mode: first of two ports (0 = pick free ports)")
    loopback.add_allow_remote_flag(parser, "two-task mode's gRPC servers")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON summary as the last line instead of text")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar")
    config.add_argparse_flags(parser)
    return parser


def parse_args(argv: Optional[Sequence[str]] = None) -> TrainOptions:
    """Parses the command line into :class:`TrainOptions`.

    Raises:
      SystemExit(2): a bad flag value (argparse).
      UsageError: flags that do not fit together.
      ConfigError: a bad TF1MEM_* environment variable.
    """
    from tf1mem import config

    ns = _parser().parse_args(argv)
    if ns.mode == "two-task":
        ignored = [flag for flag, value, default in (
            ("--steps", ns.steps, 1000), ("--batch-size", ns.batch_size, 100))
            if value != default]
        if ignored:
            raise errors.UsageError(
                f"{' and '.join(ignored)} do not apply to --mode two-task: example 2 "
                f"trains one step per partition of 1000 examples, 55 partitions")
    return TrainOptions(
        mode=ns.mode, batch_size=ns.batch_size, steps=ns.steps,
        learning_rate=ns.learning_rate, data_dir=ns.data_dir, seed=ns.seed,
        json=ns.json, progress=ns.progress, port_base=ns.port_base,
        allow_remote=ns.allow_remote,
        session=config.resolve_options(config.options_from_args(ns)))


def train_softmax(opts: TrainOptions, err: Optional[TextIO] = None) -> TrainResult:
    """Runs the article's example 1 with ``opts`` and returns what it measured.

    Args:
      opts: the run's options; ``opts.session`` becomes the session's ConfigProto.
      err: where the config report and the progress bar go (default stderr).

    Returns:
      A :class:`TrainResult`.
    """
    start = time.perf_counter()
    err = sys.stderr if err is None else err
    import tensorflow as tf
    from tqdm import tqdm

    from tf1mem import config, input_data, models

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
        for _ in bar:
            batch_xs, batch_ys = mnist.train.next_batch(opts.batch_size)
            _, loss_val = sess.run([train_step, cross_entropy],
                                   feed_dict={x: batch_xs, y: batch_ys})
        train_seconds = time.perf_counter() - train_start
        test_accuracy = sess.run(
            accuracy, feed_dict={x: mnist.test.images, y: mnist.test.labels})
    return TrainResult(
        test_accuracy=float(test_accuracy), final_loss=float(loss_val),
        steps=opts.steps, batch_size=opts.batch_size,
        learning_rate=opts.learning_rate, seed=opts.seed,
        train_seconds=train_seconds, total_seconds=time.perf_counter() - start,
        examples_per_second=opts.steps * opts.batch_size / train_seconds)


def _run(opts: TrainOptions) -> int:
    if opts.mode == "two-task":
        from tf1mem import two_task

        result = two_task.run_two_task(two_task.TwoTaskOptions(
            data_dir=opts.data_dir, port_base=opts.port_base,
            learning_rate=opts.learning_rate, seed=opts.seed,
            session_options=opts.session))
        if opts.json:
            print(json.dumps(dataclasses.asdict(result), default=str))
        return errors.EXIT_OK
    result = train_softmax(opts)
    if opts.json:
        print(json.dumps(dataclasses.asdict(result), sort_keys=True))
    else:
        print(f"final loss: {result.final_loss:.6f}  train time: {result.train_seconds:.2f} s  "
              f"({result.examples_per_second:.0f} examples/s)")
        print(f"test accuracy: {result.test_accuracy:.4f}")
    return errors.EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit code (see :mod:`tf1mem.errors`)."""
    try:
        opts = parse_args(argv)
        if opts.mode == "two-task":
            from tf1mem import loopback

            if opts.allow_remote:
                print(f"tf1mem.train: {loopback.REMOTE_WARNING}", file=sys.stderr)
            elif argv is None:
                # TF's gRPC server listens on every interface whatever the
                # ClusterSpec says; restart this command with the loopback-bind
                # shim preloaded (a no-op when it is) before TF is imported.
                loopback.reexec_with_loopback("tf1mem.train", sys.argv[1:])
        return _run(opts)
    except errors.Error as exc:
        print(f"tf1mem.train: error: {exc}", file=sys.stderr)
        return errors.exit_code_for(exc)
    except KeyboardInterrupt:
        print("tf1mem.train: interrupted", file=sys.stderr)
        return errors.EXIT_INTERRUPTED


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
