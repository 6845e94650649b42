"""Money at the tables (issue 19): a seat is paid from the account's balance in the
transaction that writes it, a top-up likewise, a seat that ends (leave, removal, bust)
is cashed out when the hand ends, each hand's rake goes to the house; refused payments
and failed commits change nothing; bots are accounts with a bounded bankroll; a database
of schema 3 is upgraded with its tables' chips entered in the ledger."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import set_state
from doubleholdem.errors import InvalidConfig
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import Decision, Table
from money_room import (
    audit_ok,
    balance,
    kinds,
    money_room,
    play_hand,
    send,
    sign_up,
)

DATA = Path(__file__).parent / "data"


@pytest.fixture(params=["sqlite", "postgresql"])
def money_db(request: pytest.FixtureRequest) -> str:
    """The room's database, once of each kind: SQLite in memory, a PostgreSQL schema."""
    if request.param == "sqlite":
        return ":memory:"
    return str(request.getfixturevalue("postgres_url"))


def test_a_seat_is_paid_from_the_balance_and_cashed_out_with_the_rake_to_the_house(
    money_db: str,
) -> None:
    room = money_room(path=money_db)
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    assert kinds(send(room, bob, type="sit", table=0, name="bob", buy_in=300)) == ["seated"]
    assert (balance(room, "ann"), balance(room, "bob")) == (600, 700)
    audit_ok(room)
    runner = room.runners[0]
    play_hand(runner)
    rake = runner.table.rake
    assert rake > 0
    assert ledger.balance(room.store.db, ledger.HOUSE) == rake
    audit_ok(room)
    stacks = {s["player"]: s["stack"] for s in runner.table.seats() if s is not None}
    for name, connection in (("ann", ann), ("bob", bob)):
        replies = send(room, connection, type="leave")
        assert kinds(replies) == ["result"]
        left = [r for r in replies if r["type"] == "left"]  # tells the cash-out at once
        assert [(r["after_hand"], r["cash_out"]) for r in left] == [(False, stacks[name])]
    assert balance(room, "ann") == 600 + stacks["ann"]
    assert balance(room, "bob") == 700 + stacks["bob"]
    assert balance(room, "ann") + balance(room, "bob") + rake == 2000
    assert ledger.balance(room.store.db, ledger.table(0)) == 0
    audit_ok(room)


