"""The warm runner's client side: its folder, its checks, and running a command warm.

``python -m tf1mem.run --warm SCRIPT`` (or ``TF1MEM_WARM=1``) runs the script in a
child forked from a per-user *template* process that has imported TensorFlow,
NumPy and tf1mem's shim modules already (:mod:`tf1mem._warm_template`), so the run
skips TensorFlow's start-up. This module is what the caller does:

- :func:`warm_dir` / :func:`check_folder`: the template's folder, private to the user
  (``$TF1MEM_WARM_DIR``, else ``$XDG_RUNTIME_DIR/tf1mem-warm``, else
  ``TMP/tf1mem-warm-UID``): created mode 0700, and used only while ``os.lstat`` says it
  is a folder (not a link) of this user that no one else may enter.
- :func:`peer_credentials` / :func:`check_peer`: the kernel's ``SO_PEERCRED`` of a
  Unix socket's other end; both sides refuse a peer of another user. The socket is
  ``AF_UNIX`` only, never TCP.
- :func:`template_key`: everything TensorFlow, CUDA, the loader or Python read when
  the process starts or imports them (``TF_*``, ``CUDA_*``, ``LD_*``, ``PYTHON*``
  and the other variables of ``_KEY_PREFIXES`` and ``_KEY_NAMES``, the interpreter, its prefix and
  flags, the fingerprints of tf1mem's sources and of the installed TensorFlow, NumPy
  and Keras, the loopback shim's variables, CPU affinity, resource limits, niceness,
  cgroup, namespaces, groups); :func:`key_difference` says, in one line, how two
  keys differ. A run whose key is not the template's runs cold, and the template is
  replaced.
- :func:`run_warm`: sends a command (``tf1mem.run`` or ``tf1mem.memory``), its
  arguments, environment, umask and standard streams (``SCM_RIGHTS``) to the
  template, starting one first if none answers; forwards signals; returns the child's
  status. :func:`exit_as` ends the caller as the child ended (the same signal
  re-raised, or its exit code).
- :func:`status` / :func:`stop`: ``--warm-status`` and ``--warm-stop``.

Nothing here runs at import time, and TensorFlow is never imported by the caller.
"""

import contextlib
import fcntl
import json
import os
import resource
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
from typing import Mapping, Optional, Sequence

from tf1mem import errors

__all__ = ["WARM_ENV_VAR", "DIR_ENV_VAR", "IDLE_ENV_VAR", "COMMANDS", "Unavailable",
           "TemplateLost", "idle_seconds", "warm_requested", "warm_dir", "check_folder",
           "command_folder", "socket_path", "stop_all",
           "peer_credentials", "check_peer", "template_key", "key_difference",
           "import_time_names", "extra_inheritable_fds", "run_warm", "exit_as", "status",
           "stop", "in_warm_child"]

WARM_ENV_VAR = "TF1MEM_WARM"
DIR_ENV_VAR = "TF1MEM_WARM_DIR"
IDLE_ENV_VAR = "TF1MEM_WARM_IDLE_S"
DEFAULT_IDLE_S = 900
# The commands a template runs (their module's main(argv=None) is called in the child).
COMMANDS = ("tf1mem.run", "tf1mem.memory")
# Each command has a template of its own, in its own sub-folder ("" the folder itself):
# a memory trial starts with another environment than a script under tf1mem.run (no
# loopback shim, TensorFlow's notices off), so with one template for both, a sweep
# beside a script would replace the template at every alternation (measured by
# scripts/bench_start.py: every warm run then went cold).
_COMMAND_FOLDERS = {"tf1mem.run": "", "tf1mem.memory": "memory"}
SOCKET_NAME = "sock"
LOG_NAME = "template.log"
_LOCK_NAME = "lock"
_MAX_MESSAGE = 1 << 20  # one request (its environment) at most
_MAX_EXTRA_FDS = 240  # SCM_RIGHTS carries 253 descriptors at most
_SUN_PATH_MAX = 107  # sockaddr_un.sun_path, less its terminating NUL
# How long a new template may take to import TensorFlow (a loaded 2-core machine:
# 20-75 s) before the caller gives up and runs cold.
_START_TIMEOUT_S = 600
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")

