"""Loopback-only gRPC servers, and the warning for those that are not.

TensorFlow 2.21's gRPC server always listens on ``0.0.0.0:<port>`` (gRPC makes that
the dual-stack ``[::]:<port>``, shown by ``ss -ltn`` as ``*:<port>``) whatever host
the ClusterSpec gives for the task: the host part is only what *peers* dial, and
``ServerDef`` has a ``port`` field but no bind address. Since that server runs any
graph it is sent, without authentication, tf1mem keeps servers on loopback unless
the user passes ``--allow-remote``: processes run with a tiny ``LD_PRELOAD`` shim
(C source below, compiled once with the system C compiler into a cache folder) that
rewrites a ``bind()`` to the wildcard address into a bind to 127.0.0.1
(``::ffff:127.0.0.1`` on a dual-stack socket); other binds are left alone.

:func:`loopback_env` gives the environment for a child process,
:func:`reexec_with_loopback` restarts the current command under the shim (before
TensorFlow is imported), :func:`loopback_active` tells whether it is on.
"""

import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from typing import Mapping, Optional, Sequence

from tf1mem import _atomic
from tf1mem.errors import ClusterError

__all__ = [
    "LOOPBACK_ENV_VAR",
    "REMOTE_WARNING",
    "loopback_env",
    "loopback_active",
    "reexec_with_loopback",
    "restore_user_pythonpath",
    "add_allow_remote_flag",
]

LOOPBACK_ENV_VAR = "TF1MEM_LOOPBACK_ONLY"
# What loopback_env added to PYTHONPATH, and the user's own value, for the runner.
_ADDED_PATH_ENV_VAR = "TF1MEM_ADDED_PYTHONPATH"
_USER_PATH_ENV_VAR = "TF1MEM_USER_PYTHONPATH"
_UNSET_MARK = "unset"  # else the value is "set:" + the user's PYTHONPATH
_COMPILE_TIMEOUT_S = 120
_RECORD_SUFFIX = ".sha256"  # beside the built shim: its sha256, written at build
# The folder holding the tf1mem package, so child processes import this copy.
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

REMOTE_WARNING = (
    "WARNING: TensorFlow's gRPC server executes any graph it is sent, with no "
    "authentication or encryption. Anyone who can reach its port can run code as "
    "this user. Run it only on an isolated, trusted network.")

_SHIM_SOURCE = r"""
/* tf1mem loopback shim: bind() to the wildcard address becomes a loopback bind. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
  static bind_fn real_bind;
  if (!real_bind) real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
  const char *on = getenv("TF1MEM_LOOPBACK_ONLY");
  if (addr && on && on[0] == '1') {
    if (addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
      struct sockaddr_in a;
      memcpy(&a, addr, sizeof a);
      if (a.sin_addr.s_addr == htonl(INADDR_ANY)) {
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return real_bind(fd, (const struct sockaddr *)&a, sizeof a);
      }
    } else if (addr->sa_family == AF_INET6 &&
               len >= (socklen_t)sizeof(struct sockaddr_in6)) {
      struct sockaddr_in6 a;
      memcpy(&a, addr, sizeof a);
      if (IN6_IS_ADDR_UNSPECIFIED(&a.sin6_addr)) {
        int v6only = 0;
        socklen_t n = sizeof v6only;
        getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &n);
        if (v6only) {
          a.sin6_addr = in6addr_loopback;
        } else { /* dual-stack socket: IPv4 loopback through a mapped address */
          memset(&a.sin6_addr, 0, sizeof a.sin6_addr);
          a.sin6_addr.s6_addr[10] = 0xff;
          a.sin6_addr.s6_addr[11] = 0xff;
          a.sin6_addr.s6_addr[12] = 127;
          a.sin6_addr.s6_addr[15] = 1;
        }
        return real_bind(fd, (const struct sockaddr *)&a, sizeof a);
      }
    }
  }
  return real_bind(fd, addr, len);
}
"""


# --------------------------------------------------------------------------------
# Building the shim


