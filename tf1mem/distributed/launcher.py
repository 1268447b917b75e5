"""The local cluster launcher, and one task of a cluster from TF_CONFIG or TF1 flags.

This module owns what ``python -m tf1mem.cluster`` does once its flags are parsed
into :class:`ClusterOptions` (what runs inside one task is
:mod:`tf1mem.distributed.task`):

- :func:`run_launcher`: ``--ps N --workers M`` fetches and verifies MNIST once,
  then starts N+M task processes on this machine, each configured through
  ``TF_CONFIG``, watches them, restarts a worker that dies (the whole job when a ps
  dies; at most ``--max-restarts`` times in all; training resumes from the chief's
  last checkpoint), stops them all on Ctrl-C/SIGTERM (the tasks also die with it
  when it is killed outright), and prints per-worker throughput, then
  ``test accuracy: X`` as the last line. A restarted task retries binding its port
  for a few seconds (ports picked with ``--port-base 0`` are free when chosen, but
  another process may take one). More than :func:`max_local_tasks` tasks are
  refused unless ``force_tasks``: each is a TensorFlow process of a few hundred MB.
- :func:`task_from` and :func:`run_one_task`: one task of a cluster spread over
  hosts, from ``TF_CONFIG`` or TF1's ``--ps_hosts --worker_hosts --job_name
  --task_index``. The chief needs ``--checkpoint-dir``.

Every server listens on loopback only unless ``allow_remote`` (see
:mod:`tf1mem.distributed.loopback` for how, given that TensorFlow always binds
0.0.0.0).
"""

import dataclasses
import ipaddress
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import List, Mapping, Optional, Tuple

from tf1mem import _atomic, _places, _progress, _tflog, errors, models
from tf1mem.errors import ClusterError, UsageError

__all__ = [
    "ClusterOptions",
    "DEFAULT_STEPS",
    "DEFAULT_SYNC_STEPS",
    "Terminated",
    "max_local_tasks",
    "check_task_count",
    "task_from",
    "run_one_task",
    "run_launcher",
    "launcher_pid",
]

# Async updates with stale gradients need more steps for the same accuracy than sync
# ones, each of which averages one batch from every worker.
DEFAULT_STEPS = 2000
DEFAULT_SYNC_STEPS = 1000
_PROG = "tf1mem.cluster"
_POLL_SECONDS = 0.2
# How long a restarted task keeps trying to bind its port (see _Launcher._argv).
_RESTART_BIND_RETRY_SECONDS = 10.0


@dataclasses.dataclass(frozen=True)
class ClusterOptions:
    """The parsed command line (see ``--help``)."""

    ps: int = 1
    workers: int = 2
    steps: int = DEFAULT_STEPS
    batch_size: int = models.BATCH_SIZE
    learning_rate: float = models.LEARNING_RATE
    data_dir: str = models.DATA_DIR
    checkpoint_dir: Optional[str] = None
    seed: Optional[int] = None
    port_base: int = 0
    sync: bool = False
    max_restarts: int = 3
    startup_timeout: float = 60.0
    save_checkpoint_steps: int = 100
    allow_remote: bool = False
    force_tasks: bool = False
    ps_hosts: Tuple[str, ...] = ()
    worker_hosts: Tuple[str, ...] = ()
    job_name: Optional[str] = None
    task_index: Optional[int] = None
    result_file: str = ""
    bind_retry_seconds: float = 0.0
    run_dir: Optional[str] = None
    keep_run_dir: bool = False  # keep the launcher's own temporary run folder on success
    progress: bool = True  # the launcher's bar of the global step (a terminal only)
    verbose: bool = False  # a task's TensorFlow C++ log as it comes
    session: object = None  # tf1mem.config.SessionOptions
    argv: Tuple[str, ...] = ()  # forwarded verbatim to the task processes


# --------------------------------------------------------------------------------
# One task


