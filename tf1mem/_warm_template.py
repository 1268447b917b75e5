"""The warm runner's template: one process per user that has imported TensorFlow.

Started by :mod:`tf1mem._warm` on first use as
``python [FLAGS] -c "...serve(FOLDER)"`` with the environment a cold run would import
TensorFlow in (for ``tf1mem.run``: the one its loopback re-exec gives, bind shim
preloaded, so a child skips the re-exec with the shim active). :func:`serve` checks
its folder, computes its key (:func:`tf1mem._warm.template_key`, before importing
anything heavy), binds its ``AF_UNIX`` socket (mode 0600, in the 0700 folder), forks
away from the caller that started it and imports TensorFlow (with
``TF_USE_LEGACY_KERAS=1``, as the shim sets it), NumPy, tf1mem's shim modules and the
commands it runs. It creates no session, device or thread pool, and never initialises
CUDA: a GPU child makes its own context. Its stderr is ``FOLDER/template.log``.

Then one loop, in the main thread and the only Python thread, serves the socket: a
peer whose ``SO_PEERCRED`` uid is not the template's is closed unserved; a run whose
key differs is refused with the difference in one line (the caller runs cold) and the
template retires (closes its socket, exits once its running children end), so the
next warm run starts a fresh one; otherwise it forks the run's child from that loop.
The template waits for each child on a pidfd, forwards the signals its caller sends
(:data:`tf1mem._warm.TO_GROUP` to the child's process group), kills the child when
the caller goes away, and sends the exit status back. It exits after
``TF1MEM_WARM_IDLE_S`` seconds (default 900) without a run, on ``--warm-stop``, once
its socket is gone (its folder removed: checked every 30 s), or when killed; a child dies with it (``PR_SET_PDEATHSIG``), and the caller then reports
the loss (:class:`tf1mem._warm.TemplateLost`).

Why forking is safe: after the imports the process has three tasks, all named
``python3`` in ``/proc/self/task/*/comm`` (seen 2026-12-07, TF 2.21, NumPy's and
SciPy's OpenBLAS): the main thread and OpenBLAS's two idle ``blas_thread_server``
pools (identified with gdb for ``tests/_forkrun.py``), which OpenBLAS re-creates in
a child after a fork (``pthread_atfork``). The template logs its tasks when ready;
``--warm-status`` shows them.

The child becomes ``python -m COMMAND ARGS`` as the caller would have run it: the
caller's stdin, stdout and stderr (received with ``SCM_RIGHTS``; standard streams
rebuilt for them as Python builds them at start-up: tty line buffering,
``PYTHONUNBUFFERED``), working folder (a descriptor, so the very folder), umask,
environment (``os.environ`` replaced: TensorFlow and the shim read it later;
``tempfile``'s folder, which the imports cached, found again from it),
ignored signals, ``sys.argv``/``sys.orig_argv``, ``sys.path[0]``; NumPy's global
random state is reseeded (Python's ``random`` reseeds itself after a fork). It ends as
the interpreter ends (non-daemon threads joined, ``atexit`` handlers, streams flushed,
an uncaught KeyboardInterrupt dying of SIGINT).
"""

import fcntl
import gc
import importlib
import io
import os
import selectors
import signal
import socket
import sys
import time

from tf1mem import _warm

__all__ = ["serve"]

# Imported in the template so a child starts with them (run_script's PRELOAD too).
_COMMAND_MODULES = ("tf1mem.run", "tf1mem.memory", "tf1mem.models", "tf1mem._tflog",
                    "tf1mem.observe.measure", "tf1mem.observe.step_memory",
                    "tf1mem.compat.runtime.script", "tf1mem.compat.runtime.lifecycle",
                    "tf1mem.compat.runtime.hooks", "tf1mem.distributed.loopback",
                    "tf1mem.config.affinity")
_PR_SET_PDEATHSIG = 1
_CHECK_S = 30  # how often the template checks that its socket is still its own


def _is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def _log(text):
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {text}", file=sys.stderr,
          flush=True)


def _tasks():
    """``comm`` of each thread of this process."""
    names = []
    for task in sorted(os.listdir("/proc/self/task")):
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                names.append(f.read().strip())
        except OSError:
            pass
    return names


