"""A tournament's money in the ledger (RULES.md TRN-1, docs/tournaments.md): every sale
(an entry, a re-entry, a rebuy, an add-on) pays its price into the tournament's pool
(an ``entry`` transaction to the ledger account ``tournament T``) and its fee to the
house (``entry_fee``); an unregistration or a cancellation before the start gives both
back (``entry_refund``, ``fee_refund``); prizes are paid out of the pool (``prize``).
These functions write inside the caller's transaction (the one that stores the
tournament's change they pay for) and never commit.

Keys name what each movement pays for, so a retry changes nothing: ``entry:T:SALE``,
``entry_fee:T:SALE``, ``entry_refund:T:SALE``, ``fee_refund:T:SALE`` (``SALE`` the
tournament's number for one sale, never given twice) and ``prize:T:ENTRY``.

>>> import sqlite3
>>> from doubleholdem.accounts import ledger
>>> from doubleholdem.accounts.accounts import create_bot
>>> from doubleholdem.accounts.schema import ensure_schema
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> _ = db.execute("BEGIN")
>>> _ = create_bot(db, "tbot-0-1", 110)
>>> sell(db, 0, Sale(0, "tbot-0-1", 100, 10, "entry"))
>>> ledger.balance(db, ledger.tournament(0)), ledger.balance(db, ledger.bot("tbot-0-1"))
(100, 0)
>>> pay_prize(db, 0, 0, "tbot-0-1", 100)
>>> db.execute("COMMIT").close()
>>> ledger.balance(db, ledger.tournament(0)), ledger.balance(db, ledger.bot("tbot-0-1"))
(0, 100)
"""

from __future__ import annotations

from typing import NamedTuple

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import get_account, ledger_account
from doubleholdem.accounts.ledger import LedgerAccount
from doubleholdem.database.connection import Connection
from doubleholdem.errors import AccountClosed, AccountFrozen
from doubleholdem.server.storage.commit import Step

__all__ = ["Sale", "pay_prize", "payer", "prize_step", "refund", "refund_step", "sell"]


class Sale(NamedTuple):
    """One sale of tournament chips: its number (``SALE`` in its keys), the player,
    the ``price`` (into the pool) and the ``fee`` (the house's), and ``what`` it sold
    (``entry``, ``re-entry``, ``rebuy``, ``add-on``)."""

    number: int
    player: str
    price: int
    fee: int
    what: str


def payer(db: Connection, name: str) -> LedgerAccount:
    """The ledger account that pays for ``name``'s sales (a person's balance, a bot's
    bankroll); :class:`AccountFrozen` or :class:`AccountClosed` when it may not buy."""
    account = get_account(db, name)
    if account.state == "frozen":
        raise AccountFrozen(f"{account.name} is frozen: it cannot enter", account=account.name)
    if account.state == "closed":
        raise AccountClosed(f"{account.name} is closed", account=account.name)
    return ledger_account(account)


def sell(db: Connection, tournament_id: int, sale: Sale) -> None:
    """Pays ``sale``: its price into the pool, its fee to the house
    (:class:`~doubleholdem.errors.InsufficientFunds` when the balance cannot; the
    caller's savepoint then undoes what was written)."""
    _move(db, tournament_id, sale, payer(db, sale.player), back=False)


def refund(db: Connection, tournament_id: int, sale: Sale) -> None:
    """Gives ``sale`` back: its price from the pool, its fee from the house."""
    _move(db, tournament_id, sale, ledger_account(get_account(db, sale.player)), back=True)


def _move(
    db: Connection, tournament_id: int, sale: Sale, account: LedgerAccount, *, back: bool
) -> None:
    """The price and the fee of ``sale`` between ``account`` and the pool and the house:
    paid, or given ``back``."""
    memo = {"tournament": tournament_id, "sale": sale.number, "what": sale.what}
    moves = (("entry", ledger.tournament(tournament_id), sale.price),
             ("entry_fee", ledger.HOUSE, sale.fee))  # fmt: skip
    for kind, other, amount in moves:
        if not amount:
            continue
        if back:
            kind = "fee_refund" if kind == "entry_fee" else "entry_refund"
        source, target = (other, account) if back else (account, other)
        key = f"{kind}:{tournament_id}:{sale.number}"
        ledger.transfer(db, key, kind, source, target, amount, memo=memo)


def pay_prize(db: Connection, tournament_id: int, entry: int, player: str, amount: int) -> None:
    """Pays entry ``entry`` (of ``player``) its ``amount`` out of the pool (TRN-19)."""
    if amount:
        account = ledger_account(get_account(db, player))
        memo = {"tournament": tournament_id, "entry": entry}
        key = f"prize:{tournament_id}:{entry}"
        ledger.transfer(db, key, "prize", ledger.tournament(tournament_id), account, amount,
                        memo=memo)  # fmt: skip


def refund_step(tournament_id: int, sale: Sale) -> Step:
    """The commit's step that refunds ``sale`` (:func:`refund`)."""
    return lambda store: refund(store.db, tournament_id, sale)


def prize_step(tournament_id: int, entry: int, player: str, amount: int) -> Step:
    """The commit's step that pays entry ``entry`` its prize (:func:`pay_prize`)."""
    return lambda store: pay_prize(store.db, tournament_id, entry, player, amount)
