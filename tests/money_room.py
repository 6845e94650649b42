"""Helpers of the money tests (issue 19): a room with accounts outside any event loop
(each change committed at once), signed-in players, requests and their answers, the
audit of the room's database, a hand played through the runner."""

from __future__ import annotations

import json
from typing import Any

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Passwords, create_account
from doubleholdem.game import Rake
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import Decision, TableConfig
from faults import fail_next_commit_statement, fail_next_write

FAST = Passwords(time_cost=1, memory_cost=8, insecure=True)
RAKED = TableConfig(
    small_blind=5, big_blind=10, seats=3, rake=Rake(500, cap=20, no_flop_no_drop=False)
)


def money_room(bots: int = 0, bankroll: int = 0, path: str = ":memory:") -> Room:
    """A room with accounts (no running event loop: each change is committed at once)."""
    settings = RoomSettings(
        tables=2,
        bots=bots,
        bot_delay=0.0,
        pause=0.0,
        configs=[RAKED],
        seed=5,
        guests=False,
        bot_bankroll=bankroll,
        clock=lambda: 100.0,
    )
    return Room.open(path, settings)


def sign_up(room: Room, name: str, chips: int) -> Connection:
    """A new account with ``chips`` deposited, and its signed-in connection."""
    with room.store.transaction():
        create_account(room.store.db, name, "password-" + name, passwords=FAST)
        if chips:
            key = f"cashier:{name}"
            ledger.transfer(
                room.store.db, key, "deposit", ledger.CASHIER, ledger.player(name), chips
            )
    connection = room.connect()
    connection.account = name
    return connection


def send(room: Room, connection: Connection, **fields: Any) -> list[dict[str, Any]]:
    """Sends a request; the messages it was answered with."""
    room.handle(connection, json.dumps({"v": 2, **fields}))
    replies = []
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        if text is not None:
            replies.append(json.loads(text))
    return replies


def kinds(replies: list[dict[str, Any]]) -> list[str]:
    return [r.get("code", r["type"]) for r in replies if r["type"] in ("seated", "error", "result")]


def audit_ok(room: Room) -> None:
    assert audit_room(room.store.db, room.settings.snapshot_key) == {
        "ok": True,
        "problems": [],
        "unchecked": [],
    }


def play_hand(runner: TableRunner, *, start: bool = True) -> None:
    """A hand (started unless ``start`` is False) in which the bots choose and everyone
    else checks or calls."""
    if start:
        with runner.change():
            runner.table.start_hand(now=100.0)
    while runner.table.in_hand:
        legal = runner.table.legal_actions()
        assert legal is not None
        if legal.seat in runner.bots:
            runner.bot_turn(legal.seat)
            continue
        action = "call" if legal.can_call else "check"
        with runner.change(moves=True):
            runner.decide(legal.seat, Decision(action), 100.0)


def balance(room: Room, name: str) -> int:
    assert room.wallet is not None
    return room.wallet.balance(name)


def fail_next_commit(room: Room, write: bool) -> None:
    """The next commit of ``room`` fails (as on a full disk): a write in it (``write``:
    its table's row), or its ``COMMIT`` statement, the transaction left open."""
    (fail_next_write if write else fail_next_commit_statement)(room)