# Environment variables read at start-up or import time by Python, the dynamic
# loader, glibc's malloc, TensorFlow, CUDA, OpenBLAS/OpenMP/MKL, NumPy, Keras,
# protobuf, gRPC, HDF5 and the C library's locale and time zone; HOME places the
# user's site-packages. tf1mem's own loopback variables are the shim's state. A
# variable the template and the caller disagree on runs cold.
_KEY_PREFIXES = ("TF_", "CUDA_", "LD_", "PYTHON", "XLA_", "NVIDIA_", "OMP_", "OPENBLAS_",
                 "GOTO", "MKL_", "KMP_", "LC_", "NPY_", "NUMPY_", "KERAS_",
                 "PROTOCOL_BUFFERS_", "GRPC_", "HDF5_", "MALLOC_")
_KEY_NAMES = ("TF2_BEHAVIOR", "LANG", "LANGUAGE", "TZ", "HOME", "GLIBC_TUNABLES",
              "TF1MEM_LOOPBACK_ONLY", "TF1MEM_ADDED_PYTHONPATH", "TF1MEM_USER_PYTHONPATH")
# The installed packages fingerprinted besides tf1mem (their top-level __init__).
_PACKAGES = ("tensorflow", "numpy", "tf_keras", "keras", "scipy")
# Signals the caller forwards to the child. Those a terminal sends to its foreground
# process group (Ctrl-C, Ctrl-backslash, Ctrl-Z's stop, the resume, a resize) go to the
# child's process group, so the script's own children get them as in a cold run; the
# others (``kill PID``'s) go to the child alone.
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
             signal.SIGUSR2, signal.SIGWINCH, signal.SIGCONT)
TO_GROUP = (signal.SIGINT, signal.SIGQUIT, signal.SIGSTOP, signal.SIGCONT, signal.SIGWINCH)
_IN_CHILD = []  # [True] in a child forked from a template


class Unavailable(Exception):
    """The run cannot go warm; it runs cold. ``str()`` says why, in one line.

    Attributes:
      always: print the reason even without ``--verbose`` (a safety refusal the
        user must fix: a folder of the wrong owner or mode, a path too long).
    """

    def __init__(self, reason, always=False):
        super().__init__(reason)
        self.always = always


class TemplateLost(errors.Error):
    """The template (or the run's child) vanished before the child's status came back."""

    exit_code = errors.EXIT_FAILURE


def in_warm_child() -> bool:
    """Whether this process is a run forked from a template (it never goes warm again)."""
    return bool(_IN_CHILD)


def idle_seconds(environ: Optional[Mapping[str, str]] = None) -> float:
    """``TF1MEM_WARM_IDLE_S``: seconds a template waits for a run before it exits.

    Raises:
      UsageError: not a positive number.
    """
    environ = os.environ if environ is None else environ
    text = environ.get(IDLE_ENV_VAR, "")
    if not text:
        return float(DEFAULT_IDLE_S)
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise errors.UsageError(f"{IDLE_ENV_VAR}={text!r}: give the seconds a warm "
                                f"template waits for a run before it exits, e.g. 600")
    return value


def warm_requested(value: Optional[str]) -> bool:
    """``TF1MEM_WARM``'s value as a bool (unset or empty: False).

    Raises:
      UsageError: the value is not one of 1/0/true/false/yes/no/on/off.
    """
    text = (value or "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise errors.UsageError(f"{WARM_ENV_VAR}={value!r}: use 1 to run warm or 0 to run "
                            f"cold (also true/false/yes/no/on/off)")


