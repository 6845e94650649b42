"""The server is bounded by construction (issue 17 items 4 and 6): half-sent requests
time out, an address holds a capped number of connections, a connection holds one seat,
spectators share one view per change, a token stops at ``leave``, binary frames are
refused, stored hands are kept to a retention setting. Every load loop here is bounded in
count and in time."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.game import Structure, Variant
from doubleholdem.server.limits import Limits
from doubleholdem.server.room import Room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.table import TableConfig
from server_harness import Client, ServerThread

CONFIG = TableConfig(
    small_blind=5,
    big_blind=10,
    seats=3,
    variant=Variant.DOUBLE,
    structure=Structure.FIXED_LIMIT,
    action_time=60,
    point_time=60,
)


def _room(path: Path, *, bots: int = 0, tables: int = 2, **settings: Any) -> Room:
    room_settings = RoomSettings(
        tables=tables, bots=bots, bot_delay=0.0, pause=0.01, configs=[CONFIG], seed=3, **settings
    )
    return Room.open(str(path / "tables.db"), room_settings)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (it sends nothing first)."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


# ---------------------------------------------------------------- HTTP bounds


def test_half_sent_requests_are_closed_after_the_header_timeout(tmp_path: Path) -> None:
    limits = Limits(header_timeout=0.5, per_address=0)
    with ServerThread(_room(tmp_path), limits) as server:
        sockets = []
        for index in range(30):  # silent ones, and ones that stop inside their headers
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if index % 3:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sockets.append(sock)
        deadline = time.monotonic() + 10.0  # twenty times the timeout, for all of them
        closed = [_closed_within(s, max(0.01, deadline - time.monotonic())) for s in sockets]
        for sock in sockets:
            sock.close()
        assert all(closed), f"{closed.count(False)} of {len(closed)} half-open sockets stay open"
        assert limits.timed_out >= len(sockets)
        # A second request on a kept-alive connection is held to the timeout as well.
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = b""
        while not reply.endswith(b"\r\n\r\nok"):
            reply += sock.recv(4096)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        assert _closed_within(sock, 10.0)
        sock.close()
        # Whole requests are served as ever.
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as response:
            assert response.read() == b"ok"


def test_an_address_holds_at_most_per_address_connections(tmp_path: Path) -> None:
    limits = Limits(header_timeout=5.0, per_address=4)

    async def scenario(server: ServerThread) -> None:
        clients = [await Client.connect(server.ws_url) for _ in range(3)]
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=5)  # the 4th
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}/healthz", timeout=10)
        assert refused.value.code == 503
        with pytest.raises(Exception, match="503"):
            await Client.connect(server.ws_url)
        assert limits.refused == 2
        await clients.pop().close()  # a connection closes: its place is free again
        for _ in range(200):
            if limits.count("127.0.0.1") < 4:
                break
            await asyncio.sleep(0.01)
        clients.append(await Client.connect(server.ws_url))
        await clients[-1].send(type="ping")
        assert (await clients[-1].next("pong"))["clock"] > 0
        idle.close()
        for client in clients:
            await client.close()

    with ServerThread(_room(tmp_path), limits) as server:
        asyncio.run(scenario(server))
