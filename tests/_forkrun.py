"""Many ``python ...`` runs for the price of one TensorFlow start-up.

A test-only fork server. :class:`ForkServer` starts one process (:func:`serve`) that
imports TensorFlow once, creating no session and touching no device, and then waits.
For each run it forks a child that becomes what ``python ARGS`` would be after its
start-up (``ARGS`` a script and its arguments, or ``-m MODULE ...``): it takes the
run's working folder, ``sys.argv`` and ``sys.path[0]``, writes its standard output and
error to files, runs the script as ``__main__`` (a module through
:func:`runpy._run_module_as_main`, what ``python -m`` itself calls) and ends as the
interpreter would (exit code, non-daemon threads joined, ``atexit`` handlers, streams
flushed). Every child is forked from the same pristine server, so no run sees what an
earlier one did.

Why forking is safe here: after ``import tensorflow`` the process has, besides its
main thread, only OpenBLAS's idle thread-pool workers (``blas_thread_server``: one from
NumPy's OpenBLAS and, once tf_keras has imported SciPy, one from SciPy's; seen with
``/proc/self/task/*/comm`` and gdb on 2026-12-07), and OpenBLAS re-creates its pool
after a fork (``pthread_atfork``). TensorFlow starts its own thread pools only with
the first session or eager op, which the server never runs.

What the server matches, so that a child behaves as a cold run:

- the environment, which the server is started with: a run whose environment differs
  (a corpus case's own ``env``) must run cold (TensorFlow reads variables at import).
- ``python -m tf1mem.run``'s loopback safeguard (``loopback=True``): the runner
  re-executes itself under the bind shim unless the shim is on already, so the server
  is started with the environment that re-exec gives
  (:func:`tf1mem.distributed.loopback.loopback_env`). The child then skips the
  re-exec, and the shim (preloaded in the server, so in the child), its
  ``TF1MEM_LOOPBACK_ONLY=1`` and the runner's own check of each server with the
  kernel are in force as after a cold re-exec (``tests/corpus/test_forkrun.py``).
- ``TF_USE_LEGACY_KERAS``: TensorFlow reads it at import (it orders ``tf.__path__``);
  tf1mem's shim sets it before the script's first ``import tensorflow``. The server
  sets it for its own import and then restores the environment it was given.

Not the same as a cold run, by construction: what TensorFlow prints while it is
imported (the oneDNN and CUDA notices) goes to the server's log, not to the child's
stderr; TensorFlow's C++ log lines carry the server's thread id; the interpreter's
final garbage collection does not run (``os._exit``), so a ``__del__`` that prints at
shutdown would not print. A script that leaves a process behind holding its output
does not delay the end of its run (a cold ``subprocess.run`` waits for it).
"""

import json
import locale
import os
import select
import signal
import subprocess
import sys
import tempfile

from tf1mem._warm_template import exit_code

__all__ = ["ForkServer"]

_READY = "forkrun: ready"


# -- the client, in the test process -----------------------------------------------


