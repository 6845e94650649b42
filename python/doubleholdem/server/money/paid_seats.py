"""What the two kinds of money that pay for seats share (the ledger's,
:mod:`~doubleholdem.server.money.ledger_money`, and an embedder's wallet,
:mod:`~doubleholdem.server.money.wallet_money`): the keys of the movements, a buy-in and a
top-up made inside their payment, and the cash-outs and rake read from the table's
entries of a change.

Every movement carries a key naming what it pays for, so a retry changes nothing:
``buyin:TABLE:OCCUPANCY``, ``topup:TABLE:OCCUPANCY:BOUGHT_BEFORE``,
``cashout:TABLE:OCCUPANCY``, ``rake:TABLE:HAND`` (an occupancy is the table's number for
one sitting-down, never given twice). ``TABLE`` is the table's id, or ``TrN`` once a
repair made it anew N times (its occupancies and hands count from 0 again: the old
keys are taken), after the room's name and a dot for a wallet that other rooms may
share.

A table stored before the ledger existed (a database upgraded from schema 3) holds chips
from nowhere: each seat of that time (an occupancy below :attr:`PaidSeats.legacy_below`)
gives its chips back as it leaves, as the kind settles it (:meth:`PaidSeats.legacy_cash_out`)."""

from __future__ import annotations

import abc
import contextlib
from functools import partial

from doubleholdem.accounts.wallet import Reason, Wallet
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.server.money.table_money import TableMoney
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.money.wallet_gate import WalletFailed
from doubleholdem.server.storage.batch import Awaiting
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.money_step import MoneyStep
from doubleholdem.server.storage.storage import Storage
from doubleholdem.table import Table
from doubleholdem.table.entries import Entry, HandEnd, Leave

__all__ = ["PaidSeats"]


