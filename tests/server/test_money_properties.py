"""The audit holds after every step of random interleavings at the room (issue 19):
sign-ups (accounts made by the library), deposits, buy-ins, top-ups, hands with rake,
leaves, removals between and during hands, retried keys and failed commits. After each
step the database's audit (each table's chips against its ledger account, every balance
against its entries, deposits - withdrawals == balances + chips at tables + house) is
clean."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from databases import fresh_database
from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import create_account
from doubleholdem.database.connection import Connection
from doubleholdem.database.failure import database_errors
from doubleholdem.database.url import connect
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.tables.room import Room
from faults import disarm
from money_room import FAST, RoomSteps, kinds, money_room, send
from postgres_cluster import Cluster

NAMES = ["ann", "bob", "cy", "dee"]  # signed up first; "eve" when the plan says

steps = st.lists(
    st.one_of(
        st.tuples(st.just("sign_up"), st.just("eve"), st.integers(0, 3000)),
        st.tuples(st.just("deposit"), st.sampled_from([*NAMES, "eve"]), st.integers(1, 2000)),
        st.tuples(
            st.just("sit"),
            st.sampled_from(NAMES),
            st.integers(0, 1),
            st.sampled_from([100, 200, 450, 1000, 1500]),
        ),
        st.tuples(st.just("top_up"), st.sampled_from(NAMES), st.sampled_from([1, 50, 400])),
        st.tuples(st.just("hand"), st.integers(0, 1)),
        st.tuples(st.just("leave"), st.sampled_from(NAMES)),
        st.tuples(st.just("remove"), st.sampled_from(NAMES), st.booleans()),
        st.tuples(st.just("retry"), st.sampled_from(NAMES)),
        st.tuples(st.just("fail_next_commit"), st.booleans()),
    ),
    max_size=30,
)


class World(RoomSteps):
    """A room with accounts and the signed-in connections of its players."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.room: Room = money_room(bots=1, bankroll=1200, path=path)
        self.clients: dict[str, Any] = {}
        self.deposits = 0
        self.failures = 0  # commits still to fail

    @property
    def db(self) -> Connection:
        return self.room.store.db

    def sign_up(self, name: str, welcome: int) -> None:
        if name in self.clients:
            return
        with self.room.store.transaction():
            create_account(self.db, name, "password-" + name, passwords=FAST, welcome=welcome)
        connection = self.room.connect()
        connection.account = name
        self.clients[name] = connection

    def deposit(self, name: str, amount: int) -> None:
        if name not in self.clients:
            return
        self.deposits += 1
        with self.room.store.transaction():
            key = f"cashier:d{self.deposits}"
            ledger.transfer(self.db, key, "deposit", ledger.CASHIER, ledger.player(name), amount)

    def request(self, player: str, **fields: Any) -> list[str]:
        connection = self.clients.get(player)
        if connection is None:
            return []
        return kinds(send(self.room, connection, **fields))

    def remove(self, name: str, during_hand: bool) -> None:
        """What a room's removal of an absent seat does (the lifecycle): the seat leaves
        when it is not in a hand, and its token stops."""
        connection = self.clients.get(name)
        if connection is None or connection.seat is None or connection.table is None:
            return
        runner = self.room.runners[connection.table]
        seat = connection.seat
        if during_hand and not runner.table.in_hand and runner.table.can_start():
            with runner.change():
                runner.table.start_hand(now=100.0)
        with runner.change():
            runner.table.leave_after_hand(seat, now=100.0)
            runner.release(seat)

    def retry(self, name: str) -> None:
        """The last buy-in, top-up or cash-out of ``name`` posted again with its key:
        nothing changes."""
        if name not in self.clients:
            return
        found = self.db.execute(
            "SELECT t.key FROM ledger_transactions t JOIN ledger_entries e ON e.seq = t.seq "
            "JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'player' "
            "AND a.name = ? AND t.kind IN ('buy_in', 'top_up', 'cash_out') "
            "ORDER BY t.seq DESC LIMIT 1",
            (name,),
        ).fetchone()
        if found is None:
            return
        posted = ledger.find(self.db, found[0])
        assert posted is not None
        wallet = self.room.wallet
        assert wallet is not None
        transfer = posted.transfer
        table_id = int(posted.key.split(":")[1])  # buyin:TABLE:..., topup:..., cashout:...
        head = ledger.head(self.db)
        with self.room.store.transaction():
            if transfer.kind == "cash_out":
                again = wallet.credit(name, table_id, transfer.amount, key=posted.key)
            else:
                again = wallet.debit(
                    name, table_id, transfer.amount, key=posted.key, reason=transfer.kind
                )
        assert again == posted and ledger.head(self.db) == head

    def disarm(self) -> None:
        """No more failed commits."""
        disarm(self.room)
        self.room.commit.writable()

    def audit(self) -> None:
        """The audit of the database as committed, read on a connection of its own."""
        db = connect(self.path)
        try:
            assert audit_room(db) == {"ok": True, "problems": [], "unchecked": []}
        finally:
            db.close()

    def step(self, kind: str, *args: Any) -> None:
        with contextlib.suppress(*database_errors()):  # the test's own transaction failed
            super().step(kind, *args)
        self.room.commit.writable()  # a refusing room takes writes again when it can

    def sit(self, name: str, table: int, amount: int) -> None:
        self.request(name, type="sit", table=table, name=name, buy_in=amount)


