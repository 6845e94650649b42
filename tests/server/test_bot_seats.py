"""Tables that stay playable (issue 32 item 5): the room keeps each table's bots to its
configured count. A bot that left (no chips, no bankroll) is replaced between hands by
a bot with a new bankroll from the house, while the house can fund it (the room's
``house_limit``: how far below zero the house's balance may go); the ledger holds
together; a table whose bots cannot be funded says why it is idle in the lobby."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from money_room import audit_ok, play_hand
from server_harness import ServerThread, until_hands, waits_for_commits

HEADS_UP = TableConfig(small_blind=5, big_blind=10, seats=2)
HIGH = HEADS_UP.buy_in_range[1]


def _room(room_db: str, *, guests: bool = False, house_limit: int | None = None) -> Room:
    settings = RoomSettings(
        tables=1,
        bots=2,
        bot_delay=0.0,
        pause=0.0,
        configs=[HEADS_UP],
        seed=3,
        guests=guests,
        bot_bankroll=HIGH,  # one buy-in each: a bot that busts leaves
        clock=lambda: 100.0,
    )
    settings.house_limit = house_limit
    return Room.open(room_db, settings)


def _bust_a_bot(room: Room) -> int:
    """Plays until a bot has left; its seat."""
    runner = room.runners[0]
    for _ in range(2000):
        empty = [s for s, p in enumerate(runner.table.seats()) if p is None]
        if empty:
            return empty[0]
        play_hand(runner)
        with runner.change():
            runner.bankrolls._top_up_bots()
    raise AssertionError("no bot left in 2000 hands")


def _house(room: Room) -> int:
    return ledger.balance(room.store.db, ledger.HOUSE)


def test_a_bot_that_left_is_replaced_from_the_house(room_db: str) -> None:
    room = _room(room_db)
    runner = room.runners[0]
    seat = _bust_a_bot(room)
    house = _house(room)
    assert runner.bankrolls.bots_missing() == {seat: runner.bankrolls.wanted_bots[seat]}
    with runner.change():
        runner.bankrolls.replace_bots()
    occupant = runner.table.seats()[seat]
    assert occupant is not None and occupant["player"] == f"bot-0-{seat}"
    assert occupant["stack"] == HIGH and seat in runner.bots
    assert _house(room) == house - HIGH  # a new bankroll, spent on the buy-in
    assert runner.bankrolls.bots_missing() == {}
    audit_ok(room)
    assert room.lobby()[0][0]["idle"] is None
    play_hand(runner)  # and the table plays on


def test_the_house_funds_no_bot_beyond_its_limit(room_db: str) -> None:
    room = _room(room_db, house_limit=2 * HIGH)  # the two first bankrolls, no more
    runner = room.runners[0]
    seat = _bust_a_bot(room)
    with runner.change():
        runner.bankrolls.replace_bots()
    assert runner.table.seats()[seat] is None
    assert _house(room) == -2 * HIGH
    (entry,), _ = room.lobby()
    assert entry["idle"] == (
        f"waiting for players: 1 of 2 seats taken; the house cannot fund bot seat {seat + 1} "
        f"(house limit {2 * HIGH})"
    )
    assert audit_room(room.store.db)["ok"]


def test_a_guest_room_replaces_bots_with_chips_from_nowhere(room_db: str) -> None:
    room = _room(room_db, guests=True)
    runner = room.runners[0]
    seat = 0
    with runner.change():
        runner.bankrolls._bot_leaves(seat)
    assert runner.bankrolls.bots_missing() == {seat: runner.bankrolls.wanted_bots[seat]}
    with runner.change():
        runner.bankrolls.replace_bots()
    assert runner.table.seats()[seat] is not None and seat in runner.bots


def test_a_served_table_of_bots_plays_on_after_a_bot_busts(room_db: str) -> None:
    settings = RoomSettings(
        tables=1, bots=2, bot_delay=0.0, pause=0.0, configs=[HEADS_UP], seed=3, bot_bankroll=HIGH
    )
    room = Room.open(room_db, settings)
    runner = room.runners[0]

    async def scenario() -> int:
        for _ in range(60_000):  # until a third bot sat down: one came back
            if runner.table.next_occupancy > 2:
                return runner.table.hand_number
            await asyncio.sleep(0.01)
        raise AssertionError("no bot came back")

    with ServerThread(room, desk=Desk(room.store.path, settings)):
        back_at = asyncio.run(scenario())
        asyncio.run(until_hands(room, back_at + 3))  # two seats: both bots play
    audit_ok(Room.open(room_db, settings))


def test_a_new_bot_account_is_made_whole_or_not_at_all(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot seat added to the configuration gets a new bot account (its row and its
    bankroll from the house) in the transaction of its seat: if its bankroll fails, no
    account is left without one. (Before, it was made outside any transaction, which
    the accounts refuse: the table's task failed on it every second.)"""
    settings = RoomSettings(
        tables=1, bots=1, bot_delay=0.0, pause=0.0, configs=[HEADS_UP], seed=3, bot_bankroll=HIGH
    )
    Room.open(room_db, settings).store.close()
    settings.bots = 2  # a second bot seat: bot-0-1 has no account yet
    room = Room.open(room_db, settings)
    runner = room.runners[0]
    assert runner.bankrolls.bots_missing() == {1: runner.bankrolls.wanted_bots[1]}
    transfer = ledger.transfer

    def failing(db: Any, key: str, *args: Any, **kwargs: Any) -> Any:
        if key.startswith("bankroll:"):
            raise RuntimeError("the bankroll failed")
        return transfer(db, key, *args, **kwargs)

    monkeypatch.setattr(ledger, "transfer", failing)
    with pytest.raises(RuntimeError), runner.change():
        runner.bankrolls.replace_bots()
    named = "SELECT COUNT(*) FROM accounts WHERE name = ?"
    assert room.store.db.execute(named, ("bot-0-1",)).fetchone()[0] == 0
    monkeypatch.setattr(ledger, "transfer", transfer)
    with runner.change():
        runner.bankrolls.replace_bots()
    occupant = runner.table.seats()[1]
    assert occupant is not None and occupant["player"] == "bot-0-1"
    audit_ok(room)
    room.store.close()


