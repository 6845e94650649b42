"""The requests behind "the table, read right" (issue 20) over real WebSockets: a seat's
showdown preferences (TH-22) set before and during a hand, seat and table numbers from 1
in what a person reads (the protocol's fields stay from 0), the seat's own view kept
when its player looks at the lobby and watches its table again, and the answer to a
leave in the middle of a hand."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from doubleholdem.server.protocol import ProtocolError, decode
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from server_harness import Client, ServerThread

TEXAS = TableConfig(small_blind=5, big_blind=10, seats=3, action_time=60, time_bank=0)


def _room(room_db: str) -> Room:
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=0.05, configs=[TEXAS], seed=3)
    return Room.open(room_db, settings)


async def _seat(server: ServerThread, name: str, seat: int) -> Client:
    client = await Client.connect(server.ws_url)
    await client.send(type="sit", table=0, seat=seat, name=name, buy_in=1000)
    assert (await client.next("seated"))["seat"] == seat
    return client


def _in_hand(message: dict[str, Any]) -> bool:
    hand = message["view"]["hand"]
    return bool(hand and not hand["over"] and hand["legal"])


def test_preferences_are_decoded_strictly() -> None:
    assert decode('{"v": 2, "type": "preferences", "muck_losing": false}') == (False, None)
    message = decode('{"v": 2, "type": "preferences", "show_uncontested": true}')
    assert message == (None, True)
    for bad in ('"muck_losing": 1', '"show_uncontested": "yes"', '"muck": true'):
        with pytest.raises(ProtocolError) as refused:
            decode('{"v": 2, "type": "preferences", ' + bad + "}")
        assert refused.value.code == "bad_field", bad


def test_preferences_hold_at_once_and_only_the_seat_sees_its_own(room_db: str) -> None:
    """ann turns muck_losing off in the middle of a hand: her view says so, the hand
    being played carries it into its showdown, bob's view holds his own defaults and a
    spectator's none."""

    async def scenario(server: ServerThread, room: Room) -> None:
        ann, bob = await _seat(server, "ann", 0), await _seat(server, "bob", 1)
        await ann.state_where(_in_hand)
        await ann.send(type="preferences", muck_losing=False)
        assert (await ann.next("result"))["ok"] is True
        mine = await ann.state_where(
            lambda m: m["view"]["preferences"]["muck_losing"] is False, current=True
        )
        assert mine["view"]["preferences"] == {"muck_losing": False, "show_uncontested": False}
        hand = room.runners[0].table.hand
        assert hand is not None and not hand.over
        assert hand.config.muck_losing[room.runners[0].table.dealt.index(0)] is False
        theirs = await bob.state_where(lambda m: True, current=True)
        assert theirs["view"]["preferences"] == {"muck_losing": True, "show_uncontested": False}
        eve = await Client.connect(server.ws_url)
        await eve.send(type="watch", table=0)
        assert (await eve.next("state"))["view"]["preferences"] is None
        for client in (ann, bob, eve):
            await client.close()

    room = _room(room_db)
    with ServerThread(room) as server:
        asyncio.run(scenario(server, room))
        assert server.leaks == [] and server.mismatches == []


def test_people_read_seats_and_tables_from_one(room_db: str) -> None:
    """The page says seat 1 for the protocol's seat 0: so do the server's messages."""

    async def scenario(server: ServerThread) -> None:
        ann, bob = await _seat(server, "ann", 0), await _seat(server, "bob", 1)
        state = await ann.state_where(_in_hand)
        number = state["view"]["hand_number"]
        await bob.send(type="act", id="b1", hand=number, action="fold")  # ann's turn (TH-3)
        error = await bob.next("error")
        assert error["code"] == "illegal"
        assert error["message"] == "seat 2 cannot fold: it is seat 1's turn", error
        assert (error["seat"], error["turn"]) == (1, 0)  # the fields count from 0
        eve = await Client.connect(server.ws_url)
        await eve.send(type="sit", table=0, seat=0, name="eve", buy_in=1000)
        taken = await eve.next("error")
        assert taken["message"] == "seat 1 is taken by ann", taken
        assert taken["seat"] == 0 and "table" not in taken
        await eve.send(type="watch", table=7)
        missing = await eve.next("error")
        assert missing["message"] == "there is no table 8"
        assert (missing["code"], missing["table"]) == ("no_table", 7)
        await ann.send(type="sit", table=0, seat=2, name="ann2", buy_in=1000)
        seated = await ann.next("error")
        assert "you sit in seat 1 at table 1" in seated["message"]
        assert (seated["code"], seated["seat"], seated["table"]) == ("already_seated", 0, 0)
        for client in (ann, bob, eve):
            await client.close()

    with ServerThread(_room(room_db)) as server:
        asyncio.run(scenario(server))


def test_the_lobby_and_back_keeps_the_seat_and_leaving_mid_hand_says_so(
    room_db: str,
) -> None:
    """ann looks at the lobby and watches her own table again: she gets her seat's view
    (her cards), not a spectator's. Leaving in the middle of a hand answers that she
    leaves after it."""

    async def scenario(server: ServerThread) -> None:
        ann, bob = await _seat(server, "ann", 0), await _seat(server, "bob", 1)
        state = await ann.state_where(_in_hand)
        hole = state["view"]["hand"]["hole"]
        await ann.send(type="lobby")
        await ann.next("lobby")
        await ann.send(type="watch", table=0)
        back = await ann.next("state")
        assert back["seat"] == 0 and back["view"]["hand"]["hole"] == hole
        assert any(e.get("kind") == "deal" and e.get("cards") for e in back["log"])
        await ann.send(type="leave")
        result = await ann.next("result")
        assert result["after_hand"] is True
        assert (await ann.next("left"))["seat"] == 0
        for client in (ann, bob):
            await client.close()

    with ServerThread(_room(room_db)) as server:
        asyncio.run(scenario(server))
