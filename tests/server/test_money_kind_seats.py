"""A room changes its kind of money (guests, the ledger, an embedding server's wallet)
only while no seat at its tables is taken, not only while they hold no chips (issue 30,
a LOW): a guest busted to 0 chips and still seated in a guest room reopened as an
account room would be cashed out to an account of that name that has no seat in the
ledger, which poisons every commit it is in, and the seat is never freed."""

from __future__ import annotations

import pytest

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.money_kind import MoneyKindMismatch
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import Decision, TableConfig
from doubleholdem.table.bots import BOTS
from money_room import kinds, send

HEADS_UP = TableConfig(small_blind=5, big_blind=10, seats=2)


def _all_in_until_one_busts(runner: TableRunner) -> int:
    """Both seats go all in, hand after hand, until one has no chips: that seat."""
    table = runner.table
    chooser = BOTS["random"](1)
    while all((s or {}).get("stack", 0) for s in table.seats()):
        with runner.change():
            table.start_hand(now=runner.now())
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            legal = table.legal_actions()
            assert legal is not None
            observed = table.observe(seat)
            if observed.decision == "point":  # a point card (DH-5): any choice will do
                decision = chooser.choose(observed)
            elif legal.max_raise_to is not None:
                decision = Decision("all_in")
            else:
                decision = Decision("check" if legal.can_check else "call")
            with runner.change(moves=True):
                runner.decide(seat, decision, runner.now())
    seats = table.seats()
    return next(s for s in (0, 1) if seats[s] is not None and seats[s]["stack"] == 0)  # type: ignore[index]


def test_a_busted_guest_still_seated_keeps_the_room_a_guest_room(room_db: str) -> None:
    path = room_db
    guests = RoomSettings(tables=1, bots=0, configs=[HEADS_UP], seed=4, guests=True)
    room = Room.open(path, guests)
    players = {}
    for seat, name in ((0, "ann"), (1, "bob")):
        players[seat] = room.connect()
        answer = send(room, players[seat], type="sit", table=0, seat=seat, name=name, buy_in=1000)
        assert kinds(answer) == ["seated"]
    runner = room.runners[0]
    busted = _all_in_until_one_busts(runner)
    assert kinds(send(room, players[1 - busted], type="leave")) == ["result"]  # the winner goes
    assert runner.table.chips() == 0 and runner.table.seats()[busted] is not None
    room.store.close()

    accounts = RoomSettings(tables=1, bots=0, configs=[HEADS_UP], seed=4)
    with pytest.raises(MoneyKindMismatch) as raised:
        Room.open(path, accounts)
    error = raised.value
    assert (error.stored, error.serving, error.chips, error.seats) == ("guests", "ledger", 0, 1)
    assert str(error).startswith(
        f"{path} holds a guest room, with 0 chips at its tables and 1 seat taken"
    )
    assert "serve it with --guests" in str(error)
    room = Room.open(path, guests)  # its own kind again: served, the seat as it was
    assert room.runners[0].table.seats()[busted] is not None
    room.store.close()