def test_a_change_reads_its_entries_once_and_cashes_out_the_occupancy_its_leave_ends(
    money_db: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 31 item 1: each change of the table reads its entries once (the replies,
    the operator's log and the money take the same records), and each cash-out is keyed
    by the occupancy the :class:`Leave` record names: a leave at once, a seat taken
    again under the same name (a new occupancy) and a leave after the hand."""
    reads: list[int] = []
    changes: list[int] = []
    entries, change = Table.table_entries, TableRunner.change

    def read(table: Table, since: int) -> Any:
        reads.append(since)
        return entries(table, since)

    @contextlib.contextmanager
    def counted(runner: TableRunner, *, moves: bool = False) -> Iterator[None]:
        changes.append(runner.id)
        with change(runner, moves=moves):
            yield

    monkeypatch.setattr(Table, "table_entries", read)
    monkeypatch.setattr(Table, "seating_entries", None)  # the dicts are for the edges
    monkeypatch.setattr(TableRunner, "change", counted)
    room = money_room(path=money_db)
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    runner = room.runners[0]
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    assert kinds(send(room, bob, type="sit", table=0, name="bob", buy_in=300)) == ["seated"]
    left = [r for r in send(room, ann, type="leave") if r["type"] == "left"]
    assert [(r["after_hand"], r["cash_out"]) for r in left] == [(False, 400)]
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=200)) == ["seated"]
    with runner.change():
        runner.table.start_hand(now=100.0)
    bob_seat = bob.seat
    assert bob_seat is not None and runner.table.occupancy(bob_seat) == 1
    left = [r for r in send(room, bob, type="leave") if r["type"] == "left"]
    assert [(r["after_hand"], r["cash_out"]) for r in left] == [(True, None)]
    play_hand(runner, start=False)
    assert runner.table.occupancy(bob_seat) is None
    assert [r["type"] for r in send(room, ann, type="leave") if r["type"] == "left"] == ["left"]
    assert changes and len(reads) == len(changes)
    rows = room.store.db.execute(
        "SELECT key FROM ledger_transactions WHERE key LIKE 'cashout:%' ORDER BY seq"
    )
    assert [key for (key,) in rows] == ["cashout:0:0", "cashout:0:1", "cashout:0:2"]
    audit_ok(room)


def test_a_refused_payment_changes_nothing(money_db: str) -> None:
    room = money_room(path=money_db)
    ann = sign_up(room, "ann", 250)
    before = room.runners[0].table.to_json()
    replies = send(room, ann, type="sit", table=0, name="ann", buy_in=300)
    assert kinds(replies) == ["insufficient_funds"]
    assert "holds 250 chips, not the 300" in replies[-1]["message"]
    assert room.runners[0].table.to_json() == before and ann.seat is None
    assert balance(room, "ann") == 250
    # a buy-in out of the table's range (TH-36) is refused by the table: nothing paid
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=100)) == ["refused"]
    assert balance(room, "ann") == 250
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=200)) == ["seated"]
    replies = send(room, ann, type="top_up", amount=100)
    assert kinds(replies) == ["insufficient_funds"]
    assert room.runners[0].table.stack(ann.seat or 0) == 200
    assert kinds(send(room, ann, type="top_up", amount=50)) == ["result"]
    assert room.runners[0].table.stack(ann.seat or 0) == 250 and balance(room, "ann") == 0
    audit_ok(room)


def test_a_refused_payment_leaves_the_write_lock_to_others(tmp_path: Path) -> None:
    """A refused buy-in began the next transaction to pay in: it is ended with the
    refusal, so a quiet room does not hold the database's write lock (the accounts'
    desk and the command line's cashier write meanwhile)."""
    room = money_room(path=str(tmp_path / "tables.db"))
    try:
        ann = sign_up(room, "ann", 100)
        replies = send(room, ann, type="sit", table=0, name="ann", buy_in=400)
        assert kinds(replies) == ["insufficient_funds"]
        other = sqlite3.connect(room.store.path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # "database is locked" while the room holds it
            other.execute("ROLLBACK")
        finally:
            other.close()
    finally:
        room.store.close()


def test_a_frozen_account_cannot_sit_and_a_guest_must_sign_in(money_db: str) -> None:
    room = money_room(path=money_db)
    ann = sign_up(room, "ann", 1000)
    with room.store.transaction():
        set_state(room.store.db, "ann", "frozen")
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=300)) == ["account_frozen"]
    guest = room.connect()
    assert kinds(send(room, guest, type="sit", table=0, name="x", buy_in=300)) == ["not_signed_in"]
    audit_ok(room)


def test_one_seat_per_account_per_table(money_db: str) -> None:
    room = money_room(path=money_db)
    ann = sign_up(room, "ann", 2000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=300)) == ["seated"]
    again = room.connect()
    again.account = "ann"
    seat = ann.seat
    replies = send(room, again, type="sit", table=0, name="ann", buy_in=300)
    assert kinds(replies) == ["seated"]  # her own seat taken back (issue 32 item 3), not paid
    assert (again.table, again.seat, balance(room, "ann")) == (0, seat, 1700)
    assert kinds(send(room, ann, type="sit", table=1, name="ann", buy_in=300)) == ["seated"]
    assert balance(room, "ann") == 1400
    audit_ok(room)