def _shim_path() -> str:
    digest = hashlib.sha256(_SHIM_SOURCE.encode()).hexdigest()[:16]
    cache = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(cache):  # the XDG spec: relative values are to be ignored
        cache = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "tf1mem", f"loopback-bind-{digest}.so")


def _owned_and_private(path: str, kind: int) -> bool:
    """Whether ``path`` (not followed if a link) is of ``kind``, this user's, and not
    writable by group or others."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.geteuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _file_sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _trusted(path: str) -> bool:
    """Whether the cached shim at ``path`` is one tf1mem built, unchanged since.

    Used only if the file, its hash record (``PATH.sha256``, written when it was
    built) and their folder are this user's and writable by no one else, and the
    file's sha256 is the recorded one. Anything else (a file someone else put
    there, a truncated build, junk) is rebuilt, never preloaded.
    """
    record = path + _RECORD_SUFFIX
    if not (_owned_and_private(os.path.dirname(path), stat.S_IFDIR)
            and _owned_and_private(path, stat.S_IFREG)
            and _owned_and_private(record, stat.S_IFREG)):
        return False
    try:
        with open(record) as f:
            recorded = f.read().strip()
        return recorded == _file_sha256(path)
    except OSError:
        return False


def _private_folder(folder: str) -> None:
    """Creates ``folder`` (0700), or makes this user's own folder private; else raises."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise ClusterError(
            f"the loopback bind shim's folder {folder} is not a folder of this user "
            "(another user could replace what tf1mem preloads); set XDG_CACHE_HOME to a "
            "folder of your own, or pass --allow-remote on an isolated, trusted network.")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.chmod(folder, stat.S_IMODE(st.st_mode) & ~(stat.S_IWGRP | stat.S_IWOTH))


def _build_shim() -> str:
    """Returns the shim's path, compiling it first unless a trusted build is cached."""
    path = _shim_path()
    if _trusted(path):
        return path
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        raise ClusterError(
            "cannot make the gRPC servers listen on loopback only: TensorFlow binds "
            "0.0.0.0, and building tf1mem's bind shim needs a C compiler (cc/gcc, or "
            "$CC). Install one, or pass --allow-remote on an isolated, trusted network.")
    folder = os.path.dirname(path)
    advice = "Fix the compiler, or pass --allow-remote on an isolated, trusted network."
    try:
        _private_folder(folder)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            src = os.path.join(tmp, "shim.c")
            out = os.path.join(tmp, "shim.so")
            with open(src, "w") as f:
                f.write(_SHIM_SOURCE)
            proc = subprocess.run(
                [compiler, "-shared", "-fPIC", "-O2", "-o", out, src, "-ldl"],
                capture_output=True, text=True, timeout=_COMPILE_TIMEOUT_S,
                stdin=subprocess.DEVNULL)
            if proc.returncode != 0:
                raise ClusterError(
                    f"building the loopback bind shim with {compiler} failed:\n"
                    f"{proc.stderr}\n{advice}")
            os.chmod(out, 0o755)
            digest = _file_sha256(out)
            # The record last: a build cut short has none, and is rebuilt next time.
            if os.path.lexists(path + _RECORD_SUFFIX):
                os.unlink(path + _RECORD_SUFFIX)
            os.replace(out, path)
            _atomic.write_text(path + _RECORD_SUFFIX, digest + "\n")
    except subprocess.TimeoutExpired:
        raise ClusterError(
            f"building the loopback bind shim with {compiler} did not finish within "
            f"{_COMPILE_TIMEOUT_S} s. {advice}") from None
    except OSError as exc:
        raise ClusterError(
            f"cannot build the loopback bind shim into {folder} with {compiler}: {exc}. "
            f"Make that folder writable (or set XDG_CACHE_HOME to another absolute "
            f"path), or pass --allow-remote on an isolated, trusted network.") from None
    return path


