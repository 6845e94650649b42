"""A room's database copied into another: its SQLite file into PostgreSQL
(``doubleholdem db copy``), every row of every table as it is, ledger and hash chain
included, inside the caller's transactions (a reading one on the source: one consistent
picture; a writing one on the target: all or nothing). The target must hold no room
yet (:class:`DatabaseNotEmpty`); its tables are made from the same
statements a SQLite room is made with, in its own words
(:mod:`doubleholdem.database.ddl`), and its fencing triggers once the rows are in
(:func:`~doubleholdem.server.storage.database.make_fencing`). The command line audits
the room before and after (:mod:`doubleholdem.cli.db`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from doubleholdem.accounts.schema import create_tables
from doubleholdem.database.connection import SQLITE, Connection, dialect, has_table, serialise
from doubleholdem.database.ddl import postgres
from doubleholdem.errors import DamagedDatabase, DoubleHoldemError
from doubleholdem.server.storage.database import SCHEMA_VERSION, make_fencing, room_schema

__all__ = [
    "BATCH",
    "DatabaseNotEmpty",
    "check_source",
    "copy_room",
]


class DatabaseNotEmpty(DoubleHoldemError, ValueError):
    """A room copied into a database that holds one already (``doubleholdem db copy``):
    a copy goes into a new, empty database; nothing was written."""


BATCH = 1000  # rows sent at once
# tables whose rows others refer to, first (PostgreSQL holds the foreign keys)
_FIRST = ("accounts",)


def _tables(source: sqlite3.Connection) -> list[str]:
    """The tables of ``source`` in the order they are copied."""
    names = sorted(
        str(name)
        for (name,) in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    )
    return [n for n in _FIRST if n in names] + [n for n in names if n not in _FIRST]


def _rows(source: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[list[Any]]:
    """The rows of ``table``, :data:`BATCH` at a time."""
    cursor = source.execute(f'SELECT {", ".join(columns)} FROM "{table}"')
    while batch := cursor.fetchmany(BATCH):
        yield batch


def check_source(source: sqlite3.Connection) -> None:
    """Refuses (:class:`~doubleholdem.errors.DamagedDatabase`) a source that is not a
    room database of this version's schema."""
    version = None
    if has_table(source, "meta"):
        row = source.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        version = None if row is None else str(row[0])
    if version != str(SCHEMA_VERSION):
        raise DamagedDatabase(
            "the source is not a room database of schema "
            f"{SCHEMA_VERSION} (found {version or 'none'}): a room of an older schema is "
            "upgraded when `doubleholdem serve` opens it"
        )


def _check_target(target: Connection) -> None:
    if dialect(target) == SQLITE:
        raise ValueError("a room is copied from SQLite into PostgreSQL")
    if has_table(target, "meta") or has_table(target, "accounts_meta"):
        raise DatabaseNotEmpty("the target database holds a room already: copy into a new one")


def copy_room(
    source: sqlite3.Connection,
    target: Connection,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """Copies every row of the room in ``source`` into ``target`` (both inside the
    caller's transactions, which it never ends); the rows copied, by table.
    ``progress(table, rows)`` is told as each table is done."""
    serialise(target, "schema")  # another copy into it waits, then finds this room
    check_source(source)
    _check_target(target)
    create_tables(target)
    for statement in room_schema():
        target.execute(postgres(statement))
    counts = {}
    for table in _tables(source):
        columns = [str(row[1]) for row in source.execute(f'PRAGMA table_info("{table}")')]
        insert = (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        )
        counts[table] = 0
        for batch in _rows(source, table, columns):
            target.executemany(insert, batch)
            counts[table] += len(batch)
        if progress is not None:
            progress(table, counts[table])
    _continue_numbering(source, target)
    make_fencing(target, upgrade=True)  # after the rows: the copy declares no lease
    return counts


def _continue_numbering(source: sqlite3.Connection, target: Connection) -> None:
    """Each identity column of ``target`` goes on from its largest number copied, or
    past SQLite's AUTOINCREMENT record of it (a number given once is never given
    again, even after its row was deleted)."""
    given = {}
    if has_table(source, "sqlite_sequence"):
        given = {str(n): int(s) for n, s in source.execute("SELECT name, seq FROM sqlite_sequence")}
    identities = target.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_identity = 'YES'"
    ).fetchall()
    for table, column in identities:
        (largest,) = target.execute(f"SELECT COALESCE(MAX({column}), 0) FROM {table}").fetchone()
        last = max(int(largest), given.get(str(table), 0))
        if last > 0:
            target.execute(
                "SELECT setval(pg_get_serial_sequence(?, ?), ?)", (str(table), str(column), last)
            )