def _import_everything():
    """TensorFlow as the shim imports it, NumPy, and the modules a child runs."""
    had = os.environ.get("TF_USE_LEGACY_KERAS")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # as the shim sets it before TF's import
    try:
        importlib.import_module("tensorflow")
    finally:
        if had is None:
            del os.environ["TF_USE_LEGACY_KERAS"]
        else:
            os.environ["TF_USE_LEGACY_KERAS"] = had
    importlib.import_module("numpy")
    from tf1mem.compat.runtime import script

    for name in (*script.PRELOAD, *_COMMAND_MODULES):
        importlib.import_module(name)


class _Run:
    def __init__(self, pid, pidfd, conn):
        self.pid, self.pidfd, self.conn = pid, pidfd, conn


class _Template:
    def __init__(self, folder, listener, key, idle_limit):
        self.folder, self.listener, self.key = folder, listener, key
        self.idle_limit = idle_limit
        self.path = _warm.socket_path(folder)
        self.bound = os.stat(self.path).st_ino
        self.sel = selectors.DefaultSelector()
        self.sel.register(listener, selectors.EVENT_READ, ("listen", listener))
        self.conns = {}  # conn -> its _Run or None
        self.runs = []
        self.served = 0
        self.started = self.last_active = time.monotonic()
        self.stopping = False
        self.threads = _tasks()
        # What the imports left open (none seen; a library's own files): a caller's
        # inherited descriptor cannot take these numbers in a child.
        self.reserved = {fd for fd in map(int, os.listdir("/proc/self/fd"))
                         if fd > 2 and _is_open(fd)} - set(self._own_fds())

    # -- the loop

    def loop(self):
        while True:
            if self.stopping and not self.runs:
                _log("stopped")
                return
            if not self.stopping and not self._reachable():
                _log(f"{self.path} is gone (its folder removed?): no one can reach this "
                     f"template; retiring")
                self._retire()
                continue
            timeout = _CHECK_S
            if not self.runs:
                idle = self.idle_limit - (time.monotonic() - self.last_active)
                if idle <= 0:
                    _log(f"idle for {self.idle_limit:.0f} s: exiting")
                    return
                timeout = min(idle, _CHECK_S)
            for key, _ in self.sel.select(timeout):
                kind, obj = key.data
                if kind == "listen":
                    self._accept()
                elif kind == "conn":
                    self._message(obj)
                else:
                    self._reap(obj)

    def _reachable(self):
        try:
            return os.stat(self.path).st_ino == self.bound
        except OSError:
            return False

    def _accept(self):
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            pid, uid, _ = _warm.peer_credentials(conn)
            _warm.check_peer(uid)
        except (OSError, PermissionError) as exc:
            _log(f"refused a connection: {exc}")
            conn.close()
            return
        self.conns[conn] = None
        self.sel.register(conn, selectors.EVENT_READ, ("conn", conn))

    def _drop(self, conn):
        self.sel.unregister(conn)
        del self.conns[conn]
        conn.close()

    def _answer(self, conn, message):
        try:
            _warm.send_message(conn, message)
        except OSError:
            pass

    def _message(self, conn):
        try:
            message, fds = _warm.recv_message(conn, max_fds=8)
        except (OSError, ValueError):
            message, fds = None, []
        run = self.conns.get(conn)
        if message is None:
            if run is not None:  # the caller went away: so does its run, as cold
                self._signal(run, signal.SIGKILL)
                run.conn = None
            self._drop(conn)
            return
        try:
            if "signal" in message:
                if run is not None:
                    self._signal(run, message["signal"])
            elif message.get("op") == "run" and run is None:
                owned, fds = fds, []
                self._run(conn, message, owned)
            elif message.get("op") == "status":
                now = time.monotonic()
                self._answer(conn, {
                    "pid": os.getpid(), "up_s": now - self.started, "runs": self.served,
                    "running": len(self.runs), "idle_limit_s": self.idle_limit,
                    "idle_s": 0.0 if self.runs else now - self.last_active,
                    "interpreter": self.key["interpreter"], "tf1mem": self.key["tf1mem"],
                    "threads": self.threads})
            elif message.get("op") == "stop":
                _log("asked to stop")
                self._retire()
                self._answer(conn, {"pid": os.getpid()})
        finally:
            for fd in fds:
                os.close(fd)

    def _signal(self, run, signum):
        try:
            if signum in [int(s) for s in _warm.TO_GROUP]:
                try:
                    os.killpg(run.pid, signum)
                    return
                except ProcessLookupError:
                    pass
            os.kill(run.pid, signum)
        except (ProcessLookupError, PermissionError, ValueError, OverflowError):
            pass

    def _retire(self):
        """Serves no new run; exits once the running ones end."""
        if self.stopping:
            return
        self.stopping = True
        self.sel.unregister(self.listener)
        self.listener.close()
        if self._reachable():  # not a successor's socket
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def _run(self, conn, message, fds):
        def refuse(reason):
            for fd in fds:
                os.close(fd)
            self._answer(conn, {"refused": reason})

        if self.stopping:
            return refuse("the warm template is stopping")
        if message.get("command") not in _warm.COMMANDS:
            return refuse(f"command {message.get('command')!r} is not one a template runs")
        extra = message.get("extra", [])
        if len(fds) != sum(bool(x) for x in message.get("stdio", ())) + len(extra) + 1:
            return refuse("the request's descriptors are missing")
        taken = sorted(set(extra) & self.reserved)
        if taken:
            return refuse(f"descriptor(s) {taken} are open here and, for TensorFlow's or "
                          f"the loader's own use, in the template")
        difference = _warm.key_difference(message.get("key", {}), self.key)
        if difference is not None:
            _log(f"a run does not match this template ({difference}): retiring")
            self._retire()
            return refuse(f"{difference}; the template is replaced")
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError as exc:
            return refuse(f"the warm template cannot fork: {exc}")
        if pid == 0:
            _child(message, fds, parent, self._own_fds())
        for fd in fds:
            os.close(fd)
        try:
            os.setpgid(pid, pid)  # also done by the child: whichever runs first
        except OSError:
            pass
        pidfd = os.pidfd_open(pid)
        run = _Run(pid, pidfd, conn)
        self.conns[conn] = run
        self.runs.append(run)
        self.sel.register(pidfd, selectors.EVENT_READ, ("child", run))
        _log(f"run {self.served + len(self.runs)}: pid {pid}, {message['command']} "
             f"{' '.join(message['argv'])}")
        self._answer(conn, {"pid": pid, "template": parent})

    def _own_fds(self):
        fds = [self.sel.fileno()]
        if not self.stopping:
            fds.append(self.listener.fileno())
        fds += [c.fileno() for c in self.conns]
        fds += [r.pidfd for r in self.runs]
        return fds

    def _reap(self, run):
        _, wait_status = os.waitpid(run.pid, 0)
        code = os.waitstatus_to_exitcode(wait_status)
        self.sel.unregister(run.pidfd)
        os.close(run.pidfd)
        self.runs.remove(run)
        self.served += 1
        self.last_active = time.monotonic()
        _log(f"pid {run.pid} ended: {code}")
        if run.conn is not None:
            self._answer(run.conn, {"status": code})
            self._drop(run.conn)