def task_from(opts: ClusterOptions, environ: Mapping[str, str]):
    """(cluster dict, job, index) from the TF1 flags or TF_CONFIG; None if neither."""
    if opts.job_name is not None or opts.ps_hosts or opts.worker_hosts:
        if opts.job_name is None or opts.task_index is None:
            raise UsageError("--ps_hosts/--worker_hosts need --job_name and --task_index")
        if not opts.ps_hosts or not opts.worker_hosts:
            raise UsageError("--job_name needs both --ps_hosts and --worker_hosts")
        cluster = {"ps": list(opts.ps_hosts), "worker": list(opts.worker_hosts)}
        job, index = opts.job_name, opts.task_index
        source = "--ps_hosts/--worker_hosts"
    elif environ.get("TF_CONFIG"):
        source = "TF_CONFIG"
        try:
            tf_config = json.loads(environ["TF_CONFIG"])
            cluster = {k: list(v) for k, v in tf_config["cluster"].items()}
            job, index = tf_config["task"]["type"], int(tf_config["task"]["index"])
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"TF_CONFIG is not valid ({exc!r}); expected JSON "
                             '{"cluster": {"ps": [...], "worker": [...]}, '
                             '"task": {"type": "worker", "index": 0}}') from None
    else:
        return None
    if set(cluster) != {"ps", "worker"} or not cluster["ps"] or not cluster["worker"]:
        raise UsageError(f"the cluster needs jobs 'ps' and 'worker', got {sorted(cluster)}")
    if job not in cluster or not 0 <= index < len(cluster[job]):
        raise UsageError(f"task {job}:{index} is not in the cluster {cluster}")
    from tf1mem.distributed import servers

    seen = {}
    for name in ("ps", "worker"):
        for i, address in enumerate(cluster[name]):
            host, port = servers.parse_address(str(address), source)
            key = (host.strip("[]").lower().replace("localhost", "127.0.0.1"), port)
            if key in seen:
                raise UsageError(
                    f"{address!r} is given to both {seen[key]} and {name}:{i} in {source}; "
                    "each task needs an address of its own (another port)")
            seen[key] = f"{name}:{i}"
    for address in cluster["ps"] + cluster["worker"]:
        host, _ = servers.parse_address(str(address), source)
        if not opts.allow_remote and not _is_loopback(host):
            raise UsageError(
                f"{address!r} is not a loopback address; servers listen on loopback only "
                "unless you pass --allow-remote (only on an isolated, trusted network)")
    return cluster, job, index


def _is_loopback(host):
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_one_task(opts: ClusterOptions, cluster, job, index, reexec_argv,
                 launcher_pid=None) -> int:
    from tf1mem.distributed import loopback, task as cluster_task

    if launcher_pid is not None:
        cluster_task.die_with_launcher(launcher_pid)
    is_chief = job == "worker" and index == 0
    if is_chief and not opts.checkpoint_dir:
        # A temporary folder would be new on every start: a restarted chief could
        # never resume from its checkpoints.
        raise UsageError("the chief (--job_name=worker --task_index=0) needs "
                         "--checkpoint-dir, a folder that outlives the process, so that "
                         "a restarted chief resumes from its last checkpoint")
    if opts.allow_remote:
        print(f"{_PROG}: {loopback.REMOTE_WARNING}", file=sys.stderr, flush=True)
    elif not loopback.loopback_active() and reexec_argv is not None:
        loopback.reexec_with_loopback("tf1mem.cluster", reexec_argv)  # no return
    # A task run by hand: TensorFlow's start-up lines held back unless --verbose,
    # installed after any re-exec (which would leave it behind) and restored before
    # the process ends. A launcher's task writes to its log file, which keeps
    # TensorFlow's whole log (the launcher kills its ps tasks, and shows only a log's
    # tail without the INFO lines).
    quiet = (None if opts.verbose or launcher_pid is not None
             else _tflog.QuietTensorFlow().install())
    try:
        code = _serve_task(opts, cluster, job, index, launcher_pid, is_chief)
    finally:
        if quiet is not None:
            quiet.close()
    sys.stdout.flush()
    # Skip interpreter teardown: TF's gRPC threads can otherwise stall the exit.
    os._exit(code)


