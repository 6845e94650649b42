"""Money through a wallet outside the room's database (an embedding server's,
docs/accounts.md): the wallet's chips plus the chips at the tables, as the room holds
them (after a restart too), stay what they were whatever fails: a table refusing a seat
already paid for, a commit failing after the wallet was called, the process killed
between the wallet's call and the commit, a repair dropping a table. A retry with the
same key changes nothing; a key given back is never asked again."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.database.url import connect
from doubleholdem.server.money import wallet_money
from doubleholdem.server.money.wallet_calls import retry_failed
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.money_kind import MoneyKindMismatch
from doubleholdem.server.tables.room import Room
from faults import database_error
from money_room import RAKED, kinds, play_hand, send, sign_up
from wallet_crash import BOTS, killed_at
from wallets import DictWallet, FlakyWallet, SeatWallet, TellingWallet

TOTAL = 2000


def _room(wallet: DictWallet, path: str, **options: Any) -> Room:
    settings = RoomSettings(
        tables=1, bots=0, pause=0.0, configs=[RAKED], seed=5, guests=False, clock=lambda: 100.0
    )
    return Room.open(path, settings, wallet=wallet, **options)


def _chips(room: Room) -> int:
    return sum(runner.table.chips() for runner in room.runners.values())


def _held(room: Room, wallet: DictWallet) -> int:
    """The wallet's chips and the tables'."""
    return wallet.total() + _chips(room)


def _damage(path: str) -> None:
    """Table 0 of the database at ``path`` cannot be read (its bots column)."""
    db = connect(path)
    try:
        db.execute("UPDATE tables SET bots = '{' WHERE id = 0").close()
    finally:
        db.close()


def _player(room: Room, name: str) -> Connection:
    return room.connect(account=name)


def _fail_commits(room: Room) -> None:
    """Every commit from now on fails on writing a table (a full disk)."""

    def failing(*args: Any) -> None:
        database_error(room.store)

    room.store.put_table = failing  # type: ignore[method-assign]


def _mend(room: Room) -> None:
    del room.store.put_table  # the class's again
    assert room.commit.writable()


async def _in_a_loop(room: Room, connection: Connection, **fields: Any) -> list[dict[str, Any]]:
    """A request served as in a running server: the commit comes at the loop's turn."""
    room.handle(connection, json.dumps({"v": 2, **fields}))
    await room.wallet_calls_ended()  # paid off the loop, committed, given back if need be
    await _committed(room)
    return send(room, connection, type="ping")


async def _committed(room: Room) -> None:
    """Until the room's commit is idle (on PostgreSQL it runs on a thread of its own)
    and the wallet's calls it led to have ended."""
    await asyncio.sleep(0)
    while not room.commit.idle():
        await asyncio.sleep(0.001)
    await room.wallet_calls_ended()


def test_a_seat_the_table_refuses_is_given_back_and_its_key_never_asked_again(room_db: str) -> None:
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann, bob = _player(room, "ann"), _player(room, "bob")
    assert kinds(send(room, ann, type="sit", table=0, seat=0, buy_in=400)) == ["seated"]
    assert kinds(send(room, bob, type="sit", table=0, seat=0, buy_in=400)) == ["refused"]
    assert wallet.balances["bob"] == 1000  # paid, then given back
    assert kinds(send(room, bob, type="sit", table=0, seat=1, buy_in=400)) == ["seated"]
    assert wallet.balances["bob"] == 600  # paid again, not answered by the key given back
    assert _held(room, wallet) == TOTAL


def test_a_failed_commit_gives_an_external_buy_in_back(room_db: str) -> None:
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann = _player(room, "ann")
    _fail_commits(room)
    replies = asyncio.run(_in_a_loop(room, ann, type="sit", table=0, buy_in=400))
    assert kinds(replies) == ["unavailable"]
    assert room.runners[0].table.seats()[0] is None
    assert wallet.balances["ann"] == 1000
    assert _held(room, wallet) == TOTAL
    _mend(room)
    assert kinds(send(room, ann, type="sit", table=0, buy_in=400)) == ["seated"]
    assert wallet.balances["ann"] == 600  # the same occupancy again: paid again
    assert _held(room, wallet) == TOTAL


