"""The chooser: the database an operator names with ``--db``, a SQLite file's path or a
PostgreSQL URL (``postgresql://USER@HOST:PORT/NAME``, or ``postgres://``), opened as a
:class:`~doubleholdem.database.connection.Connection`.

>>> is_postgres("postgresql://dh@db.example:5432/room"), is_postgres("room.db")
(True, False)
>>> shown("postgresql://dh:secret@db.example/room")
'postgresql://dh@db.example/room'
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse

from doubleholdem.database.connection import Connection

__all__ = ["MODES", "connect", "is_postgres", "shown", "sqlite"]

_SCHEMES = ("postgresql://", "postgres://")
MODES = ("ro", "rw", "rwc")  # read only; read and write; and created if missing


def is_postgres(target: str) -> bool:
    """True if ``target`` names a PostgreSQL database (a URL), not a SQLite file."""
    return target.startswith(_SCHEMES)


def shown(target: str) -> str:
    """``target`` as it may be shown (in a message, a log): a URL without its password."""
    if not is_postgres(target):
        return target
    parts = urllib.parse.urlsplit(target)
    if parts.password is None:
        return target
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}{host}"))


def connect(
    target: str, *, mode: str = "rw", timeout: float = 5.0, any_thread: bool = False
) -> Connection:
    """A connection to ``target`` in autocommit mode. ``mode`` (:data:`MODES`): ``ro``
    reads only (SQLite's ``mode=ro``; PostgreSQL transactions read only), ``rw`` reads
    and writes an existing database, ``rwc`` also creates a SQLite file (a PostgreSQL
    database is made by its operator: ``createdb``). ``timeout``: the seconds a
    statement waits for another writer's lock (SQLite) or to connect (PostgreSQL).
    ``any_thread``: a SQLite connection used (one thread at a time) from threads other
    than the one that made it, as psycopg's always may be."""
    if mode not in MODES:
        raise ValueError(f"a mode is one of {', '.join(MODES)}, not {mode!r}")
    if is_postgres(target):
        from doubleholdem.database import postgres

        return postgres.connect(target, read_only=mode == "ro", timeout=timeout)
    return sqlite(target, mode=mode, timeout=timeout, any_thread=any_thread)


def sqlite(
    path: str, *, mode: str = "rw", timeout: float = 5.0, any_thread: bool = False
) -> sqlite3.Connection:
    """A connection to the SQLite file at ``path`` (or ``:memory:``) in autocommit mode,
    in SQLite's ``mode`` (:data:`MODES`); ``any_thread`` as :func:`connect`'s."""
    memory = path == ":memory:"
    uri = path if memory else f"file:{urllib.parse.quote(os.path.abspath(path))}?mode={mode}"
    return sqlite3.connect(
        uri, uri=not memory, timeout=timeout, isolation_level=None, check_same_thread=not any_thread
    )
