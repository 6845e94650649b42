"""A PostgreSQL room's tables copied whole into a schema of their own beside it, before a
repair drops any (``serve --repair``; a SQLite room's file is copied instead:
:meth:`Storage.backup <doubleholdem.server.storage.storage.Storage.backup>`): the schema
``ROOM_before_repair`` (``ROOM`` the room's schema; ``_2``, ``_3``, ... after it when
taken), every table of the room's schema with its rows, in one transaction."""

from __future__ import annotations

from doubleholdem.database.connection import Connection, begin

__all__ = ["copy_schema"]


def copy_schema(db: Connection, suffix: str = "before_repair") -> str:
    """Copies every table of ``db``'s current schema, rows and all, into a new schema
    named after it and ``suffix`` (outside any transaction of ``db``'s); its name."""
    (schema,) = db.execute("SELECT current_schema()").fetchone()
    begin(db)
    try:
        name = _free_name(db, f"{schema}_{suffix}")
        db.execute(f'CREATE SCHEMA "{name}"').close()
        tables = db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
            " AND table_type = 'BASE TABLE' ORDER BY 1",
            (schema,),
        ).fetchall()
        for (table,) in tables:
            db.execute(f'CREATE TABLE "{name}"."{table}" AS TABLE "{schema}"."{table}"').close()
        db.execute("COMMIT").close()
    except BaseException:
        db.execute("ROLLBACK").close()
        raise
    return name


def _free_name(db: Connection, base: str) -> str:
    """``base``, or the first of ``base_2``, ``base_3``, ... that names no schema."""
    taken = {str(n) for (n,) in db.execute("SELECT nspname FROM pg_namespace")}
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}_{number}"
    return name