def _serve_task(opts, cluster, job, index, launcher_pid, is_chief) -> int:
    """One task's server and work; returns the exit code (see :func:`run_one_task`)."""
    from tf1mem import config
    from tf1mem.distributed import servers, task as cluster_task

    # Without the shim (a library call), start_server's kernel check fails closed.
    session_config = config.resolve_options(opts.session).to_config()
    server = servers.start_server(cluster, job, index, config=session_config,
                                  retry_seconds=opts.bind_retry_seconds,
                                  allow_remote=opts.allow_remote)
    if job == "ps":
        # What the kernel says it listens on, not what the ClusterSpec asked for.
        where = ", ".join(servers.listening_addresses(servers.port_of(cluster["ps"][index])))
        print(f"{_PROG}: /job:ps/task:{index} serving at {where}", flush=True)
        cluster_task.run_ps(server, launcher_pid)
        print(f"{_PROG}: the launcher (pid {launcher_pid}) is gone; stopping",
              file=sys.stderr, flush=True)
        return errors.EXIT_INTERRUPTED
    # Only the chief reads or writes checkpoints.
    checkpoint_dir = opts.checkpoint_dir if is_chief else None
    task = cluster_task.TaskSpec(cluster=cluster, job_name=job, task_index=index)
    train = cluster_task.TrainSpec(
        steps=opts.steps, batch_size=opts.batch_size, learning_rate=opts.learning_rate,
        data_dir=opts.data_dir, checkpoint_dir=checkpoint_dir, sync=opts.sync,
        seed=opts.seed, save_checkpoint_steps=opts.save_checkpoint_steps,
        startup_timeout=opts.startup_timeout, session_config=session_config,
        result_file=opts.result_file)
    result = cluster_task.run_worker(server, task, train)
    print(f"{result.task}: {result.local_steps} steps, "
          f"{result.examples_per_second:.0f} examples/s, global step {result.final_global_step}")
    if result.test_accuracy is not None:
        print(f"checkpoints: {checkpoint_dir}")
        print(f"test accuracy: {result.test_accuracy:.4f}", flush=True)
    return errors.EXIT_OK


# --------------------------------------------------------------------------------
# The launcher


class Terminated(Exception):
    """SIGTERM or SIGINT arrived; the launcher stops every task and exits 130."""


@dataclasses.dataclass
class _Task:
    job: str
    index: int
    log_path: str
    result_path: str
    proc: Optional[subprocess.Popen] = None
    done: bool = False
    starts: int = 0

    @property
    def name(self):
        return f"/job:{self.job}/task:{self.index}"


def _pick_ports(opts: ClusterOptions) -> List[int]:
    from tf1mem.distributed import servers

    n = opts.ps + opts.workers
    if opts.port_base == 0:
        return servers.free_ports(n)
    ports = list(range(opts.port_base, opts.port_base + n))
    if ports[-1] > 65535:
        raise UsageError(f"--port-base {opts.port_base} leaves no room for {n} ports")
    for port in ports:
        why = servers.port_busy(port)
        if why:
            raise ClusterError(f"this run needs ports {ports[0]}-{ports[-1]}, but "
                               f"{servers.port_problem(port, why)}.")
    return ports


