"""The one interface of a table's money (docs/server.md, "Money at the tables"): what the
room and a table's runner ask of it, whatever pays for the seats. A room's kind of money
is chosen once, when the room is made (:func:`~doubleholdem.server.money.choose.room_money`),
and makes each table's money as the table is made: play chips for guests
(:mod:`~doubleholdem.server.money.play_chips`), the room's ledger
(:mod:`~doubleholdem.server.money.ledger_money`), an embedder's wallet
(:mod:`~doubleholdem.server.money.wallet_money`). Nothing above this package asks which
kind it holds: a question whose answer differs by kind is a method here, answered by
each kind.

A movement that may be refused (a buy-in, a top-up) is made with the change it pays for
(:meth:`TableMoney.buy_in`, :meth:`TableMoney.top_up`); a cash-out and a hand's rake are
never refused, and are posted in the commit of their change (:meth:`TableMoney.settle`).
A kind that pays off the event loop (:meth:`TableMoney.pays_off_loop`: an embedder's
wallet while the room serves) is paid first (:meth:`TableMoney.prepay`), then the change
is made with the payment (``paid``)."""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from doubleholdem.accounts.wallet import Reason, Wallet
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.storage import Storage
from doubleholdem.table import Table
from doubleholdem.table.entries import Entry

__all__ = ["Monies", "RoomMoney", "TableMoney"]

Monies = Callable[[], list["TableMoney"]]  # the room's tables' monies, as they are now


class TableMoney(abc.ABC):
    """The money of table :attr:`table_id`, named :attr:`name` in the keys of its
    movements (see each kind)."""

    table_id: int
    name: str

    @abc.abstractmethod
    def buy_in(
        self,
        table: Table,
        seat: int,
        owner: str,
        amount: int,
        *,
        now: float | None = None,
        stranger: bool = False,
        paid: WalletCall | None = None,
    ) -> None:
        """``owner`` takes ``seat`` of ``table`` with ``amount`` chips, paid as the
        kind pays (TH-36: the table refuses an amount out of its range, and nothing is
        paid); ``stranger``: another person left the table under this name (TH-37: a
        guest owes none of the blinds that one missed; an account is the person, so
        the kinds with accounts ignore it); ``paid``: the payment made already
        (:meth:`prepay`)."""

    @abc.abstractmethod
    def top_up(
        self,
        table: Table,
        seat: int,
        amount: int,
        *,
        now: float | None = None,
        paid: WalletCall | None = None,
    ) -> None:
        """``seat`` of ``table`` adds ``amount`` chips, paid as the kind pays;
        ``paid``: the payment made already (:meth:`prepay`)."""

    @abc.abstractmethod
    def settle(self, entries: list[Entry]) -> list[Step]:
        """The steps that post the cash-outs and rake of a change, in its commit:
        ``entries`` the table's own entries it made (each
        :class:`~doubleholdem.table.entries.Leave` names the occupancy it ends)."""

    def commit_ended(self) -> None:
        """The commit of the table's changes ended, committed or failed: what the
        money still owes about them is finished (nothing, for a kind that writes in the
        commit itself)."""
        return None  # nothing by default

    def reloaded(self) -> None:
        """The table went back to its last committed state (a failed commit): what the
        money kept of the changes undone goes (nothing by default)."""
        return None  # nothing by default

    def open_legacy(self, table: Table) -> None:
        """``table`` is older than the ledger (a database upgraded from schema 3): its
        chips are entered as the kind keeps them (play chips keep no record)."""
        return None  # nothing by default

    @abc.abstractmethod
    def seat_bot(self, table: Table, seat: int, name: str, bankroll: int, now: float) -> bool:
        """Seats bot ``name`` in ``seat`` with the maximum buy-in, in the change being
        made: True; False when it cannot pay (the seat stays empty). ``bankroll``: what
        a new bot account gets from the house, for the kinds that keep one."""

    def fund_bot(self, table: Table, seat: int, name: str, bankroll: int) -> str | None:
        """Gives bot ``name`` a new bankroll if its own cannot buy in at ``table``:
        ``None``, or why it cannot be funded (only the ledger's house funds bots)."""
        return None

    @abc.abstractmethod
    def bankroll(self, owner: str, want: int) -> int:
        """The chips, up to ``want``, bot ``owner`` can top up with now (0: none; play
        chips: all it wants)."""

    # -------------------------------------------------- payments off the event loop

    def pays_off_loop(self) -> bool:
        """Whether a buy-in or a top-up is paid off the event loop first
        (:meth:`prepay`), then made: a wallet outside the database while the room
        serves. False for a kind that pays inside the change."""
        return False

    def resting(self) -> float:
        """Seconds until the wallet paying off the loop may be asked again (0: now, or
        it is not asked off the loop)."""
        return 0.0

    def busy(self) -> bool:
        """Whether a payment off the loop is under way or the wallet rests: short bots
        are not topped up meanwhile."""
        return False

    @property
    def moving(self) -> asyncio.Lock:
        """Held by a movement paid off the loop from its key to its change."""
        raise TypeError("this money is never paid off the event loop")

    def buy_in_key(self, table: Table) -> str:
        """The key of a buy-in at ``table`` now."""
        return f"buyin:{self.name}:{table.next_occupancy}"

    def top_up_key(self, table: Table, seat: int) -> str:
        """The key of a top-up of ``seat`` of ``table`` now."""
        return f"topup:{self.name}:{table.occupancy(seat)}:{table.bought_in_by(seat)}"

    async def prepay(self, owner: str, amount: int, key: str, reason: Reason) -> WalletCall:
        """The payment of ``amount`` by ``owner`` under ``key`` for a change about to
        be made, off the event loop (only when :meth:`pays_off_loop`)."""
        raise TypeError("this money is never paid off the event loop")

    def give_back(self, call: WalletCall) -> None:
        """The payment ``call`` (:meth:`prepay`) pays for no change after all."""
        raise TypeError("this money is never paid off the event loop")

    async def balance(self, owner: str) -> int:
        """``owner``'s balance, asked off the loop (only when :meth:`pays_off_loop`)."""
        raise TypeError("this money is never paid off the event loop")

    def retry_owed(self) -> None:
        """The calls a wallet outside the database failed about this table are tried
        again soon (none for the other kinds)."""
        return None  # nothing by default

    def calling(self) -> bool:
        """Whether the table makes calls to a wallet outside the database now."""
        return False

    async def calls_ended(self) -> None:
        """Until the calls the table makes to a wallet outside the database have
        ended (a test, a stop)."""
        return None  # nothing by default


