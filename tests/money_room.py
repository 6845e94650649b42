"""Helpers of the money tests (issue 19): a room with accounts outside any event loop
(each change committed at once), signed-in players, requests and their answers, the
audit of the room's database, a hand played through the runner, and the steps the money
state machines share (:class:`RoomSteps`)."""

from __future__ import annotations

import json
from typing import Any

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import create_account
from doubleholdem.accounts.wallet import Wallet
from doubleholdem.game import Rake
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import Decision, TableConfig
from faults import fail_next_commit_statement, fail_next_write
from passwords_double import FAST

RAKED = TableConfig(
    small_blind=5, big_blind=10, seats=3, rake=Rake(500, cap=20, no_flop_no_drop=False)
)


def money_room(
    bots: int = 0,
    bankroll: int = 0,
    path: str = ":memory:",
    *,
    guests: bool = False,
    wallet: Wallet | None = None,
) -> Room:
    """A room with accounts (no running event loop: each change is committed at once),
    or of another kind of money: ``guests``, an embedder's ``wallet``."""
    settings = RoomSettings(
        tables=2,
        bots=bots,
        bot_delay=0.0,
        pause=0.0,
        configs=[RAKED],
        seed=5,
        guests=guests,
        bot_bankroll=bankroll,
        clock=lambda: 100.0,
    )
    return Room.open(path, settings, wallet=wallet)


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
    return sent(connection)


def sent(connection: Connection) -> list[dict[str, Any]]:
    """The messages sent to ``connection`` and not yet read."""
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


class RoomSteps:
    """The steps of the money state machines, taken by name: ``step("top_up", "ann", 50)``
    is ``self.top_up("ann", 50)``. The steps both machines take are here; each machine
    adds its own (``sit``, ``restart``, ...) and says how a player sends a request."""

    room: Room
    clients: dict[str, Connection]

    def request(self, name: str, **fields: Any) -> object:
        """Sends ``fields`` as ``name``'s request to the room."""
        raise NotImplementedError

    def step(self, kind: str, *args: Any) -> None:
        getattr(self, kind)(*args)

    def top_up(self, name: str, amount: int) -> None:
        self.request(name, type="top_up", amount=amount)

    def leave(self, name: str) -> None:
        self.request(name, type="leave")

    def hand(self, table: int) -> None:
        """A hand at ``table`` (the one in play finished) if one can be played."""
        runner = self.room.runners[table]
        if runner.table.in_hand or runner.table.can_start():
            play_hand(runner, start=not runner.table.in_hand)

    def everyone_leaves(self) -> None:
        """The hands in play finish and every player leaves."""
        for runner in self.room.runners.values():
            if runner.table.in_hand:
                play_hand(runner, start=False)
        for name in self.clients:
            self.request(name, type="leave")

    def fail_next_commit(self, write: bool) -> None:
        """The next commit fails: a write in it, or its ``COMMIT`` (with a wallet outside
        the database, the note of a debit's too: then the wallet is not asked)."""
        fail_next_commit(self.room, write)
