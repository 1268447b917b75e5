"""``python -m tf1mem.train``: the article's examples on today's TensorFlow.

Modes:

- ``softmax`` (default): example 1, exactly. Softmax regression on MNIST with
  placeholders, the hand-written cross-entropy, gradient descent at 0.5, batch 100,
  1000 steps, data from ``MNIST_data/`` (fetched and verified if missing). The last
  line printed is the test accuracy.
- ``two-task``: example 2, the two in-process gRPC servers with the forward pass on
  ``/job:local/task:0`` and the loss and optimizer on ``/job:local/task:1``
  (see :mod:`tf1mem.distributed.two_task`). Every tenth partition's loss, then the
  test accuracy as the last line; ``--verbose`` prints the article's whole output.

TensorFlow's C++ start-up lines and an out-of-memory allocator dump are held back
(:mod:`tf1mem._tflog`) unless ``--verbose``.

This module only parses flags into :class:`tf1mem.training.TrainOptions` and prints;
the loops are :mod:`tf1mem.training`'s and :mod:`tf1mem.distributed.two_task`'s.
Exit codes are those of :mod:`tf1mem.errors` (0 ok, 1 failure, 2 usage, 3 data,
4 cluster, 130 interrupted).
"""

import argparse
import dataclasses
import json
import sys
import time
from typing import Optional, Sequence

from tf1mem import _cli, _tflog, errors, models
from tf1mem.training import FAST_CHUNK, MODES, TrainOptions

__all__ = ["parse_args", "main", "entry"]


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
    from tf1mem import config
    from tf1mem.distributed import loopback

    parser = argparse.ArgumentParser(
        prog="python -m tf1mem.train",
        description="Train the article's MNIST models on current TensorFlow.",
        formatter_class=_cli.HelpFormatter,
        epilog="Exit codes: 0 ok, 1 failure, 2 usage error, 3 data error, "
               "4 cluster error, 130 interrupted.")
    parser.add_argument("--mode", choices=MODES, default="softmax",
                        help="softmax: example 1; two-task: example 2")
    parser.add_argument("--batch-size", type=_int_flag("--batch-size", 1),
                        default=models.BATCH_SIZE,
                        help="softmax mode: examples per training step")
    parser.add_argument("--steps", type=_int_flag("--steps", 1), default=models.STEPS,
                        help="softmax mode: training steps")
    parser.add_argument("--learning-rate", type=_learning_rate,
                        default=models.LEARNING_RATE,
                        help="gradient descent's step size")
    parser.add_argument("--data-dir", default=models.DATA_DIR,
                        help="folder with (or for) the four MNIST .gz files")
    parser.add_argument("--seed", type=_int_flag("--seed", 0), default=None,
                        help="seed for the batch order; same seed, same output "
                             "(default: none, a new order each run, as the article)")
    parser.add_argument("--port-base", type=_int_flag(
                            "--port-base", 0, 65534, "0 (pick free ports) or a port 1..65534"), default=2222,
                        help="two-task mode: first of two ports (0 = pick free ports)")
    loopback.add_allow_remote_flag(parser, "two-task mode's gRPC servers")
    loop = parser.add_mutually_exclusive_group()
    loop.add_argument("--fast", dest="loop", action="store_const", const="fast",
                      help="softmax mode: the same batches in the same order, data resident "
                           f"in the graph, {FAST_CHUNK} steps per session.run (default)")
    loop.add_argument("--exact", dest="loop", action="store_const", const="exact",
                      help="softmax mode: the article's loop, op for op: next_batch and "
                           "feed_dict, one session.run per step")
    parser.set_defaults(loop="fast")
    parser.add_argument("--profile", action="store_true",
                        help="print the wall time of each phase of the whole process "
                             "(start-up, import, load, build, train, eval) and its total "
                             "to stderr")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON summary as the last line instead of text")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar (it is drawn only on a terminal anyway)")
    parser.add_argument("--verbose", action="store_true",
                        help="show TensorFlow's C++ log as it comes (start-up notices, "
                             "INFO lines, the allocator's out-of-memory dump) and, in "
                             "two-task mode, every partition's loss, every op's placement "
                             "and the placement table")
    parser.add_argument("--cpus", metavar="LIST", default=None,
                        help="run on these CPUs only, as taskset -c (e.g. 0 or 0-3; default "
                             "$TF1MEM_CPUS, else all): on a small machine one core can "
                             "train faster than two; checked with the kernel")
    config.add_argparse_flags(parser, defaults={
        "inter_op_parallelism_threads": "1, in a pool of the fast loop's session's own; "
                                        "TensorFlow's choice for --exact"})
    return parser


