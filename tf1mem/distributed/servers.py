"""gRPC servers and their ports: the one module both examples and the cluster use.

- :func:`free_ports` and :func:`port_busy`: choosing and checking ports.
- :func:`start_server`: a ``tf.compat.v1.train.Server`` for a task, turning
  "address already in use" into a :class:`ClusterError` naming the port (after
  retrying for a while, for a restarted task).
- :func:`wait_for_peers`: a bounded wait for every peer's port to accept TCP
  connections, so a peer that never comes up is a :class:`ClusterError`, not a
  hang inside ``CreateSession``.

TensorFlow's gRPC server cannot be shut down (``Server.stop`` is unimplemented, and
dropping the last reference frees nothing: the port stays bound until the process
ends). So :func:`start_server` keeps every server it starts, and a second request in
the same process for the same task of the same cluster gets the running server
back: a second in-process run of example 2 on the same ports works. A request for a
port that such a server holds for another cluster is a :class:`ClusterError`.
"""

import ipaddress
import socket
import threading
import time
from typing import List, Mapping, Optional, Sequence

from tf1mem import _net
from tf1mem.errors import ClusterError, UsageError

__all__ = [
    "free_ports",
    "port_busy",
    "port_of",
    "held_here",
    "parse_address",
    "port_problem",
    "listening_addresses",
    "check_server_on_loopback",
    "start_server",
    "wait_for_peers",
]

_LOCK = threading.Lock()
# (cluster key, job, index) -> server; port -> that key, for every server started here.
_SERVERS = {}
_PORTS = {}


def port_of(address: str) -> int:
    """The port of ``host:port``."""
    return int(address.rsplit(":", 1)[1])


