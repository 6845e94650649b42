"""A free port for a server a test starts that cannot be told to take any (``--port 0``):
nginx, PostgreSQL, a served room given its address before it listens.

It is picked below the kernel's ephemeral range, the ports this machine's outgoing
connections take: a port picked there (as ``bind(("127.0.0.1", 0))`` picks) could be taken
by any connection made before the server binds it (a room's to PostgreSQL, say), and then
the server cannot listen (CI's run of test_nginx: nginx bound the room's port, not a
process's, and the lobby there was refused)."""

from __future__ import annotations

import contextlib
import random
import socket
from pathlib import Path

__all__ = ["free_port"]

LOWEST = 10_000  # below it, the ports of services a machine may run


def _ephemeral_start() -> int:
    """The first port of the kernel's ephemeral range (Linux's 32768 where unknown)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    return 32768


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now, below the ephemeral range."""
    top = _ephemeral_start()
    for _ in range(1000):
        port = random.randrange(LOWEST, top)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port between {LOWEST} and {top}")
