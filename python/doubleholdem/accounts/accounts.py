"""Accounts: a name, a role, a state and a password hash; each has a ledger account
(a person's balance, or a bot's bankroll) in :mod:`~doubleholdem.accounts.ledger`.

Names (:data:`NAME_RULE`): 1 to 24 characters among ASCII letters, digits, ``_``, ``-``
and ``.``, starting with a letter or a digit; unique without regard to case ("Ann" and
"ann" are one name) and among names that look alike ("bob1" and "bobl" are one name:
:mod:`~doubleholdem.accounts.lookalike`); a person's may not be, or look like, a bot's
(``bot-TABLE-SEAT``). Passwords (:data:`PASSWORD_RULE`): 8 to 256 characters, hashed with
Argon2id (``argon2-cffi``) at OWASP's parameters or stronger (:class:`Passwords`);
the password itself is never stored, logged or put in an error.

States: ``active``; ``frozen`` (signs in and sees its balance, but cannot take a seat,
top up or withdraw: the balance is held); ``closed`` (final: cannot sign in, sit,
deposit or withdraw; the balance is held in the ledger).

Signing in does the same work whether the name exists or not: an unknown name (or a
bot, which has no password) is verified against a dummy hash of the same parameters,
and every failure is the same :class:`~doubleholdem.errors.BadCredentials`.

Like the ledger, these functions write inside the caller's transaction and never commit.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> fast = Passwords(time_cost=1, memory_cost=8, insecure=True)  # tests only
>>> _ = db.execute("BEGIN")
>>> ann = create_account(db, "Ann", "correct horse", passwords=fast, welcome=100)
>>> sign_in(db, "ann", "correct horse", passwords=fast).name
'Ann'
>>> sign_in(db, "ann", "wrong horse", passwords=fast)
Traceback (most recent call last):
...
doubleholdem.errors.BadCredentials: wrong name or password
>>> db.execute("COMMIT").close()
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from doubleholdem.accounts import ledger
from doubleholdem.accounts.ledger import LedgerAccount
from doubleholdem.accounts.lookalike import looks_like_a_bot, name_key
from doubleholdem.database.connection import Connection, inserted_id
from doubleholdem.errors import (
    AccountClosed,
    AccountExists,
    AccountStateError,
    BadCredentials,
    InvalidAccountName,
    InvalidPassword,
    NotInTransaction,
    UnknownAccount,
)
from doubleholdem.extras import require

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10 (mypy's 3.11); only read by the type checker

__all__ = [
    "NAME_RULE",
    "PASSWORD_RULE",
    "ROLES",
    "STATES",
    "Account",
    "Checked",
    "Passwords",
    "check_name",
    "check_name_free",
    "check_password",
    "check_person_name",
    "check_sign_in",
    "create_account",
    "create_bot",
    "get_account",
    "inactive",
    "is_name",
    "ledger_account",
    "set_password_hash",
    "set_state",
    "sign_in",
]

NAME_RULE = (
    "1 to 24 characters: ASCII letters, digits, '_', '-', '.', starting with a letter or digit"
)
PASSWORD_RULE = "8 to 256 characters"
MIN_PASSWORD, MAX_PASSWORD = 8, 256
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,23}")
ROLES = ("player", "admin", "bot")
STATES = ("active", "frozen", "closed")
_NAMES_AT_ONCE = 500  # names in one query (SQLite bounds a statement's parameters)
# the state changes allowed: (from, to)
_CHANGES = {("active", "frozen"), ("frozen", "active"), ("active", "closed"), ("frozen", "closed")}

# OWASP's minimum for Argon2id (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane.
OWASP_MEMORY_KIB, OWASP_TIME_COST, OWASP_PARALLELISM = 19 * 1024, 2, 1


class Account(NamedTuple):
    """An account as stored (never with its password hash)."""

    id: int
    name: str
    role: str
    state: str
    created: float


class Passwords:
    """Hashes and verifies passwords with Argon2id. The defaults are OWASP's minimum
    (19 MiB, 2 passes, 1 lane); anything weaker is refused unless ``insecure=True``
    (for tests, which need speed, never for a room). Needs ``argon2-cffi``
    (``pip install doubleholdem[accounts]``)."""

    def __init__(
        self,
        *,
        time_cost: int = OWASP_TIME_COST,
        memory_cost: int = OWASP_MEMORY_KIB,
        parallelism: int = OWASP_PARALLELISM,
        insecure: bool = False,
    ) -> None:
        require("argon2", "accounts", "passwords")
        from argon2 import PasswordHasher, Type
        from argon2.exceptions import InvalidHashError, VerificationError

        weak = memory_cost < OWASP_MEMORY_KIB or time_cost < OWASP_TIME_COST
        if weak and not insecure:
            raise ValueError(
                f"Argon2id below OWASP's minimum (memory {OWASP_MEMORY_KIB} KiB, "
                f"{OWASP_TIME_COST} passes): pass insecure=True, in tests only"
            )
        self._hasher = PasswordHasher(
            time_cost=time_cost,
            memory_cost=memory_cost,
            parallelism=parallelism,
            type=Type.ID,
        )
        self._dummy: str | None = None
        self._mismatch = (VerificationError, InvalidHashError)

    def hash(self, password: str) -> str:
        """The Argon2id hash of ``password`` (a random salt each time)."""
        return str(self._hasher.hash(password))

    def verify(self, hashed: str, password: str) -> bool:
        """True if ``password`` matches ``hashed``."""
        try:
            return bool(self._hasher.verify(hashed, password))
        except self._mismatch:
            return False

    def needs_rehash(self, hashed: str) -> bool:
        """True if ``hashed`` was made with other parameters than these."""
        return bool(self._hasher.check_needs_rehash(hashed))

    @property
    def dummy(self) -> str:
        """A hash of a random password with these parameters, verified in place of an
        unknown name's so that its answer costs the same work."""
        if self._dummy is None:
            self._dummy = self.hash(secrets.token_urlsafe(32))
        return self._dummy