def serve(folder):
    """The template's life; the first process returns (exit 0) once the socket listens."""
    try:
        _warm.check_folder(folder, create=False)
        idle_limit = _warm.idle_seconds()
        path = _warm.socket_path(folder)
    except (_warm.Unavailable, Exception) as exc:
        _log(f"not started: {exc}")
        sys.exit(1)
    key = _warm.template_key(os.environ)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    old_mask = os.umask(0o177)
    try:
        listener.bind(path)  # mode 0600 from the umask: no window for another user
    finally:
        os.umask(old_mask)
    listener.listen(64)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() != 0:
        os._exit(0)  # the caller that started us returns; we belong to no caller
    _log(f"starting in {folder}: importing TensorFlow")
    started = time.monotonic()
    _import_everything()
    gc.collect()
    gc.freeze()  # children share the start-up objects' pages, untouched by the collector
    template = _Template(folder, listener, key, idle_limit)
    _log(f"ready in {time.monotonic() - started:.1f} s; threads: {template.threads}")
    template.loop()
    sys.stderr.flush()
    os._exit(0)  # no atexit of TensorFlow's to run here: it ran no session


# ------------------------------------------------------------------ the child


def _die_with_parent(parent):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the template died before prctl took effect
        os._exit(1)


def _python_stream(fd, write, name, template_stream):
    """A standard stream for ``fd`` as Python makes it at start-up (create_stdio)."""
    # -u / PYTHONUNBUFFERED (not in sys.flags): the template's own stdout says it.
    unbuffered = bool(sys.__stdout__.write_through) if sys.__stdout__ else False
    buffering = 0 if unbuffered and write else -1
    buf = io.open(fd, "wb" if write else "rb", buffering, closefd=False)
    raw = buf if buffering == 0 else buf.raw
    raw.name = name
    stream = io.TextIOWrapper(
        buf, encoding=template_stream.encoding, errors=template_stream.errors,
        newline="\n", line_buffering=not unbuffered and (raw.isatty() or fd == 2),
        write_through=unbuffered)
    stream.mode = "w" if write else "r"
    return stream