def _ann_seated(room_db: str) -> tuple[DictWallet, Room, Connection, str]:
    """A room whose wallet holds 2000 chips, ann seated with 300 of them; her token."""
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann = _player(room, "ann")
    (seated,) = [r for r in send(room, ann, type="sit", table=0, buy_in=300) if "token" in r]
    return wallet, room, ann, seated["token"]


def test_a_failed_commit_gives_an_external_top_up_back(room_db: str) -> None:
    wallet, room, ann, _ = _ann_seated(room_db)
    _fail_commits(room)
    assert kinds(asyncio.run(_in_a_loop(room, ann, type="top_up", amount=100))) == ["unavailable"]
    assert room.runners[0].table.stack(0) == 300
    assert _held(room, wallet) == TOTAL
    _mend(room)
    assert kinds(send(room, ann, type="top_up", amount=100)) == ["result"]
    assert (wallet.balances["ann"], room.runners[0].table.stack(0)) == (600, 400)
    assert _held(room, wallet) == TOTAL


@pytest.mark.parametrize("failure", ["refused", "commit"])
def test_a_wallet_keeping_seats_gets_a_top_up_back_as_a_refund_not_a_cash_out(
    room_db: str, failure: str
) -> None:
    """A top-up given back (the table refused it, or its commit failed) is a ``refund``
    of a ``top_up`` to a wallet that has one: its seat stays open, and the seat's
    cash-out later closes it; a buy-in given back closes the seat it opened."""
    wallet = SeatWallet({"ann": 1500, "bob": 500})
    room = _room(wallet, room_db)
    ann, bob = _player(room, "ann"), _player(room, "bob")
    assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["seated"]
    if failure == "refused":  # above the table's maximum (1000)
        assert kinds(send(room, ann, type="top_up", amount=5000)) == ["insufficient_funds"]
        assert kinds(send(room, ann, type="top_up", amount=900)) == ["refused"]
    else:
        _fail_commits(room)
        assert kinds(asyncio.run(_in_a_loop(room, ann, type="top_up", amount=100))) == [
            "unavailable"
        ]
        _mend(room)
    assert [method for method, _ in wallet.calls][-1] == "refund"
    assert wallet.seats == {("ann", 0)} and wallet.balances["ann"] == 1200
    assert kinds(send(room, bob, type="sit", table=0, seat=0, buy_in=300)) == ["refused"]
    assert wallet.seats == {("ann", 0)} and wallet.balances["bob"] == 500
    assert kinds(send(room, ann, type="leave")) == ["result"]
    assert wallet.seats == set() and wallet.balances["ann"] == 1500
    assert room.health() is None  # nothing owed: the cash-out was not refused
    assert _held(room, wallet) == TOTAL


def test_a_cash_out_whose_commit_fails_is_not_paid_and_is_paid_once_later(room_db: str) -> None:
    wallet, room, ann, token = _ann_seated(room_db)
    _fail_commits(room)
    assert kinds(asyncio.run(_in_a_loop(room, ann, type="leave"))) == ["unavailable"]
    assert room.runners[0].table.seats()[0] is not None  # the leave was not committed
    assert wallet.balances["ann"] == 700  # and not paid
    assert _held(room, wallet) == TOTAL
    _mend(room)
    assert kinds(send(room, ann, type="resume", token=token)) == ["seated"]  # her seat still
    assert kinds(send(room, ann, type="leave")) == ["result"]
    assert wallet.balances["ann"] == 1000
    cash_outs = [key for _, key in wallet.calls if key.startswith("cashout")]
    assert cash_outs == [f"cashout:{room.store.room_name()}.0:0"]


def test_a_hand_whose_commit_fails_pays_no_rake(room_db: str) -> None:
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    send(room, _player(room, "ann"), type="sit", table=0, buy_in=300)
    send(room, _player(room, "bob"), type="sit", table=0, buy_in=300)
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=100.0)
    _fail_commits(room)  # the hand plays by moves; its end stores the table: it fails

    async def play() -> None:
        play_hand(runner, start=False)
        await _committed(room)

    asyncio.run(play())
    assert wallet.house == 0
    assert _held(room, wallet) == TOTAL
    _mend(room)
    assert runner.table.in_hand  # back to before the hand's last decision
    play_hand(runner, start=False)
    assert wallet.house > 0
    assert _held(room, wallet) == TOTAL


