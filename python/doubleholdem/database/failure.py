"""Each database's errors as the package's typed errors, naming the database:
:class:`~doubleholdem.errors.DatabaseBusy` while another writer holds a lock (try
again), :class:`~doubleholdem.errors.DatabaseUnavailable` when a PostgreSQL server
cannot be reached or refuses the connection, :class:`~doubleholdem.errors.DamagedDatabase`
otherwise (not a database, damaged, unreadable, refused).

>>> import sqlite3
>>> isinstance(sqlite3.OperationalError("x"), database_errors())
True
>>> error = sqlite3.OperationalError("database is locked")
>>> error.sqlite_errorcode = sqlite3.SQLITE_BUSY
>>> print(database_error("room.db", error))
room.db: the database is locked by another process (SQLite: database is locked): try again
"""

from __future__ import annotations

import sqlite3
import sys

from doubleholdem.database.url import shown
from doubleholdem.errors import (
    DamagedDatabase,
    DatabaseBusy,
    DatabaseUnavailable,
    DoubleHoldemError,
)

__all__ = ["database_error", "database_errors"]

# PostgreSQL's SQLSTATEs of a lock or an order not had (try again): lock_not_available,
# serialization_failure, deadlock_detected
_BUSY_STATES = frozenset({"55P03", "40001", "40P01"})


def database_errors() -> tuple[type[Exception], ...]:
    """The exceptions a database raises: SQLite's, and psycopg's once it is in use."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)


def database_error(target: str, error: Exception) -> DoubleHoldemError:
    """The database's ``error`` about ``target`` (a path or a URL, shown without its
    password) as a typed error naming both."""
    where = shown(target)
    if isinstance(error, sqlite3.Error):
        return _sqlite(where, error)
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    state = getattr(error, "sqlstate", None)
    if state in _BUSY_STATES:
        return DatabaseBusy(f"{where}: another writer holds a lock ({first}): try again")
    if state is None or state.startswith("08") or state in ("28000", "28P01", "3D000"):
        return DatabaseUnavailable(f"{where}: PostgreSQL cannot be reached or refused ({first})")
    return DamagedDatabase(f"{where}: the database cannot be used (PostgreSQL: {first})")


def _sqlite(where: str, error: sqlite3.Error) -> DoubleHoldemError:
    code = getattr(error, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return DatabaseBusy(
            f"{where}: the database is locked by another process (SQLite: {error}): try again"
        )
    if code in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        return DamagedDatabase(f"{where}: not a doubleholdem room database (SQLite: {error})")
    return DamagedDatabase(f"{where}: the database cannot be used (SQLite: {error})")