def _child(message, fds, parent, own_fds):
    """In the forked child: become ``python -m COMMAND ARGV``; never returns."""
    code = 1
    try:
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        _die_with_parent(parent)
        for fd in own_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        fds = list(fds)
        cwd = fds.pop()
        templates = (sys.stdin, sys.stdout, sys.stderr)
        streams = []
        targets = [t for t, present in enumerate(message["stdio"]) if present]
        targets += message["extra"]
        # Out of the way first: a received descriptor may hold another's target number.
        base = max([*targets, *fds, cwd]) + 1
        moved = []
        for received in fds:
            moved.append(fcntl.fcntl(received, fcntl.F_DUPFD_CLOEXEC, base))
            os.close(received)
        for target, present in enumerate(message["stdio"]):
            if not present:
                os.close(target)
        for copy, target in zip(moved, targets):
            os.dup2(copy, target)  # inheritable, as the caller's was
            os.close(copy)
        os.fchdir(cwd)
        os.close(cwd)
        os.umask(message["umask"])
        ignored = set(message["ignored_signals"])
        for signum in (*_warm.FORWARDED, signal.SIGTSTP):
            if int(signum) in ignored:
                signal.signal(signum, signal.SIG_IGN)
            elif signum == signal.SIGINT:
                signal.signal(signum, signal.default_int_handler)
            else:
                signal.signal(signum, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(message["env"])
        # The imports asked tempfile for its folder (TMPDIR, read once): a new process
        # asks with its own environment.
        if "tempfile" in sys.modules:
            sys.modules["tempfile"].tempdir = None
        sys.orig_argv = list(message["orig_argv"])
        if not sys.flags.safe_path and sys.path:
            sys.path[0] = os.getcwd()  # what python -m puts first
        for target, (present, name) in enumerate(zip(
                message["stdio"], ("<stdin>", "<stdout>", "<stderr>"))):
            streams.append(_python_stream(target, target > 0, name, templates[target])
                           if present else None)
        sys.stdin, sys.stdout, sys.stderr = streams
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams
        if "numpy.random" in sys.modules:
            sys.modules["numpy.random"].seed()  # a fresh global state, as a new process
        _warm._IN_CHILD.append(True)
        code = _as_python(message["command"], message["argv"])
    except BaseException:
        try:
            import traceback

            traceback.print_exc()
        except BaseException:
            pass
    finally:
        os._exit(code)


def exit_code(value):
    """python's exit status for ``sys.exit(value)``, printing what it prints."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def _as_python(command, argv):
    """Runs ``COMMAND``'s ``sys.exit(main())`` and ends as the interpreter would.

    Returns:
      The exit status python would have (after an uncaught KeyboardInterrupt the
      process dies of SIGINT instead, as python does).
    """
    import atexit
    import threading

    module = importlib.import_module(command)
    sys.argv = [module.__file__, *argv]
    interrupted = False
    try:
        code = exit_code(module.main())
    except SystemExit as exc:
        code = exit_code(exc.code)
    except KeyboardInterrupt:
        sys.excepthook(*sys.exc_info())
        code, interrupted = 1, True
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    # Py_FinalizeEx: wait for non-daemon threads, then atexit, then flush.
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except Exception:
            if stream is sys.stdout and code == 0:
                code = 120  # python's status when flushing stdout fails at exit
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return code