def _exited(proc: subprocess.Popen) -> bool:
    """Whether ``proc`` has exited, without reaping it (so its pid stays ours)."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _signal_group(task: "_Task", signum) -> None:
    # Only while the task is unreaped (returncode None): until then its pid, which
    # is its process group's id, cannot have been reused by an unrelated process.
    if task.proc is not None and task.proc.returncode is None:
        try:
            os.killpg(task.proc.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def _log_tail(path, lines=15):
    try:
        with open(path, errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return ""
    keep = [l for l in text if not l.startswith(("I0000", "W0000"))]
    return "\n".join("    " + l for l in keep[-lines:])


class _Launcher:
    """Starts, watches, restarts and stops the task processes of one local run."""

    def __init__(self, opts: ClusterOptions, run_dir: str, checkpoint_dir: str):
        from tf1mem.distributed import loopback

        self.opts = opts
        self.run_dir = run_dir
        self.checkpoint_dir = checkpoint_dir
        ports = _pick_ports(opts)
        self.cluster = {
            "ps": [f"127.0.0.1:{p}" for p in ports[:opts.ps]],
            "worker": [f"127.0.0.1:{p}" for p in ports[opts.ps:]],
        }
        from tf1mem.distributed import task as cluster_task

        env = loopback.loopback_env(enable=not opts.allow_remote)
        # Each task dies with this process, even a SIGKILLed one (see
        # cluster_task.die_with_launcher).
        env[cluster_task.LAUNCHER_PID_ENV_VAR] = str(os.getpid())
        self.env = env
        self.tasks = [
            _Task(job, i, os.path.join(run_dir, f"{job}-{i}.log"),
                  os.path.join(run_dir, f"{job}-{i}.json"))
            for job in ("ps", "worker") for i in range(len(self.cluster[job]))]
        self.restarts = 0
        self.signalled = None  # the SIGTERM/SIGINT number once one arrives

    def _argv(self, task: _Task):
        argv = [sys.executable, *subprocess._args_from_interpreter_flags(),
                "-m", "tf1mem.cluster", *self.opts.argv,
                "--checkpoint-dir", self.checkpoint_dir, "--result-file", task.result_path]
        if task.starts:
            # Its port was free when the run began; something may hold it briefly
            # now (e.g. a connection's ephemeral port), so retry instead of failing.
            argv += ["--bind-retry-seconds", str(_RESTART_BIND_RETRY_SECONDS)]
        return argv

    def on_signal(self, signum, frame):
        """Signal handler: only records the signal, which run() acts on.

        Raising here could interrupt any line, e.g. between Popen and recording
        its result, and leave a task nobody stops.
        """
        self.signalled = signum

    def _check_signal(self):
        if self.signalled is not None:
            raise Terminated()

    def start(self, task: _Task):
        env = dict(self.env)
        env["TF_CONFIG"] = json.dumps({"cluster": self.cluster,
                                       "task": {"type": task.job, "index": task.index}})
        with open(task.log_path, "ab") as log:
            task.proc = subprocess.Popen(self._argv(task), env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        task.starts += 1
        address = self.cluster[task.job][task.index]
        # Its peers dial this address; with --allow-remote the server itself listens
        # on every interface, and the line must not suggest otherwise.
        where = (f"{address} (listening on every interface: --allow-remote)"
                 if self.opts.allow_remote else address)
        print(f"{_PROG}: started {task.name} for {where} (pid {task.proc.pid}), "
              f"log {task.log_path}", file=sys.stderr, flush=True)
        self._write_state()

    def _write_state(self):
        state = {t.name: {"pid": t.proc.pid if t.proc else None, "starts": t.starts,
                          "address": self.cluster[t.job][t.index],
                          "done": t.done, "log": t.log_path} for t in self.tasks}
        state["checkpoint_dir"] = self.checkpoint_dir
        _atomic.write_text(os.path.join(self.run_dir, "tasks.json"), json.dumps(state))

    def stop(self, task: _Task):
        """SIGKILLs the task's process group (if not yet reaped) and reaps it."""
        if task.proc is None:
            return
        _signal_group(task, signal.SIGKILL)
        task.proc.wait()

    def stop_all(self):
        """SIGTERM, then after at most 3 s SIGKILL, to every unreaped task's group."""
        live = [t for t in self.tasks if t.proc is not None and t.proc.returncode is None]
        for t in live:  # ask first, so they can close sockets...
            _signal_group(t, signal.SIGTERM)
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and not all(_exited(t.proc) for t in live):
            time.sleep(0.05)
        for t in live:  # ...then make sure, including their children
            _signal_group(t, signal.SIGKILL)
            t.proc.wait()

    def _charge_restart(self, task: _Task, how: str):
        self.restarts += 1
        if self.restarts > self.opts.max_restarts:
            raise ClusterError(
                f"{task.name} {how}, and the run already used its --max-restarts "
                f"{self.opts.max_restarts}; its log {task.log_path} ends:\n"
                f"{_log_tail(task.log_path)}")
        print(f"{_PROG}: {task.name} {how}; restart {self.restarts} of "
              f"{self.opts.max_restarts}", file=sys.stderr, flush=True)

    def run(self):
        for t in self.tasks:
            self._check_signal()
            self.start(t)
        with _progress.bar(self.opts.steps, "cluster", "step", self.opts.progress) as bar:
            self._watch(bar)

    def global_step(self) -> int:
        """The largest global step the workers have reported so far (0 before any)."""
        from tf1mem.distributed import task as cluster_task

        steps = [0]
        for t in self.tasks:
            if t.job == "worker":
                try:
                    with open(cluster_task.progress_path(t.result_path)) as f:
                        steps.append(int(json.load(f)["global_step"]))
                except (OSError, ValueError, KeyError, TypeError):
                    pass
        return max(steps)

    def _watch(self, bar):
        while True:
            step = min(self.global_step(), self.opts.steps)
            if step > bar.n:
                bar.update(step - bar.n)
            self._check_signal()
            for t in self.tasks:
                rc = t.proc.poll()
                if rc is None or t.done:
                    continue
                how = f"exited with status {rc}" if rc >= 0 else f"was killed by signal {-rc}"
                if rc == errors.EXIT_CLUSTER or rc == errors.EXIT_USAGE or rc == errors.EXIT_DATA:
                    # Restarting will not fix a port clash, a bad flag or missing data.
                    raise ClusterError(f"{t.name} {how}; its log {t.log_path} ends:\n"
                                       f"{_log_tail(t.log_path)}")
                if t.job == "worker" and rc == 0:
                    t.done = True
                    self._write_state()
                    continue
                if t.job == "ps":
                    self._charge_restart(t, how + " (restarting the whole job from the "
                                         "last checkpoint)")
                    for other in self.tasks:
                        if not other.done:
                            self.stop(other)
                    for other in self.tasks:
                        if not other.done:
                            self._check_signal()
                            self.start(other)
                    break
                self._charge_restart(t, how)
                self._check_signal()
                self.start(t)
            if all(t.done for t in self.tasks if t.job == "worker"):
                return
            time.sleep(_POLL_SECONDS)

    def results(self):
        out = []
        for t in self.tasks:
            if t.job == "worker":
                try:
                    with open(t.result_path) as f:
                        out.append(json.load(f))
                except (OSError, ValueError):
                    raise ClusterError(f"{t.name} finished without writing its result "
                                       f"{t.result_path}; see {t.log_path}") from None
        return out