def parse_args(argv: Optional[Sequence[str]] = None) -> TrainOptions:
    """Parses the command line into :class:`TrainOptions`.

    Raises:
      SystemExit(2): a bad flag value (argparse).
      UsageError: flags that do not fit together.
      ConfigError: a bad TF1MEM_* environment variable.
    """
    from tf1mem import config
    from tf1mem.config import affinity

    ns = _parser().parse_args(argv)
    if ns.mode == "two-task":
        ignored = [flag for flag, value, default in (
            ("--steps", ns.steps, models.STEPS),
            ("--batch-size", ns.batch_size, models.BATCH_SIZE))
            if value != default]
        if ignored:
            raise errors.UsageError(
                f"{' and '.join(ignored)} do not apply to --mode two-task: example 2 "
                f"trains one step per partition of 1000 examples, 55 partitions")
    return TrainOptions(
        mode=ns.mode, loop=ns.loop, profile=ns.profile,
        batch_size=ns.batch_size, steps=ns.steps,
        learning_rate=ns.learning_rate, data_dir=ns.data_dir, seed=ns.seed,
        json=ns.json, progress=ns.progress, port_base=ns.port_base,
        allow_remote=ns.allow_remote, verbose=ns.verbose,
        session=config.resolve_options(config.options_from_args(ns)),
        cpus=affinity.requested(ns.cpus))


def _run(opts: TrainOptions, quiet) -> int:
    if opts.mode == "two-task":
        from tf1mem.distributed import two_task

        result = two_task.run_two_task(two_task.TwoTaskOptions(
            data_dir=opts.data_dir, port_base=opts.port_base,
            learning_rate=opts.learning_rate, seed=opts.seed,
            session_options=opts.session, allow_remote=opts.allow_remote,
            log_device_placement=opts.verbose, placement_table=opts.verbose,
            loss_every=1 if opts.verbose else _TWO_TASK_LOSS_EVERY))
        if opts.json:
            print(json.dumps(dataclasses.asdict(result), default=str))
        else:
            print(f"test accuracy: {result.test_accuracy:.4f}")
        return errors.EXIT_OK
    startup_seconds = _cli.process_seconds()
    mark = time.perf_counter()
    import tensorflow as tf

    import_seconds = time.perf_counter() - mark
    from tf1mem import training

    try:
        result = training.train_softmax(opts)
    except tf.errors.ResourceExhaustedError as exc:
        _explain_oom(exc, opts.batch_size, quiet)
        return errors.EXIT_FAILURE
    if opts.profile:
        print(_profile_line(result, startup_seconds, import_seconds), file=sys.stderr)
    if opts.json:
        print(json.dumps(dataclasses.asdict(result), sort_keys=True))
    else:
        print(f"final loss: {result.final_loss:.6f}  train time: {result.train_seconds:.2f} s  "
              f"({result.examples_per_second:.0f} examples/s)")
        print(f"test accuracy: {result.test_accuracy:.4f}")
    return errors.EXIT_OK


# Two-task mode without --verbose prints the loss of every this-many-th partition
# (of 55) and the last.
_TWO_TASK_LOSS_EVERY = 10


def _profile_line(result, startup_seconds: float, import_seconds: float) -> str:
    """``--profile``'s line: the whole process, from the interpreter's start.

    ``start-up`` is the process's age when ``import tensorflow`` began (the
    interpreter, the command's own imports, flag parsing); ``import`` is TensorFlow's
    import, timed around it, and the rest of the loop's imports; ``total`` is the
    process's age (:func:`tf1mem._cli.process_seconds`) when the line is printed.
    """
    phases = {"start-up": startup_seconds, **result.phases}
    phases["import"] = import_seconds + result.phases.get("import", 0.0)
    return ("tf1mem.train: profile (s): "
            + "  ".join(f"{phase} {seconds:.3f}" for phase, seconds in phases.items())
            + f"  total {_cli.process_seconds():.3f} (the whole process)"
            + f"  ({result.loop} loop)")


def _explain_oom(exc, batch_size, quiet) -> None:
    """Prints the short out-of-memory table; TF's full report (and, unless
    ``--verbose``, its allocator's dump) goes to a file in the report folder."""
    from tf1mem.observe import caps, oom

    graph = getattr(getattr(exc, "op", None), "graph", None)
    device = oom.explain_oom(exc).device
    limit = caps.device_memory_limit(None, device) if device else None
    log = quiet.allocator_lines() if quiet is not None else ()
    print("tf1mem.train: out of memory\n"
          + oom.describe_oom(exc, graph, batch_size, limit, tf_log=log), file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit code (see :mod:`tf1mem.errors`)."""

    def body():
        opts = parse_args(argv)
        if opts.cpus is not None:
            from tf1mem.config import affinity

            affinity.pin(opts.cpus)  # before any re-exec: the new image keeps the pin
        if opts.mode == "two-task":
            from tf1mem.distributed import loopback

            if opts.allow_remote:
                print(f"tf1mem.train: {loopback.REMOTE_WARNING}", file=sys.stderr)
            elif argv is None:
                # TF's gRPC server listens on every interface whatever the
                # ClusterSpec says; restart this command with the loopback-bind
                # shim preloaded (a no-op when it is) before TF is imported.
                loopback.reexec_with_loopback("tf1mem.train", sys.argv[1:])
        with _tflog.quiet_tensorflow(opts.verbose) as quiet:
            return _run(opts, quiet)

    return _cli.run_command("tf1mem.train", body)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