def loopback_env(environ: Optional[Mapping[str, str]] = None, *, enable: bool = True) -> dict:
    """A copy of ``environ`` for a child ``python -m tf1mem...`` process.

    The child imports this checkout of tf1mem (its folder is put first on
    ``PYTHONPATH`` unless already there) and, with ``enable``, its servers bind
    loopback only.

    Args:
      environ: the environment to extend (default ``os.environ``).
      enable: False for ``--allow-remote``: no shim, and ``TF1MEM_LOOPBACK_ONLY=0``
        so a shim inherited through ``LD_PRELOAD`` stays off.

    Returns:
      A new dict; with ``enable``, the shim is first in ``LD_PRELOAD`` and
      ``TF1MEM_LOOPBACK_ONLY=1``.

    Raises:
      ClusterError: the shim cannot be built (no C compiler).
    """
    env = dict(os.environ if environ is None else environ)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if not any(os.path.abspath(p) == _PACKAGE_ROOT for p in paths):
        # Remember what the user had, so that a runner can give its script exactly
        # that (see restore_user_pythonpath).
        env[_ADDED_PATH_ENV_VAR] = _PACKAGE_ROOT
        env[_USER_PATH_ENV_VAR] = ("set:" + env["PYTHONPATH"] if "PYTHONPATH" in env
                                   else _UNSET_MARK)
        env["PYTHONPATH"] = os.pathsep.join([_PACKAGE_ROOT] + paths)
    if not enable:
        env[LOOPBACK_ENV_VAR] = "0"
        return env
    shim = _build_shim()
    preload = [p for p in env.get("LD_PRELOAD", "").split(":") if p and p != shim]
    env["LD_PRELOAD"] = ":".join([shim] + preload)
    env[LOOPBACK_ENV_VAR] = "1"
    return env


def restore_user_pythonpath() -> None:
    """Undoes what :func:`loopback_env` added to ``PYTHONPATH`` for this process.

    For ``tf1mem.run`` after its re-exec: the user's script, and the processes it
    starts, see the user's own ``PYTHONPATH`` and ``sys.path`` again (tf1mem is
    imported already). ``LD_PRELOAD`` and ``TF1MEM_LOOPBACK_ONLY`` stay: they keep
    the servers of the script's children on loopback too.
    """
    added = os.environ.pop(_ADDED_PATH_ENV_VAR, None)
    original = os.environ.pop(_USER_PATH_ENV_VAR, None)
    if added is None or original is None:
        return
    if not original.startswith("set:"):
        os.environ.pop("PYTHONPATH", None)
        original = ""
    else:
        original = original[len("set:"):]
        os.environ["PYTHONPATH"] = original
    if added not in [os.path.abspath(p) for p in original.split(os.pathsep) if p]:
        for i, entry in enumerate(sys.path):
            if entry and os.path.abspath(entry) == added:
                del sys.path[i]
                break


def loopback_active() -> bool:
    """Whether this process was started with the loopback shim switched on."""
    preload = os.environ.get("LD_PRELOAD", "")
    return (os.environ.get(LOOPBACK_ENV_VAR) == "1"
            and any(os.path.basename(p).startswith("loopback-bind-")
                    for p in preload.split(":")))


def reexec_with_loopback(module: str, argv: Sequence[str]) -> None:
    """Replaces this process by ``python -m module *argv`` with the loopback shim on.

    A no-op when the shim is already active. The process keeps its pid, so a
    launcher or shell watching it is unaffected, and its interpreter flags (``-O``,
    ``-X``, ``-W``). Call it before TensorFlow is imported (nothing TF-related is
    lost then).

    Raises:
      ClusterError: the shim cannot be built.
    """
    if loopback_active():
        return
    env = loopback_env()
    sys.stdout.flush()
    sys.stderr.flush()
    # Keep the interpreter's own flags (-O, -X ..., -W ...) across the re-exec.
    os.execve(sys.executable, [sys.executable, *subprocess._args_from_interpreter_flags(),
                               "-m", module, *argv], env)


def add_allow_remote_flag(parser, servers="the gRPC servers"):
    """Adds ``--allow-remote`` (dest ``allow_remote``) to an argparse parser.

    Args:
      parser: an ``argparse.ArgumentParser`` or argument group.
      servers: what the flag lets listen everywhere, for the help text.
    """
    parser.add_argument(
        "--allow-remote", action="store_true",
        help=f"let {servers} listen on every interface (default: loopback only; "
             f"they run any graph sent to them, unauthenticated: trusted networks only)")