@pytest.mark.parametrize(
    ("scenario", "moment", "prefix"),
    [
        ("sit", "after", "buyin:"),
        ("sit", "before", "buyin:"),
        ("top_up", "after", "topup:"),
        ("leave", "before", "cashout:"),
        ("leave", "after", "cashout:"),
        ("rake", "before", "rake:"),
        ("rake", "after", "rake:"),
    ],
)
def test_a_process_killed_at_the_wallets_call_loses_and_makes_no_chip(
    room_db: str, tmp_path: Path, scenario: str, moment: str, prefix: str
) -> None:
    after = killed_at(room_db, tmp_path, scenario, moment, prefix)
    assert after.killed
    assert after.wallet + after.tables == TOTAL, after
    if scenario == "sit":
        assert after.seated == []  # never committed: the buy-in went back


@pytest.mark.parametrize(
    ("kind", "told"),
    [
        (TellingWallet, "the wallet is told to write its seats off"),
        (DictWallet, "the wallet was not told (it has no write_off)"),
    ],
)
def test_a_repair_tells_a_wallet_that_can_write_off(
    room_db: str, kind: type[DictWallet], told: str
) -> None:
    path = room_db
    wallet = kind({"ann": 1000, "bob": 1000})
    room = _room(wallet, path)
    send(room, _player(room, "ann"), type="sit", table=0, buy_in=300)
    room.store.close()
    _damage(path)
    room = _room(wallet, path, repair=True)
    assert told in room.repaired[0]
    key = f"repair:{room.store.room_name()}.0:0"
    assert wallet.written_off == ([(0, key)] if "is told" in told else [])
    assert _held(room, wallet) == TOTAL - 300  # the wallet decides what the 300 become
    room.store.close()


@pytest.mark.parametrize("lose_replies", [False, True])
def test_a_wallet_failing_a_buy_in_is_given_back_what_it_may_have_taken(
    room_db: str, lose_replies: bool
) -> None:
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann = _player(room, "ann")
    wallet.down, wallet.lose_replies = {"debit"}, lose_replies
    assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["unavailable"]
    assert room.runners[0].table.seats()[0] is None
    # taken while the wallet failed to answer: owed, given back when it answers again
    assert wallet.balances["ann"] == (700 if lose_replies else 1000)
    key = f"refund:buyin:{room.store.room_name()}.0:0#1"
    owed = f"the wallet owes {key}: the give-back of 300 chips debited from ann for no seat"
    assert (room.health() or "").startswith(owed)
    wallet.down = set()
    assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["seated"]
    assert _held(room, wallet) == TOTAL and wallet.balances["ann"] == 700
    assert room.health() is None
    assert kinds(send(room, ann, type="leave")) == ["result"]
    assert wallet.balances["ann"] == 1000


def test_a_buy_in_the_wallet_took_while_unreachable_after_is_given_back_at_the_start(
    room_db: str,
) -> None:
    path = room_db
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, path)
    wallet.down, wallet.lose_replies = {"debit", "cash_out"}, True  # it took it, then fell
    assert kinds(send(room, _player(room, "ann"), type="sit", table=0, buy_in=300)) == [
        "unavailable"
    ]
    assert wallet.balances["ann"] == 700  # taken, and not given back yet: it is down
    room.store.close()
    wallet.down = set()
    room = _room(wallet, path)
    assert wallet.balances["ann"] == 1000 and _held(room, wallet) == TOTAL
    room.store.close()
    room = _room(wallet, path)  # and once only
    assert wallet.balances["ann"] == 1000
    room.store.close()


def test_a_cash_out_the_wallet_fails_is_paid_after_the_tables_next_commit(room_db: str) -> None:
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann = _player(room, "ann")
    send(room, ann, type="sit", table=0, buy_in=300)
    wallet.down = {"cash_out"}
    assert kinds(send(room, ann, type="leave")) == ["result"]  # the leave is committed
    assert room.runners[0].table.seats()[0] is None
    assert wallet.balances["ann"] == 700  # owed: still noted
    wallet.down = set()
    send(room, _player(room, "bob"), type="sit", table=0, buy_in=300)
    assert wallet.balances["ann"] == 1000 and _held(room, wallet) == TOTAL