# ------------------------------------------------------------------ the folder


def warm_dir(environ: Optional[Mapping[str, str]] = None) -> str:
    """The template's folder (it may not exist yet): see the module docstring."""
    environ = os.environ if environ is None else environ
    explicit = environ.get(DIR_ENV_VAR)
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "tf1mem-warm")
    return os.path.join(tempfile.gettempdir(), f"tf1mem-warm-{os.geteuid()}")


def check_folder(folder: str, create: bool = True) -> None:
    """Creates ``folder`` (mode 0700) if asked and missing; checks it with the kernel.

    Raises:
      Unavailable: (``always``) it is not a folder (a link is refused, not followed),
        is another user's, or group or others may enter or change it; the message
        names it, its owner and mode, and what to do.
    """
    if create:
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise Unavailable(f"cannot create the warm template's folder {folder!r}: "
                              f"{exc.strerror}; set {DIR_ENV_VAR} to a folder of yours",
                              always=True) from None
    try:
        st = os.lstat(folder)
    except OSError as exc:
        raise Unavailable(f"the warm template's folder {folder!r}: {exc.strerror}; set "
                          f"{DIR_ENV_VAR} to a folder of yours", always=True) from None
    if not stat.S_ISDIR(st.st_mode):
        raise Unavailable(f"the warm template's folder {folder!r} is not a folder (a link "
                          f"or a file); remove it or set {DIR_ENV_VAR} to another path",
                          always=True)
    if st.st_uid != os.geteuid():
        raise Unavailable(f"the warm template's folder {folder!r} belongs to uid "
                          f"{st.st_uid}, not to this user ({os.geteuid()}): refused; set "
                          f"{DIR_ENV_VAR} to a folder of yours", always=True)
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077 or mode & 0o700 != 0o700:
        raise Unavailable(f"the warm template's folder {folder!r} has mode {mode:04o}, "
                          f"not 0700 (only its owner may enter it): refused; run "
                          f"`chmod 700 {folder}` or set {DIR_ENV_VAR} to another folder",
                          always=True)


def command_folder(folder: str, command: str) -> str:
    """The folder of ``command``'s template inside the warm folder ``folder``."""
    return os.path.join(folder, _COMMAND_FOLDERS[command]) if _COMMAND_FOLDERS[command] \
        else folder


def socket_path(folder: str) -> str:
    """The template's socket in ``folder``.

    Raises:
      Unavailable: (``always``) the path is longer than a Unix socket's address allows.
    """
    path = os.path.join(folder, SOCKET_NAME)
    if len(os.fsencode(path)) > _SUN_PATH_MAX:
        raise Unavailable(f"the warm template's socket {path!r} is longer than the "
                          f"{_SUN_PATH_MAX} bytes a Unix socket's address allows; set "
                          f"{DIR_ENV_VAR} to a shorter folder", always=True)
    return path


# ------------------------------------------------------------------ the peer


def peer_credentials(sock: socket.socket):
    """``(pid, uid, gid)`` of the other end of Unix socket ``sock``, from the kernel."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", raw)


def check_peer(uid: int, own_uid: Optional[int] = None) -> None:
    """Refuses a peer whose ``SO_PEERCRED`` uid is not this process's effective uid.

    Raises:
      PermissionError: naming both uids.
    """
    own_uid = os.geteuid() if own_uid is None else own_uid
    if uid != own_uid:
        raise PermissionError(f"the warm template's peer is uid {uid}, not this user "
                              f"({own_uid}): refused")


# ------------------------------------------------------------------ the key


def import_time_names(environ: Mapping[str, str]):
    """The names in ``environ`` that the template's key compares."""
    return sorted(n for n in environ if n.startswith(_KEY_PREFIXES) or n in _KEY_NAMES)


