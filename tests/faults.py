"""Faults injected into a room's database (helpers of the failure and money tests):
the next table snapshot written fails, or the next ``COMMIT`` statement, as on a full
disk, each database failing in its own way. Each returns how many of its faults are
still to come (1, then 0)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from doubleholdem.database.connection import SQLITE, Connection, dialect
from doubleholdem.database.url import connect
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.room import Room

# PostgreSQL's failing COMMIT: a deferred constraint trigger, checked at the commit,
# that refuses any row of its table (kept in a schema of its own, out of the rooms')
_COMMIT_FAULT = (
    "CREATE SCHEMA IF NOT EXISTS faults",
    "CREATE TABLE IF NOT EXISTS faults.commit_fault (n integer)",
    "CREATE OR REPLACE FUNCTION faults.commit_fault() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION 'the commit fails (a test''s fault)'; END $$",
    "DROP TRIGGER IF EXISTS commit_fault ON faults.commit_fault",
    "CREATE CONSTRAINT TRIGGER commit_fault AFTER INSERT ON faults.commit_fault"
    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION faults.commit_fault()",
)


def database_error(store: Storage) -> None:
    """Raises the error the room's database raises for a write that fails: SQLite's
    (as on a full disk), or, on PostgreSQL, its own for a statement it refuses, which
    aborts the transaction there."""
    if dialect(store.db) == SQLITE:
        raise sqlite3.OperationalError("database or disk is full")
    store.db.execute("SELECT 1 / 0")


def fail_next_write(room: Room) -> Callable[[], int]:
    """The next table snapshot written fails (the transaction is rolled back): SQLite's
    error raised; on PostgreSQL a statement the server refuses, which aborts the
    transaction there."""
    store = room.store
    real = store.put_table
    left = [1]

    def put_table(table_id: int, snapshot: str) -> None:
        if left[0]:
            left[0] -= 1
            database_error(store)
        real(table_id, snapshot)

    store.put_table = put_table  # type: ignore[method-assign]
    return lambda: left[0]


def fail_next_commit_statement(room: Room) -> Callable[[], int]:
    """The next ``COMMIT`` fails: on SQLite while the transaction stays open; on
    PostgreSQL, which ends the transaction (rolled back), by a deferred constraint
    that a row written just before the ``COMMIT`` breaks."""
    if dialect(room.store.db) != SQLITE:
        return _fail_next_postgres_commit(room.store)
    left = [1]

    def authorizer(action: int, arg1: Any, *rest: Any) -> int:
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" and left[0]:
            left[0] -= 1
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    room.store.db.set_authorizer(authorizer)
    return lambda: left[0]


def _fail_next_postgres_commit(store: Storage) -> Callable[[], int]:
    admin = connect(store.path)
    try:
        for statement in _COMMIT_FAULT:
            admin.execute(statement)
    finally:
        admin.close()
    db: Connection = store.db
    execute = db.execute
    left = [1]

    def failing(sql: str, parameters: Any = (), /) -> Any:
        if sql == "COMMIT" and left[0]:
            left[0] -= 1
            execute("INSERT INTO faults.commit_fault VALUES (1)")
        return execute(sql, parameters)

    db.execute = failing  # type: ignore[method-assign]
    return lambda: left[0]


def disarm(room: Room) -> None:
    """No more faults: the next table snapshot and ``COMMIT`` of ``room`` are its
    database's own again."""
    db = room.store.db
    if dialect(db) == SQLITE:
        db.set_authorizer(None)
    else:
        vars(db).pop("execute", None)
    vars(room.store).pop("put_table", None)