def _owed(room: Room, path: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The calls the wallet failed still owed, as the room's health, the database's
    audit and the command line's audit each tell them."""
    from doubleholdem.cli import main
    from doubleholdem.server.money.money import audit_room

    health = room.health()
    problems = audit_room(room.store.db)["problems"]
    capsys.readouterr()
    main(["accounts", "audit", "--db", path])
    printed = capsys.readouterr().out.splitlines()
    told = [
        [line for line in lines if "the wallet owes" in line]
        for lines in ((health or "").split("; "), problems, printed)
    ]
    assert told[0] == told[1] == told[2], told
    return told[0]


def test_calls_the_wallet_keeps_failing_are_reported_until_a_retry_makes_them(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = room_db
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, path)
    ann, bob = _player(room, "ann"), _player(room, "bob")
    assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["seated"]
    assert _owed(room, path, capsys) == [] and room.health() is None
    wallet.down = {"cash_out"}
    assert kinds(send(room, ann, type="leave")) == ["result"]  # committed; then the credit fails
    key = f"cashout:{room.store.room_name()}.0:0"
    owed = f"the wallet owes {key}: a credit of 300 chips to ann, table 1"
    assert _owed(room, path, capsys) == [
        f"{owed}, failed once (ConnectionError: the wallet service is unreachable)"
    ]
    # tried again before bob's buy-in is paid, and after its commit
    assert kinds(send(room, bob, type="sit", table=0, buy_in=300)) == ["seated"]
    assert _owed(room, path, capsys) == [
        f"{owed}, failed 3 times (ConnectionError: the wallet service is unreachable)"
    ]
    wallet.down = set()
    retry_failed(room.store, wallet)  # what a served room does every RETRY_OWED_SECONDS
    assert _owed(room, path, capsys) == [] and room.health() is None
    assert wallet.balances["ann"] == 1000 and _held(room, wallet) == TOTAL
    assert room.store.wallet_calls() == []
    room.store.close()


def test_a_served_room_retries_the_calls_its_wallet_failed_while_its_tables_are_idle(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wallet_money, "RETRY_OWED_SECONDS", 0.01)
    wallet = FlakyWallet({"ann": 1000})
    room = _room(wallet, room_db)
    ann = _player(room, "ann")
    send(room, ann, type="sit", table=0, buy_in=300)
    wallet.down = {"cash_out"}
    send(room, ann, type="leave")
    assert "the wallet owes" in (room.health() or "")

    async def served() -> None:
        await room.start()
        wallet.down = set()
        for _ in range(3000):  # at most 30 s on a loaded machine
            if room.health() is None:
                break
            await asyncio.sleep(0.01)
        await room.stop()

    asyncio.run(served())
    assert wallet.balances["ann"] == 1000


def test_a_buy_in_that_cannot_be_noted_asks_nothing_of_the_wallet(room_db: str) -> None:
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)

    def full(*args: Any) -> int:
        database_error(room.store)
        raise AssertionError("no error")

    room.store.add_wallet_call = full  # type: ignore[method-assign]
    assert kinds(send(room, _player(room, "ann"), type="sit", table=0, buy_in=300)) == [
        "unavailable"
    ]
    assert wallet.calls == [] and _held(room, wallet) == TOTAL


def test_bots_paid_by_a_wallet_of_its_own_sit_down_after_the_load(room_db: str) -> None:
    path = room_db
    wallet = DictWallet({"bot-0-0": 5000, "bot-0-1": 5000})
    settings = RoomSettings(tables=1, bots=3, configs=[RAKED], seed=5, guests=False)
    room = Room.open(path, settings, wallet=wallet)
    runner = room.runners[0]
    high = RAKED.buy_in_range[1]
    assert sorted(runner.bots) == [0, 1]  # the third is not the wallet's: no seat
    assert [s["stack"] for s in runner.table.seats() if s is not None] == [high, high]
    name = room.store.room_name()
    assert sorted(key for _, key in wallet.calls) == [f"buyin:{name}.0:0#1", f"buyin:{name}.0:1#2"]
    assert _held(room, wallet) == 10000
    room.store.close()
    room = Room.open(path, settings, wallet=wallet)  # stored as seated
    assert sorted(room.runners[0].bots) == [0, 1] and _held(room, wallet) == 10000
    assert room.store.bots_to_seat() == {}  # the third is not tried again
    room.store.close()


