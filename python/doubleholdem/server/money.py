"""Money at the tables: each table's buy-ins, top-ups, cash-outs and rake go through the
room's :class:`~doubleholdem.accounts.wallet.Wallet` (docs/server.md, "Money at the
tables").

- A **buy-in** or a **top-up** may be refused (not enough balance, a frozen account): it
  is paid at once, inside the next storage transaction (:func:`paying`), together with
  the table change it pays for; if either is refused, neither happens. The group commit
  then commits both, or, if the commit fails, rolls both back.
- A **cash-out** and a hand's **rake** are never refused: :meth:`TableMoney.settle`
  reads them from the table's own log entries of a change (``leave``: whatever took
  the seat away, a leave, a removal, a bust; ``hand_end``: its rake) and hands back the
  steps that post them in the commit of that change.

Every movement carries a key naming what it pays for, so a retry changes nothing:
``buyin:TABLE:OCCUPANCY``, ``topup:TABLE:OCCUPANCY:BOUGHT_BEFORE``,
``cashout:TABLE:OCCUPANCY``, ``rake:TABLE:HAND`` (an occupancy is the table's number for
one sitting-down, never given twice).

A table stored before the ledger existed (a database upgraded from schema 3) holds chips
from nowhere: the room enters them as the house's (an ``opening`` transaction) and each
seat of that time gives its chips back to the house as it leaves (``closing``)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from functools import partial
from typing import Any

from doubleholdem.accounts import ledger
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.wallet import LedgerWallet, Reason, Wallet
from doubleholdem.errors import DatabaseBusy, TamperedSnapshot
from doubleholdem.server.commit import Step
from doubleholdem.server.journal import restore
from doubleholdem.server.protocol import for_people
from doubleholdem.server.storage import Storage
from doubleholdem.server.survey import survey
from doubleholdem.table import Table

__all__ = [
    "PAY_PATIENCE",
    "TableMoney",
    "audit_room",
    "occupancies",
    "paying",
    "table_chips",
    "write_off",
]

PAY_PATIENCE = 0.1  # how long a payment waits for the write lock (a checkpoint resetting the log)


@contextlib.contextmanager
def paying(store: Storage) -> Iterator[None]:
    """A change that may be refused (a buy-in the balance cannot pay): it is written at
    once into ``store``'s next transaction (begun now, :meth:`Storage.reserve
    <doubleholdem.server.storage.Storage.reserve>`), which the group commit then commits
    with the table change it pays for, or rolls back with it. If the block raises, what
    it wrote is undone (a savepoint; the whole transaction, and its write lock, when it
    held nothing else) and the error raised.
    :class:`~doubleholdem.errors.DatabaseBusy` when the write lock is held elsewhere for
    more than ``PAY_PATIENCE`` seconds (nothing written)."""
    began = not store.in_transaction
    if not store.reserve(PAY_PATIENCE):
        raise DatabaseBusy("the database is busy (another process writes): try again")
    store.db.execute("SAVEPOINT paying")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            store.db.execute("ROLLBACK TO paying")
            store.db.execute("RELEASE paying")
        if began:  # nothing else is in the transaction: the write lock goes at once
            store.abandon()
        raise
    store.db.execute("RELEASE paying")


def occupancies(table: Table) -> dict[int, int]:
    """Seat -> occupancy of every occupied seat of ``table``."""
    found = {}
    for seat in range(table.config.seats):
        occupancy = table.occupancy(seat)
        if occupancy is not None:
            found[seat] = occupancy
    return found


class TableMoney:
    """The money of table ``table_id``: paid through ``wallet``, written with ``store``.
    Seats of occupancies below ``legacy_below`` were seated before the ledger."""

    def __init__(
        self,
        table_id: int,
        wallet: Wallet,
        store: Storage,
        *,
        legacy_below: int = 0,
        repairs: int = 0,
    ) -> None:
        self.table_id = table_id
        self.wallet = wallet
        self.store = store
        self.legacy_below = legacy_below
        # the table in its keys: ``T``, or ``TrN`` once a repair made it anew N times
        # (its occupancies and hands count from 0 again: the old keys are taken)
        self.name = str(table_id) if not repairs else f"{table_id}r{repairs}"
        # the default wallet writes in the storage's transaction: a savepoint undoes it
        self._transactional = isinstance(wallet, LedgerWallet)

    @contextlib.contextmanager
    def _paid(self, owner: str, amount: int, key: str, reason: Reason) -> Iterator[None]:
        """Takes ``amount`` from ``owner`` for what the block does; if the block raises,
        the payment is undone (rolled back, or for a wallet outside the database given
        back under the key ``refund:KEY``)."""
        with paying(self.store):
            self.wallet.debit(owner, self.table_id, amount, key=key, reason=reason)
            try:
                yield
            except BaseException:
                if not self._transactional:
                    self.wallet.credit(owner, self.table_id, amount, key=f"refund:{key}")
                raise

    def buy_in(
        self, table: Table, seat: int, owner: str, amount: int, *, now: float | None = None
    ) -> None:
        """``owner`` takes ``seat`` of ``table`` with ``amount`` chips from its balance
        (TH-36: the table refuses an amount out of its range, and nothing is paid)."""
        key = f"buyin:{self.name}:{table.next_occupancy}"
        with self._paid(owner, amount, key, "buy_in"):
            table.join(seat, owner, amount, now=now)

    def top_up(self, table: Table, seat: int, amount: int, *, now: float | None = None) -> None:
        """``seat`` of ``table`` adds ``amount`` chips from its owner's balance."""
        occupancy = table.occupancy(seat)
        key = f"topup:{self.name}:{occupancy}:{table.bought_in_by(seat)}"
        with self._paid(table.player(seat), amount, key, "top_up"):
            table.top_up(seat, amount, now=now)

    def settle(self, entries: list[dict[str, Any]], before: dict[int, int]) -> list[Step]:
        """The steps that post the cash-outs and rake of a change: ``entries`` the
        table's own log entries it made, ``before`` the occupancies of its seats when it
        began."""
        steps: list[Step] = []
        for entry in entries:
            kind = entry["kind"]
            if kind == "leave":
                occupancy = before[entry["seat"]]
                steps.append(partial(self._cash_out, entry["player"], occupancy, entry["amount"]))
            elif kind == "hand_end" and entry.get("rake"):
                steps.append(partial(self._rake, entry["number"], entry["rake"]))
        return steps

    def _cash_out(self, owner: str, occupancy: int, amount: int, store: Storage) -> None:
        key = f"cashout:{self.name}:{occupancy}"
        if occupancy >= self.legacy_below:
            self.wallet.credit(owner, self.table_id, amount, key=key)
        elif self._transactional:  # seated before the ledger: its chips were the house's
            source = ledger.table(self.table_id)
            ledger.transfer(store.db, key, "closing", source, ledger.HOUSE, amount)

    def _rake(self, hand: int, amount: int, store: Storage) -> None:
        self.wallet.rake(self.table_id, amount, key=f"rake:{self.name}:{hand}")

    def open_legacy(self, table: Table) -> None:
        """Enters the chips of a table older than the ledger as the house's (inside the
        storage's transaction); its seated occupancies become legacy ones."""
        self.legacy_below = table.next_occupancy
        chips = table.chips()
        if chips and self._transactional:
            target = ledger.table(self.table_id)
            key = f"opening:{self.table_id}"
            ledger.transfer(self.store.db, key, "opening", ledger.HOUSE, target, chips)
        self.store.opened(self.table_id, self.legacy_below)


def write_off(store: Storage, wallet: Wallet, table_id: int, problem: str) -> int:
    """Table ``table_id``, which a repair drops, in the ledger: its chips go to the house
    and its seats end, in the repair's transaction, under the key
    ``repair:TABLE:N`` (:meth:`LedgerWallet.write_off
    <doubleholdem.accounts.wallet.LedgerWallet.write_off>`). Returns how many chips (0
    for a wallet outside the database, whose embedding server settles the table's seats
    itself)."""
    if not isinstance(wallet, LedgerWallet):
        return 0
    key = f"repair:{table_id}:{store.repairs(table_id)}"
    return wallet.write_off(table_id, key=key, problem=problem)


def table_chips(
    db: sqlite3.Connection, key: bytes | None = None
) -> tuple[dict[int, int], list[str]]:
    """The chips on each table stored in the server database ``db`` (stacks, and the
    pot of a hand in progress: its snapshot with its moves replayed; ``key`` the
    room's snapshot key, if it has one), and the problems of the tables that cannot be
    read. Tables stored before the ledger whose chips it has not entered yet (a
    database upgraded, the room not started since) are left out."""
    tables, damage = survey(db)
    problems = [str(found) for found in damage]
    pending = {
        int(k.removeprefix("opening:"))
        for (k,) in db.execute("SELECT key FROM meta WHERE key LIKE 'opening:%'")
    }
    chips = {}
    for stored in tables:
        if stored.id in pending:
            continue
        try:
            chips[stored.id] = restore(stored, key).chips()
        except TamperedSnapshot as error:
            problems.append(str(error))
    return chips, problems


def audit_room(db: sqlite3.Connection, key: bytes | None = None) -> dict[str, Any]:
    """The ledger's audit (:func:`~doubleholdem.accounts.audit.audit`) of a server
    database, with each stored table's chips (:func:`table_chips`) held against its
    ledger account, all read in one snapshot of the database (a running server may
    write meanwhile). ``{"ok": bool, "problems": [...]}``, tables and seats numbered
    from 1 in the problems (an operator reads them: :func:`protocol.for_people
    <doubleholdem.server.protocol.for_people>`)."""
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")  # a read transaction: one consistent snapshot of the file
    try:
        chips, problems = table_chips(db, key)
        found = audit(db, table_chips=chips)
    finally:
        if own:
            db.execute("COMMIT")
    problems += found["problems"]
    return {"ok": not problems, "problems": [for_people(problem) for problem in problems]}
