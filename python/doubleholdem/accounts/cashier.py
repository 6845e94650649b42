"""The cashier: deposits and withdrawals, the ledger's link to money outside the room.
Each carries the outside system's reference (``ref``): a reference used twice is applied
once (its idempotency key is ``cashier:REF``, shared by deposits and withdrawals, so a
reference names one movement of money). Like the ledger, these write inside the caller's
transaction.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> from doubleholdem.accounts.accounts import create_bot
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> _ = db.execute("BEGIN")
>>> _ = db.execute("INSERT INTO accounts VALUES (1, 'ann', 'player', 'active', NULL, 0)")
>>> deposit(db, "ann", 300, ref="wire-17").transfer.amount
300
>>> deposit(db, "ann", 300, ref="wire-17").seq  # the same reference: applied once
1
>>> withdraw(db, "ann", 400, ref="payout-3")
Traceback (most recent call last):
...
doubleholdem.errors.InsufficientFunds: player ann holds 300 chips, not the 400 of this withdrawal
>>> db.execute("COMMIT").close()
"""

from __future__ import annotations

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Account, get_account, ledger_account
from doubleholdem.accounts.ledger import Posted
from doubleholdem.database.connection import Connection
from doubleholdem.errors import AccountClosed, AccountError, AccountFrozen

__all__ = ["applied", "deposit", "withdraw"]


def _key(ref: str) -> str:
    ledger.check_key(ref, what="a reference")
    return ledger.check_key(f"cashier:{ref}", what="a reference")


def applied(db: Connection, ref: str) -> Posted | None:
    """The deposit or withdrawal made under ``ref``, or ``None``."""
    return ledger.find(db, _key(ref))


def deposit(
    db: Connection, name: str, amount: int, *, ref: str, now: float | None = None
) -> Posted:
    """Credits ``amount`` chips to ``name``'s balance from the cashier (a frozen
    account may receive them; a closed one may not, nor a bot)."""
    return _move(db, name, amount, ref, now, "deposit")


def withdraw(
    db: Connection, name: str, amount: int, *, ref: str, now: float | None = None
) -> Posted:
    """Pays ``amount`` chips out of ``name``'s balance to the cashier; refused for a
    frozen or closed account (its balance is held) and beyond its balance."""
    return _move(db, name, amount, ref, now, "withdrawal")


def _move(db: Connection, name: str, amount: int, ref: str, now: float | None, kind: str) -> Posted:
    """Posts a ``deposit`` or a ``withdrawal`` under ``ref``: a new one is refused first
    when the account may not take part; a reference already applied returns its posting."""
    key = _key(ref)
    ledger.lock(db)
    account = get_account(db, name)
    if ledger.find(db, key) is None:
        _refuse(account, kind)
    own = ledger_account(account)
    source, target = (ledger.CASHIER, own) if kind == "deposit" else (own, ledger.CASHIER)
    return ledger.transfer(db, key, kind, source, target, amount, memo={"ref": ref}, now=now)


def _refuse(account: Account, kind: str) -> None:
    """Raises when ``account`` may not take a new ``kind``: a closed account neither, a
    frozen one no withdrawal (its balance is held), a bot neither (the house's bankroll)."""
    held = f"{account.name} is {account.state}: its balance is held"
    if account.state == "closed":
        message = held if kind == "withdrawal" else f"{account.name} is closed"
        raise AccountClosed(message, account=account.name)
    if kind == "withdrawal" and account.state != "active":
        raise AccountFrozen(held, account=account.name)
    if account.role == "bot":
        if kind == "deposit":
            raise AccountError("a bot's bankroll comes from the house, not from deposits")
        raise AccountError("a bot's bankroll goes back to the house, not to the cashier")