def _plays_out(
    welcome: list[int], plan: list[tuple[Any, ...]], postgres: Cluster | None = None
) -> None:
    """Signs up the players with ``welcome`` chips, plays ``plan`` checking the audit
    after each step, then everyone leaves: every human seat ends, all comes back (on
    SQLite, or on PostgreSQL in a schema of ``postgres``)."""
    with fresh_database(postgres) as path:
        _plays_out_on(path, welcome, plan)


def _plays_out_on(path: str, welcome: list[int], plan: list[tuple[Any, ...]]) -> None:
    world = World(path)
    try:
        for name, chips in zip(NAMES, welcome):
            world.sign_up(name, chips)
        world.audit()
        for step in plan:
            world.step(*step)
            world.audit()
        world.disarm()
        world.everyone_leaves()
        world.audit()
        for runner in world.room.runners.values():
            humans = [s for s, p in enumerate(runner.table.seats()) if p and s not in runner.bots]
            assert humans == []
            bots = sum(runner.table.stack(s) for s in runner.bots)
            assert ledger.balance(world.db, ledger.table(runner.id)) == bots
    finally:
        disarm(world.room)
        world.room.store.close()


LEAVE_NOT_COMMITTED = (
    [0, 0, 0, 200],
    [("sit", "dee", 0, 200), ("fail_next_commit", False), ("leave", "dee")],
)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_seat_whose_leave_was_not_committed_can_leave_again(
    database: str, request: pytest.FixtureRequest
) -> None:
    """Found by the property test: the leave's ``COMMIT`` fails, the table goes back to
    dee seated, and her connection must hold the seat again (it held none: her second
    leave was refused, her chips stuck at the table)."""
    postgres = request.getfixturevalue("postgres") if database == "postgresql" else None
    _plays_out(*LEAVE_NOT_COMMITTED, postgres)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 3000), min_size=len(NAMES), max_size=len(NAMES)), steps)
@example(*LEAVE_NOT_COMMITTED)
def test_the_audit_holds_after_every_step(welcome: list[int], plan: list[tuple[Any, ...]]) -> None:
    _plays_out(welcome, plan)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 3000), min_size=len(NAMES), max_size=len(NAMES)), steps)
def test_the_audit_holds_after_every_step_on_postgresql(
    postgres: Cluster, welcome: list[int], plan: list[tuple[Any, ...]]
) -> None:
    """The same on PostgreSQL, fewer examples (each a schema of its own)."""
    _plays_out(welcome, plan, postgres)