class RoomMoney(abc.ABC):
    """A room's kind of money (:data:`~doubleholdem.server.storage.database.MONEY_KINDS`
    names it: :attr:`kind`), chosen once, which makes each table's."""

    kind: str
    wallet: Wallet | None  # what pays, for callers that ask it themselves (none: guests)
    bots_sit_after_load: bool = False  # a new table's bots sit down once the room loaded
    refills_bots: bool = True  # a bot that left is replaced by the room

    @abc.abstractmethod
    def table(self, table_id: int, commit: GroupCommit, settings: RoomSettings) -> TableMoney:
        """The money of table ``table_id`` (as the kind keeps it in ``commit``'s store,
        paid in its transactions), as the room's ``settings`` say (its clock, its
        house's limit)."""

    def load(self, store: Storage) -> None:
        """The room loads from ``store`` (inside no transaction)."""
        return None  # nothing by default

    @abc.abstractmethod
    def write_off(self, store: Storage, table_id: int, problem: str) -> str:
        """Table ``table_id``, which a repair drops for ``problem``, in the repair's
        transaction: its seats settled as the kind settles them. What became of its
        chips, for the repair's report ("" for none)."""

    @contextlib.contextmanager
    def starting(self, store: Storage, monies: Monies) -> Iterator[None]:
        """The room starts, before any event loop (what a failure or a crash left
        undone is finished first): the tables' monies are asked within bounds during
        the block (the bots left to seat sit down in it)."""
        yield

    def background(self, monies: Monies) -> list[Coroutine[Any, Any, None]]:
        """The work the kind does while the room serves (none but for a wallet
        outside the database: retrying the calls it failed)."""
        return []

    def health(self, store: Storage) -> str | None:
        """What is wrong with the money, or ``None`` (the calls a wallet outside the
        database failed and still owes)."""
        return None
