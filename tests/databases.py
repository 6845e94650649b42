"""What the tests of code that runs on both databases need to say in each one's words:
the integrity errors they raise, and dropping and restoring the ledger's append-only
triggers as a tamperer with the database in hand would (docs: accounts.schema), and a
fresh database of either kind for a property test's example."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator

from doubleholdem.accounts.schema import append_only_triggers
from doubleholdem.database.connection import SQLITE, Connection, dialect
from postgres_cluster import Cluster

__all__ = ["drop_triggers", "fresh_database", "integrity_errors", "restore_triggers"]


def integrity_errors() -> tuple[type[Exception], ...]:
    """SQLite's and (when installed) psycopg's integrity errors."""
    try:
        import psycopg
    except ImportError:
        return (sqlite3.IntegrityError,)
    return (sqlite3.IntegrityError, psycopg.IntegrityError)


def _table(trigger: str) -> str:
    """The ledger table of an append-only trigger (``ledger_entries_delete_refused``)."""
    return "ledger_" + trigger.split("_")[1]


def drop_triggers(db: Connection, names: list[str] | None = None) -> list[str]:
    """Drops the append-only triggers ``names`` (all of them by default); their names."""
    dropped = sorted(append_only_triggers(db)) if names is None else names
    for name in dropped:
        on = "" if dialect(db) == SQLITE else f" ON {_table(name)}"
        db.execute(f"DROP TRIGGER {name}{on}")
    return dropped


def restore_triggers(db: Connection) -> None:
    """Makes the append-only triggers again (those present are made anew)."""
    for name, statement in append_only_triggers(db).items():
        if dialect(db) == SQLITE:
            db.execute(f"DROP TRIGGER IF EXISTS {name}")
        db.execute(statement)


@contextlib.contextmanager
def fresh_database(postgres: Cluster | None) -> Iterator[str]:
    """A new room's database for one example of a property test (which cannot take
    function-scoped fixtures): a SQLite file's path in a folder of its own, or a fresh
    schema of ``postgres`` (dropped after)."""
    if postgres is not None:
        with postgres.schema() as url:
            yield url
        return
    folder = tempfile.mkdtemp()
    try:
        yield os.path.join(folder, "room.db")
    finally:
        shutil.rmtree(folder)
