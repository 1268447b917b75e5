"""``python -m tf1mem.cluster``: data-parallel training on TensorFlow's gRPC runtime.

Two ways to run it:

- **Launcher** (default): ``--ps N --workers M`` starts N+M task processes on this
  machine, each configured through ``TF_CONFIG``, watches and restarts them, and
  prints per-worker throughput, then ``test accuracy: X`` as the last line.
- **One task** of a cluster spread over hosts: ``TF_CONFIG`` in the environment,
  or TF1's flags ``--ps_hosts --worker_hosts --job_name --task_index``. The chief
  needs ``--checkpoint-dir``.

This module only parses the command line into
:class:`tf1mem.distributed.launcher.ClusterOptions`; the work is
:mod:`tf1mem.distributed.launcher`'s. Every server listens on loopback only unless
``--allow-remote``. Exit codes are :mod:`tf1mem.errors`' (4: a cluster error).
"""

import argparse
import math
import os
import sys
from typing import Optional, Sequence

from tf1mem import _cli, models
from tf1mem.distributed import launcher
from tf1mem.errors import UsageError

__all__ = ["parse_args", "main", "entry"]

_PROG = "tf1mem.cluster"


def _hosts(text):
    return tuple(h.strip() for h in text.split(",") if h.strip())


def _build_parser():
    from tf1mem import config
    from tf1mem.distributed import loopback

    p = argparse.ArgumentParser(
        prog=_PROG, description=_cli.description(__doc__),
        formatter_class=_cli.HelpFormatter,
        epilog="Exit codes: 0 ok, 1 failure, 2 usage error, 3 data error, "
               "4 cluster error, 130 interrupted.")
    p.add_argument("--ps", type=int, default=1, help="ps tasks to launch")
    p.add_argument("--workers", type=int, default=2, help="worker tasks to launch")
    p.add_argument("--force-tasks", action="store_true",
                   help="launch more tasks than the bound for this machine "
                   "(2 per CPU core, at least 8; each task is a TensorFlow process)")
    p.add_argument("--steps", type=int, default=None,
                   help=f"global training steps (default {launcher.DEFAULT_STEPS}, with --sync "
                   f"{launcher.DEFAULT_SYNC_STEPS})")
    p.add_argument("--batch-size", type=int, default=models.BATCH_SIZE,
                   help="examples per worker step")
    p.add_argument("--learning-rate", type=float, default=models.LEARNING_RATE,
                   help="gradient descent's step size")
    p.add_argument("--data-dir", default=models.DATA_DIR,
                   help="folder with (or for) the four MNIST .gz files")
    p.add_argument("--checkpoint-dir", default=None,
                   help="chief's checkpoint folder (default for the launcher: "
                   "RUN_DIR/checkpoints; required for a chief run as one task)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed for the batch order (worker i uses seed + i; default: "
                   "none, a new order each run)")
    p.add_argument("--port-base", type=int, default=0,
                   help="first port (ps first, then workers); 0 picks free ports")
    p.add_argument("--sync", action="store_true",
                   help="synchronous updates (SyncReplicasOptimizer, one gradient per worker)")
    p.add_argument("--max-restarts", type=int, default=3,
                   help="task restarts allowed in all before the run fails")
    p.add_argument("--startup-timeout", type=float, default=60.0,
                   help="seconds to wait for peers to come up")
    p.add_argument("--save-checkpoint-steps", type=int, default=100,
                   help="the chief checkpoints every this many global steps")
    loopback.add_allow_remote_flag(p, "every task's gRPC server")
    one = p.add_argument_group("one task of a multi-host cluster (TF1 flags; or TF_CONFIG)")
    one.add_argument("--ps_hosts", type=_hosts, default=(), help="comma-separated host:port")
    one.add_argument("--worker_hosts", type=_hosts, default=(), help="comma-separated host:port")
    one.add_argument("--job_name", choices=("ps", "worker"), default=None,
                     help="this task's job (with --task_index; TF_CONFIG's task.type)")
    one.add_argument("--task_index", type=int, default=None,
                     help="this task's index in its job (TF_CONFIG's task.index)")
    p.add_argument("--run-dir", default=None,
                   help="launcher's folder for task logs, results, tasks.json (pids) and, "
                   "without --checkpoint-dir, checkpoints; kept (default: a new folder "
                   "cluster-* in tf1mem's report folder, $TF1MEM_REPORT_DIR, removed "
                   "when the run succeeds unless --keep-run-dir)")
    p.add_argument("--keep-run-dir", action="store_true",
                   help="keep the launcher's own run folder when the run succeeds")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar of the global step (it is drawn only on a "
                   "terminal anyway)")
    p.add_argument("--verbose", action="store_true",
                   help="one task run by hand: show TensorFlow's C++ log as it comes "
                   "(start-up notices, INFO lines; a launched task's log keeps it "
                   "always)")
    p.add_argument("--result-file", default="", help=argparse.SUPPRESS)
    p.add_argument("--bind-retry-seconds", type=float, default=0.0, help=argparse.SUPPRESS)
    config.add_argparse_flags(p)
    return p