def test_a_failed_commit_rolls_the_money_back_with_the_seat(money_db: str) -> None:
    room = money_room(path=money_db)
    ann = sign_up(room, "ann", 1000)
    store = room.store
    real = store.seat_tokens.put

    def failing(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    store.seat_tokens.put = failing  # type: ignore[method-assign]

    async def sit() -> list[dict[str, Any]]:  # in a loop, as served: the commit comes later
        room.handle(
            ann, json.dumps({"v": 2, "type": "sit", "table": 0, "name": "ann", "buy_in": 400})
        )
        assert balance(room, "ann") == 600  # paid, in the transaction not yet committed
        while not room.commit.idle():  # (on PostgreSQL the commit runs on a thread)
            await asyncio.sleep(0.001)
        return send(room, ann, type="ping")

    replies = asyncio.run(sit())
    assert kinds(replies) == ["unavailable"]
    assert balance(room, "ann") == 1000 and ann.seat is None
    assert room.runners[0].table.seats()[0] is None
    audit_ok(room)
    store.seat_tokens.put = real  # type: ignore[method-assign]
    assert room.commit.writable()
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    assert balance(room, "ann") == 600
    audit_ok(room)


def test_a_seat_left_during_a_hand_is_cashed_out_when_it_ends(money_db: str) -> None:
    room = money_room(path=money_db)
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    send(room, ann, type="sit", table=0, name="ann", buy_in=500)
    send(room, bob, type="sit", table=0, name="bob", buy_in=500)
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=100.0)
    replies = send(room, ann, type="leave")
    assert kinds(replies) == ["result"]
    left = [r for r in replies if r["type"] == "left"]
    assert [(r["after_hand"], r["cash_out"]) for r in left] == [(True, None)]  # not known yet
    assert balance(room, "ann") == 500  # not yet: the seat plays on until the hand ends
    audit_ok(room)
    while runner.table.in_hand:
        legal = runner.table.legal_actions()
        assert legal is not None
        with runner.change(moves=True):
            runner.decide(legal.seat, Decision("call" if legal.can_call else "check"), 100.0)
    assert runner.table.seat_of("ann") is None
    assert balance(room, "ann") > 500  # its stack came back
    told = [r for r in send(room, ann, type="ping") if r["type"] == "left"]  # and she is told
    assert [(r["after_hand"], r["cash_out"]) for r in told] == [(False, balance(room, "ann") - 500)]
    audit_ok(room)


def test_bots_buy_in_from_a_bankroll_and_leave_when_it_is_gone(money_db: str) -> None:
    room = money_room(bots=2, bankroll=300, path=money_db)
    runner = room.runners[0]
    assert [s["stack"] for s in runner.table.seats() if s is not None] == [300, 300]
    assert balance(room, "bot-0-0") == 0
    audit_ok(room)
    for _ in range(2000):
        if len(runner.bots) < 2:
            break
        if runner.bankrolls._bots_short():
            with runner.change():
                runner.bankrolls._top_up_bots()
            audit_ok(room)
        elif runner.table.can_start():
            play_hand(runner)
    assert len(runner.bots) < 2  # a bot lost its bankroll and left
    stored = room.store.table(0)
    assert {int(s) for s in stored.bots} == set(runner.bots)
    audit_ok(room)


def test_equity_bots_are_accounts_with_a_bankroll(tmp_path: Path) -> None:
    from doubleholdem.server.settings import load_tables

    path = tmp_path / "tables.toml"
    path.write_text('[[table]]\nsmall_blind = 5\nbig_blind = 10\nbots = ["equity", "station"]\n')
    configs, bot_kinds = load_tables(str(path))
    settings = RoomSettings(tables=1, bots=2, configs=configs, bot_kinds=bot_kinds)
    room = Room.open(":memory:", settings)
    assert not settings.guests and room.runners[0].bot_kinds == {0: "equity", 1: "station"}
    assert balance(room, "bot-0-0") == 9 * configs[0].buy_in_range[1]  # ten buy-ins, one in
    audit_ok(room)


