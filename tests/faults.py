"""Faults injected into a room's database (helpers of the failure and money tests):
the next table snapshot written fails, or the next ``COMMIT`` statement, as on a full
disk. Each returns how many of its faults are still to come (1, then 0)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from doubleholdem.database.connection import SQLITE, dialect
from doubleholdem.server.tables.room import Room


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
            if dialect(store.db) == SQLITE:
                raise sqlite3.OperationalError("disk I/O error")
            store.db.execute("SELECT 1 / 0")  # PostgreSQL's own error: the transaction aborts
        real(table_id, snapshot)

    store.put_table = put_table  # type: ignore[method-assign]
    return lambda: left[0]


def fail_next_commit_statement(room: Room) -> Callable[[], int]:
    """The next ``COMMIT`` fails while the transaction stays open."""
    left = [1]

    def authorizer(action: int, arg1: Any, *rest: Any) -> int:
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" and left[0]:
            left[0] -= 1
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    room.store.db.set_authorizer(authorizer)
    return lambda: left[0]
