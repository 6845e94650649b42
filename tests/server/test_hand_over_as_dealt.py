"""A hand that is over as it is dealt (issue 33's "every hand settled once"): a seat
whose stack is below the small blind posts it all in, the big blind covers it, nobody
has a decision to make, and the hand ends inside :meth:`Table.start_hand`. The runner
stores it as any other finished hand (its log in the ``hands`` table, under its own
number), so that the stored hands count the table's hands, and the next hand's log is
its own. Seen in the failover runs as "table 1: 122 hands stored of 123": a signed-in
client that never tops up is ground down below the small blind sooner or later."""

from __future__ import annotations

import json

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from money_room import play_hand, send

# a buy-in below the small blind is allowed: the short seat of a hand over as dealt
SHORT = TableConfig(small_blind=5, big_blind=10, seats=2, min_buy_in=3, max_buy_in=1000)


def _room(path: str) -> Room:
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=0.0, configs=[SHORT], seed=5, guests=True,
        clock=lambda: 100.0,
    )  # fmt: skip
    return Room.open(path, settings)


def _stored_hands(room: Room) -> list[tuple[int, list[str]]]:
    """Table 0's stored hands: each number with the kinds of its log's entries."""
    return [(n, [e["kind"] for e in log]) for n, log in room.store.hands(0, last=100)]


def test_a_hand_over_as_it_is_dealt_is_stored_as_a_finished_hand(room_db: str) -> None:
    room = _room(room_db)
    try:
        ann, bob = room.connect(), room.connect()
        send(room, ann, type="sit", table=0, seat=0, name="ann", buy_in=3)
        send(room, bob, type="sit", table=0, seat=1, name="bob", buy_in=1000)
        runner = room.runners[0]
        play_hand(runner)  # seat 0 is the small blind, all in for 3: over as dealt
        assert runner.table.hand_number == 1 and not runner.table.in_hand
        stored = restore(room.store.table(0))
        assert stored.hand_number == 1 and not stored.in_hand
        hands = _stored_hands(room)
        assert [n for n, _ in hands] == [1]
        assert hands[0][1].count("hand_start") == 1 and hands[0][1][-2:] == ["hand_end", "phh"]
        record = room.store.hands(0, last=1)[0][1][-1]
        assert record["hand_number"] == 1 and record["players"] == ["bob", "ann"]
        # ann busted; bob and a newcomer play the next hand, stored under its own number
        carl = room.connect()
        send(room, ann, type="leave")
        send(room, carl, type="sit", table=0, seat=0, name="carl", buy_in=1000)
        play_hand(runner)
        hands = _stored_hands(room)
        assert [n for n, _ in hands] == [1, 2]
        assert hands[1][1].count("hand_start") == 1
        assert json.loads(room.store.table(0).snapshot)  # still restorable
        assert restore(room.store.table(0)).hand_number == 2
    finally:
        room.store.close()
