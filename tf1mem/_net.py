"""What the kernel says this process listens on, and stopping what it must not.

tf1mem keeps TensorFlow's gRPC servers on loopback (they run any graph they are sent,
unauthenticated). Whatever is meant to ensure that (the ``LD_PRELOAD`` bind shim of
:mod:`tf1mem.distributed.loopback`), this module checks what it got, not what was
asked for: :func:`check_loopback_only` reads the sockets this process listens on for
a port from ``/proc/net/tcp`` and ``/proc/net/tcp6`` (matched to this process by
socket inode through ``/proc/self/fd``), and a socket listening on anything but
loopback is shut down (``shutdown(2)``: gRPC then closes its acceptor; TensorFlow has
no other way to stop a server) before a :class:`~tf1mem.errors.ClusterError` says so.
Linux only; elsewhere the check cannot be made and fails closed.
"""

import ipaddress
import os
import socket
import sys
from typing import List, Tuple

from tf1mem.errors import ClusterError

__all__ = ["listening_sockets", "is_loopback_address", "check_loopback_only"]

_LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's "st" column


def _decode_address(hex_address: str) -> str:
    """``/proc/net/tcp*``'s hex address (words in host byte order) as text."""
    raw = bytes.fromhex(hex_address)
    if len(raw) == 4:
        return str(ipaddress.IPv4Address(raw[::-1] if _LITTLE else raw))
    words = [raw[i:i + 4] for i in range(0, 16, 4)]
    ip = ipaddress.IPv6Address(b"".join(w[::-1] if _LITTLE else w for w in words))
    # A dual-stack socket bound to IPv4 loopback shows as ::ffff:127.0.0.1; say 127.0.0.1.
    return str(ip.ipv4_mapped) if ip.ipv4_mapped else str(ip)


_LITTLE = sys.byteorder == "little"


def _own_socket_inodes() -> dict:
    inodes = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes[int(target[8:-1])] = int(name)
    return inodes


def listening_sockets(port=None) -> List[Tuple[str, int, int]]:
    """``(address, port, fd)`` of each socket THIS process listens on (TCP).

    Args:
      port: only that port; None for all.

    Raises:
      ClusterError: ``/proc`` cannot be read (not Linux, or hidden).
    """
    try:
        inodes = _own_socket_inodes()
        found = []
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            if not os.path.exists(table):
                continue  # IPv6 switched off
            with open(table) as f:
                for line in f.read().splitlines()[1:]:
                    fields = line.split()
                    local, state, inode = fields[1], fields[3], int(fields[9])
                    address, _, hex_port = local.rpartition(":")
                    number = int(hex_port, 16)
                    if state == _LISTEN and inode in inodes and port in (None, number):
                        found.append((_decode_address(address), number, inodes[inode]))
        return found
    except (OSError, ValueError, IndexError) as exc:
        raise ClusterError(
            f"cannot read which addresses this process listens on from /proc/net/tcp* "
            f"({exc}); tf1mem will not run a gRPC server it cannot check. Pass "
            "--allow-remote (allow_remote=True) only on an isolated, trusted network.") from None


def is_loopback_address(address: str) -> bool:
    """127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6 (``::ffff:127.0.0.1``)."""
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback)


def _display(address: str, port: int) -> str:
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def check_loopback_only(sockets, what: str, why_not: str = "") -> List[str]:
    """Checks that every listening socket given is on loopback; stops those that are not.

    Args:
      sockets: ``(address, port, fd)`` from :func:`listening_sockets` (the server's:
        those of its port, or those that appeared while it started).
      what: the server, for messages (e.g. ``/job:ps/task:0``).
      why_not: what was meant to keep it on loopback and may have failed, for the
        message.

    Returns:
      The addresses it listens on, as ``host:port`` text (for start-up lines).

    Raises:
      ClusterError: a socket listens on another address (it was shut down, so
        nothing can connect any more), or there is no socket to check.
    """
    if not sockets:
        raise ClusterError(
            f"{what}: no socket of this process listens for it in /proc/net/tcp*, so "
            "tf1mem cannot check that it listens on loopback only; stopping.")
    outside = [(address, port, fd) for address, port, fd in sockets
               if not is_loopback_address(address)]
    for _, _, fd in outside:
        try:
            with socket.socket(fileno=os.dup(fd)) as sock:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    if outside:
        shown = ", ".join(_display(address, port) for address, port, _ in outside)
        raise ClusterError(
            f"{what} listened on {shown}, not on loopback only, and was shut down: "
            f"TensorFlow's gRPC server runs any graph it is sent, unauthenticated. "
            f"{why_not + ' ' if why_not else ''}Run it through tf1mem's commands on "
            "a machine with a C compiler (they keep servers on 127.0.0.1), or pass "
            "--allow-remote (allow_remote=True) only on an isolated, trusted network.")
    return [_display(address, port) for address, port, _ in sockets]
