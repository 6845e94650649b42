"""A failed commit puts back everything it undoes, the clients' seats with their tables:
for each change that can fail to commit (a sit, a top-up, a leave between hands and
during one, a decision, a removal), the connection holds afterwards the seat it held
before (none after a sit), its table is as before, nothing was paid, and what it asks
next works: the seat can still leave with its chips. Each is run as served (the commit
at the event loop's next turn) and without an event loop (the commit at once)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from money_room import audit_ok, balance, fail_next_commit, kinds, money_room, send, sign_up

Ask = Callable[..., list[str]]


def _asking(room: Room, served: bool) -> Callable[[Connection], Ask]:
    """``ask(connection)(**fields)``: sends a request, as served (in an event loop, the
    commit at its next turn) or not; the kinds of the answers."""

    def ask(connection: Connection) -> Ask:
        def request(**fields: Any) -> list[str]:
            if not served:
                return kinds(send(room, connection, **fields))

            async def in_a_loop() -> list[dict[str, Any]]:
                room.handle(connection, json.dumps({"v": 2, **fields}))
                await asyncio.sleep(0)  # the commit, at the loop's next turn
                while not room.commit.idle():  # (on PostgreSQL, on a thread of its own)
                    await asyncio.sleep(0.001)
                return send(room, connection, type="ping")

            return kinds(asyncio.run(in_a_loop()))

        return request

    return ask


def _seated(room: Room, served: bool) -> tuple[Connection, Connection, Callable[[Connection], Ask]]:
    """ann and bob (1000 chips each) seated at table 0 with 400."""
    ask = _asking(room, served)
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    for name, connection in (("ann", ann), ("bob", bob)):
        assert ask(connection)(type="sit", table=0, name=name, buy_in=400) == ["seated"]
    return ann, bob, ask


def _binding(connection: Connection) -> tuple[int | None, int | None, str | None]:
    return connection.table, connection.seat, connection.token


def _fails_and_changes_nothing(
    room: Room, connection: Connection, request: Callable[[], Any]
) -> None:
    """``request``, whose commit fails, changes neither the tables, nor the money, nor
    the seat ``connection`` holds."""
    tables = [runner.table.to_json() for runner in room.runners.values()]
    held, chips = _binding(connection), balance(room, connection.account or "")
    fail_next_commit(room, write=False)
    request()
    assert room.commit.refusing is not None
    assert room.commit.writable()  # the database takes writes again
    assert [runner.table.to_json() for runner in room.runners.values()] == tables
    assert _binding(connection) == held
    assert balance(room, connection.account or "") == chips
    audit_ok(room)


def _leaves_with_its_chips(room: Room, connection: Connection, ask: Ask) -> None:
    name = connection.account or ""
    runner = room.runners[0]
    stack = runner.table.stack(runner.table.seat_of(name) or 0)
    chips = balance(room, name)
    assert ask(type="leave") == ["result"]
    assert connection.seat is None and runner.table.seat_of(name) is None
    assert balance(room, name) == chips + stack
    audit_ok(room)


SERVED = pytest.mark.parametrize("served", [True, False], ids=["served", "at_once"])


@SERVED
def test_a_sit_not_committed_holds_no_seat(room_db: str, served: bool) -> None:
    room = money_room(path=room_db)
    ann = sign_up(room, "ann", 1000)
    ask = _asking(room, served)(ann)
    send(room, ann, type="watch", table=0)  # as a client does before it sits
    _fails_and_changes_nothing(room, ann, lambda: ask(type="sit", table=0, name="ann", buy_in=400))
    assert ask(type="leave") == ["unauthorised"]
    assert ask(type="sit", table=0, name="ann", buy_in=400) == ["seated"]
    _leaves_with_its_chips(room, ann, ask)


@SERVED
def test_a_leave_not_committed_keeps_the_seat_to_leave_again(room_db: str, served: bool) -> None:
    room = money_room(path=room_db)
    ann, _, ask = _seated(room, served)
    _fails_and_changes_nothing(room, ann, lambda: ask(ann)(type="leave"))
    _leaves_with_its_chips(room, ann, ask(ann))


@SERVED
def test_a_leave_during_a_hand_not_committed_keeps_the_seat(room_db: str, served: bool) -> None:
    room = money_room(path=room_db)
    ann, bob, ask = _seated(room, served)
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=100.0)
    _fails_and_changes_nothing(room, ann, lambda: ask(ann)(type="leave"))
    while runner.table.in_hand:  # the hand ends: ann still sits, her leave never was
        seat = runner.table.to_act
        player = ann if seat == ann.seat else bob
        hand = runner.table.hand_number
        assert ask(player)(type="act", id=f"a{seat}", hand=hand, action="fold") == ["result"]
    assert runner.table.seat_of("ann") == ann.seat is not None
    _leaves_with_its_chips(room, ann, ask(ann))


@SERVED
def test_a_top_up_not_committed_keeps_the_seat(room_db: str, served: bool) -> None:
    room = money_room(path=room_db)
    ann, _, ask = _seated(room, served)
    _fails_and_changes_nothing(room, ann, lambda: ask(ann)(type="top_up", amount=50))
    assert ask(ann)(type="top_up", amount=50) == ["result"]
    _leaves_with_its_chips(room, ann, ask(ann))


@SERVED
def test_a_decision_not_committed_keeps_the_seat_and_is_taken_again(
    room_db: str, served: bool
) -> None:
    room = money_room(path=room_db)
    ann, bob, ask = _seated(room, served)
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=100.0)
    player = ann if runner.table.to_act == ann.seat else bob
    hand = runner.table.hand_number
    act = ask(player)
    _fails_and_changes_nothing(
        room, player, lambda: act(type="act", id="x", hand=hand, action="fold")
    )
    assert act(type="act", id="x", hand=hand, action="fold") == ["result"]
    assert not runner.table.in_hand
    _leaves_with_its_chips(room, player, act)


@SERVED
def test_a_removal_not_committed_keeps_the_seat(room_db: str, served: bool) -> None:
    room = money_room(path=room_db)
    ann, _, ask = _seated(room, served)
    runner = room.runners[0]
    seat = ann.seat
    assert seat is not None

    def remove() -> None:
        with runner.change():
            runner.table.leave_after_hand(seat, now=100.0)

    _fails_and_changes_nothing(room, ann, remove)
    _leaves_with_its_chips(room, ann, ask(ann))
