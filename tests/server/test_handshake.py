"""The WebSocket handshake (issue 19): a page of another site cannot open the socket
(cross-site WebSocket hijacking: refused with 403 before it is accepted, in an account
room and a guest room alike); the session cookie signs the connection in, and in an
account room a seat is taken only under the signed-in account's name."""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from doubleholdem.accounts.bank import Bank
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from passwords_double import FAST
from server_harness import Client, ServerThread

PASSWORD = "correct horse battery"


def _room(path: Path, **options: Any) -> Room:
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=600.0, **options)
    return Room.open(str(path / "tables.db"), settings)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServerThread, Desk]]:
    room = _room(tmp_path, welcome_chips=2000)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    with ServerThread(room, desk=desk) as server:
        yield server, desk


def _cookie(token: str) -> dict[str, Any]:
    return {"additional_headers": {"Cookie": f"dh_session={token}"}}


async def _refused(url: str, **options: Any) -> int:
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        await websockets.connect(url, **options)
    return int(refused.value.response.status_code)


def test_another_sites_page_cannot_open_the_socket(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    _, token = desk.sign_up("ann", PASSWORD, address="127.0.0.1")

    async def scenario() -> None:
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
            assert await _refused(server.ws_url, origin=origin, **_cookie(token)) == 403
        assert await _refused(server.ws_url, origin=f"https://127.0.0.1:{server.port}") == 403
        own = await Client.connect(server.ws_url, origin=server.url, **_cookie(token))
        await own.close()

    asyncio.run(scenario())


def test_a_guest_room_refuses_another_sites_page_too(tmp_path: Path) -> None:
    with ServerThread(_room(tmp_path)) as server:
        assert server.room.settings.guests

        async def scenario() -> None:
            assert await _refused(server.ws_url, origin="http://evil.example") == 403
            guest = await Client.connect(server.ws_url, origin=server.url)
            await guest.send(type="sit", table=0, name="guest", buy_in=1000)
            assert (await guest.next("seated"))["seat"] == 0
            await guest.close()

        asyncio.run(scenario())


def test_a_seat_takes_the_signed_in_accounts_name(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    _, token = desk.sign_up("Ann", PASSWORD, address="127.0.0.1")

    async def scenario() -> None:
        client = await Client.connect(server.ws_url, **_cookie(token))
        assert server.room.connections and {c.account for c in server.room.connections} == {"Ann"}
        await client.send(type="sit", table=0, name="bob", buy_in=1000)
        refused = await client.next("error")
        assert refused["code"] == "not_your_name" and "Ann" in refused["message"]
        await client.send(type="sit", table=0, buy_in=1000)
        await client.next("seated")
        state = await client.next("state")
        assert state["view"]["seats"][0]["player"] == "Ann"
        await client.close()

    asyncio.run(scenario())


def test_no_session_or_one_never_issued_cannot_sit(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    _, token = desk.sign_up("ann", PASSWORD, address="127.0.0.1")
    desk.sign_out(token)
    forged = "A" * 43  # the shape of a real token, never issued

    async def scenario() -> None:
        for options in ({}, _cookie(forged), _cookie(token), _cookie("x" * 5000)):
            client = await Client.connect(server.ws_url, **options)
            await client.send(type="sit", table=0, name="ann", buy_in=1000)
            assert (await client.next("error"))["code"] == "not_signed_in"
            await client.send(type="watch", table=0)  # a spectator needs no session
            assert (await client.next("state"))["seat"] is None
            await client.close()
        assert all(seat is None for seat in server.room.runners[0].table.seats())

    asyncio.run(scenario())


def test_households_refuse_a_second_account_from_one_address(tmp_path: Path) -> None:
    """Another account from the same address is refused a seat at a table where the
    first sits, even after the first's socket closed; from another address it sits."""
    room = _room(
        tmp_path, households=True, welcome_chips=2000, configs=[TableConfig(5, 10, seats=3)]
    )
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    with ServerThread(room, desk=desk) as server:
        tokens = {n: desk.sign_up(n, PASSWORD, address="127.0.0.1")[1] for n in ("ann", "bob")}
        tokens["cid"] = desk.sign_up("cid", PASSWORD, address="127.0.0.2")[1]

        async def sit(name: str, **options: Any) -> dict[str, Any]:
            client = await Client.connect(server.ws_url, **_cookie(tokens[name]), **options)
            await client.send(type="sit", table=0, buy_in=1000)
            reply: dict[str, Any] = await client.next()
            await client.close()
            return reply

        async def scenario() -> None:
            assert (await sit("ann"))["type"] == "seated"  # and its socket closes
            refused = await sit("bob")
            assert (refused["type"], refused["code"]) == ("error", "household")
            assert (await sit("cid", local_addr=("127.0.0.2", 0)))["type"] == "seated"

        asyncio.run(scenario())
    assert [s and s["player"] for s in room.runners[0].table.seats()] == ["ann", "cid", None]


def test_households_remember_the_addresses_the_database_keeps(tmp_path: Path) -> None:
    """After a restart the room still knows that ann and bob signed in from one address
    (the database keeps it): bob is refused a seat at ann's table."""
    options: dict[str, Any] = {"households": True, "welcome_chips": 2000}
    room = _room(tmp_path, **options)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    tokens = {n: desk.sign_up(n, PASSWORD, address="127.0.0.1")[1] for n in ("ann", "bob")}

    async def sit(server: ServerThread, name: str) -> dict[str, Any]:
        client = await Client.connect(server.ws_url, **_cookie(tokens[name]))
        await client.send(type="sit", table=0, buy_in=1000)
        reply: dict[str, Any] = await client.next()
        await client.close()
        return reply

    with ServerThread(room, desk=desk) as server:
        assert asyncio.run(sit(server, "ann"))["type"] == "seated"
    room = _room(tmp_path, **options)  # the restart: ann's seat is restored
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    with ServerThread(room, desk=desk) as server:
        refused = asyncio.run(sit(server, "bob"))
        assert (refused["type"], refused["code"]) == ("error", "household")
    assert [s["player"] for s in room.runners[0].table.seats() if s] == ["ann"]


def test_signing_out_closes_the_sessions_sockets(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    _, token = desk.sign_up("ann", PASSWORD, address="127.0.0.1")
    _, other = desk.sign_in("ann", PASSWORD, address="127.0.0.1")

    async def scenario() -> None:
        first = await Client.connect(server.ws_url, **_cookie(token))
        second = await Client.connect(server.ws_url, **_cookie(other))
        await asyncio.to_thread(_sign_out, server.port, token)
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            await first.next(timeout=10)
        await second.send(type="ping")  # the other session goes on
        await second.next("pong")
        await second.close()

    asyncio.run(scenario())


def _sign_out(port: int, token: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/api/signout", headers={"Cookie": f"dh_session={token}"})
    assert connection.getresponse().status == 200
    connection.close()


def test_freezing_an_account_closes_its_sockets_at_once(served: tuple[ServerThread, Desk]) -> None:
    """The operator freezes ann from the command line's bank (another process's
    connection): her open socket is closed within a moment, as a sign-out closes it;
    bob's goes on. Her new socket (a frozen account signs in) cannot sit, and is not
    closed again when the database changes."""
    server, desk = served
    _, ann_token = desk.sign_up("ann", PASSWORD, address="127.0.0.1")
    _, bob_token = desk.sign_up("bob", PASSWORD, address="127.0.0.1")

    def freeze() -> None:
        with Bank(server.room.store.path) as bank:
            bank.set_state("ann", "frozen")

    async def scenario() -> None:
        ann = await Client.connect(server.ws_url, **_cookie(ann_token))
        bob = await Client.connect(server.ws_url, **_cookie(bob_token))
        await asyncio.to_thread(freeze)
        told = await ann.next(timeout=10)  # told why first (issue 32 item 4), then closed
        assert (told["type"], told["code"]) == ("error", "account_frozen")
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            await ann.next(timeout=10)
        again = await Client.connect(server.ws_url, **_cookie(ann_token))
        await again.send(type="sit", table=0, buy_in=500)
        assert (await again.next("error"))["code"] == "account_frozen"
        await asyncio.to_thread(desk.sign_up, "cid", PASSWORD, address="127.0.0.1")
        await asyncio.sleep(1.5)  # three looks at the database, which another connection changed
        await again.send(type="ping")
        await again.next("pong")
        await bob.send(type="ping")
        await bob.next("pong")
        for client in (again, bob):
            await client.close()

    asyncio.run(scenario())
