"""The wallet interface: how a table's chips are paid for. A server moves money only
through a :class:`Wallet`: :meth:`~Wallet.debit` when a player buys in or tops up,
:meth:`~Wallet.credit` when a seat cashes out, :meth:`~Wallet.rake` when a hand ends
with rake (and, if the wallet has them, :meth:`Refunds.refund` when a debit is given
back, :meth:`WritesOff.write_off` when a repair drops a table), each with an idempotency
key (a retry with the same key and content changes nothing and returns the first
result). :class:`LedgerWallet`, over the ledger in the server's own database, is the
default; a server embedding the tables in a system of its own supplies its own wallet
(docs/accounts.md shows one).

The ledger wallet writes inside the transaction open on its connection to SQLite or
PostgreSQL (the one that also writes the table change) and keeps each account's open
seats: one per account per table, opened by a buy-in, topped up while open, closed by
the cash-out.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> from doubleholdem.accounts.accounts import create_bot
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> wallet = LedgerWallet(db)
>>> _ = db.execute("BEGIN")
>>> _ = create_bot(db, "robot", 1000)
>>> wallet.debit("robot", 3, 400, key="t3:join:1").seq
2
>>> wallet.debit("robot", 3, 400, key="t3:join:1").seq  # a retry: the same transaction
2
>>> wallet.debit("robot", 3, 700, key="t3:topup:2", reason="top_up")
Traceback (most recent call last):
...
doubleholdem.errors.InsufficientFunds: bot robot holds 600 chips, not the 700 of this top-up
>>> _ = wallet.rake(3, 5, key="t3:hand:1")
>>> _ = wallet.credit("robot", 3, 395, key="t3:leave:1")
>>> db.execute("COMMIT").close()
>>> wallet.balance("robot"), wallet.seats("robot")
(995, [])
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Account, get_account, ledger_account
from doubleholdem.accounts.ledger import Posted
from doubleholdem.database.connection import Connection
from doubleholdem.errors import AccountClosed, AccountFrozen, AlreadySeated, NotSeated
from doubleholdem.wording import Wording, table_said

__all__ = ["LedgerWallet", "Refunds", "Wallet", "WritesOff"]

Reason = Literal["buy_in", "top_up"]


class Wallet(Protocol):
    """What a server needs to pay for seats. Each method either does all it says or
    raises and does nothing; ``key`` identifies the request (the same key again with
    the same arguments is a no-op returning the first result, with other arguments an
    error: :class:`~doubleholdem.errors.KeyConflict`). What they return is the
    implementation's receipt; a server only stores or shows it."""

    def balance(self, owner: str) -> int:
        """The chips ``owner`` can buy in with."""
        ...

    def debit(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: Reason = "buy_in"
    ) -> object:
        """Takes ``amount`` from ``owner`` for a seat at ``table_id``: a ``buy_in``
        (the account has no seat there yet) or a ``top_up`` (it has). Raises
        :class:`~doubleholdem.errors.InsufficientFunds`,
        :class:`~doubleholdem.errors.AccountFrozen`,
        :class:`~doubleholdem.errors.AccountClosed`,
        :class:`~doubleholdem.errors.AlreadySeated` or
        :class:`~doubleholdem.errors.NotSeated`."""
        ...

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> object:
        """Gives ``amount`` (0 or more) back to ``owner`` as its seat at ``table_id``
        is cashed out; the seat is closed. Never refused for the account's state (a
        frozen or closed account's chips are held in its balance)."""
        ...

    def rake(self, table_id: int, amount: int, *, key: str) -> object:
        """Moves a hand's rake from the table to the house."""
        ...


@runtime_checkable
class Refunds(Protocol):
    """A wallet that is told when a debit it took is given back because the seat
    change it paid for was never made (the table refused it, its commit failed, the
    process died first: a wallet outside the server's database only). Optional: a
    wallet without it is given the chips back by :meth:`Wallet.credit` (under the same
    key), which suits a wallet that keeps no seats, but closes a seat a top-up's
    give-back should leave open."""

    def refund(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: Reason = "buy_in"
    ) -> object:
        """Gives back to ``owner`` the ``amount`` a debit of ``reason`` took for a seat
        change at ``table_id`` never made (``key``: ``refund:`` and that debit's key):
        a ``buy_in``'s seat was never taken (a seat it opened is closed), a
        ``top_up``'s seat is as before it (still open). Never refused for the
        account's state."""
        ...


@runtime_checkable
class WritesOff(Protocol):
    """A wallet that is told when a repair drops a damaged table (``serve --repair``:
    who holds what there cannot be read): it settles the seats it paid for there as
    its owner decides (the ledger's gives the table's chips to the house). Optional:
    a wallet without it is not told."""

    def write_off(self, table_id: int, *, key: str, problem: str) -> object:
        """Table ``table_id`` is dropped, for ``problem``; ``key`` as for the other
        calls (``repair:TABLE:N``)."""
        ...