def max_local_tasks() -> int:
    """How many task processes one launcher starts without ``--force-tasks``.

    Two per CPU core, at least 8: every task is a whole TensorFlow process (about
    300-500 MB resident here), and tasks on one machine share its cores.
    """
    return max(8, 2 * (os.cpu_count() or 1))


def check_task_count(opts: ClusterOptions) -> None:
    """UsageError when the run asks for more local tasks than the bound, unforced."""
    n, bound = opts.ps + opts.workers, max_local_tasks()
    if n > bound and not opts.force_tasks:
        raise UsageError(
            f"--ps {opts.ps} --workers {opts.workers} would start {n} TensorFlow "
            f"processes on this machine ({os.cpu_count()} CPU cores); the bound is "
            f"{bound}. Use fewer, run tasks on several hosts, or pass --force-tasks.")


def _prefetch_data(opts: ClusterOptions) -> None:
    """Fetches and verifies MNIST once, before any worker starts.

    Otherwise every worker of a cold machine downloads it at the same time, into the
    same folder.
    """
    from tf1mem.data import fetch

    for got in fetch.fetch_all(opts.data_dir, folder_name="--data-dir"):
        if got.placed:
            print(f"{_PROG}: {os.path.basename(got.path)} verified (sha256 "
                  f"{got.sha256[:12]}...) from {got.source}", file=sys.stderr, flush=True)


