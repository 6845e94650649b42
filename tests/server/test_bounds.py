"""The server is bounded by construction (issue 17 items 4 and 6): half-sent requests
time out, an address holds a capped number of connections, a connection holds one seat,
spectators share one view per change, a token stops at ``leave``, binary frames are
refused, stored hands are kept to a retention setting. Every load loop here is bounded in
count and in time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.database.url import connect
from doubleholdem.server.http.limits import Limits
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.storage import FORGET_BATCH, Storage
from doubleholdem.server.tables.room import Room
from server_harness import DOUBLE_THREE, Client, ServerThread, until_hands

CONFIG = DOUBLE_THREE


def _room(db: Path | str, *, bots: int = 0, tables: int = 2, **settings: Any) -> Room:
    """A room on ``db``: a folder (its tables.db) or a room_db."""
    room_settings = RoomSettings(
        tables=tables, bots=bots, bot_delay=0.0, pause=0.01, configs=[CONFIG], seed=3, **settings
    )
    path = str(db / "tables.db") if isinstance(db, Path) else db
    return Room.open(path, room_settings)


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


def test_a_ping_flood_is_closed_where_it_arrives(tmp_path: Path) -> None:
    """Ping frames never reach the app (the protocol answers them): they are limited as
    they arrive, and a client that sends them too fast is closed with code 1008."""
    import websockets

    limits = Limits()

    async def scenario(server: ServerThread) -> None:
        calm = await Client.connect(server.ws_url)
        for _ in range(5):  # a few pings are answered
            await asyncio.wait_for(await calm.socket.ping(), 10)
        flood = await Client.connect(server.ws_url)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(500):
                await flood.socket.ping()
            await asyncio.wait_for(flood.socket.recv(), 10)  # welcome came before
            await asyncio.wait_for(flood.socket.recv(), 10)
        # (the close frame may be lost to a reset, the client still sending)
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1008
        await calm.send(type="ping")
        assert (await calm.next("pong"))["clock"] > 0
        await calm.close()

    with ServerThread(_room(tmp_path), limits) as server:
        asyncio.run(scenario(server))
    assert limits.ping_floods == 1


# ---------------------------------------------------------------- lobby


def test_lobby_replies_are_bounded_pages(tmp_path: Path) -> None:
    from doubleholdem.server.protocol import LOBBY_PAGE

    count = 2 * LOBBY_PAGE + 50

    async def scenario(server: ServerThread) -> None:
        client = await Client.connect(server.ws_url)
        ids: list[int] = []
        first: int | None = 0
        while first is not None:
            await client.send(type="lobby", **({"from": first} if first else {}))
            reply = await client.next("lobby")
            assert len(reply["tables"]) <= LOBBY_PAGE
            ids += [t["id"] for t in reply["tables"]]
            first = reply["next"]
        assert ids == list(range(count))
        await client.send(type="lobby", **{"from": count + 5})
        assert (await client.next("lobby")) == {"v": 2, "type": "lobby", "tables": [], "next": None}
        await client.close()

    with ServerThread(_room(tmp_path, tables=count)) as server:
        asyncio.run(scenario(server))
        pages = []
        first: str | None = "0"
        while first is not None:
            url = f"{server.url}/api/tables?from={first}"
            with urllib.request.urlopen(url, timeout=10) as response:
                pages.append([t["id"] for t in json.loads(response.read())])
                first = response.headers.get("X-Next-Table")
        assert [len(p) for p in pages] == [LOBBY_PAGE, LOBBY_PAGE, 50]
        assert [i for p in pages for i in p] == list(range(count))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}/api/tables?from=-1", timeout=10)
        assert refused.value.code == 400


# ---------------------------------------------------------------- watchers


def test_a_watcher_flood_builds_one_spectator_view_per_change(tmp_path: Path) -> None:
    """200 watchers from one client at a table of three bots: each change builds the
    spectator view once (it built one per watcher), and every watcher still holds the
    exact spectator view."""
    watchers = 200
    room = _room(tmp_path, bots=3, tables=1)
    room.settings.bot_delay = 0.05  # a pace the watchers' one client keeps up with
    runner = room.runners[0]
    built = {"spectator": 0, "changes": 0}
    table_view = runner.table.view
    change = runner.change

    def counting_view(seat: int | None, **options: Any) -> Any:
        if seat is None:
            built["spectator"] += 1
        return table_view(seat, **options)

    def counting_change(**options: Any) -> Any:
        built["changes"] += 1
        return change(**options)

    async def drain(client: Client, stop: asyncio.Event) -> None:
        """Reads until stopped and then quiet for a second."""
        while True:
            try:
                await client.next(timeout=1.0)
            except TimeoutError:
                if stop.is_set():
                    return

    async def scenario(server: ServerThread) -> None:
        clients = [await Client.connect(server.ws_url) for _ in range(watchers)]
        for client in clients:
            await client.send(type="watch", table=0)
        for client in clients:
            await client.next("state")
        stop = asyncio.Event()
        readers = [asyncio.create_task(drain(c, stop)) for c in clients]
        built["spectator"] = built["changes"] = 0
        deadline = time.monotonic() + 30
        while built["changes"] < 40 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        spectator, changes = built["spectator"], built["changes"]
        room.settings.bot_delay = 3600.0  # the table comes to rest at the next bot's turn
        stop.set()
        await asyncio.wait_for(asyncio.gather(*readers), 120)  # the last updates arrive
        assert changes >= 40, f"the table made {changes} changes in 30 s"
        assert spectator <= changes + 1, f"{spectator} spectator views for {changes} changes"
        exact = json.dumps(runner.table.view(None, events=False), sort_keys=True)
        behind = [c for c in clients if json.dumps(c.view, sort_keys=True) != exact]
        assert behind == []
        for client in clients:
            await client.close()

    with ServerThread(room, Limits(per_address=watchers + 10)) as server:
        room.audit = None  # the audit builds views of its own
        runner.table.view = counting_view  # type: ignore[method-assign]
        runner.change = counting_change  # type: ignore[method-assign]
        asyncio.run(scenario(server))


# ---------------------------------------------------------------- seats and frames


def _turn_of(seat: int) -> Any:
    def test(message: dict[str, Any]) -> bool:
        view = message["view"]
        return bool(view["hand"] and view["hand"]["legal"] and view["to_act"] == seat)

    return test


def test_a_connection_holds_one_seat_and_a_token_stops_at_leave(room_db: str) -> None:
    async def scenario(server: ServerThread) -> None:
        ann, bob = await Client.connect(server.ws_url), await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        token = (await ann.next("seated"))["token"]
        await bob.send(type="sit", table=0, seat=1, name="bob", buy_in=1000)
        bob_token = (await bob.next("seated"))["token"]
        # sit, watch, sit: the watch and the second seat are refused
        await ann.send(type="watch", table=1)
        assert (await ann.next("error"))["code"] == "already_seated"
        await ann.send(type="sit", table=1, seat=0, name="ann", buy_in=1000)
        assert (await ann.next("error"))["code"] == "already_seated"
        await ann.send(type="resume", token=bob_token)  # nor another seat by its token
        assert (await ann.next("error"))["code"] == "already_seated"
        seats = json.loads(urllib.request.urlopen(f"{server.url}/api/tables").read())
        taken = [s["player"] for t in seats for s in t["seats"] if s is not None]
        assert sorted(taken) == ["ann", "bob"]
        # ann leaves during the hand, on her turn: her token stops at once
        state = await ann.state_where(_turn_of(0), current=True)
        number = state["view"]["hand_number"]
        await ann.send(type="leave")
        assert (await ann.next("result"))["ok"] is True
        left = await ann.next("left")  # her seat plays the hand out without her
        assert left == {
            "v": 2,
            "type": "left",
            "table": 0,
            "seat": 0,
            "after_hand": True,
            "cash_out": None,
        }
        await ann.send(type="act", id="after-leave", hand=number, action="fold")
        assert (await ann.next("error"))["code"] == "unauthorised"
        again = await Client.connect(server.ws_url)
        await again.send(type="resume", token=token)
        assert (await again.next("error"))["code"] == "bad_token"
        # one seat at a time, not one seat ever: she may sit elsewhere now
        await ann.send(type="sit", table=1, seat=0, name="ann", buy_in=1000)
        assert (await ann.next("seated"))["table"] == 1
        for client in (ann, bob, again):
            await client.close()

    with ServerThread(_room(room_db)) as server:
        asyncio.run(scenario(server))
        assert server.leaks == []
        assert server.mismatches == []


def test_a_binary_frame_is_refused_and_the_connection_goes_on(tmp_path: Path) -> None:
    async def scenario(server: ServerThread) -> None:
        client = await Client.connect(server.ws_url)
        await client.raw(json.dumps({"v": 2, "type": "watch", "table": 0}).encode())
        error = await client.next("error")
        assert error["code"] == "binary_frame" and "text" in error["message"]
        await client.send(type="ping")
        assert (await client.next("pong"))["clock"] > 0
        assert client.view is None  # the binary watch did nothing
        await client.close()

    with ServerThread(_room(tmp_path)) as server:
        asyncio.run(scenario(server))


@pytest.mark.parametrize(
    "name",
    ["\u0430nn", "ann\u200b", "a\tb", " ann", "ann ", "x" * 25, "", "ann\u00e9", "an<n>"],
)
def test_names_outside_the_documented_set_are_refused(name: str) -> None:
    from doubleholdem.server.protocol import MAX_NAME, NAME_CHARACTERS, ProtocolError, decode

    message = {"v": 2, "type": "sit", "table": 0, "name": name, "buy_in": 1000}
    with pytest.raises(ProtocolError) as refused:
        decode(json.dumps(message))
    assert refused.value.code == "bad_field"
    fine = "".join(sorted(set(NAME_CHARACTERS) - {" "}))[:MAX_NAME]
    assert decode(json.dumps({**message, "name": fine})).name == fine


# ---------------------------------------------------------------- retention


def _stored_hands(path: str) -> list[tuple[int, int]]:
    with contextlib.closing(connect(path)) as db:
        rows = db.execute("SELECT table_id, number FROM hands ORDER BY 1, 2").fetchall()
        return [(table, number) for table, number in rows]


def test_retention_keeps_the_last_n_hands_of_each_table(room_db: str) -> None:
    keep = 4
    room = _room(room_db, bots=3, tables=2, keep_hands=keep)

    async def play() -> None:
        await room.start()
        try:
            await until_hands(room, 12)
        finally:
            await room.stop()

    asyncio.run(play())
    stored = _stored_hands(room_db)
    for table_id in (0, 1):
        numbers = [n for t, n in stored if t == table_id]
        assert len(numbers) == keep, (table_id, numbers)
        assert numbers == list(range(numbers[-1] - keep + 1, numbers[-1] + 1))
        assert numbers[-1] >= 12


def test_retention_by_default_keeps_every_hand(room_db: str) -> None:
    room = _room(room_db, bots=3, tables=1)

    async def play() -> None:
        await room.start()
        try:
            await until_hands(room, 8)
        finally:
            await room.stop()

    asyncio.run(play())
    numbers = [n for _, n in _stored_hands(room_db)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 8


def test_a_retention_backlog_is_forgotten_in_bounded_steps(room_db: str) -> None:
    store = Storage(room_db)
    with store.transaction():
        for number in range(1, 251):
            store.put_hand(0, number, [{"kind": "start", "hand_number": number}])
            store.put_hand(1, number, [])
    remaining = []
    for _ in range(4):
        with store.transaction():
            store.forget_hands(0, 250, 10)
        remaining.append(len(store.hands(0, last=1000)))
    assert remaining == [250 - FORGET_BATCH, 250 - 2 * FORGET_BATCH, 10, 10]
    assert [n for n, _ in store.hands(0, last=1000)] == list(range(241, 251))
    assert len(store.hands(1, last=1000)) == 250  # another table's hands are its own
    store.close()