class LedgerWallet:
    """The default :class:`Wallet`: the double-entry ledger in the database of ``db``.
    Every method but :meth:`balance` and :meth:`seats` must be called inside a
    transaction on ``db`` (which it never commits)."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    def balance(self, owner: str) -> int:
        """The chips of ``owner``'s balance (a bot's bankroll)."""
        return ledger.balance(self._db, ledger_account(get_account(self._db, owner)))

    def seats(self, owner: str) -> list[int]:
        """The tables where ``owner`` has an open seat, by id."""
        account = get_account(self._db, owner)
        rows = self._db.execute(
            "SELECT table_id FROM account_seats WHERE account_id = ? ORDER BY table_id",
            (account.id,),
        )
        return [int(row[0]) for row in rows]

    def _seated(self, account: Account, table_id: int) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM account_seats WHERE account_id = ? AND table_id = ?",
            (account.id, table_id),
        ).fetchone()
        return row is not None

    def _replay(
        self, key: str, kind: str, account: Account, table_id: int, amount: int
    ) -> Posted | None:
        """The transaction already posted under ``key`` when it is this one (a retry)."""
        existing = ledger.find(self._db, ledger.check_key(key))
        if existing is None:
            return None
        table = ledger.table(table_id)
        mine = ledger_account(account)
        source, target = (table, mine) if kind == "cash_out" else (mine, table)
        # the same arguments are a retry; other arguments raise KeyConflict in transfer
        return ledger.transfer(
            self._db, key, kind, source, target, amount, memo={"table": table_id}
        )

    def debit(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: Reason = "buy_in"
    ) -> Posted:
        """A buy-in or top-up from the ledger (see :meth:`Wallet.debit`); returns the
        ledger transaction."""
        if reason not in ("buy_in", "top_up"):
            raise ValueError(f"a debit is a buy_in or a top_up, not {reason!r}")
        ledger.lock(self._db)  # the seat checked stays as read until it is written
        account = get_account(self._db, owner)
        table = ledger.table(table_id)
        done = self._replay(key, reason, account, table_id, amount)
        if done is not None:
            return done
        if account.state == "closed":
            raise AccountClosed(f"{account.name} is closed", account=account.name)
        if account.state == "frozen":
            raise AccountFrozen(
                f"{account.name} is frozen: it cannot take a seat or top up",
                account=account.name,
            )
        seated = self._seated(account, table_id)
        if reason == "buy_in" and seated:
            raise AlreadySeated(
                Wording(f"{account.name} already has a seat at ", table_said(table_id)),
                account=account.name,
                table_id=table_id,
            )
        if reason == "top_up" and not seated:
            raise NotSeated(
                Wording(f"{account.name} has no seat at ", table_said(table_id), " to top up"),
                account=account.name,
                table_id=table_id,
            )
        posted = ledger.transfer(
            self._db, key, reason, ledger_account(account), table, amount, memo={"table": table_id}
        )
        if reason == "buy_in":
            self._db.execute("INSERT INTO account_seats VALUES (?, ?)", (account.id, table_id))
        return posted

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> Posted:
        """A cash-out into the ledger (see :meth:`Wallet.credit`); returns the ledger
        transaction."""
        ledger.lock(self._db)
        account = get_account(self._db, owner)
        table = ledger.table(table_id)
        done = self._replay(key, "cash_out", account, table_id, amount)
        if done is not None:
            return done
        if not self._seated(account, table_id):
            raise NotSeated(
                Wording(f"{account.name} has no seat at ", table_said(table_id), " to cash out"),
                account=account.name,
                table_id=table_id,
            )
        posted = ledger.transfer(
            self._db,
            key,
            "cash_out",
            table,
            ledger_account(account),
            amount,
            memo={"table": table_id},
        )
        self._db.execute(
            "DELETE FROM account_seats WHERE account_id = ? AND table_id = ?",
            (account.id, table_id),
        )
        return posted

    def rake(self, table_id: int, amount: int, *, key: str) -> Posted:
        """A hand's rake from the table to the house; returns the ledger transaction."""
        table = ledger.table(table_id)
        return ledger.transfer(
            self._db, key, "rake", table, ledger.HOUSE, amount, memo={"table": table_id}
        )

    def write_off(self, table_id: int, *, key: str, problem: str) -> int:
        """Table ``table_id`` is dropped by a repair (``serve --repair``: it is damaged,
        so who holds what there cannot be read): the chips the ledger holds at it go to
        the house (a ``repair`` transaction whose memo names the table, from 1, and
        ``problem``) and its accounts' open seats end. Returns how many chips."""
        table = ledger.table(table_id)
        ledger.lock(self._db)
        chips = ledger.balance(self._db, table)
        if chips:
            memo = {"table": table_id + 1, "problem": problem}
            ledger.transfer(self._db, key, "repair", table, ledger.HOUSE, chips, memo=memo)
        self._db.execute("DELETE FROM account_seats WHERE table_id = ?", (table_id,))
        return chips