def run_launcher(opts: ClusterOptions) -> int:
    """Runs a whole local cluster (see the module docstring); returns 0.

    Raises:
      UsageError: more tasks than :func:`max_local_tasks`, unforced.
      DataError: MNIST cannot be had intact (before any task starts).
      ClusterError: a port in use, or a task that failed or kept dying.
      Terminated: SIGTERM/SIGINT arrived; every task was stopped.
    """
    from tf1mem.distributed import loopback

    check_task_count(opts)
    _prefetch_data(opts)
    if opts.allow_remote:
        print(f"{_PROG}: {loopback.REMOTE_WARNING}", file=sys.stderr, flush=True)
    # Folders this run creates are removed again if it fails before any task starts
    # (a port clash, say): nothing of a run that never ran is left behind.
    created = [path for path in (opts.run_dir, opts.checkpoint_dir)
               if path and not os.path.exists(path)]
    # Without --run-dir: a new folder in tf1mem's report folder, removed when the run
    # succeeds unless --keep-run-dir (the user's own --run-dir is always kept).
    run_dir = opts.run_dir or tempfile.mkdtemp(prefix="cluster-",
                                               dir=_places.make_report_dir())
    if not opts.run_dir:
        created.append(run_dir)
    try:
        os.makedirs(run_dir, exist_ok=True)
        checkpoint_dir = opts.checkpoint_dir or os.path.join(run_dir, "checkpoints")
        os.makedirs(checkpoint_dir, exist_ok=True)
        launcher = _Launcher(opts, run_dir, checkpoint_dir)
    except BaseException:
        for path in created:
            shutil.rmtree(path, ignore_errors=True)
        raise
    mode = "sync" if opts.sync else "async"
    print(f"{_PROG}: {opts.ps} ps + {opts.workers} workers ({mode}), {opts.steps} global "
          f"steps of {opts.batch_size}; logs in {run_dir}", file=sys.stderr, flush=True)

    previous = {signum: signal.signal(signum, launcher.on_signal)
                for signum in (signal.SIGTERM, signal.SIGINT)}
    start = time.perf_counter()
    try:
        launcher.run()
    finally:
        try:
            launcher.stop_all()
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
    wall = time.perf_counter() - start
    results = launcher.results()
    accuracy = None
    total = 0.0
    for r in results:
        total += r["examples_per_second"]
        extra = (f", started at global step {r['start_global_step']}"
                 if r["start_global_step"] else "")
        print(f"{r['task']}: {r['examples_per_second']:.0f} examples/s "
              f"({r['local_steps']} local steps in {r['train_seconds']:.2f} s{extra})")
        if r["test_accuracy"] is not None:
            accuracy = r["test_accuracy"]
    removed = not opts.run_dir and not opts.keep_run_dir
    if removed:
        shutil.rmtree(run_dir, ignore_errors=True)
    kept = checkpoint_dir if not (removed and checkpoint_dir.startswith(run_dir)) else None
    print(f"all workers: {total:.0f} examples/s; wall time {wall:.1f} s; "
          f"restarts {launcher.restarts}; "
          + (f"checkpoints in {kept}" if kept else
             "run folder removed (--keep-run-dir or --checkpoint-dir keeps the checkpoints)"))
    print(f"test accuracy: {accuracy:.4f}", flush=True)
    return errors.EXIT_OK


def launcher_pid(environ: Mapping[str, str]) -> Optional[int]:
    from tf1mem.distributed import task as cluster_task

    text = environ.get(cluster_task.LAUNCHER_PID_ENV_VAR, "")
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{cluster_task.LAUNCHER_PID_ENV_VAR}={text!r} is not a pid; "
                         "it is set by the launcher, unset it") from None


