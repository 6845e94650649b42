"""A room paid through an embedding server's own wallet (docs/accounts.md), outside the
room's database: it cannot share the room's transactions, so its calls are noted in the
database and made when their fate is known (:mod:`doubleholdem.server.money.wallet_calls`),
a debit's key ending ``#N``; and other rooms may share it, so the table in its keys is
``ROOM.TABLE`` (``ROOM`` the database's own random name).

Served (an event loop runs), the wallet is called off the loop through each table's gate
(:mod:`doubleholdem.server.money.wallet_gate`): a buy-in or a top-up is paid first
(:meth:`WalletTableMoney.prepay`), then made; a credit or a rake is noted in its change's
commit and made once it ended (:meth:`WalletTableMoney.commit_ended`). A room starting
(no loop yet) asks it bounded in time, and finishes first what a failure or a crash left
undone; its new tables' bots sit down after the load. The embedder seats its own bots:
a bot that left is not replaced."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterator
from functools import partial
from typing import Any, cast

from doubleholdem.accounts.wallet import Reason, Wallet, WritesOff
from doubleholdem.database.failure import database_errors
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.server.money.paid_seats import PaidSeats
from doubleholdem.server.money.table_money import Monies, RoomMoney
from doubleholdem.server.money.wallet_calls import (
    WalletCall,
    count_failure,
    finish_noted,
    finish_through,
    finished,
    log_failure,
    note,
    noted,
    owed_problems,
    retry_failed,
)
from doubleholdem.server.money.wallet_gate import (
    BoundedWallet,
    WalletFailed,
    WalletGate,
    WalletUnavailable,
)
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit, running_loop
from doubleholdem.server.storage.storage import Storage
from doubleholdem.wording import for_people

__all__ = ["HEALTH_OWED", "RETRY_OWED_SECONDS", "WalletMoney", "WalletTableMoney"]

_log = logging.getLogger("doubleholdem.server")
RETRY_OWED_SECONDS = 5.0  # how often a serving room tries the calls its wallet failed again
HEALTH_OWED = 5  # the calls owed that the room's health names, at most (then a count)


class WalletTableMoney(PaidSeats):
    """A wallet outside the database's money at one table (see :class:`PaidSeats
    <doubleholdem.server.money.paid_seats.PaidSeats>`); ``clock`` the room's, for the
    backoff of the table's gate. The calls noted and known done are forgotten with the
    next commit of the table."""

    def __init__(
        self,
        table_id: int,
        wallet: Wallet,
        store: Storage,
        commit: GroupCommit,
        *,
        room: str,
        clock: Callable[[], float],
    ) -> None:
        super().__init__(table_id, wallet, store, commit, room=room)
        # served, the wallet is called off the loop through the table's gate; a
        # movement paid so (:meth:`prepay`) holds :attr:`moving` from its key to its
        # change, its note in ``_paying`` meanwhile
        self.gate = WalletGate(clock)
        self._moving: asyncio.Lock | None = None
        self._paying: set[int] = set()
        self._finisher: asyncio.Task[None] | None = None
        self._finish_all = False  # the finisher's next turn finishes every call noted

    def pays_off_loop(self) -> bool:
        """Served (an event loop runs): paid off the loop first."""
        return running_loop() is not None

    def resting(self) -> float:
        return self.gate.wait() if self.pays_off_loop() else 0.0

    def busy(self) -> bool:
        return self.gate.wait() > 0 or self.moving.locked()

    @property
    def moving(self) -> asyncio.Lock:
        """Held by a movement paid off the loop from its key to its change (so that
        its key, which names the occupancy and what it bought before, stays true)."""
        if self._moving is None:
            self._moving = asyncio.Lock()
        return self._moving

    @contextlib.contextmanager
    def _paid(
        self, owner: str, amount: int, key: str, reason: Reason, paid: WalletCall | None
    ) -> Iterator[None]:
        """A debit made already off the loop (``paid``), or made now (no loop)."""
        if paid is not None:
            with self._prepaid(paid, key):
                yield
            return
        call = WalletCall("debit", self.table_id, key, owner, amount, reason)
        with self._paid_now(call):
            yield

    async def prepay(self, owner: str, amount: int, key: str, reason: Reason) -> WalletCall:
        """The debit of ``amount`` from ``owner`` under ``key`` for a change about to be
        made, off the event loop through :attr:`gate` (hold :attr:`moving` from the key
        to the change): noted and committed first, then asked. The noted call, to hand
        the change (``paid``), which forgets the note in its commit, or gives it back if
        it raises. A refusal is raised as it is (nothing taken); the wallet's failure as
        :class:`WalletFailed` (whatever it may have taken is given back, now or later),
        :class:`WalletUnavailable` when the gate is closed or the wallet still owes a
        give-back at this table (nothing asked, nothing noted)."""
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
        self.commit_ended()

    def _check_open(self) -> None:
        """:class:`WalletUnavailable` while the gate is closed, or while the wallet still
        owes a give-back at this table: a wallet that keeps seats refuses a buy-in while
        a seat given back is still open there, and each movement owes at most one."""
        why = self.gate.closed()
        if why is None and self._owes_give_back():
            why = "the wallet still owes a give-back at this table"
        if why is not None:
            raise WalletUnavailable(f"{why}: try again")

    def _owes_give_back(self) -> bool:
        return any(c.method == "debit" and c.attempts for c in self._noted())

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
    def _paid_now(self, call: WalletCall) -> Iterator[None]:
        """The debit ``call`` for what the block does, made at once (no event loop
        runs): noted and committed first (:meth:`_note_first`), then asked; if the block
        raises, or the wallet fails (:class:`WalletFailed`), given back. Its note goes
        with the commit of the change (:meth:`settle`), or is a debit to give back if
        that commit fails (:meth:`commit_ended`) or never comes (a restart). What the
        wallet failed and still owes about the table is tried first; a give-back still
        owed refuses the debit."""
        retry_failed(self.store, self.wallet, self.table_id)
        if self._owes_give_back():
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
        """Notes the debit ``call`` in a transaction committed now, before the wallet
        is asked (:meth:`GroupCommit.write_now
        <doubleholdem.server.storage.commit.GroupCommit.write_now>`)."""
        return self.commit.write_now(partial(note, call=call))

    def _give_back_now(self, call: WalletCall) -> None:
        """Gives the debit ``call`` back at once if the wallet can; else its note stays,
        to give back after the next commit (:meth:`commit_ended`) or at a start."""
        self._settled += finished(self.store, self.wallet, [call])

    def pay(self, store: Storage, call: WalletCall) -> None:
        """A credit or a rake, noted in the commit of its change and made once that
        ended (:meth:`commit_ended`)."""
        note(store, call)

    async def balance(self, owner: str) -> int:
        """``owner``'s balance in the wallet, asked off the loop through :attr:`gate`."""
        return await self.gate.call(partial(self.wallet.balance, owner), probe=True)

    def commit_ended(self) -> None:
        """Finishes what the calls noted for this table still owe
        (:func:`~doubleholdem.server.money.wallet_calls.finish`), right after a commit
        ended, committed or failed: then no change of the table is under way, so a debit
        still noted paid for no seat written (its seat's commit failed, the table
        refused it, the wallet failed) and is given back, and a credit or a rake noted
        is committed and made. Served, off the loop through :attr:`gate`, soon (a debit
        being paid for a change to come, :meth:`prepay`, is left alone, as is one whose
        seat's change waits for the next commit: on PostgreSQL the commit that ended
        may have been in flight as that change was made)."""
        super().commit_ended()
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
        skip = self.forgetting() | self._paying
        try:
            calls = self._noted()
        except database_errors():  # the database fails: what is noted is finished at a restart
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


_TASKS: set[asyncio.Task[None]] = set()  # running, kept from the garbage collector


def _spawn(work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    task = asyncio.get_running_loop().create_task(work)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


class WalletMoney(RoomMoney):
    """A room paid through ``wallet``, an embedding server's own."""

    kind = "wallet"
    wallet: Wallet
    bots_sit_after_load = True  # a debit is noted and committed before it is asked
    refills_bots = False  # the embedding server seats its own bots

    def __init__(self, wallet: Wallet) -> None:
        self.wallet = wallet
        self._room = ""  # the room's name in the keys: other rooms may share the wallet

    def load(self, store: Storage) -> None:
        with store.transaction():
            self._room = store.room_name()

    def table(self, table_id: int, commit: GroupCommit, settings: RoomSettings) -> WalletTableMoney:
        store, clock = commit.store, settings.clock
        return WalletTableMoney(table_id, self.wallet, store, commit, room=self._room, clock=clock)

    def write_off(self, store: Storage, table_id: int, problem: str) -> str:
        """A wallet that can write off (:class:`~doubleholdem.accounts.wallet.WritesOff`)
        is told once the repair is committed, under ``repair:ROOM.TABLE:N``."""
        if not isinstance(self.wallet, WritesOff):
            return "; the wallet was not told (it has no write_off): its seats there are to settle"
        key = f"repair:{store.room_name()}.{table_id}:{store.repairs(table_id)}"
        note(store, WalletCall("write_off", table_id, key, problem=problem))
        return "; the wallet is told to write its seats off"

    @contextlib.contextmanager
    def starting(self, store: Storage, monies: Monies) -> Iterator[None]:
        """What a failure or a crash left undone is finished first, and the block's
        calls made, through one gate without a loop (a wallet that hangs holds the
        start up one timeout)."""
        bounded = cast(Wallet, BoundedWallet(self.wallet, WalletGate()))
        finish_noted(store, bounded)
        tables = [money for money in monies() if isinstance(money, WalletTableMoney)]
        for money in tables:
            money.wallet = bounded
        try:
            yield
        finally:
            for money in tables:
                money.wallet = self.wallet

    def background(self, monies: Monies) -> list[Coroutine[Any, Any, None]]:
        return [_retry_owed(monies)]

    def health(self, store: Storage) -> str | None:
        """The calls the wallet failed and still owes: one line each, joined by ``; ``,
        at most ``HEALTH_OWED`` of those, then how many more."""
        try:
            owed = owed_problems(store.committed())  # (on the loop: a commit may fly)
        except database_errors() as error:
            return f"the wallet calls cannot be read: {error}"
        lines = owed[:HEALTH_OWED]
        if len(owed) > HEALTH_OWED:
            lines.append(f"and {len(owed) - HEALTH_OWED} more calls the wallet owes")
        return "; ".join(for_people(line) for line in lines) or None


async def _retry_owed(monies: Monies) -> None:
    """Every ``RETRY_OWED_SECONDS``, the calls the wallet failed are tried again, an
    idle table's too, each table's off the loop through its gate
    (:meth:`WalletTableMoney.retry_owed`: at most one call in flight, none while the
    wallet rests after failures)."""
    while True:
        await asyncio.sleep(RETRY_OWED_SECONDS)
        for money in monies():
            money.retry_owed()
