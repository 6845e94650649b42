"""The :class:`Bank`: the accounts of one database (a SQLite file or a PostgreSQL URL:
:mod:`doubleholdem.database`) behind one connection, each request in a transaction of its
own (:func:`~doubleholdem.database.connection.begin` ... ``COMMIT``, rolled back on any
error). The command line (``doubleholdem accounts``) uses it; a server writes
through the module functions inside its own transactions instead.

>>> from doubleholdem.accounts.accounts import Passwords
>>> fast = Passwords(time_cost=1, memory_cost=8, insecure=True)  # tests only
>>> with Bank(":memory:", passwords=fast, create=True) as bank:
...     _ = bank.create("ann", "correct horse")
...     _ = bank.deposit("ann", 1000, ref="wire-1")
...     _ = bank.deposit("ann", 1000, ref="wire-1")  # the same reference: once
...     _ = bank.withdraw("ann", 250, ref="payout-1")
...     bank.show("ann")["balance"], bank.audit()["ok"]
(750, True)
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from doubleholdem.accounts import accounts, cashier, households, ledger, sessions
from doubleholdem.accounts.accounts import Account, Passwords
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.ledger import Posted
from doubleholdem.accounts.schema import check_schema, ensure_schema
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import SQLITE, Connection, begin, dialect, reading
from doubleholdem.database.url import connect, is_postgres, shown

__all__ = ["BUSY_SECONDS", "Bank", "Receipt"]

BUSY_SECONDS = 5.0  # how long a transaction waits for another writer (the server)


class Receipt(NamedTuple):
    """What a deposit or withdrawal did: the ledger transaction, whether it had been
    applied already (the reference was used before), and the account's balance now."""

    posted: Posted
    repeated: bool
    balance: int


class Bank:
    """The accounts in the database at ``path`` (a SQLite file, or a PostgreSQL URL
    ``postgresql://...``). A file must exist unless ``create`` (``FileNotFoundError``
    otherwise, so that a mistyped path creates nothing; a PostgreSQL database is made by
    its operator). Only ``create`` writes the accounts' tables (and SQLite's WAL mode)
    into a database: without it, one that is not a doubleholdem room database is refused
    (:class:`~doubleholdem.errors.DamagedDatabase`) before anything is written, and
    ``read_only`` opens it so that nothing can be (SQLite's ``mode=ro``, PostgreSQL's
    read-only transactions: the audit's evidence stays as found). ``passwords`` hashes
    and verifies passwords (OWASP's Argon2id by default). The databases' own errors
    (:func:`~doubleholdem.database.failure.database_errors`) are told by
    :func:`~doubleholdem.database.failure.database_error`."""

    def __init__(
        self,
        path: str,
        *,
        passwords: Passwords | None = None,
        create: bool = False,
        read_only: bool = False,
    ) -> None:
        file = not is_postgres(path) and path != ":memory:"
        if file and not create and not os.path.isfile(path):
            raise FileNotFoundError(2, "no such database", path)
        self._passwords = passwords
        mode = "rwc" if create else "ro" if read_only else "rw"
        self.db: Connection = connect(path, mode=mode, timeout=BUSY_SECONDS)
        try:
            if create:
                if file and dialect(self.db) == SQLITE:
                    self.db.execute("PRAGMA journal_mode=WAL")
                ensure_schema(self.db)
            else:
                check_schema(self.db, shown(path))
        except BaseException:
            self.db.close()
            raise

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connection."""
        self.db.close()

    @property
    def passwords(self) -> Passwords:
        """The password hasher (made on first use: the defaults cost 19 MiB)."""
        if self._passwords is None:
            self._passwords = Passwords()
        return self._passwords

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One atomic change: committed at the end, rolled back on any error."""
        begin(self.db)
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # accounts

    def create(self, name: str, password: str, *, admin: bool = False, welcome: int = 0) -> Account:
        """A new account (:func:`~doubleholdem.accounts.accounts.create_account`)."""
        with self.transaction() as db:
            return accounts.create_account(
                db, name, password, passwords=self.passwords, admin=admin, welcome=welcome
            )

    def create_bot(self, name: str, bankroll: int) -> Account:
        """A new bot with its bankroll from the house."""
        with self.transaction() as db:
            return accounts.create_bot(db, name, bankroll)

    def set_state(self, name: str, state: str) -> Account:
        """Freezes (``frozen``), unfreezes (``active``) or closes (``closed``)."""
        with self.transaction() as db:
            return accounts.set_state(db, name, state)

    # money

    def deposit(self, name: str, amount: int, *, ref: str) -> Receipt:
        """A deposit under the outside reference ``ref`` (applied once per ``ref``)."""
        with self.transaction() as db:
            repeated = cashier.applied(db, ref) is not None
            posted = cashier.deposit(db, name, amount, ref=ref)
            return Receipt(posted, repeated, ledger.balance(db, posted.transfer.target))

    def withdraw(self, name: str, amount: int, *, ref: str) -> Receipt:
        """A withdrawal under the outside reference ``ref`` (applied once per ``ref``)."""
        with self.transaction() as db:
            repeated = cashier.applied(db, ref) is not None
            posted = cashier.withdraw(db, name, amount, ref=ref)
            return Receipt(posted, repeated, ledger.balance(db, posted.transfer.source))

    @property
    def wallet(self) -> LedgerWallet:
        """The ledger wallet on this connection (call it inside :meth:`transaction`)."""
        return LedgerWallet(self.db)

    def show(self, name: str, *, last: int = 20) -> dict[str, Any]:
        """An account's name, role, state, balance, open seats and ``last`` statement
        lines (newest first), as plain JSON values."""
        account = accounts.get_account(self.db, name)
        own = accounts.ledger_account(account)
        return {
            "name": account.name,
            "role": account.role,
            "state": account.state,
            "balance": ledger.balance(self.db, own),
            "seats": self.wallet.seats(account.name),
            "statement": [line.to_json() for line in ledger.statement(self.db, own, last=last)],
        }

    def audit(self, *, table_chips: Mapping[int, int] | None = None) -> dict[str, Any]:
        """:func:`~doubleholdem.accounts.audit.audit` of the database, read in one
        transaction (a consistent snapshot while a server writes)."""
        with reading(self.db):
            return audit(self.db, table_chips=table_chips)

    def shared_addresses(self) -> list[households.SharedAddress]:
        """The addresses more than one account signed in from."""
        return households.shared_addresses(self.db)

    # sign-in

    def sign_in(
        self,
        name: str,
        password: str,
        *,
        address: str,
        throttle: Throttle | None = None,
        now: float | None = None,
    ) -> tuple[Account, str]:
        """Signs ``name`` in from ``address``: the account and a new session token, by
        the server's own sign-in (:func:`~doubleholdem.accounts.sessions.sign_in`:
        with a ``throttle``, each try counted against the address and the name before
        it is checked, the addresses the name signed in from spared its count against
        guessers with many addresses; a weaker hash made anew)."""
        moment = time.time() if now is None else now
        return sessions.sign_in(
            self.db,
            self.transaction,
            name,
            password,
            address=address,
            passwords=self.passwords,
            clock=lambda: moment,
            throttle=throttle,
        )

    def session(self, token: str, *, now: float | None = None) -> Account | None:
        """The account of a live session token, or ``None``."""
        moment = time.time() if now is None else now
        return sessions.session_account(self.db, token, now=moment)

    def sign_out(self, token: str, *, now: float | None = None) -> None:
        """Revokes the session ``token``."""
        with self.transaction() as db:
            sessions.end_session(db, token, now=time.time() if now is None else now)