def parse_args(argv: Sequence[str]) -> "launcher.ClusterOptions":
    """Parses the command line into :class:`ClusterOptions` (argparse exits 2 on bad flags).

    Raises:
      UsageError: values that parse but make no sense (named).
    """
    from tf1mem import config

    ns = _build_parser().parse_args(list(argv))
    if ns.steps is None:
        ns.steps = launcher.DEFAULT_SYNC_STEPS if ns.sync else launcher.DEFAULT_STEPS
    for flag, value, low in (("--ps", ns.ps, 1), ("--workers", ns.workers, 1),
                             ("--steps", ns.steps, 1), ("--batch-size", ns.batch_size, 1),
                             ("--max-restarts", ns.max_restarts, 0),
                             ("--save-checkpoint-steps", ns.save_checkpoint_steps, 1),
                             ("--port-base", ns.port_base, 0)):
        if value < low:
            raise UsageError(f"{flag} must be >= {low}, got {value}")
    if ns.port_base > 65535:
        raise UsageError(f"--port-base must be a port number, got {ns.port_base}")
    for flag, value in (("--startup-timeout", ns.startup_timeout),
                        ("--learning-rate", ns.learning_rate)):
        if not (math.isfinite(value) and value > 0):  # also rejects nan and inf
            raise UsageError(f"{flag} must be a finite number > 0, got {value}")
    if not (math.isfinite(ns.bind_retry_seconds) and ns.bind_retry_seconds >= 0):
        raise UsageError(f"--bind-retry-seconds must be a finite number >= 0, "
                         f"got {ns.bind_retry_seconds}")
    return launcher.ClusterOptions(
        ps=ns.ps, workers=ns.workers, steps=ns.steps, batch_size=ns.batch_size,
        learning_rate=ns.learning_rate, data_dir=ns.data_dir,
        checkpoint_dir=ns.checkpoint_dir, seed=ns.seed, port_base=ns.port_base,
        sync=ns.sync, max_restarts=ns.max_restarts, startup_timeout=ns.startup_timeout,
        save_checkpoint_steps=ns.save_checkpoint_steps, allow_remote=ns.allow_remote,
        ps_hosts=ns.ps_hosts, worker_hosts=ns.worker_hosts, job_name=ns.job_name,
        task_index=ns.task_index, result_file=ns.result_file,
        bind_retry_seconds=ns.bind_retry_seconds, run_dir=ns.run_dir,
        force_tasks=ns.force_tasks, keep_run_dir=ns.keep_run_dir,
        progress=ns.progress, verbose=ns.verbose,
        session=config.options_from_args(ns), argv=tuple(argv))



def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit code (see :mod:`tf1mem.errors`)."""

    def body():
        opts = parse_args(sys.argv[1:] if argv is None else argv)
        one = launcher.task_from(opts, os.environ)
        if one is not None:
            return launcher.run_one_task(
                opts, *one, reexec_argv=list(opts.argv) if argv is None else None,
                launcher_pid=launcher.launcher_pid(os.environ))
        return launcher.run_launcher(opts)

    return _cli.run_command(_PROG, body,
                            interrupted=(KeyboardInterrupt, launcher.Terminated),
                            interrupted_note="interrupted; every task was stopped")


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