def test_a_seat_is_refilled_only_once_the_commit_of_its_bots_leave_ended(room_db: str) -> None:
    """A bot that leaves in a change made while a commit of its table is in flight (on
    PostgreSQL a commit runs off the event loop) keeps its seat from being refilled
    until the commit that writes its cash-out ended, not the one in flight: until then
    the ledger holds its seat open, and the bot of that name sitting down again was
    refused (``AlreadySeated: bot-3-1 already has a seat``, seen at a table's task in a
    room of three processes)."""
    room = _room(room_db)
    runner, commit = room.runners[0], room.commit
    seat = 0
    kind = runner.bankrolls.wanted_bots[seat]

    async def scenario() -> None:
        first, second = asyncio.Event(), asyncio.Event()
        with runner.change():  # a change of the table, its commit first
            pass
        commit.later([], lambda: None, first.set)
        commit.flush()  # in flight (PostgreSQL), or committed now (SQLite)
        with runner.change():  # meanwhile the bot leaves: the next commit's
            runner.bankrolls._bot_leaves(seat)
        commit.after(second.set)
        await first.wait()
        if room.store.commits_off_loop:  # the leave's commit is still to land
            assert not second.is_set()
            assert runner.bankrolls.bots_missing() == {}  # its cash-out is not committed
        await second.wait()
        assert runner.bankrolls.bots_missing() == {seat: kind}
        with runner.change():
            runner.bankrolls.replace_bots()
        await asyncio.wait_for(_landed(commit), 60)

    asyncio.run(scenario())
    occupant = runner.table.seats()[seat]
    assert occupant is not None and occupant["player"] == f"bot-0-{seat}"
    audit_ok(room)


async def _landed(commit: Any) -> None:
    """Until the changes handed in to ``commit`` are committed."""
    done = asyncio.Event()
    commit.after(done.set)
    await done.wait()


def test_a_tables_task_changes_nothing_while_a_commit_is_in_flight(room_db: str) -> None:
    """The table's own task waits while the group commit is not ready (a commit in
    flight): woken as one lands, it waits again if the next took off before it ran."""
    room = _room(room_db)
    runner = room.runners[0]

    def dealt() -> bool:
        return runner.table.in_hand or runner.table.hand_number > 0

    asyncio.run(asyncio.wait_for(waits_for_commits(room.commit, runner.run(), dealt), 60))
    room.store.close()
