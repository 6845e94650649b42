"""Households: the addresses accounts signed in from. A room may refuse several accounts
of one household at a table; these functions record each sign-in's address and list the
accounts that share one.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> from doubleholdem.accounts.accounts import create_bot
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> _ = db.execute("BEGIN")
>>> ann, bob = create_bot(db, "ann", 1), create_bot(db, "bob", 1)
>>> record_address(db, ann, "203.0.113.7", now=1.0)
>>> record_address(db, bob, "203.0.113.7", now=2.0)
>>> record_address(db, bob, "198.51.100.1", now=3.0)
>>> db.execute("COMMIT").close()
>>> shared_addresses(db)
[SharedAddress(address='203.0.113.7', names=('ann', 'bob'))]
>>> household(db, "ann")
('ann', 'bob')
>>> signed_in_from(db, "198.51.100.1")
('bob',)
>>> signed_in(db, "BOB", "203.0.113.7"), signed_in(db, "ann", "198.51.100.1")
(True, False)
"""

from __future__ import annotations

from typing import NamedTuple

from doubleholdem.accounts.accounts import Account, is_name
from doubleholdem.database.connection import Connection
from doubleholdem.errors import NotInTransaction

__all__ = [
    "MAX_ADDRESS",
    "SharedAddress",
    "household",
    "record_address",
    "shared_addresses",
    "signed_in",
    "signed_in_from",
]

MAX_ADDRESS = 100  # characters of an address worth keeping (IPv6 with a zone fits)


class SharedAddress(NamedTuple):
    """An address and the names of the accounts that signed in from it."""

    address: str
    names: tuple[str, ...]


def record_address(db: Connection, account: Account, address: str, *, now: float) -> None:
    """Notes that ``account`` signed in from ``address`` (an IP address as text; longer
    than :data:`MAX_ADDRESS` characters is cut there)."""
    if not db.in_transaction:
        raise NotInTransaction("addresses are written inside the caller's transaction")
    db.execute(
        "INSERT INTO account_addresses VALUES (?, ?, ?, ?, 1) "
        "ON CONFLICT (account_id, address) DO UPDATE SET last_seen = excluded.last_seen, "
        "count = account_addresses.count + 1",
        (account.id, str(address)[:MAX_ADDRESS], now, now),
    )


def shared_addresses(db: Connection) -> list[SharedAddress]:
    """Every address more than one account signed in from, with their names (sorted)."""
    rows = db.execute(
        "SELECT x.address, a.name FROM account_addresses x JOIN accounts a ON a.id = x.account_id "
        "WHERE x.address IN (SELECT address FROM account_addresses GROUP BY address "
        "HAVING COUNT(*) > 1) ORDER BY x.address, a.name"
    ).fetchall()
    found: dict[str, list[str]] = {}
    for address, name in rows:
        found.setdefault(str(address), []).append(str(name))
    return [SharedAddress(address, tuple(names)) for address, names in found.items()]


def household(db: Connection, name: str) -> tuple[str, ...]:
    """The names of the accounts that share an address with ``name``'s, itself included
    (sorted; just ``(name,)`` when it shares none or never signed in)."""
    rows = db.execute(
        "SELECT DISTINCT a.name FROM account_addresses x JOIN accounts a ON a.id = x.account_id "
        "WHERE x.address IN (SELECT y.address FROM account_addresses y "
        "JOIN accounts b ON b.id = y.account_id WHERE b.name = ?) ORDER BY a.name",
        (name,),
    ).fetchall()
    return tuple(str(row[0]) for row in rows) or (name,)


def signed_in_from(db: Connection, address: str) -> tuple[str, ...]:
    """The names of the accounts that signed in from ``address`` (sorted)."""
    rows = db.execute(
        "SELECT a.name FROM account_addresses x JOIN accounts a ON a.id = x.account_id "
        "WHERE x.address = ? ORDER BY a.name",
        (str(address)[:MAX_ADDRESS],),
    ).fetchall()
    return tuple(str(row[0]) for row in rows)


def signed_in(db: Connection, name: object, address: str) -> bool:
    """True if the account named ``name`` (any case) has signed in from ``address``
    (never for a name no account can have)."""
    if not is_name(name):
        return False
    row = db.execute(
        "SELECT 1 FROM account_addresses x JOIN accounts a ON a.id = x.account_id "
        "WHERE a.name = ? AND x.address = ?",
        (name, str(address)[:MAX_ADDRESS]),
    ).fetchone()
    return row is not None
