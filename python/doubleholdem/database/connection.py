"""The :class:`Connection` protocol and what differs between SQLite and PostgreSQL,
each said once.

A connection is a ``sqlite3.Connection`` opened with ``isolation_level=None`` (it is one
as it is: the server's hot paths pay nothing for the seam) or a
:class:`~doubleholdem.database.postgres.PostgresConnection`. Both take the same SQL text,
with ``?`` placeholders, and are in autocommit mode: the code above begins and ends its
transactions itself, with :func:`begin` and ``COMMIT`` or ``ROLLBACK``.

Transactions. A writer begins with :func:`begin` (SQLite's ``BEGIN IMMEDIATE`` takes the
database's one write lock at once; PostgreSQL's ``BEGIN`` is READ COMMITTED), and a
writer whose checks read what it then changes first takes :func:`serialise` on its topic
(the ledger and the accounts, the schema): nothing on SQLite, which has one writer at a
time already; a transaction-scoped advisory lock of the room's schema on PostgreSQL, so
that two processes moving chips at once are put in one order and each reads what the
other committed. A reader that needs one consistent picture (the audit) begins with
``write=False``: a deferred ``BEGIN`` on SQLite, a REPEATABLE READ, READ ONLY snapshot on
PostgreSQL.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> dialect(db)
'sqlite'
>>> begin(db)
>>> serialise(db, "ledger")  # SQLite's write lock is held already
>>> _ = db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
>>> inserted_id(db, "INSERT INTO people (name) VALUES (?)", ("ann",))
1
>>> db.execute("COMMIT").close()
>>> has_table(db, "people"), has_table(db, "nobody")
(True, False)
"""

from __future__ import annotations

import contextlib
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

__all__ = [
    "POSTGRESQL",
    "SQLITE",
    "Connection",
    "Cursor",
    "begin",
    "dialect",
    "has_table",
    "inserted_id",
    "lock_key",
    "reading",
    "serialise",
    "trigger_names",
]

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


class Cursor(Protocol):
    """What a statement returns: its rows (tuples) and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def close(self) -> None: ...


class Connection(Protocol):
    """A connection to the room's database, SQLite or PostgreSQL, in autocommit mode
    (the caller begins and ends transactions); SQL text with ``?`` placeholders."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor: ...

    def close(self) -> None: ...


def dialect(db: Connection) -> str:
    """:data:`SQLITE` or :data:`POSTGRESQL`."""
    return SQLITE if isinstance(db, sqlite3.Connection) else POSTGRESQL


def begin(db: Connection, *, write: bool = True) -> None:
    """Begins a transaction on ``db``: a writer's (SQLite's write lock taken at once;
    PostgreSQL READ COMMITTED), or with ``write=False`` a reader's consistent snapshot
    (PostgreSQL REPEATABLE READ, READ ONLY)."""
    if dialect(db) == SQLITE:
        db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    else:
        db.execute("BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")


@contextlib.contextmanager
def reading(db: Connection) -> Iterator[None]:
    """The reads of the block see one consistent picture of ``db`` while others write:
    a reader's transaction (:func:`begin` ``write=False``), ended after, unless ``db``
    is inside a transaction already (its reads are that transaction's).

    >>> db = sqlite3.connect(":memory:", isolation_level=None)
    >>> with reading(db):
    ...     db.in_transaction
    True
    >>> db.in_transaction
    False
    """
    if db.in_transaction:
        yield
        return
    begin(db, write=False)
    try:
        yield
    finally:
        db.execute("ROLLBACK")


def lock_key(topic: str) -> int:
    """The PostgreSQL advisory lock of ``topic`` (a stable signed 64-bit number)."""
    return zlib.crc32(f"doubleholdem:{topic}".encode()) - 2**31


def serialise(db: Connection, topic: str) -> None:
    """Makes the writers of ``topic`` (``ledger``, ``schema``, ...) that are inside a
    transaction on ``db`` go one at a time until it ends: those that check what they read
    and then write call it before they read. SQLite's writers are one at a time already;
    on PostgreSQL it waits for the topic's advisory lock in the room's schema (the first
    of the search path: two rooms in one database never wait for each other), held to
    the transaction's end. (The lock's two 32-bit keys are a key space of their own,
    apart from :func:`lock_key`'s 64-bit ones.)"""
    if dialect(db) == POSTGRESQL:
        db.execute(
            "SELECT pg_advisory_xact_lock(hashtext(?), hashtext(COALESCE(current_schema(), '')))",
            (f"doubleholdem:{topic}",),
        ).close()


def inserted_id(db: Connection, sql: str, parameters: Sequence[Any], key: str = "id") -> int:
    """Runs ``sql`` (one ``INSERT`` into a table whose key, numbered by the database,
    is the column ``key``) and returns the new row's key."""
    if dialect(db) == SQLITE:
        assert isinstance(db, sqlite3.Connection)
        return int(db.execute(sql, parameters).lastrowid or 0)
    return int(db.execute(f"{sql} RETURNING {key}", parameters).fetchone()[0])


def has_table(db: Connection, name: str) -> bool:
    """True if ``db`` has a table named ``name`` (PostgreSQL: in the schemas of its
    search path)."""
    if dialect(db) == SQLITE:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    else:
        query = "SELECT 1 WHERE to_regclass(?) IS NOT NULL"
    return db.execute(query, (name,)).fetchone() is not None


def trigger_names(db: Connection) -> set[str]:
    """The names of the triggers ``db`` has and that fire (PostgreSQL: those of the
    current schema, not disabled)."""
    if dialect(db) == SQLITE:
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    else:
        query = (
            "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND t.tgenabled != 'D' "
            "AND c.relnamespace = current_schema()::regnamespace"
        )
    return {str(name) for (name,) in db.execute(query)}