class PaidSeats(TableMoney):
    """The money of table ``table_id`` paid through ``wallet``, written with ``store``
    in ``commit``'s transactions (which also tells the seats seated before the ledger
    and the repairs that made the table anew); ``room``: the room's name in the keys (a
    wallet other rooms may share), or ""."""

    def __init__(
        self, table_id: int, wallet: Wallet, store: Storage, commit: GroupCommit, *, room: str = ""
    ) -> None:
        self.table_id = table_id
        self.wallet = wallet
        self.store = store
        self.commit = commit
        self.legacy_below = store.legacy_below(table_id)
        repairs = store.repairs(table_id)
        table = str(table_id) if not repairs else f"{table_id}r{repairs}"
        self.name = f"{room}.{table}" if room else table
        self._settled: list[int] = []  # wallet calls known done, forgotten at the next commit
        # those handed in to forget, with the step that tells their commit ran them
        self._forgetting: Awaiting[list[int]] = Awaiting()

    @abc.abstractmethod
    def _paid(
        self, owner: str, amount: int, key: str, reason: Reason, paid: WalletCall | None
    ) -> contextlib.AbstractContextManager[None]:
        """Takes ``amount`` from ``owner`` under ``key`` for what the block does; if the
        block raises, the payment is undone. ``paid``: the payment made already off the
        loop (:meth:`prepay`)."""

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
        """See :meth:`TableMoney.buy_in`: paid from ``owner``'s balance (an account is
        the person: ``stranger`` does not apply)."""
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
        """See :meth:`TableMoney.top_up`: paid from the seat's owner's balance."""
        key = self.top_up_key(table, seat)
        with self._paid(table.player(seat), amount, key, "top_up", paid):
            table.top_up(seat, amount, now=now)

    def settle(self, entries: list[Entry]) -> list[Step]:
        """The steps that post the cash-outs (a :class:`~doubleholdem.table.entries.Leave`:
        whatever took the seat away, a leave, a removal, a bust, with the occupancy it
        ends, which keys its cash-out) and rake (a
        :class:`~doubleholdem.table.entries.HandEnd`) of a change, and forget the wallet
        calls known done."""
        steps: list[Step] = []
        if self._settled:
            numbers, self._settled = self._settled, []
            forget = partial(Storage.forget_wallet_calls, numbers=numbers)
            steps += [forget, self._forgetting.add(numbers)]
        for entry in entries:
            if type(entry) is Leave:
                cash_out = partial(self._cash_out, entry.player, entry.occupancy, entry.amount)
                steps.append(MoneyStep(cash_out))
            elif type(entry) is HandEnd and entry.rake:
                steps.append(MoneyStep(partial(self._rake, entry.number, entry.rake)))
        return steps

    def forgetting(self) -> set[int]:
        """The wallet calls known done (their seat's change made, or finished) whose
        notes are not yet forgotten: still to finish by nobody."""
        return {n for numbers in self._forgetting for n in numbers} | set(self._settled)

    def commit_ended(self) -> None:
        """The notes a commit that ended forgot are gone (or, if it failed, are to
        finish: their change was undone)."""
        self._forgetting.ended()

    def reloaded(self) -> None:
        """The table went back to its last committed state: the changes whose notes
        were still to forget are undone, and their calls are to finish."""
        self._forgetting.reloaded()

    def _cash_out(self, owner: str, occupancy: int, amount: int, store: Storage) -> None:
        key = f"cashout:{self.name}:{occupancy}"
        if occupancy >= self.legacy_below:
            self.pay(store, WalletCall("credit", self.table_id, key, owner, amount))
        else:
            self.legacy_cash_out(store, key, amount)

    def _rake(self, hand: int, amount: int, store: Storage) -> None:
        key = f"rake:{self.name}:{hand}"
        self.pay(store, WalletCall("rake", self.table_id, key, amount=amount))

    @abc.abstractmethod
    def pay(self, store: Storage, call: WalletCall) -> None:
        """A credit or a rake, in the commit of its change (``store`` in its
        transaction)."""

    def legacy_cash_out(self, store: Storage, key: str, amount: int) -> None:
        """A seat seated before the ledger leaves with ``amount`` chips under ``key``
        (nothing is paid by default: its chips came from nowhere)."""

    def open_legacy(self, table: Table) -> None:
        """Its seated occupancies become legacy ones (inside the storage's transaction);
        a kind that keeps the chips enters them (:meth:`enter_legacy`)."""
        self.legacy_below = table.next_occupancy
        self.enter_legacy(table.chips())
        self.store.opened(self.table_id, self.legacy_below)

    def enter_legacy(self, chips: int) -> None:
        """The ``chips`` of a table older than the ledger, entered as the kind keeps
        them (nothing by default)."""

    def bankroll(self, owner: str, want: int) -> int:
        """Up to ``want`` chips of ``owner``'s balance in the wallet."""
        return min(want, self.wallet.balance(owner))

    def seat_bot(self, table: Table, seat: int, name: str, bankroll: int, now: float) -> bool:
        """See :meth:`TableMoney.seat_bot`: the bot's balance in the wallet pays the
        maximum buy-in while it can (a bot account is opened first where the kind keeps
        them: :meth:`open_bot_account`). A wallet of an embedding server seats the bots
        it knows (its ``balance`` answers for them); one that fails raises
        :class:`~doubleholdem.server.money.wallet_gate.WalletFailed` (the bot stays to seat)."""
        low, high = table.config.buy_in_range
        self.open_bot_account(name, bankroll)
        try:
            amount = min(high, self.wallet.balance(name))
        except WalletFailed:  # not asked, or given up: the bot stays to seat
            raise
        except DoubleHoldemError:  # a wallet of its own that does not know the bot
            return False
        except Exception as error:  # it failed: the bot stays to seat at the next start
            raise WalletFailed(f"the wallet failed the bankroll of {name} ({error})") from None
        if amount < low:
            return False
        self.buy_in(table, seat, name, amount, now=now)
        return True

    def open_bot_account(self, name: str, bankroll: int) -> None:
        """Bot ``name`` gets an account with ``bankroll`` chips if the kind keeps
        accounts and it has none (nothing by default)."""
