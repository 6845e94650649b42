"""Money at the tables: each table's buy-ins, top-ups, cash-outs and rake go through the
room's :class:`~doubleholdem.accounts.wallet.Wallet` (docs/server.md, "Money at the
tables").

- A **buy-in** or a **top-up** may be refused (not enough balance, a frozen account): it
  is paid at once, inside the next storage transaction (:func:`paying`), together with
  the table change it pays for; if either is refused, neither happens. The group commit
  then commits both, or, if the commit fails, rolls both back.
- A **cash-out** and a hand's **rake** are never refused: :meth:`TableMoney.settle`
  reads them from the table's own entries of a change
  (:mod:`~doubleholdem.table.entries`: a :class:`~doubleholdem.table.entries.Leave`,
  whatever took the seat away, a leave, a removal, a bust, with the occupancy it ends;
  a :class:`~doubleholdem.table.entries.HandEnd` with its rake) and hands back the
  steps that post them in the commit of that change.

Every movement carries a key naming what it pays for, so a retry changes nothing:
``buyin:TABLE:OCCUPANCY``, ``topup:TABLE:OCCUPANCY:BOUGHT_BEFORE``,
``cashout:TABLE:OCCUPANCY``, ``rake:TABLE:HAND`` (an occupancy is the table's number for
one sitting-down, never given twice).

A wallet outside the database (an embedding server's) cannot share the transactions:
its calls are noted in the database and made when their fate is known
(:mod:`doubleholdem.server.money.wallet_calls`), a debit's key ending ``#N``; and other rooms
may share it, so the table in its keys is ``ROOM.TABLE`` (``ROOM`` the database's own
random name).

A table stored before the ledger existed (a database upgraded from schema 3) holds chips
from nowhere: the room enters them as the house's (an ``opening`` transaction) and each
seat of that time gives its chips back to the house as it leaves (``closing``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from functools import partial
from typing import Any

from doubleholdem.accounts import ledger
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.wallet import LedgerWallet, Reason, Wallet, WritesOff
from doubleholdem.database.connection import Connection, begin
from doubleholdem.errors import (
    DatabaseBusy,
    DoubleHoldemError,
    TamperedSnapshot,
    WalletFailed,
    WalletUnavailable,
)
from doubleholdem.server.money.wallet_calls import (
    WalletCall,
    count_failure,
    finish,
    finish_through,
    finished,
    log_failure,
    note,
    noted,
    owed_problems,
    retry_failed,
)
from doubleholdem.server.money.wallet_gate import WalletGate
from doubleholdem.server.storage.commit import Step, running_loop
from doubleholdem.server.storage.database import money_kind
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.storage.survey import meta_int, survey
from doubleholdem.server.storage.tournament_rows import pool_problems
from doubleholdem.table import Table
from doubleholdem.table.entries import Entry, HandEnd, Leave
from doubleholdem.wording import Wording, for_people, joined, table_said

__all__ = [
    "PAY_PATIENCE",
    "TableMoney",
    "audit_room",
    "occupancies",
    "paying",
    "table_chips",
    "unchecked_tables",
    "write_off",
]

_log = logging.getLogger("doubleholdem.server")
PAY_PATIENCE = 0.1  # how long a payment waits for the write lock (a checkpoint resetting the log)


@contextlib.contextmanager
def paying(store: Storage) -> Iterator[None]:
    """A change that may be refused (a buy-in the balance cannot pay): it is written at
    once into ``store``'s next transaction (begun now, :meth:`Storage.reserve
    <doubleholdem.server.storage.storage.Storage.reserve>`), which the group commit then commits
    with the table change it pays for, or rolls back with it. If the block raises, what
    it wrote is undone (a savepoint; the whole transaction, and its write lock, when it
    held nothing else) and the error raised.
    :class:`~doubleholdem.errors.DatabaseBusy` when the write lock is held elsewhere for
    more than ``PAY_PATIENCE`` seconds (nothing written)."""
    began = not store.in_transaction
    _reserve(store)
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


def _reserve(store: Storage) -> None:
    """Begins ``store``'s next transaction now; :class:`DatabaseBusy` when the write
    lock is held elsewhere for more than ``PAY_PATIENCE`` seconds."""
    if not store.reserve(PAY_PATIENCE):
        raise DatabaseBusy("the database is busy (another process writes): try again")


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
    Seats of occupancies below ``legacy_below`` were seated before the ledger; ``room``
    names the room in the keys (:meth:`Storage.room_name
    <doubleholdem.server.storage.storage.Storage.room_name>`, for a wallet outside the
    database); ``clock`` the room's, for the backoff of such a wallet's gate."""

    def __init__(
        self,
        table_id: int,
        wallet: Wallet,
        store: Storage,
        *,
        legacy_below: int = 0,
        repairs: int = 0,
        room: str = "",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.table_id = table_id
        self.wallet = wallet
        self.store = store
        self.legacy_below = legacy_below
        # the table in its keys: ``T``, or ``TrN`` once a repair made it anew N times
        # (its occupancies and hands count from 0 again: the old keys are taken), after
        # ``room`` and a dot for a wallet that other rooms may share
        table = str(table_id) if not repairs else f"{table_id}r{repairs}"
        self.name = f"{room}.{table}" if room else table
        # the default wallet writes in the storage's transaction: a savepoint undoes it;
        # another's calls are noted (module wallet_calls), and these notes known done
        # are forgotten with the next commit of the table
        self.outside = not isinstance(wallet, LedgerWallet)
        self._settled: list[int] = []
        # served (an event loop runs), such a wallet is called off the loop through the
        # table's gate (module wallet_gate); a movement paid so (:meth:`prepay`) holds
        # :attr:`moving` from its key to its change, its note in ``_paying`` meanwhile
        self.gate = WalletGate() if clock is None else WalletGate(clock)
        self._moving: asyncio.Lock | None = None
        self._paying: set[int] = set()
        self._finisher: asyncio.Task[None] | None = None
        self._finish_all = False  # the finisher's next turn finishes every call noted

    @property
    def moving(self) -> asyncio.Lock:
        """Held by a movement paid off the loop from its key to its change (so that
        its key, which names the occupancy and what it bought before, stays true)."""
        if self._moving is None:
            self._moving = asyncio.Lock()
        return self._moving

    def buy_in_key(self, table: Table) -> str:
        """The key of a buy-in at ``table`` now."""
        return f"buyin:{self.name}:{table.next_occupancy}"

    def top_up_key(self, table: Table, seat: int) -> str:
        """The key of a top-up of ``seat`` of ``table`` now."""
        return f"topup:{self.name}:{table.occupancy(seat)}:{table.bought_in_by(seat)}"

    @contextlib.contextmanager
    def _paid(
        self, owner: str, amount: int, key: str, reason: Reason, paid: WalletCall | None
    ) -> Iterator[None]:
        """Takes ``amount`` from ``owner`` for what the block does; if the block raises,
        the payment is undone (rolled back, or for a wallet outside the database given
        back: :meth:`_paid_outside`). ``paid``: the debit made already off the loop
        (:meth:`prepay`), under ``key``."""
        if paid is not None:
            with self._prepaid(paid, key):
                yield
            return
        if self.outside:
            call = WalletCall("debit", self.table_id, key, owner, amount, reason)
            with self._paid_outside(call):
                yield
            return
        with paying(self.store):
            self.wallet.debit(owner, self.table_id, amount, key=key, reason=reason)
            yield

    async def prepay(self, owner: str, amount: int, key: str, reason: Reason) -> WalletCall:
        """The debit of ``amount`` from ``owner`` under ``key`` for a change about to be
        made, off the event loop through :attr:`gate` (served, with a wallet outside the
        database; hold :attr:`moving` from the key to the change): noted and committed
        first, then asked. The noted call, to hand the change (``paid``), which forgets
        the note in its commit, or gives it back if it raises. A refusal is raised as it
        is (nothing taken); the wallet's failure as :class:`WalletFailed` (whatever it may
        have taken is given back, now or later), :class:`WalletUnavailable` when the
        gate is closed or the wallet still owes a give-back at this table (nothing
        asked, nothing noted)."""
        await self._retry_owed_now()
        self._check_open()
        call = self._note_first(WalletCall("debit", self.table_id, key, owner, amount, reason))
        self._paying.add(call.number)
        debit = partial(
            self.wallet.debit, owner, self.table_id, amount, key=call.wallet_key, reason=reason
        )
        try:
            await self.gate.call(debit)
        except (WalletUnavailable, DoubleHoldemError):  # not asked, or refused: none taken
            self._paying.discard(call.number)
            self._settled.append(call.number)
            raise
        except Exception as error:  # the wallet's own failure: it may have taken it
            self._paying.discard(call.number)
            count_failure(self.store, call, error, "payment")  # given back once it answers
            raise WalletFailed(f"the wallet failed the payment ({error}): try again") from None
        return call

    def give_back(self, call: WalletCall) -> None:
        """The debit ``call`` (:meth:`prepay`) pays for no change after all: given back
        soon, off the loop."""
        self._paying.discard(call.number)
        self.finish_noted()

    def _check_open(self) -> None:
        """:class:`WalletUnavailable` while the gate is closed, or while the wallet still
        owes a give-back at this table: a wallet that keeps seats refuses a buy-in while
        a seat given back is still open there, and each movement owes at most one."""
        why = self.gate.closed()
        if why is None and any(c.method == "debit" and c.attempts for c in self._noted()):
            why = "the wallet still owes a give-back at this table"
        if why is not None:
            raise WalletUnavailable(f"{why}: try again")

    def _noted(self) -> list[WalletCall]:
        return noted(self.store, self.table_id)

    @contextlib.contextmanager
    def _prepaid(self, call: WalletCall, key: str) -> Iterator[None]:
        """What the block does is paid by ``call`` (:meth:`prepay`) if its key is
        ``key``; if the block raises, or the key is another (the seat changed while the
        wallet was asked), it is given back."""
        self._paying.discard(call.number)
        try:
            if call.key != key:
                raise WalletFailed("the seat changed while the wallet was asked: try again")
            yield
        except BaseException:
            self.give_back(call)
            raise
        self._settled.append(call.number)

    @contextlib.contextmanager
    def _paid_outside(self, call: WalletCall) -> Iterator[None]:
        """The debit ``call`` to a wallet outside the database, for what the block does,
        made at once (no event loop runs): noted and committed first
        (:meth:`_note_first`), then asked; if the block raises, or the wallet fails
        (:class:`WalletFailed`), given back. Its note goes with the commit of the change
        (:meth:`settle`), or is a debit to give back if that commit fails
        (:meth:`finish_noted`) or never comes (a restart). What the wallet failed and
        still owes about the table is tried first; a give-back still owed refuses the
        debit (:meth:`_check_open`)."""
        retry_failed(self.store, self.wallet, self.table_id)
        if any(c.method == "debit" and c.attempts for c in self._noted()):
            raise WalletUnavailable("the wallet still owes a give-back at this table: try again")
        call = self._note_first(call)
        try:
            self.wallet.debit(
                call.owner, self.table_id, call.amount, key=call.wallet_key, reason=call.reason
            )
        except DoubleHoldemError:  # refused: nothing was taken
            self._settled.append(call.number)
            raise
        except Exception as error:  # the wallet's own failure: it may have taken it
            log_failure(call, f"{type(error).__name__}: {error}", "payment")
            self._give_back_now(call)
            raise WalletFailed(f"the wallet failed the payment ({error}): try again") from None
        try:
            yield
        except BaseException:
            self._give_back_now(call)
            raise
        self._settled.append(call.number)

    def _note_first(self, call: WalletCall) -> WalletCall:
        """Notes the debit ``call`` in a transaction committed now (before the wallet
        is asked); :class:`DatabaseBusy` if the database cannot take it at once."""
        try:
            _reserve(self.store)
            with self.store.transaction():
                return note(self.store, call)
        except sqlite3.Error as error:
            raise DatabaseBusy(f"the database refuses writes for now ({error})") from None

    def _give_back_now(self, call: WalletCall) -> None:
        """Gives the debit ``call`` back at once if the wallet can; else its note stays,
        to give back after the next commit (:meth:`finish_noted`) or at a start."""
        self._settled += finished(self.store, self.wallet, [call])

    def buy_in(
        self,
        table: Table,
        seat: int,
        owner: str,
        amount: int,
        *,
        now: float | None = None,
        paid: WalletCall | None = None,
    ) -> None:
        """``owner`` takes ``seat`` of ``table`` with ``amount`` chips from its balance
        (TH-36: the table refuses an amount out of its range, and nothing is paid);
        ``paid``: the debit made already (:meth:`prepay`)."""
        with self._paid(owner, amount, self.buy_in_key(table), "buy_in", paid):
            table.join(seat, owner, amount, now=now)

    def top_up(
        self,
        table: Table,
        seat: int,
        amount: int,
        *,
        now: float | None = None,
        paid: WalletCall | None = None,
    ) -> None:
        """``seat`` of ``table`` adds ``amount`` chips from its owner's balance;
        ``paid``: the debit made already (:meth:`prepay`)."""
        key = self.top_up_key(table, seat)
        with self._paid(table.player(seat), amount, key, "top_up", paid):
            table.top_up(seat, amount, now=now)

    async def balance(self, owner: str) -> int:
        """``owner``'s balance in the wallet, asked off the loop through :attr:`gate`."""
        return await self.gate.call(partial(self.wallet.balance, owner), probe=True)

    def settle(self, entries: list[Entry]) -> list[Step]:
        """The steps that post the cash-outs and rake of a change: ``entries`` the
        table's own entries it made (each :class:`Leave` names the occupancy it ends,
        which keys its cash-out)."""
        steps: list[Step] = []
        if self._settled:
            numbers, self._settled = self._settled, []
            steps.append(partial(Storage.forget_wallet_calls, numbers=numbers))
        for entry in entries:
            if type(entry) is Leave:
                cash_out = partial(self._cash_out, entry.player, entry.occupancy, entry.amount)
                steps.append(cash_out)
            elif type(entry) is HandEnd and entry.rake:
                steps.append(partial(self._rake, entry.number, entry.rake))
        return steps

    def _cash_out(self, owner: str, occupancy: int, amount: int, store: Storage) -> None:
        key = f"cashout:{self.name}:{occupancy}"
        if occupancy >= self.legacy_below:
            self._pay(store, WalletCall("credit", self.table_id, key, owner, amount))
        elif not self.outside:  # seated before the ledger: its chips were the house's
            source = ledger.table(self.table_id)
            ledger.transfer(store.db, key, "closing", source, ledger.HOUSE, amount)

    def _rake(self, hand: int, amount: int, store: Storage) -> None:
        key = f"rake:{self.name}:{hand}"
        self._pay(store, WalletCall("rake", self.table_id, key, amount=amount))

    def _pay(self, store: Storage, call: WalletCall) -> None:
        """A credit or a rake, in the commit of its change: written at once to the
        ledger; for a wallet outside the database noted, and made once committed
        (:meth:`finish_noted`)."""
        if self.outside:
            note(store, call)
        else:
            finish(self.wallet, call)

    def finish_noted(self) -> None:
        """Finishes what the calls noted for this table still owe
        (:func:`~doubleholdem.server.money.wallet_calls.finish`), right after a commit ended,
        committed or failed: then no change of the table is under way, so a debit still
        noted paid for no seat written (its seat's commit failed, the table refused it,
        the wallet failed) and is given back, and a credit or a rake noted is committed
        and made. Served, off the loop through :attr:`gate`, soon (:meth:`_finish_soon`;
        a debit being paid for a change to come, :meth:`prepay`, is left alone)."""
        if running_loop() is not None:
            self._finish_soon(everything=True)
            return
        calls = self._unsettled()
        if calls is not None:
            self._settled += finished(self.store, self.wallet, calls)

    def retry_owed(self) -> None:
        """Served: the calls the wallet failed about this table are tried again soon,
        through :attr:`gate` (their fate is known)."""
        self._finish_soon(everything=False)

    def _unsettled(self, *, everything: bool = True) -> list[WalletCall] | None:
        """The calls noted for this table to finish (all, or those the wallet failed),
        or ``None`` if the database cannot say."""
        skip = set(self._settled) | self._paying
        try:
            calls = self._noted()
        except sqlite3.Error:  # the database fails: what is noted is finished at a restart
            _log.exception("the wallet calls of table %d cannot be read", self.table_id + 1)
            return None
        return [c for c in calls if c.number not in skip and (everything or c.attempts)]

    def _finish_soon(self, *, everything: bool) -> None:
        """Starts the table's one task that finishes its calls through the gate, or
        has the one running look again once done."""
        self._finish_all = self._finish_all or everything
        if self._finisher is None or self._finisher.done():
            self._finisher = _spawn(self._finish_calls())

    async def _finish_calls(self) -> None:
        while True:
            everything, self._finish_all = self._finish_all, False
            calls = self._unsettled(everything=everything)
            if calls:
                self._settled += await finish_through(self.gate, self.store, self.wallet, calls)
            if not self._finish_all:
                return

    def calling(self) -> bool:
        """Whether the table's finisher is making calls to the wallet."""
        return self._finisher is not None and not self._finisher.done()

    async def calls_ended(self) -> None:
        """Until the calls the table's finisher makes have ended (a test, a stop)."""
        while self._finisher is not None and not self._finisher.done():
            await asyncio.wait([self._finisher])

    async def _retry_owed_now(self) -> None:
        """The calls the wallet failed about this table, tried again through the gate
        before a new debit (after those the finisher makes)."""
        if self._finisher is not None and not self._finisher.done():
            await asyncio.shield(self._finisher)
        calls = self._unsettled(everything=False)
        if calls:
            self._settled += await finish_through(self.gate, self.store, self.wallet, calls)

    def open_legacy(self, table: Table) -> None:
        """Enters the chips of a table older than the ledger as the house's (inside the
        storage's transaction); its seated occupancies become legacy ones."""
        self.legacy_below = table.next_occupancy
        chips = table.chips()
        if chips and not self.outside:
            target = ledger.table(self.table_id)
            key = f"opening:{self.table_id}"
            ledger.transfer(self.store.db, key, "opening", ledger.HOUSE, target, chips)
        self.store.opened(self.table_id, self.legacy_below)


_TASKS: set[asyncio.Task[None]] = set()  # running, kept from the garbage collector


def _spawn(work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    task = asyncio.get_running_loop().create_task(work)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


def write_off(store: Storage, wallet: Wallet | None, table_id: int, problem: str) -> str:
    """Table ``table_id``, which a repair drops, in the repair's transaction, under the
    key ``repair:TABLE:N`` (``repair:ROOM.TABLE:N`` outside the database): in the
    ledger its chips go to the house and its seats end (:meth:`LedgerWallet.write_off
    <doubleholdem.accounts.wallet.LedgerWallet.write_off>`); a wallet outside the
    database that can write off (:class:`~doubleholdem.accounts.wallet.WritesOff`) is
    told once the repair is committed. Returns what became of the chips, for the
    repair's report."""
    if wallet is None:  # a guest room: play chips
        return ""
    repairs = store.repairs(table_id)
    if isinstance(wallet, LedgerWallet):
        chips = wallet.write_off(table_id, key=f"repair:{table_id}:{repairs}", problem=problem)
        return f"; its {chips} chips went to the house (ledger: repair)" if chips else ""
    if isinstance(wallet, WritesOff):  # a wallet other rooms may share: the room's name
        key = f"repair:{store.room_name()}.{table_id}:{repairs}"
        note(store, WalletCall("write_off", table_id, key, problem=problem))
        return "; the wallet is told to write its seats off"
    return "; the wallet was not told (it has no write_off): its seats there are to settle"


def table_chips(db: Connection, key: bytes | None = None) -> tuple[dict[int, int], list[str]]:
    """The chips on each table stored in the server database ``db`` (stacks, and the
    pot of a hand in progress: its snapshot with its moves replayed; ``key`` the
    room's snapshot key, if it has one), and the problems of the tables that cannot be
    read. Tables stored before the ledger whose chips it has not entered yet (a
    database upgraded, the room not started since) are left out."""
    tables, problems = _stored_tables(db, key)
    return {table_id: table.chips() for table_id, table in tables.items()}, problems


def _stored_tables(db: Connection, key: bytes | None) -> tuple[dict[int, Table], list[str]]:
    """The tables stored in ``db`` that the ledger pays for, by id, as replayed (see
    :func:`table_chips`), and the problems of those that cannot be read."""
    tables, damage = survey(db)
    problems = [str(found) for found in damage]
    pending = {
        int(k.removeprefix("opening:"))
        for (k,) in db.execute("SELECT key FROM meta WHERE key LIKE 'opening:%'")
    }
    replayed = {}
    for stored in tables:
        if stored.id in pending:
            continue
        try:
            replayed[stored.id] = restore(stored, key)
        except TamperedSnapshot as error:
            problems.append(str(error))
    return replayed, problems


def _ledger_seated(db: Connection, tables: dict[int, Table]) -> dict[int, list[str]]:
    """Who sits at each of ``tables`` through the ledger: every seat but those of the
    occupancies seated before the ledger (:meth:`Storage.legacy_below
    <doubleholdem.server.storage.storage.Storage.legacy_below>`)."""
    seated = {}
    for table_id, table in tables.items():
        legacy_below = meta_int(db, f"legacy:{table_id}") or 0
        seats = occupancies(table)
        seated[table_id] = [
            table.player(seat) for seat, occupancy in seats.items() if occupancy >= legacy_below
        ]
    return seated


def audit_room(db: Connection, key: bytes | None = None) -> dict[str, Any]:
    """The ledger's audit (:func:`~doubleholdem.accounts.audit.audit`) of a server
    database, all read in one snapshot of the database (a running server may write
    meanwhile): each stored table's chips (:func:`table_chips`) held against its ledger
    account when the ledger pays for the seats, and the calls a wallet outside the
    database failed and still owes (:func:`~doubleholdem.server.money.wallet_calls.owed_problems`).
    ``{"ok": bool, "problems": [...], "unchecked": [...]}``: ``unchecked`` says what it
    cannot check (the chips of a guest room, or of a room paid through an embedding
    server's own wallet: :func:`unchecked_tables`), which is no problem. Tables and seats
    are numbered from 1 (an operator reads them: :func:`~doubleholdem.wording.for_people`
    over the problems' :class:`~doubleholdem.wording.Wording`)."""
    own = not db.in_transaction
    if own:
        begin(db, write=False)  # a read transaction: one consistent snapshot
    try:
        tables, problems = _stored_tables(db, key)
        chips = {table_id: table.chips() for table_id, table in tables.items()}
        kind = money_kind(db)
        ledger_pays = kind in (None, "ledger")
        found = audit(
            db,
            table_chips=chips if ledger_pays else None,
            seated=_ledger_seated(db, tables) if ledger_pays else None,
        )
        owed = owed_problems(db)
        owed += pool_problems(db, key)  # the tournaments' pools
    finally:
        if own:
            db.execute("COMMIT")
    problems += found["problems"]
    problems += owed
    unchecked = unchecked_tables(kind, chips)
    return {
        "ok": not problems,
        "problems": [for_people(problem) for problem in problems],
        "unchecked": [for_people(text) for text in unchecked],
    }


def unchecked_tables(kind: str | None, chips: dict[int, int]) -> list[str]:
    """What the audit of a room of money kind ``kind`` cannot hold its tables' ``chips``
    (table id -> chips) against: nothing for the ledger's."""
    held = joined(Wording(f"{n} at ", table_said(t)) for t, n in sorted(chips.items()) if n)
    if kind == "wallet" and held:
        return [
            Wording(
                "the tables' chips (",
                held,
                ") are paid through the embedding server's own wallet: the room keeps no "
                "record of the calls made to it, so this audit cannot check them (the "
                "wallet's own books can)",
            )
        ]
    if kind == "guests" and held:
        return [
            Wording("the tables' chips (", held, ") are a guest room's play chips, in no ledger")
        ]
    return []