@pytest.mark.parametrize("moment", ["before", "after"])
def test_a_room_killed_before_its_new_tables_bots_sat_seats_them_at_its_restart(
    room_db: str, tmp_path: Path, moment: str
) -> None:
    """Killed as the first bot of the new table buys in (before or after the wallet
    applies it), after the table was created: the restart seats the bots as configured
    (the buy-in the wallet took for no seat given back)."""
    after = killed_at(room_db, tmp_path, "bots", moment, "buyin:")
    assert after.killed
    assert after.seated == ["bot-0-0", "bot-0-1"]
    assert after.wallet + after.tables == TOTAL + sum(BOTS.values()), after


def test_rooms_sharing_a_wallet_never_share_a_key(more_room_dbs: Callable[[], str]) -> None:
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    rooms = [_room(wallet, more_room_dbs()) for n in range(2)]
    for room in rooms:  # the same table, occupancy and amount in each room
        ann = _player(room, "ann")
        assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["seated"]
    assert wallet.balances["ann"] == 400  # paid twice, not answered by the other's key
    assert sum(_chips(room) for room in rooms) + wallet.total() == TOTAL
    for room in rooms:
        room.store.close()


def test_a_bot_the_wallet_fails_to_pay_for_is_not_seated_and_the_room_opens(
    room_db: str,
) -> None:
    path = room_db
    wallet = FlakyWallet({"bot-0-0": 5000})
    wallet.down = {"debit"}
    settings = RoomSettings(tables=1, bots=1, configs=[RAKED], seed=5, guests=False)
    room = Room.open(path, settings, wallet=wallet)
    assert room.runners[0].bots == {} and room.runners[0].table.seats()[0] is None
    assert _held(room, wallet) == 5000
    room.store.close()
    wallet.down = set()  # the next start seats it
    room = Room.open(path, settings, wallet=wallet)
    assert list(room.runners[0].bots) == [0] and _held(room, wallet) == 5000
    assert room.store.bots_to_seat() == {}
    room.store.close()