def is_name(name: object) -> TypeGuard[str]:
    """True if ``name`` follows :data:`NAME_RULE` (it may name an account: a name that
    cannot is never looked up; PostgreSQL refuses some, such as a NUL, in any query)."""
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def check_name(name: object) -> str:
    """``name`` if it follows :data:`NAME_RULE`, else
    :class:`~doubleholdem.errors.InvalidAccountName` (which does not repeat a long
    or strange name)."""
    if not is_name(name):
        raise InvalidAccountName(f"an account name is {NAME_RULE}")
    return name


def check_password(password: object) -> str:
    """``password`` if it follows :data:`PASSWORD_RULE`, else
    :class:`~doubleholdem.errors.InvalidPassword` (which never repeats it)."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidPassword(f"a password is {PASSWORD_RULE}")
    return password


def _need_transaction(db: Connection) -> None:
    if not db.in_transaction:
        raise NotInTransaction("accounts are written inside the caller's transaction: BEGIN first")


def _row(row: tuple[object, ...]) -> Account:
    id_, name, role, state, created = row
    return Account(int(str(id_)), str(name), str(role), str(state), float(str(created)))


def check_name_free(db: Connection, name: str) -> None:
    """Nothing if no account holds ``name`` (any case) or a name that looks like it
    (:func:`~doubleholdem.accounts.lookalike.name_key`), else
    :class:`~doubleholdem.errors.AccountExists`: a sign-up checks it before hashing."""
    taken = db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() or (
        db.execute("SELECT 1 FROM account_name_keys WHERE key = ?", (name_key(name),)).fetchone()
    )
    if taken is not None:
        raise AccountExists(f"the name {name} is taken, or looks like one that is", account=name)


def check_person_name(name: object) -> str:
    """``name`` if a person may take it: :func:`check_name`, and not a bot's
    (``bot-TABLE-SEAT``, or a name that looks like one), else
    :class:`~doubleholdem.errors.InvalidAccountName`."""
    check_name(name)
    assert isinstance(name, str)
    if looks_like_a_bot(name):
        raise InvalidAccountName("names like bot-TABLE-SEAT are the room's bots'")
    return name


def _insert(db: Connection, name: str, role: str, hashed: str | None, now: float | None) -> Account:
    _need_transaction(db)
    # the names checked stay free until this one is written: under the ledger's lock, the
    # one of every accounts' writer, so that two never wait for each other in a cycle
    ledger.lock(db)
    if role == "bot":  # a bot's name is the room's own (no person's looks like one)
        if db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() is not None:
            raise AccountExists(f"the name {name} is taken", account=name)
    else:
        check_name_free(db, name)
    created = time.time() if now is None else float(now)
    id_ = inserted_id(
        db,
        "INSERT INTO accounts (name, role, state, password_hash, created) "
        "VALUES (?, ?, 'active', ?, ?)",
        (name, role, hashed, created),
    )
    account = Account(id_, name, role, "active", created)
    db.execute("INSERT INTO account_name_keys VALUES (?, ?)", (account.id, name_key(name)))
    account_ledger = ledger_account(account)
    db.execute(
        "INSERT INTO ledger_accounts (kind, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
        account_ledger,
    )
    return account


def create_account(
    db: Connection,
    name: str,
    password: str,
    *,
    passwords: Passwords,
    admin: bool = False,
    welcome: int = 0,
    now: float | None = None,
    password_hash: str | None = None,
) -> Account:
    """Creates an active account (``admin`` for a room's operator) with ``welcome``
    chips from the house (a ``welcome`` ledger transaction; 0 gives none).
    ``password_hash``: ``passwords.hash(password)`` made beforehand (a server hashes
    before it takes the write lock); ``None`` hashes here. Raises
    :class:`~doubleholdem.errors.InvalidAccountName`,
    :class:`~doubleholdem.errors.InvalidPassword` or
    :class:`~doubleholdem.errors.AccountExists`; nothing is written then."""
    check_person_name(name)
    check_password(password)
    ledger.check_amount(welcome, low=0, what="welcome chips")
    _need_transaction(db)
    hashed = passwords.hash(password) if password_hash is None else password_hash
    account = _insert(db, name, "admin" if admin else "player", hashed, now)
    if welcome:
        ledger.transfer(
            db,
            f"welcome:{account.id}",
            "welcome",
            ledger.HOUSE,
            ledger_account(account),
            welcome,
            now=now,
        )
    return account


def create_bot(db: Connection, name: str, bankroll: int, *, now: float | None = None) -> Account:
    """Creates a bot's account (it cannot sign in) with a bankroll of ``bankroll``
    chips from the house (a ``bankroll`` ledger transaction). A bot buys in from its
    bankroll like a person from a balance, and cannot once the bankroll is gone."""
    check_name(name)
    ledger.check_amount(bankroll, what="a bankroll")
    account = _insert(db, name, "bot", None, now)
    ledger.transfer(
        db, f"bankroll:{account.id}", "bankroll", ledger.HOUSE, ledger_account(account), bankroll
    )
    return account


def ledger_account(account: Account) -> LedgerAccount:
    """The ledger account holding ``account``'s chips (a bot's bankroll for a bot)."""
    return ledger.bot(account.name) if account.role == "bot" else ledger.player(account.name)


def get_account(db: Connection, name: str) -> Account:
    """The account named ``name`` (any case), or
    :class:`~doubleholdem.errors.UnknownAccount`."""
    check_name(name)
    row = db.execute(
        "SELECT id, name, role, state, created FROM accounts WHERE name = ?", (name,)
    ).fetchone()
    if row is None:
        raise UnknownAccount(f"no account is named {name}", account=name)
    return _row(row)


def inactive(db: Connection, names: Iterable[str]) -> set[str]:
    """Those of ``names`` (accounts' names as stored) whose account is frozen or closed
    (a server closes their WebSockets at once: a name held open keeps nothing)."""
    wanted = list(names)
    found: set[str] = set()
    for start in range(0, len(wanted), _NAMES_AT_ONCE):
        chunk = wanted[start : start + _NAMES_AT_ONCE]
        marks = ", ".join("?" * len(chunk))
        query = f"SELECT name FROM accounts WHERE state != 'active' AND name IN ({marks})"
        found.update(str(name) for (name,) in db.execute(query, chunk))
    return found


def set_state(db: Connection, name: str, state: str, *, now: float | None = None) -> Account:
    """Freezes (``frozen``), unfreezes (``active``) or closes (``closed``) an account;
    closing is final and ends its sessions. Raises
    :class:`~doubleholdem.errors.AccountStateError` for a change the rules do not allow."""
    _need_transaction(db)
    account = get_account(db, name)
    if (account.state, state) not in _CHANGES:
        raise AccountStateError(
            f"{account.name} is {account.state}: it cannot become {state}", account=account.name
        )
    db.execute("UPDATE accounts SET state = ? WHERE id = ?", (state, account.id))
    if state == "closed":
        db.execute(
            "UPDATE account_sessions SET revoked = ? WHERE account_id = ? AND revoked IS NULL",
            (time.time() if now is None else now, account.id),
        )
    return account._replace(state=state)


class Checked(NamedTuple):
    """A password checked at sign-in (:func:`check_sign_in`): the account, and the new
    hash of its password to store when the old one was made with weaker parameters
    (else ``None``)."""

    account: Account
    rehashed: str | None


def check_sign_in(
    db: Connection, name: object, password: object, *, passwords: Passwords
) -> Checked:
    """The account if ``password`` is its password, else
    :class:`~doubleholdem.errors.BadCredentials` for a malformed or unknown name, a
    wrong password or a bot alike, after the same Argon2 work (an unknown name is
    verified against :attr:`Passwords.dummy`). A closed account with the right password
    gets :class:`~doubleholdem.errors.AccountClosed`. The rehash rule, once: a hash made
    with other parameters than ``passwords``' comes back made anew (:attr:`Checked.rehashed`,
    to store with :func:`set_password_hash`). Only reads ``db``: the hashing holds no
    write lock."""
    row = None
    if is_name(name):
        row = db.execute(
            "SELECT id, name, role, state, created, password_hash FROM accounts WHERE name = ?",
            (name,),
        ).fetchone()
    hashed = row[5] if row is not None and row[5] is not None else None
    text = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
    matched = passwords.verify(hashed or passwords.dummy, text)
    if row is None or hashed is None or not matched:
        raise BadCredentials("wrong name or password")
    account = _row(row[:5])
    if account.state == "closed":
        raise AccountClosed(f"{account.name} is closed", account=account.name)
    rehashed = passwords.hash(text) if passwords.needs_rehash(hashed) else None
    return Checked(account, rehashed)


def set_password_hash(db: Connection, account: Account, hashed: str) -> None:
    """Stores ``hashed`` as ``account``'s password hash (inside the caller's
    transaction)."""
    _need_transaction(db)
    db.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", (hashed, account.id))


def sign_in(db: Connection, name: object, password: object, *, passwords: Passwords) -> Account:
    """The account if ``password`` is its password (:func:`check_sign_in`, which says
    what is refused); a hash made with weaker parameters than ``passwords``' is
    replaced inside the caller's transaction, if any."""
    account, rehashed = check_sign_in(db, name, password, passwords=passwords)
    if rehashed is not None and db.in_transaction:
        set_password_hash(db, account, rehashed)
    return account