def _package_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tf1mem_fingerprint():
    """``{relative path: [size, mtime_ns]}`` of tf1mem's ``.py`` files: an editable
    install is "upgraded" when its source changes."""
    package = os.path.dirname(os.path.abspath(__file__))
    out = {}
    for folder, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                st = os.stat(path)
                out[os.path.relpath(path, os.path.dirname(package))] = [st.st_size,
                                                                        st.st_mtime_ns]
    return out


def _package_fingerprint(name):
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    st = os.stat(spec.origin)
    return [spec.origin, st.st_size, st.st_mtime_ns]


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def template_key(environ: Mapping[str, str]) -> dict:
    """What a process started now with ``environ`` would read at start-up and import.

    Called by the caller for the environment its run would start TensorFlow in, and
    by the template for its own, before it imports anything heavy. JSON-ready.
    """
    namespaces = {}
    for ns in ("mnt", "net", "pid", "user", "uts", "ipc", "cgroup"):
        try:
            namespaces[ns] = os.readlink(f"/proc/self/ns/{ns}")
        except OSError:
            namespaces[ns] = None
    limits = {}
    for name in dir(resource):
        if name.startswith("RLIMIT_"):
            limits[name] = list(resource.getrlimit(getattr(resource, name)))
    return {
        "interpreter": sys.executable,
        "prefix": [sys.prefix, sys.base_prefix, sys.exec_prefix],
        "version": sys.version,
        "flags": subprocess._args_from_interpreter_flags(),
        "environment": {n: environ[n] for n in import_time_names(environ)},
        "tf1mem": _package_root(),
        "tf1mem source": _tf1mem_fingerprint(),
        "packages": {n: _package_fingerprint(n) for n in _PACKAGES},
        "uid": [os.geteuid(), os.getegid(), sorted(os.getgroups())],
        "cpus": sorted(os.sched_getaffinity(0)),
        "niceness": os.getpriority(os.PRIO_PROCESS, 0),
        "limits": limits,
        "cgroup": _read("/proc/self/cgroup"),
        "namespaces": namespaces,
    }


def key_difference(here: dict, template: dict) -> Optional[str]:
    """One line saying how the caller's key ``here`` differs from the template's, or None."""
    if here == template:
        return None
    env_here, env_there = here.get("environment", {}), template.get("environment", {})
    for name in sorted(set(env_here) | set(env_there)):
        if env_here.get(name) != env_there.get(name):
            def show(env):
                return repr(env[name]) if name in env else "unset"

            return f"{name} is {show(env_here)} here, {show(env_there)} in the template"
    if here.get("interpreter") != template.get("interpreter"):
        return (f"the interpreter is {here.get('interpreter')} here, "
                f"{template.get('interpreter')} in the template")
    if here.get("tf1mem") != template.get("tf1mem"):
        return (f"tf1mem is imported from {here.get('tf1mem')} here, from "
                f"{template.get('tf1mem')} in the template")
    src_here, src_there = here.get("tf1mem source", {}), template.get("tf1mem source", {})
    changed = sorted(p for p in set(src_here) | set(src_there)
                     if src_here.get(p) != src_there.get(p))
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        return (f"tf1mem's source changed since the template started ({changed[0]}{more}): "
                f"tf1mem was upgraded or edited")
    for name in sorted(set(here.get("packages", {})) | set(template.get("packages", {}))):
        if here["packages"].get(name) != template.get("packages", {}).get(name):
            return (f"the installed {name} differs from the template's (upgraded, or "
                    f"another copy on sys.path)")
    for field in sorted(set(here) | set(template)):
        if here.get(field) != template.get(field):
            return f"the {field} differ ({here.get(field)!r} here, " \
                   f"{template.get(field)!r} in the template)"
    return None  # pragma: no cover - the dicts differ, so some field does


def extra_inheritable_fds() -> list:
    """Inheritable descriptors above 2: a cold run would inherit them, so a warm child
    gets them too, at the same numbers."""
    out = []
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return out
    for name in names:
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    out.append(fd)
            except OSError:
                pass
    return sorted(out)


