"""Connections of their own for work off the event loop: one per thread, to the room's
database (a SQLite file or a PostgreSQL URL), made on first use, all closed at once."""

from __future__ import annotations

import sqlite3
import threading

from doubleholdem.database.connection import Connection
from doubleholdem.database.postgres import PostgresConnection
from doubleholdem.database.url import connect, is_postgres

__all__ = ["ThreadConnections"]


class ThreadConnections:
    """One connection to the database at ``path`` (a SQLite file or a PostgreSQL URL)
    per thread, made on first use (SQLite: WAL, a writer waits ``busy_seconds`` for the
    write lock; ``read_only``: reads only), all closed by :meth:`close`: connections of
    their own for work off the event loop. ``name``: the ``application_name`` of each
    PostgreSQL session (the process's, by which the room ends the sessions of a process
    found dead: :func:`~doubleholdem.server.cluster.leases.end_dead_sessions`)."""

    def __init__(
        self, path: str, *, busy_seconds: float, read_only: bool = False, name: str | None = None
    ) -> None:
        self.path = path
        self._busy = busy_seconds
        self._read_only = read_only
        self._session_name = name
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: list[Connection] = []

    def get(self) -> Connection:
        """This thread's connection: a PostgreSQL session the server ended (a restart,
        an operator's ``pg_terminate_backend``, the room's processes ending those of one
        found dead) is replaced by a new one, as the storage's is; the statement that
        found it ended failed. Without this every later call on the thread failed."""
        db: Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._connect()
            self._local.db = db
            with self._lock:
                self._open.append(db)
        elif isinstance(db, PostgresConnection) and db.lost:
            db.reopen()  # (named again)
        return db

    def _connect(self) -> Connection:
        if is_postgres(self.path):
            db = connect(self.path, mode="ro" if self._read_only else "rw", timeout=self._busy)
            if isinstance(db, PostgresConnection) and self._session_name is not None:
                db.set_session("application_name", self._session_name)
            return db
        db = sqlite3.connect(
            self.path, timeout=self._busy, isolation_level=None, check_same_thread=False
        )
        db.execute("PRAGMA journal_mode=WAL")
        if self._read_only:
            db.execute("PRAGMA query_only = ON")
        return db

    def close(self) -> None:
        """Closes every connection (call it once no thread uses them)."""
        with self._lock:
            for db in self._open:
                db.close()
            self._open.clear()
