"""The ``wallet_calls`` table read: the calls to a wallet outside the database noted and
not yet known done, with the wallet's failures of each (written by
:class:`~doubleholdem.server.storage.storage.Storage`,
:mod:`doubleholdem.server.money.wallet_calls`), on any connection to the room's
database, SQLite or PostgreSQL (the command line's audit reads on its own)."""

from __future__ import annotations

from doubleholdem.database.connection import Connection, has_table

__all__ = ["WalletCallRow", "forget", "note_failure", "tables_of", "wallet_calls"]

WalletCallRow = tuple[int, int, str, int, str]


def wallet_calls(db: Connection, table_id: int | None = None) -> list[WalletCallRow]:
    """The calls to a wallet outside the database noted (about table ``table_id``, or
    any) and not forgotten, oldest first: (number, table, JSON text, how often the
    wallet failed it, how it failed last); ``db`` any connection to the database (the
    command line's audit reads on its own)."""
    if not has_table(db, "wallet_failures"):  # a database no room of this version opened
        query = "SELECT number, table_id, call, 0, '' FROM wallet_calls"
    else:
        query = (
            "SELECT c.number, c.table_id, c.call, COALESCE(f.attempts, 0), COALESCE(f.error, '')"
            " FROM wallet_calls c LEFT JOIN wallet_failures f ON f.number = c.number"
        )
    if table_id is None:
        rows = db.execute(query + " ORDER BY 1")
    else:
        rows = db.execute(query + " WHERE table_id = ? ORDER BY 1", (table_id,))
    return [(int(n), int(t), str(c), int(a), str(e)) for n, t, c, a, e in rows]


def note_failure(db: Connection, number: int, error: str) -> None:
    """The wallet failed the call of this number (once more): ``error`` says how."""
    db.execute(
        "INSERT INTO wallet_failures VALUES (?, 1, ?) ON CONFLICT (number) DO UPDATE"
        " SET attempts = wallet_failures.attempts + 1, error = excluded.error",
        (number, error),
    )


def tables_of(db: Connection, numbers: list[int]) -> set[int]:
    """The tables the wallet calls of ``numbers`` are about (those still noted)."""
    if not numbers:
        return set()
    marks = ", ".join("?" * len(numbers))
    query = f"SELECT DISTINCT table_id FROM wallet_calls WHERE number IN ({marks})"
    rows = db.execute(query, numbers)
    return {int(table_id) for (table_id,) in rows}


def forget(db: Connection, numbers: list[int]) -> None:
    """Forgets the wallet calls of these numbers (known done) and their failures (the
    failures first: a failure is fenced by its call's table, read from the call's row)."""
    pairs = [(n,) for n in numbers]
    db.executemany("DELETE FROM wallet_failures WHERE number = ?", pairs)
    db.executemany("DELETE FROM wallet_calls WHERE number = ?", pairs)