def free_ports(n: int, host: str = "127.0.0.1") -> List[int]:
    """``n`` distinct ports that were free a moment ago (the kernel's choice).

    They are held together while chosen, so they differ, then released for the
    servers: another process may take one in between (see :func:`start_server`'s
    ``retry_seconds``).
    """
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            socks.append(s)
            s.bind((host, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def port_busy(port: int) -> Optional[str]:
    """Why TensorFlow could not listen on ``port`` now (the OS's words), or None.

    TensorFlow binds the wildcard address, so that is what must be free: the
    dual-stack ``[::]`` where the host has IPv6, else ``0.0.0.0``. SO_REUSEADDR,
    as gRPC sets it: a port in TIME_WAIT from an earlier run is usable.
    """
    try:
        s = socket.socket(socket.AF_INET6)
        wildcard = "::"
    except OSError:  # IPv6 switched off in this kernel or namespace
        s = socket.socket(socket.AF_INET)
        wildcard = "0.0.0.0"
    with s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((wildcard, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def port_problem(port: int, why: str) -> str:
    """What :func:`port_busy`'s ``why`` means for ``port``, in words with advice."""
    if "ermission" in why:  # EACCES: a privileged port
        return (f"port {port} cannot be opened by this user ({why}): ports below 1024 "
                "need privileges. Choose a port from 1024 up, or pass --port-base 0 to "
                "pick free ports")
    return (f"port {port} is already in use ({why}). Free it, choose another "
            "--port-base, or pass --port-base 0 to pick free ports")


def parse_address(address: str, source: str):
    """``(host, port)`` of a ``host:port`` task address, checked.

    The port must be 1..65535 and the host a name or IP address (IPv6 in
    brackets); ``source`` says where the address came from, for the message.

    Raises:
      UsageError: naming the address, its source and what is wrong.
    """
    host, sep, port_text = address.rpartition(":")
    problem = None
    if not sep or not host:
        problem = "it is not host:port"
    elif not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        problem = f"the port {port_text!r} is not a number in 1..65535"
    else:
        bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        try:
            ipaddress.ip_address(bare)
        except ValueError:
            labels = bare.rstrip(".").split(".")
            if ":" in bare or not all(
                    label and len(label) <= 63 and label.replace("-", "").isalnum()
                    and label.isascii() and not label.startswith("-") for label in labels):
                problem = f"the host {host!r} is neither a host name nor an IP address"
    if problem:
        raise UsageError(f"{source}: {address!r} is not a valid task address: {problem}")
    return host, int(port_text)


def held_here(port: int) -> bool:
    """Whether a server :func:`start_server` started in this process holds ``port``."""
    with _LOCK:
        return port in _PORTS


def _cluster_key(cluster):
    return tuple(sorted((job, tuple(addresses)) for job, addresses in cluster.items()))


def start_server(cluster: Mapping[str, Sequence[str]], job_name: str, task_index: int,
                 config=None, retry_seconds: float = 0.0, allow_remote: bool = False):
    """Starts this task's ``tf.compat.v1.train.Server``, or returns the one running.

    Unless ``allow_remote``, the kernel is asked where the new server listens
    (:func:`tf1mem._net.check_loopback_only`): a server listening off loopback is
    shut down and this raises, whatever was meant to prevent it.

    Args:
      cluster: job name -> list of ``host:port`` (the ClusterSpec as a dict).
      job_name, task_index: which task this is.
      config: optional ``ConfigProto`` for the server's sessions (a server started
        earlier in this process keeps the config it was started with).
      retry_seconds: keep trying this long while the port is taken. The launcher
        gives a restarted task a few seconds: its port was chosen free at the
        start of the run, and may be held for a moment by another process since.
      allow_remote: skip the loopback check (``--allow-remote``).

    Returns:
      The started server.

    Raises:
      ClusterError: the task's port is in use (naming it and ``--port-base 0``),
        also when a server of another cluster in this process holds it; the
        server listened off loopback without ``allow_remote``.
    """
    import tensorflow as tf  # imported on first use: tf1mem does no work at import

    address = cluster[job_name][task_index]
    port = port_of(address)
    key = (_cluster_key(cluster), job_name, task_index)
    with _LOCK:
        if key in _SERVERS:
            return _SERVERS[key]
        if port in _PORTS:
            raise ClusterError(
                f"port {port} ({address}) is held by a gRPC server that an earlier run in "
                f"this process started for another cluster ({dict(_PORTS[port][0])}); "
                "TensorFlow cannot shut a gRPC server down. Use other ports (e.g. "
                "--port-base 0 to pick free ones) or a new process.")
    deadline = time.monotonic() + retry_seconds
    while True:
        try:
            server = tf.compat.v1.train.Server(tf.train.ClusterSpec(dict(cluster)),
                                               job_name=job_name, task_index=task_index,
                                               config=config, start=True)
            break
        except tf.errors.OpError as exc:
            # A failed start leaves nothing behind, so trying again is safe.
            if time.monotonic() < deadline:
                time.sleep(0.5)
                continue
            tried = f" (tried for {retry_seconds:g} s)" if retry_seconds > 0 else ""
            why = port_busy(port)
            detail = (port_problem(port, why) if why else
                      f"port {port} may be in use; free it, choose another --port-base, "
                      "or pass --port-base 0 to pick free ports")
            raise ClusterError(
                f"cannot start the gRPC server for /job:{job_name}/task:{task_index} at "
                f"{address}{tried}: {exc.message.strip()}; {detail}.") from None
    with _LOCK:
        _SERVERS[key] = server
        _PORTS[port] = key
    if not allow_remote:
        check_server_on_loopback(port, f"the gRPC server of /job:{job_name}/task:{task_index}")
    return server


def listening_addresses(port: int) -> list:
    """Where this process listens on ``port``, as the kernel says (``host:port``)."""
    return [f"[{a}]:{p}" if ":" in a else f"{a}:{p}" for a, p, _ in _net.listening_sockets(port)]


def check_server_on_loopback(port: int, what: str) -> list:
    """:func:`tf1mem._net.check_loopback_only` for this process's sockets on ``port``.

    Returns:
      The ``host:port`` addresses it listens on.
    """
    from tf1mem.distributed import loopback

    why_not = ("The loopback bind shim is in LD_PRELOAD but did not take effect (the "
               "dynamic loader may have refused the file)." if loopback.loopback_active()
               else "This process runs without tf1mem's loopback bind shim.")
    return _net.check_loopback_only(_net.listening_sockets(port), what, why_not)


def wait_for_peers(addresses: Mapping[str, str], timeout: float) -> None:
    """Waits until every address accepts a TCP connection, at most ``timeout`` s.

    Args:
      addresses: task name (e.g. ``/job:ps/task:0``) -> ``host:port``.
      timeout: seconds in all.

    Raises:
      ClusterError: naming each task that did not come up, and the flag to raise.
    """
    deadline = time.monotonic() + timeout
    pending = dict(addresses)
    while pending:
        for task, address in list(pending.items()):
            host, port = address.rsplit(":", 1)
            try:
                with socket.create_connection((host.strip("[]"), int(port)), timeout=1.0):
                    del pending[task]
            except OSError:
                pass
        if not pending:
            return
        if time.monotonic() >= deadline:
            names = ", ".join(f"{t} at {a}" for t, a in sorted(pending.items()))
            raise ClusterError(
                f"peer(s) never came up within --startup-timeout {timeout:g} s: {names}. "
                "Start them, check the host:port lists, or raise --startup-timeout.")
        time.sleep(0.2)