# ------------------------------------------------------------------ the protocol


def send_message(sock: socket.socket, message: dict, fds: Sequence[int] = ()) -> None:
    """Sends one JSON message (a ``SOCK_SEQPACKET`` record), with ``fds`` attached."""
    data = json.dumps(message).encode()
    if len(data) > _MAX_MESSAGE:
        raise Unavailable(f"the run's request is {len(data)} bytes (its environment), "
                          f"more than the {_MAX_MESSAGE} a warm run takes")
    socket.send_fds(sock, [data], list(fds))


def recv_message(sock: socket.socket, max_fds: int = 0):
    """``(message or None at end of stream, [fds])`` of one record."""
    data, fds, flags, _ = socket.recv_fds(sock, _MAX_MESSAGE, max_fds)
    if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
        for fd in fds:
            os.close(fd)
        raise ValueError("a message was cut short")
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return json.loads(data), fds


def _connect(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        sock.connect(path)
        _, uid, _ = peer_credentials(sock)
        check_peer(uid)
    except BaseException:
        sock.close()
        raise
    return sock


@contextlib.contextmanager
def _start_lock(folder):
    fd = os.open(os.path.join(folder, _LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _start_template(folder: str, env: Mapping[str, str]) -> None:
    """Starts a template in ``folder`` with ``env``; returns once its socket listens."""
    log = os.path.join(folder, LOG_NAME)
    with open(log, "ab") as err:
        os.chmod(log, 0o600)
        # -c, not -m: the script a child runs gets __main__, which must not be the
        # template module's namespace. The first process forks the template and exits
        # once the socket listens (the template then belongs to no caller).
        proc = subprocess.Popen(
            [sys.executable, *subprocess._args_from_interpreter_flags(), "-c",
             "import sys; from tf1mem._warm_template import serve; serve(sys.argv[1])",
             folder],
            cwd=folder, env=dict(env), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    code = proc.wait()
    if code != 0:
        raise Unavailable(f"the warm template did not start (exit {code}); its log: {log}")


def _connect_or_start(folder: str, env: Mapping[str, str]) -> socket.socket:
    path = socket_path(folder)
    try:
        return _connect(path)
    except (FileNotFoundError, ConnectionRefusedError):
        pass
    with _start_lock(folder):
        try:  # another caller may have started one meanwhile
            return _connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            pass
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead template's socket
        _start_template(folder, env)
        try:
            return _connect(path)
        except OSError as exc:
            raise Unavailable(f"the new warm template does not answer at {path}: "
                              f"{exc.strerror}; its log: "
                              f"{os.path.join(folder, LOG_NAME)}") from None


def _stdio_fds():
    """The caller's descriptors 0, 1, 2 that are open (None for a closed one)."""
    out = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            out.append(fd)
        except OSError:
            out.append(None)
    return out


def run_warm(command: str, argv: Sequence[str], *, env: Mapping[str, str],
             template_env: Optional[Mapping[str, str]] = None, stdio=None,
             forward_signals: bool = False, environ: Optional[Mapping[str, str]] = None):
    """Runs ``python -m COMMAND *argv`` in a child of the template; returns its status.

    Args:
      command: one of :data:`COMMANDS`.
      argv: the command's arguments.
      env: the child's environment.
      template_env: the environment the template must have been started with (what
        TensorFlow is imported under); default ``env``. A template is started with it
        when none answers.
      stdio: three descriptors for the child's stdin, stdout and stderr (None: closed);
        default this process's 0, 1, 2.
      forward_signals: forward :data:`FORWARDED` signals (and Ctrl-Z) to the child
        while it runs (the command-line caller does; a library caller does not).
      environ: where the folder's settings are read (default ``os.environ``).

    Returns:
      ``os.waitstatus_to_exitcode`` of the child: its exit code, or ``-N`` for a
      death by signal N.

    Raises:
      Unavailable: the run must go cold (nothing of it has run); ``str()`` says why.
      TemplateLost: the template or the child vanished during the run.
    """
    if command not in COMMANDS:
        raise ValueError(f"command {command!r} is not one of {COMMANDS}")
    template_env = dict(env if template_env is None else template_env)
    environ = os.environ if environ is None else environ
    # A cold run inherits these too (a jobserver's pipe, a shell's redirection): they
    # go along, to the same numbers.
    extra = extra_inheritable_fds() if stdio is None else []
    if len(extra) > _MAX_EXTRA_FDS:
        raise Unavailable(f"{len(extra)} inheritable descriptors are open here, more than "
                          f"the {_MAX_EXTRA_FDS} a warm run passes on")
    folder = warm_dir(environ)
    check_folder(folder)
    if command_folder(folder, command) != folder:
        folder = command_folder(folder, command)
        check_folder(folder)
    key = template_key(template_env)
    stdio = _stdio_fds() if stdio is None else list(stdio)
    ignored = [int(s) for s in FORWARDED if signal.getsignal(s) == signal.SIG_IGN]
    try:
        sock = _connect_or_start(folder, template_env)
    except PermissionError as exc:
        raise Unavailable(str(exc), always=True) from None
    except OSError as exc:
        raise Unavailable(f"cannot reach the warm template in {folder}: {exc}") from None
    cwd = None
    try:
        try:
            # O_PATH: the very folder, even one this user may enter but not list.
            cwd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise Unavailable(f"the working folder cannot be passed on: {exc}") from None
        request = {"op": "run", "command": command, "argv": list(argv), "env": dict(env),
                   "umask": _umask(), "key": key, "ignored_signals": ignored,
                   "stdio": [fd is not None for fd in stdio], "extra": extra,
                   "orig_argv": sys.orig_argv}
        try:
            send_message(sock, request,
                         [fd for fd in stdio if fd is not None] + extra + [cwd])
        except OSError as exc:
            raise Unavailable(f"the warm template did not take the run ({exc}); its log: "
                              f"{os.path.join(folder, LOG_NAME)}") from None
        os.close(cwd)
        cwd = None
        sock.settimeout(_START_TIMEOUT_S)
        try:
            answer, _ = recv_message(sock)
        except (socket.timeout, OSError, ValueError) as exc:
            raise Unavailable(f"the warm template did not answer ({exc}); its log: "
                              f"{os.path.join(folder, LOG_NAME)}") from None
        if answer is None:
            raise Unavailable(f"the warm template ended before the run started; its log: "
                              f"{os.path.join(folder, LOG_NAME)}")
        if "refused" in answer:
            raise Unavailable(answer["refused"])
        sock.settimeout(None)
        return _wait_for_child(sock, answer["pid"], answer["template"], folder,
                               forward_signals, ignored)
    finally:
        if cwd is not None:
            os.close(cwd)
        sock.close()


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _wait_for_child(sock, pid, template_pid, folder, forward_signals, ignored):
    """Forwards signals to the child until its status comes back; returns it."""
    saved = {}

    def forward(signum, frame):
        with contextlib.suppress(OSError):
            send_message(sock, {"signal": signum})

    def stop_too(signum, frame):
        # Ctrl-Z: the child (in no terminal's process group) is stopped with SIGSTOP,
        # then the caller stops as the terminal asked; SIGCONT is forwarded on resume.
        with contextlib.suppress(OSError):
            send_message(sock, {"signal": int(signal.SIGSTOP)})
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)
        signal.signal(signal.SIGTSTP, stop_too)

    if forward_signals:
        for signum in FORWARDED:
            if int(signum) not in ignored:
                saved[signum] = signal.signal(signum, forward)
        if signal.getsignal(signal.SIGTSTP) != signal.SIG_IGN:
            saved[signal.SIGTSTP] = signal.signal(signal.SIGTSTP, stop_too)
    try:
        try:
            answer, _ = recv_message(sock)
        except (OSError, ValueError):
            answer = None
        if answer is None or "status" not in answer:
            raise TemplateLost(
                f"the warm template (pid {template_pid}) ended while it ran the script "
                f"(child pid {pid}), so its exit status is unknown; the next warm run "
                f"starts a new template (its log: {os.path.join(folder, LOG_NAME)}), or "
                f"run without --warm")
        return answer["status"]
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def exit_as(status: int) -> int:
    """Ends this process as the child did: re-raises its signal, or returns its code.

    Returns:
      The exit code (``128 + N`` if signal N could not end this process).
    """
    if status >= 0:
        return status
    signum = -status
    sys.stdout.flush()
    sys.stderr.flush()
    # The child's core dump (if any) was the child's: the caller must not add its own.
    with contextlib.suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_CORE)
        resource.setrlimit(resource.RLIMIT_CORE, (0, hard))
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
        os.kill(os.getpid(), signum)
    return 128 + signum


# ------------------------------------------------------------------ status and stop


def _ask(folder, message):
    """The template's answer to ``message``, or None when no template answers."""
    check_folder(folder, create=False)
    try:
        sock = _connect(socket_path(folder))
    except (FileNotFoundError, ConnectionRefusedError):
        return None
    with sock:
        send_message(sock, message)
        sock.settimeout(60)
        try:
            answer, _ = recv_message(sock)
        except (OSError, ValueError):
            return None
        return answer


def status(environ: Optional[Mapping[str, str]] = None,
           command: str = "tf1mem.run") -> Optional[dict]:
    """``command``'s template's state (pid, runs, idle time, ...) or None if none runs.

    Raises:
      Unavailable: the folder fails :func:`check_folder`.
    """
    folder = command_folder(warm_dir(environ), command)
    if not os.path.lexists(folder):
        return None
    answer = _ask(folder, {"op": "status"})
    if answer is not None:
        answer["folder"] = folder
    return answer


def stop(environ: Optional[Mapping[str, str]] = None, timeout: float = 60,
         command: str = "tf1mem.run") -> Optional[int]:
    """Stops ``command``'s template (it exits once its running children end); returns
    its pid.

    Waits up to ``timeout`` seconds for it to exit. None if no template ran.
    """
    folder = command_folder(warm_dir(environ), command)
    if not os.path.lexists(folder):
        return None
    answer = _ask(folder, {"op": "stop"})
    if answer is None:
        return None
    pid = answer["pid"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    return pid


def stop_all(environ: Optional[Mapping[str, str]] = None, timeout: float = 60) -> dict:
    """Stops every command's template in the warm folder; ``{command: pid}`` of those
    that ran."""
    stopped = {}
    for command in COMMANDS:
        pid = stop(environ, timeout, command=command)
        if pid is not None:
            stopped[command] = pid
    return stopped


def _alive(pid):
    """Whether ``pid`` runs (an exited process that no one reaped yet does not)."""
    stat_line = _read(f"/proc/{pid}/stat")
    return stat_line is not None and stat_line.rsplit(")", 1)[1].split()[0] not in "ZX"


def format_status(state: Optional[dict], folder: str) -> str:
    """``--warm-status``'s text."""
    if state is None:
        return f"no warm template runs in {folder}"
    return (f"warm template: pid {state['pid']}, up {state['up_s']:.0f} s, "
            f"{state['runs']} run(s) served, {state['running']} running, idle "
            f"{state['idle_s']:.0f} s (it exits after {state['idle_limit_s']:.0f} s idle)\n"
            f"folder: {folder}\nlog: {os.path.join(folder, LOG_NAME)}\n"
            f"python: {state['interpreter']}\ntf1mem: {state['tf1mem']}\n"
            f"threads when ready: {state['threads']}")

