"""A seat belongs to an account (issue 30, item 3), over real WebSockets: in an account
room a seat token works only on a connection signed in as the seat's own account (bob,
signed in, cannot resume ann's seat with her token: no hole cards, no top-up from her
balance, no chat as "ann"); sign-out ends the seat's control in every tab of that
session, the seat staying as after a lost connection; and its owner takes it back when
signed in again, from any window, without the token (``resume`` by ``table``)."""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import DOUBLE_THREE, Client, ServerThread

PASSWORD = "correct horse battery"


@pytest.fixture
def served(room_db: str) -> Iterator[tuple[ServerThread, Desk]]:
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=600.0, configs=[DOUBLE_THREE], welcome_chips=3000
    )
    room = Room.open(room_db, settings)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    with ServerThread(room, desk=desk) as server:
        yield server, desk


def _cookie(token: str | None) -> dict[str, Any]:
    return {} if token is None else {"additional_headers": {"Cookie": f"dh_session={token}"}}


async def _connect(server: ServerThread, session: str | None) -> Client:
    return await Client.connect(server.ws_url, **_cookie(session))


async def _sit(server: ServerThread, session: str) -> tuple[Client, str]:
    """A connection of ``session`` seated at table 0 (500 chips): it and its seat token."""
    client = await _connect(server, session)
    await client.send(type="sit", table=0, buy_in=500)
    seated = await client.next("seated")
    return client, str(seated["token"])


def _ann_and_bob(desk: Desk) -> tuple[str, str]:
    """The sessions of two new accounts, ann and bob."""
    return tuple(desk.sign_up(n, PASSWORD, address="127.0.0.1")[1] for n in ("ann", "bob"))  # type: ignore[return-value]


def _balance(desk: Desk, name: str) -> int:
    return int(desk.me(name)["balance"])


async def _until_closed(client: Client) -> None:
    """Reads what ``client`` is sent until the server closes it (ten seconds at most)."""
    with pytest.raises(websockets.exceptions.ConnectionClosed):
        for _ in range(1000):
            await client.next(timeout=10)


def _sign_out(port: int, session: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/api/signout", headers={"Cookie": f"dh_session={session}"})
    assert connection.getresponse().status == 200
    connection.close()


def test_bob_cannot_resume_anns_seat_with_her_token(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    ann_session, bob_session = _ann_and_bob(desk)

    async def scenario() -> None:
        ann, token = await _sit(server, ann_session)
        bob = await _connect(server, bob_session)
        await bob.send(type="resume", token=token)
        refused = await bob.next("error")
        assert refused["code"] == "not_your_seat"
        for message in (
            {"type": "top_up", "amount": 500},
            {"type": "chat", "text": "hello from ann"},
            {"type": "act", "id": "x1", "hand": 1, "action": "fold"},
        ):
            await bob.send(**message)
            assert (await bob.next("error"))["code"] in ("unauthorised", "not_your_seat")
        await bob.send(type="ping")
        await bob.next("pong")
        assert not any(m["type"] in ("seated", "state") for m in bob.received)
        await ann.send(type="ping")  # ann's connection still holds her seat
        await ann.next("pong")
        assert not any(m["type"] == "replaced" for m in ann.received)
        anonymous = await _connect(server, None)  # nor anyone signed out
        await anonymous.send(type="resume", token=token)
        assert (await anonymous.next("error"))["code"] == "not_signed_in"
        for client in (ann, bob, anonymous):
            await client.close()

    asyncio.run(scenario())
    assert _balance(desk, "ann") == 2500


def test_sign_out_ends_the_seats_control_in_every_tab(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    _, session = desk.sign_up("ann", PASSWORD, address="127.0.0.1")
    runner = server.room.runners[0]

    async def scenario() -> None:
        tab, token = await _sit(server, session)
        other_tab = await _connect(server, session)
        await other_tab.send(type="watch", table=0)
        await other_tab.next("state")
        await asyncio.to_thread(_sign_out, server.port, session)
        for closed in (tab, other_tab):
            await _until_closed(closed)
        reloaded = await _connect(server, None)  # the reloaded tab: no session any more
        await reloaded.send(type="resume", token=token)
        assert (await reloaded.next("error"))["code"] == "not_signed_in"
        await reloaded.send(type="top_up", amount=500)
        assert (await reloaded.next("error"))["code"] == "unauthorised"
        await reloaded.close()

        def away(message: dict[str, Any]) -> bool:
            seat = message["view"]["seats"][0]
            return bool(seat and seat["player"] == "ann" and seat["away"])

        watcher = await _connect(server, None)
        await watcher.send(type="watch", table=0)
        await watcher.state_where(away)  # the seat stays, as after a lost connection
        await watcher.close()

        _, again = await asyncio.to_thread(
            desk.sign_in, "ann", PASSWORD, address="127.0.0.1"
        )  # signed in again, in a new window that never saw the token
        window = await _connect(server, again)
        await window.send(type="resume", table=0)
        seated = await window.next("seated")
        assert (seated["table"], seated["seat"]) == (0, 0)
        await window.state_where(lambda m: not m["view"]["seats"][0]["away"])
        await window.send(type="top_up", amount=300)
        assert (await window.next("result"))["ok"]
        await window.close()

    asyncio.run(scenario())
    assert runner.table.seats()[0] is not None
    assert _balance(desk, "ann") == 2200


def test_resume_by_table_needs_a_seat_of_ones_own(served: tuple[ServerThread, Desk]) -> None:
    server, desk = served
    ann_session, bob_session = _ann_and_bob(desk)

    async def scenario() -> None:
        ann, _ = await _sit(server, ann_session)
        bob = await _connect(server, bob_session)
        await bob.send(type="resume", table=0)
        assert (await bob.next("error"))["code"] == "bad_token"
        anonymous = await _connect(server, None)
        await anonymous.send(type="resume", table=0)
        assert (await anonymous.next("error"))["code"] == "not_signed_in"
        await bob.send(type="resume", table=0, token="x" * 20)
        assert (await bob.next("error"))["code"] == "bad_field"
        for client in (ann, bob, anonymous):
            await client.close()

    asyncio.run(scenario())