def test_the_audit_of_a_room_paid_through_its_own_wallet_holds_no_table_to_the_ledger(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tables' chips of such a room are the wallet's, never in the ledger: the audit
    says plainly it cannot check them (the notes of calls made are forgotten), and
    reports no problem for them; the calls the wallet still owes stay reported."""
    from doubleholdem.cli import main

    path = room_db
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, path)
    ann = _player(room, "ann")
    assert kinds(send(room, ann, type="sit", table=0, buy_in=300)) == ["seated"]
    capsys.readouterr()
    assert main(["accounts", "audit", "--db", path, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["problems"] == []
    assert found["unchecked"] == [
        "the tables' chips (300 at table 1) are paid through the embedding server's own "
        "wallet: the room keeps no record of the calls made to it, so this audit cannot "
        "check them (the wallet's own books can)"
    ]
    assert main(["accounts", "audit", "--db", path]) == 0
    assert "cannot check them" in capsys.readouterr().out
    wallet.down = {"cash_out"}
    assert kinds(send(room, ann, type="leave")) == ["result"]  # the credit is owed
    assert main(["accounts", "audit", "--db", path, "--json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert len(problems) == 1 and problems[0].startswith("the wallet owes cashout:")
    room.store.close()


def _wallet_room_seated(path: str) -> DictWallet:
    """A room at ``path`` paid through its own wallet, ann seated with 300 chips."""
    wallet = DictWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, path)
    assert kinds(send(room, _player(room, "ann"), type="sit", table=0, buy_in=300)) == ["seated"]
    room.store.close()
    return wallet


def _ledger_settings() -> RoomSettings:
    return RoomSettings(tables=1, bots=0, configs=[RAKED], guests=False)


def test_a_wallet_rooms_chips_are_never_served_from_the_ledger_nor_the_other_way(
    more_room_dbs: Callable[[], str],
) -> None:
    """The chips at the tables of a room paid through an embedding server's own wallet
    would be cashed out to the ledger (money from nothing) by a room of the built-in
    ledger, and a ledger room's to the wallet: refused while a table holds chips, naming
    both kinds; empty tables may change kind."""
    path = more_room_dbs()
    wallet = _wallet_room_seated(path)
    with pytest.raises(MoneyKindMismatch, match="paid through an embedding") as raised:
        Room.open(path, _ledger_settings())
    assert (raised.value.stored, raised.value.serving, raised.value.chips) == (
        "wallet",
        "ledger",
        300,
    )
    assert raised.value.field == "wallet" and "money kind 'ledger'" in str(raised.value)
    _room(wallet, path).store.close()  # its own kind again: served

    ledger_path = more_room_dbs()
    room = Room.open(ledger_path, _ledger_settings())
    ann = sign_up(room, "ann", 1000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    room.store.close()
    with pytest.raises(MoneyKindMismatch, match="holds an account room, with 400 chips") as told:
        _room(DictWallet({"ann": 1000}), ledger_path)
    assert (told.value.stored, told.value.serving) == ("ledger", "wallet")

    empty = more_room_dbs()
    _room(DictWallet({}), empty).store.close()  # no chips at any table: it changes kind
    Room.open(empty, _ledger_settings()).store.close()


def test_the_command_line_refuses_a_wallet_rooms_database_in_one_line(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from doubleholdem.cli import main

    path = room_db
    _wallet_room_seated(path)
    capsys.readouterr()
    assert main(["serve", "--db", path, "--tables", "1", "--bots", "0"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "money kind 'wallet'" in error
    assert "money kind 'ledger'" in error


def test_a_wallet_room_noted_ledger_by_an_older_version_is_told_apart(tmp_path: Path) -> None:
    """Before the kinds were told apart such a room was noted ``ledger``: opened, it is
    told by its name among rooms sharing a wallet and its chips in no ledger table."""
    path = str(tmp_path / "wallet.db")
    _wallet_room_seated(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = 'ledger' WHERE key = 'money'")
    db.execute("DELETE FROM meta WHERE key = 'money_wallet_told'")
    db.commit()
    db.close()
    with pytest.raises(MoneyKindMismatch, match="money kind 'wallet'"):
        Room.open(path, _ledger_settings())
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'money'").fetchone() == ("wallet",)
    db.close()


class _SlowWallet(DictWallet):
    """A :class:`DictWallet` whose debits answer once :attr:`answer` is set (asked
    off the loop: :attr:`asked` is set meanwhile)."""

    def __init__(self, balances: dict[str, int]) -> None:
        super().__init__(balances)
        self.asked, self.answer = threading.Event(), threading.Event()

    def debit(self, *args: Any, **kwargs: Any) -> str:
        self.asked.set()
        self.answer.wait(60)
        return super().debit(*args, **kwargs)


def test_a_buy_in_whose_seat_waits_for_the_commit_in_flight_is_not_given_back(
    room_db: str,
) -> None:
    """On PostgreSQL a commit runs off the loop: a buy-in the wallet paid, whose seat's
    change is made while an earlier commit of its table is in flight, is kept when that
    earlier commit ends (the next one writes its seat and forgets its note). Before, the
    end of the earlier commit gave the debit back, and the seat was then committed with
    chips the wallet no longer lacked (money made)."""
    wallet = _SlowWallet({"ann": 1000, "bob": 1000})
    room = _room(wallet, room_db)
    ann, runner = _player(room, "ann"), room.runners[0]
    release = threading.Event()

    def blocking(store: Storage) -> None:
        if store.commits_off_loop:
            release.wait(60)  # in flight until the seat's change is made

    async def scenario() -> None:
        room.handle(ann, json.dumps({"v": 2, "type": "sit", "table": 0, "buy_in": 400}))
        await asyncio.to_thread(wallet.asked.wait, 60)  # its debit noted, the wallet asked
        with runner.change():  # meanwhile a change of the table ...
            pass
        room.commit.later([blocking], lambda: None)
        room.commit.flush()  # ... whose commit is in flight (PostgreSQL)
        wallet.answer.set()
        for _ in range(60_000):  # paid, then seated in memory
            if runner.table.seats()[0] is not None:
                break
            await asyncio.sleep(0.001)
        release.set()
        await _committed(room)

    asyncio.run(scenario())
    assert runner.table.stack(0) == 400 and wallet.balances["ann"] == 600
    assert _held(room, wallet) == TOTAL