class ForkServer:
    """A running fork server.

    Args:
      env: the environment of every run, as a cold run's ``subprocess`` would get it.
      start_timeout: seconds the server may take to import TensorFlow.
      loopback: the runs are ``-m tf1mem.run``: start the server as that command's
        re-exec under the loopback bind shim would be.

    Raises:
      tf1mem.ClusterError: ``loopback`` and the shim cannot be built (no C compiler).
    """

    def __init__(self, env, *, start_timeout, loopback=False):
        self._env = dict(env)
        self._dir = tempfile.TemporaryDirectory(prefix="forkrun-")
        self._log = os.path.join(self._dir.name, "server.log")
        self._count = 0
        server_env = self._env
        if loopback:
            from tf1mem.distributed import loopback as loopback_lib

            server_env = loopback_lib.loopback_env(self._env)
        with open(self._log, "wb") as log:
            # -c, not -m: a child runs its script in __main__'s namespace, which must
            # not be the one this module's functions run in.
            self._proc = subprocess.Popen(
                [sys.executable, "-c", "from tests._forkrun import serve; serve()"],
                cwd=_repo(), env=server_env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
        line = self._readline(start_timeout)
        if line != _READY:
            self.close()
            raise RuntimeError(f"the fork server did not start (got {line!r}):\n"
                               f"{self._server_log()}")

    def run(self, args, *, cwd, timeout):
        """Runs ``python *args`` in a forked child, in folder ``cwd``.

        Args:
          args: what follows the interpreter: ``[SCRIPT, ...]`` or ``["-m", MODULE, ...]``.

        Returns:
          ``subprocess.CompletedProcess`` with ``args`` the equivalent command line and
          text ``stdout``/``stderr`` decoded as ``subprocess.run(text=True)`` would.

        Raises:
          subprocess.TimeoutExpired: the child ran past ``timeout`` seconds and was
            killed; it carries what the child had written.
        """
        self._count += 1
        out = os.path.join(self._dir.name, f"{self._count}.out")
        err = os.path.join(self._dir.name, f"{self._count}.err")
        request = {"args": [str(a) for a in args], "cwd": str(cwd), "stdout": out,
                   "stderr": err, "timeout": timeout}
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        # The server enforces the timeout; this bound only guards against the server.
        answer = json.loads(self._readline(timeout + 60) or "null")
        if answer is None:
            raise RuntimeError(f"the fork server died:\n{self._server_log()}")
        cmd = [sys.executable, *request["args"]]
        stdout, stderr = _read_text(out), _read_text(err)
        os.unlink(out)
        os.unlink(err)
        if answer["timed_out"]:
            raise subprocess.TimeoutExpired(cmd, timeout, output=stdout, stderr=stderr)
        return subprocess.CompletedProcess(cmd, answer["returncode"], stdout, stderr)

    def close(self):
        """Stops the server and removes its files."""
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc.stdout.close()
        self._dir.cleanup()

    def _readline(self, timeout):
        ready, _, _ = select.select([self._proc.stdout], [], [], timeout)
        if not ready:
            self._proc.kill()
            return ""
        return self._proc.stdout.readline().rstrip("\n")

    def _server_log(self):
        with open(self._log, errors="replace") as f:
            return f.read()


def _repo():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read_text(path):
    # As subprocess.run(text=True): the locale's encoding, universal newlines.
    with open(path, encoding=locale.getpreferredencoding(False)) as f:
        return f.read()


# -- the server --------------------------------------------------------------------


def _import_once():
    """Imports TensorFlow with the environment it reads at import under tf1mem's shim."""
    had = os.environ.get("TF_USE_LEGACY_KERAS")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # as the shim sets it before TF's import
    try:
        __import__("tensorflow")
    finally:
        if had is None:
            del os.environ["TF_USE_LEGACY_KERAS"]
        else:
            os.environ["TF_USE_LEGACY_KERAS"] = had


def _child(request, protocol_fds):
    """In the forked child: become ``python ARGS``; never returns."""
    code = 1
    try:
        for fd in protocol_fds:
            os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        for fd, target in ((null, 0), (out, 1), (err, 2)):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        code = _as_python(request["args"])
    finally:
        os._exit(code)


def _as_python(args):
    """Runs what ``python *args`` runs and ends as the interpreter would.

    Returns:
      The exit status python would have.
    """
    import runpy
    import threading

    try:
        if args[0] == "-m":
            sys.argv = ["-m", *args[2:]]
            sys.path[0] = os.getcwd()  # what python -m puts first
            runpy._run_module_as_main(args[1], alter_argv=True)
        else:
            sys.argv = list(args)
            # python SCRIPT: the script's folder, symbolic links resolved.
            sys.path[0] = os.path.dirname(os.path.realpath(args[0]))
            _run_file(args[0])
        code = 0
    except SystemExit as exc:
        code = exit_code(exc.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    # Py_FinalizeEx: wait for non-daemon threads, then atexit, then flush.
    threading._shutdown()
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            if stream is sys.stdout and code == 0:
                code = 120  # python's status when flushing stdout fails at exit
    return code


def _run_file(path):
    """Runs a source file in ``__main__``'s namespace, as ``python FILE`` does."""
    import builtins
    import importlib.machinery

    with open(path, "rb") as f:
        source = f.read()
    main = sys.modules["__main__"]
    main.__dict__.clear()
    main.__dict__.update(
        __name__="__main__", __doc__=None, __package__=None, __spec__=None,
        __file__=os.path.abspath(path), __cached__=None, __builtins__=builtins,
        __loader__=importlib.machinery.SourceFileLoader("__main__", path))
    exec(compile(source, path, "exec"), main.__dict__)


def _wait(pid, timeout):
    """Waits for ``pid``; kills it after ``timeout`` s. Returns (returncode, timed_out)."""
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
        timed_out = not ready
        if timed_out:
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), timed_out


def serve():
    """The server's loop: one JSON request per line on stdin, one answer per line."""
    # The protocol runs on copies of fds 0 and 1, never through sys.stdin/stdout: a
    # child must find no request in sys.stdin's buffer, and keeps sys.stdout's mode.
    requests = os.fdopen(os.dup(0), "r")
    answers = os.fdopen(os.dup(1), "w")
    protocol_fds = (requests.fileno(), answers.fileno())
    _import_once()
    print(_READY, file=answers, flush=True)
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request, protocol_fds)
        returncode, timed_out = _wait(pid, request["timeout"])
        print(json.dumps({"returncode": returncode, "timed_out": timed_out}),
              file=answers, flush=True)
