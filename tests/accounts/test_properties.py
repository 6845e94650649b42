"""Property test of the ledger (hypothesis stateful): random interleavings of sign-ups,
bots, deposits, withdrawals, buy-ins, top-ups, hands with rake, cash-outs, state changes
and retried or conflicting keys, each request in its own transaction (rolled back on
error, as the server does). A model predicts every outcome, the exact error included,
and after every step the audit holds (tables' chips included), every balance is the
model's and every seat is where the model says: no chip is created or lost. On SQLite
and on PostgreSQL (fewer examples: each is a schema of its own)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from accounts_harness import FAST
from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import (
    Account,
    create_account,
    create_bot,
    ledger_account,
    set_state,
)
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.cashier import deposit, withdraw
from doubleholdem.accounts.ledger import MAX_AMOUNT
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import Connection, begin
from doubleholdem.database.url import connect
from doubleholdem.errors import (
    AccountClosed,
    AccountError,
    AccountExists,
    AccountFrozen,
    AccountStateError,
    AlreadySeated,
    InsufficientFunds,
    InvalidAmount,
    KeyConflict,
    NotSeated,
    UnknownAccount,
)
from postgres_cluster import Cluster

NAMES = st.sampled_from(["ann", "Ann", "bob", "cy", "bot1", "bot2"])
TABLES = st.integers(0, 2)
SMALL = st.integers(1, 2000)
AMOUNTS = st.one_of(SMALL, SMALL, SMALL, SMALL, st.sampled_from([MAX_AMOUNT, MAX_AMOUNT // 2]))
REFS = st.sampled_from([f"r{i}" for i in range(12)])


@dataclass
class Holder:
    name: str  # as created (the case of its first sign-up)
    bot: bool
    state: str = "active"
    balance: int = 0
    seats: dict[int, int] = field(default_factory=dict)  # table -> stack


@dataclass
class Done:
    """A request that succeeded: how to send it again, and how to send it with other
    content under the same key."""

    again: Callable[[], Any]
    conflicting: Callable[[], Any] | None
    result: Any


class Ledger(RuleBasedStateMachine):
    cluster: Cluster | None = None  # PostgreSQL's, or SQLite in memory

    def __init__(self) -> None:
        super().__init__()
        self.closing = contextlib.ExitStack()
        if self.cluster is None:
            self.db: Connection = sqlite3.connect(":memory:", isolation_level=None)
        else:
            self.db = connect(self.closing.enter_context(self.cluster.schema()))
        self.closing.callback(self.db.close)
        ensure_schema(self.db)
        self.wallet = LedgerWallet(self.db)
        self.holders: dict[str, Holder] = {}
        self.house = 0
        self.cashier = 0
        self.refs: dict[str, tuple[str, str, int]] = {}  # ref -> (kind, name, amount)
        self.done: list[Done] = []
        self.counter = 0

    def teardown(self) -> None:
        self.closing.close()

    # helpers

    def _key(self) -> str:
        self.counter += 1
        return f"k{self.counter}"

    def _call(self, expected: type[Exception] | None, request: Callable[[], Any]) -> Any:
        """Runs ``request`` in a transaction; the error it raises must be ``expected``
        (``None``: it must succeed). A failed request is rolled back."""
        begin(self.db)
        try:
            result = request()
        except AccountError as error:
            self.db.execute("ROLLBACK")
            assert type(error) is expected, f"{error!r} where {expected} was expected"
            return None
        self.db.execute("COMMIT")
        assert expected is None, f"succeeded where {expected} was expected"
        return result

    def _name(self, data: st.DataObject) -> str:
        """A name: mostly an existing account's (in any case), else any."""
        known = sorted(h.name for h in self.holders.values())
        if known and data.draw(st.integers(0, 9)) < 8:
            name = data.draw(st.sampled_from(known))
            return name.upper() if data.draw(st.booleans()) else name
        return data.draw(NAMES)

    def _holder(self, name: str) -> Holder | None:
        return self.holders.get(name.lower())

    def _fits(self, *balances: int) -> bool:
        return all(-MAX_AMOUNT <= b <= MAX_AMOUNT for b in balances)

    def _table_total(self, table_id: int) -> int:
        return sum(h.seats.get(table_id, 0) for h in self.holders.values())

    # accounts

    @initialize()
    def first_accounts(self) -> None:
        self._sign_up("ann", 5000)
        self._sign_up("bob", 1000)
        self._sign_up("bot1", 2000)

    @rule(name=NAMES, welcome=st.sampled_from([0, 100, 1000, 5000]))
    def sign_up(self, name: str, welcome: int) -> None:
        self._sign_up(name, welcome)

    def _sign_up(self, name: str, welcome: int) -> None:
        if self._holder(name) is not None:
            expected: type[Exception] | None = AccountExists
        else:
            expected = None
        bot = name.startswith("bot")
        chips = (welcome or 500) if bot else welcome  # a bot's bankroll is never 0
        if bot:
            made = self._call(expected, lambda: create_bot(self.db, name, chips))
        else:
            made = self._call(
                expected,
                lambda: create_account(
                    self.db, name, "correct horse", passwords=FAST, welcome=welcome
                ),
            )
        if made is not None:
            holder = Holder(name, bot, balance=chips)
            self.holders[name.lower()] = holder
            self.house -= holder.balance

    @rule(data=st.data(), state=st.sampled_from(["active"] * 4 + ["frozen"] * 2 + ["closed"]))
    def change_state(self, data: st.DataObject, state: str) -> None:
        name = self._name(data)
        holder = self._holder(name)
        allowed = {("active", "frozen"), ("frozen", "active"), ("active", "closed")}
        allowed.add(("frozen", "closed"))
        if holder is None:
            expected: type[Exception] | None = UnknownAccount
        elif (holder.state, state) not in allowed:
            expected = AccountStateError
        else:
            expected = None
        if self._call(expected, lambda: set_state(self.db, name, state)) is not None:
            assert holder is not None
            holder.state = state

    # the cashier

    def _by_ref(self, kind: str, name: str, amount: int, ref: str) -> type[Exception] | None:
        """The error a reference used before gives, or None if it is new or a retry."""
        holder = self._holder(name)
        assert holder is not None
        if ref in self.refs and self.refs[ref] != (kind, holder.name, amount):
            return KeyConflict
        return None

    @rule(data=st.data(), amount=AMOUNTS, ref=REFS)
    def deposit(self, data: st.DataObject, amount: int, ref: str) -> None:
        self._cashier("deposit", data, amount, ref)

    @rule(data=st.data(), amount=AMOUNTS, ref=REFS)
    def withdraw(self, data: st.DataObject, amount: int, ref: str) -> None:
        self._cashier("withdrawal", data, amount, ref)

    def _cashier(self, kind: str, data: st.DataObject, amount: int, ref: str) -> None:
        """A deposit (chips from the cashier) or a withdrawal (chips to it), against the
        model."""
        name = self._name(data)
        holder = self._holder(name)
        expected: type[Exception] | None = None
        if holder is None:
            expected = UnknownAccount
        elif ref in self.refs:
            expected = self._by_ref(kind, name, amount, ref)
        elif kind == "deposit":
            expected = self._deposit_refused(holder, amount)
        else:
            expected = self._withdrawal_refused(holder, amount)
        move = deposit if kind == "deposit" else withdraw
        result = self._call(expected, lambda: move(self.db, name, amount, ref=ref))
        if result is not None and ref not in self.refs:
            assert holder is not None
            credit = amount if kind == "deposit" else -amount
            holder.balance += credit
            self.cashier -= credit
            self.refs[ref] = (kind, holder.name, amount)

    def _deposit_refused(self, holder: Holder, amount: int) -> type[Exception] | None:
        if holder.state == "closed":
            return AccountClosed
        if holder.bot:
            return AccountError
        if not self._fits(holder.balance + amount, self.cashier - amount):
            return InvalidAmount
        return None

    def _withdrawal_refused(self, holder: Holder, amount: int) -> type[Exception] | None:
        if holder.state != "active":
            return AccountFrozen if holder.state == "frozen" else AccountClosed
        if holder.bot:
            return AccountError
        if holder.balance < amount:
            return InsufficientFunds
        if not self._fits(self.cashier + amount):
            return InvalidAmount
        return None

    # seats

    def _debit_error(
        self, holder: Holder | None, table_id: int, amount: int, top_up: bool
    ) -> type[Exception] | None:
        if holder is None:
            return UnknownAccount
        if holder.state != "active":
            return AccountFrozen if holder.state == "frozen" else AccountClosed
        if top_up != (table_id in holder.seats):
            return NotSeated if top_up else AlreadySeated
        if holder.balance < amount:
            return InsufficientFunds
        if not self._fits(self._table_total(table_id) + amount):
            return InvalidAmount
        return None

    @rule(data=st.data(), table_id=TABLES)
    def buy_in(self, data: st.DataObject, table_id: int) -> None:
        self._debit(data, self._name(data), table_id, top_up=False)

    @rule(data=st.data())
    def top_up(self, data: st.DataObject) -> None:
        seated = sorted((h.name, t) for h in self.holders.values() for t in h.seats)
        if seated and data.draw(st.integers(0, 4)):
            name, table_id = data.draw(st.sampled_from(seated))
        else:
            name, table_id = self._name(data), data.draw(TABLES)
        self._debit(data, name, table_id, top_up=True)

    def _debit(self, data: st.DataObject, name: str, table_id: int, *, top_up: bool) -> None:
        holder = self._holder(name)
        affordable = holder is not None and holder.balance > 0 and data.draw(st.integers(0, 3))
        amount = data.draw(st.integers(1, holder.balance) if affordable else AMOUNTS)
        expected = self._debit_error(holder, table_id, amount, top_up)
        key = self._key()
        reason = "top_up" if top_up else "buy_in"

        def send(amount: int = amount) -> Any:
            return self.wallet.debit(name, table_id, amount, key=key, reason=reason)  # type: ignore[arg-type]

        result = self._call(expected, send)
        if result is not None:
            assert holder is not None
            holder.balance -= amount
            holder.seats[table_id] = holder.seats.get(table_id, 0) + amount
            other = amount - 1 if amount > 1 else 2
            self.done.append(Done(send, lambda: send(other), result))

    @rule(data=st.data())
    def cash_out(self, data: st.DataObject) -> None:
        seated = sorted((h.name, t) for h in self.holders.values() for t in h.seats)
        if seated and data.draw(st.integers(0, 4)):
            name, table_id = data.draw(st.sampled_from(seated))
        else:
            name, table_id = self._name(data), data.draw(TABLES)
        holder = self._holder(name)
        stack = 0 if holder is None else holder.seats.get(table_id, 0)
        expected: type[Exception] | None = None
        if holder is None:
            expected = UnknownAccount
        elif table_id not in holder.seats:
            expected = NotSeated
        elif not self._fits(holder.balance + stack):
            expected = InvalidAmount
        key = self._key()

        def send(amount: int = stack) -> Any:
            return self.wallet.credit(name, table_id, amount, key=key)

        result = self._call(expected, send)
        if result is not None:
            assert holder is not None
            holder.balance += holder.seats.pop(table_id)
            other = stack - 1 if stack else 1
            self.done.append(Done(send, lambda: send(other), result))

    @precondition(lambda self: any(h.seats for h in self.holders.values()))
    @rule(data=st.data())
    def hand(self, data: st.DataObject) -> None:
        """A hand at a table with seats: the stacks are dealt again among its seats
        (chips move between seats, not in the ledger) and the rake leaves the table."""
        table_id = data.draw(
            st.sampled_from(sorted({t for h in self.holders.values() for t in h.seats}))
        )
        seated = [h for h in self.holders.values() if table_id in h.seats]
        total = self._table_total(table_id)
        rake = data.draw(st.sampled_from(sorted({0, min(total, 1), min(total, 17), total})))
        key = self._key()
        if rake:
            result = self._call(None, lambda: self.wallet.rake(table_id, rake, key=key))
            self.done.append(
                Done(
                    lambda: self.wallet.rake(table_id, rake, key=key),
                    lambda: self.wallet.rake(table_id, rake - 1 or 2, key=key),
                    result,
                )
            )
        left = total - rake
        for holder in seated[:-1]:
            holder.seats[table_id] = data.draw(st.integers(0, left))
            left -= holder.seats[table_id]
        seated[-1].seats[table_id] = left
        self.house += rake

    @precondition(lambda self: self.done)
    @rule(data=st.data(), conflicting=st.booleans())
    def retry(self, data: st.DataObject, conflicting: bool) -> None:
        """A request sent again under its key: the first result, nothing changed; with
        other content: KeyConflict, nothing changed."""
        done = data.draw(st.sampled_from(self.done))
        if conflicting and done.conflicting is not None:
            self._call(KeyConflict, done.conflicting)
        else:
            assert self._call(None, done.again) == done.result

    # after every step

    @invariant()
    def the_audit_holds(self) -> None:
        tables = {t: self._table_total(t) for t in range(3)}
        result = audit(self.db, table_chips=tables)
        assert result == {"ok": True, "problems": []}

    @invariant()
    def balances_and_seats_are_the_models(self) -> None:
        assert ledger.balance(self.db, ledger.HOUSE) == self.house
        assert ledger.balance(self.db, ledger.CASHIER) == self.cashier
        for holder in self.holders.values():
            row = self.db.execute(
                "SELECT id, name, role, state, created FROM accounts WHERE name = ?",
                (holder.name,),
            ).fetchone()
            assert row[1] == holder.name and row[3] == holder.state
            account = Account(*row)
            assert ledger.balance(self.db, ledger_account(account)) == holder.balance
            assert self.wallet.seats(holder.name) == sorted(holder.seats)


Ledger.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLedger = Ledger.TestCase


def test_the_ledger_holds_on_postgresql(postgres: Cluster) -> None:
    class OnPostgres(Ledger):
        cluster = postgres

    run_state_machine_as_test(
        OnPostgres,
        settings=settings(
            max_examples=8,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