def test_a_database_of_schema_3_is_upgraded_with_its_chips_in_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
    shutil.copy(DATA / "schema3.db", path)
    with sqlite3.connect(path) as db:  # a real file of schema 3 (tests/server/data)
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("3",)
    room = money_room(bots=2, path=str(path))
    try:
        runner0, runner1 = room.runners[0], room.runners[1]
        assert runner0.table.in_hand  # the hand in progress goes on, its pot counted
        chips = {0: runner0.table.chips(), 1: runner1.table.chips()}
        assert chips == {0: 2500, 1: 2300}
        assert ledger.balance(room.store.db, ledger.table(0)) == 2500
        audit_ok(room)
        seat = runner1.table.seat_of("Bob Lee")  # a name no account can have
        assert seat is not None
        stack = runner1.table.stack(seat)
        with runner1.change():
            runner1.table.leave(seat, now=100.0)
        assert ledger.balance(room.store.db, ledger.table(1)) == 2300 - stack
        audit_ok(room)
    finally:
        room.store.close()
    room = money_room(bots=2, path=str(path))  # opened once: not entered twice
    try:
        audit_ok(room)
    finally:
        room.store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )


def test_an_unknown_accounts_schema_is_refused_naming_both(tmp_path: Path) -> None:
    from doubleholdem.errors import DamagedDatabase

    path = tmp_path / "room.db"
    money_room(path=str(path)).store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE accounts_meta SET value = '7' WHERE key = 'schema'")
    with pytest.raises(DamagedDatabase, match=r"version 7, .* version 2"):
        money_room(path=str(path))


def test_the_audit_command_holds_each_tables_chips_against_the_ledger(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from doubleholdem.cli import main

    path = tmp_path / "room.db"
    room = money_room(bots=2, path=str(path))
    try:
        ann = sign_up(room, "ann", 1000)
        send(room, ann, type="sit", table=0, name="ann", buy_in=300)
        runner = room.runners[0]
        with runner.change():
            runner.table.start_hand(now=100.0)  # the pot of a hand in progress counts
    finally:
        room.store.close()
    assert main(["accounts", "audit", "--db", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "problems": [], "unchecked": []}
    db = sqlite3.connect(path, isolation_level=None)  # chips into the ledger, not the table
    db.execute("BEGIN IMMEDIATE")
    ledger.transfer(db, "forged", "buy_in", ledger.player("ann"), ledger.table(0), 5)
    db.execute("COMMIT")
    db.close()
    assert main(["accounts", "audit", "--db", str(path), "--json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems == ["table 1: the ledger holds 2305 chips, the table holds 2300"]


def test_a_guest_rooms_chips_are_never_served_as_accounts_money(tmp_path: Path) -> None:
    """A guest room's tables hold play chips that are not in the ledger: served as an
    account room, its seats would be cashed out to accounts (money from nothing); an
    account room served as a guest room would never cash its seats out. Either is
    refused while a table holds chips, naming the flag; empty tables may change kind."""
    path = str(tmp_path / "tables.db")
    guests = RoomSettings(tables=1, bots=2, guests=True)
    accounts = RoomSettings(tables=1, bots=0)
    Room.open(path, guests).store.close()  # two bots sit down with play chips
    with pytest.raises(InvalidConfig, match="holds a guest room, with 2000 chips") as raised:
        Room.open(path, accounts)
    assert raised.value.field == "guests" and "serve it with --guests" in str(raised.value)
    Room.open(path, guests).store.close()  # the same kind again: served

    empty = str(tmp_path / "empty.db")
    Room.open(empty, RoomSettings(tables=1, bots=0, guests=True)).store.close()
    room = Room.open(empty, accounts)  # no chips at any table: the room changes kind
    ann = sign_up(room, "ann", 1000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    room.store.close()
    with pytest.raises(InvalidConfig, match="holds an account room, with 400 chips"):
        Room.open(empty, RoomSettings(tables=1, bots=0, guests=True))
