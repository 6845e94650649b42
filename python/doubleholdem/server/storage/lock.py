"""One server per database (:func:`room_lock`). A SQLite file: an exclusive lock
(``fcntl.flock``) on a side file beside it, ``PATH.lock``, which holds the process id of
the server that has it. A PostgreSQL room: a session advisory lock of the room's schema,
held by a connection of its own for the server's life (:class:`PostgresLock`). Either
goes with the process (a crash releases it: the file's descriptor, or the connection).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "tables.db")
>>> lock = DatabaseLock(path)
>>> DatabaseLock(path)
Traceback (most recent call last):
...
doubleholdem.server.storage.lock.DatabaseInUse: ... is in use by process ... (one server ...)
>>> lock.release()
>>> DatabaseLock(path).release()
"""

from __future__ import annotations

import os
import socket
from typing import Protocol

from doubleholdem.database.connection import lock_key
from doubleholdem.database.failure import database_error, database_errors
from doubleholdem.database.url import connect, is_postgres, shown
from doubleholdem.errors import DoubleHoldemError

__all__ = ["DatabaseInUse", "DatabaseLock", "Lock", "PostgresLock", "room_lock"]


class DatabaseInUse(DoubleHoldemError, RuntimeError):
    """Another server holds the database (one server per database); the message says
    which process."""


class Lock(Protocol):
    """A held lock of one room's database."""

    def release(self) -> None: ...


def room_lock(target: str, *, shared: bool = False) -> Lock:
    """The lock of the room at ``target`` (a SQLite file's path or a PostgreSQL URL),
    held until released; :class:`DatabaseInUse` while another server holds it. On
    PostgreSQL, ``shared``: held by each of the processes serving the room together
    (their tables leased: :mod:`doubleholdem.server.cluster`), refused only while one
    holds the room alone (a repair, or a server of a version before leases)."""
    return PostgresLock(target, shared=shared) if is_postgres(target) else DatabaseLock(target)


class DatabaseLock:
    """Holds the lock of the database at ``path`` until :meth:`release`, or raises
    :class:`DatabaseInUse` naming the process that holds it."""

    def __init__(self, path: str) -> None:
        import fcntl

        self.path = path + ".lock"
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(self._fd)
            self._fd = None
            raise DatabaseInUse(
                f"{path} is in use by process {holder} (one server per database)"
            ) from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        """Lets another server have the database."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None


class PostgresLock:
    """Holds the advisory lock of the room in the PostgreSQL database at ``url`` (the
    first schema of its search path) on a connection of its own until :meth:`release`,
    or raises :class:`DatabaseInUse` naming the server process that holds it;
    ``shared``: the lock held in shared mode, with the other processes serving the
    room, each of its tables leased to one of them."""

    def __init__(self, url: str, *, shared: bool = False) -> None:
        try:
            self._db = connect(url, mode="rw")
        except database_errors() as error:
            raise database_error(url, error) from None
        try:
            me = f"doubleholdem serve, process {os.getpid()} on {socket.gethostname()}"
            self._db.execute("SELECT set_config('application_name', ?, false)", (me,)).close()
            (schema,) = self._db.execute("SELECT current_schema()").fetchone()
            key = self._key = lock_key(f"room:{schema}")
            mode = "_shared" if shared else ""
            self._unlock = f"SELECT pg_advisory_unlock{mode}(?)"
            (held,) = self._db.execute(f"SELECT pg_try_advisory_lock{mode}(?)", (key,)).fetchone()
            if not held:
                alone = "serves it alone" if shared else "serves it"
                raise DatabaseInUse(
                    f"{shown(url)} (schema {schema}) is in use by "
                    f"{self._holder(key) or 'another server'}, which {alone}"
                )
        except BaseException:
            self._db.close()
            raise

    def _holder(self, key: int) -> str | None:
        """The application name of the session that holds advisory lock ``key``."""
        row = self._db.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a"
            " ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid::text::bigint = ? AND l.objid::text::bigint = ? AND l.objsubid = 1",
            ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF),
        ).fetchone()
        return None if row is None or not row[0] else str(row[0])

    def release(self) -> None:
        """Lets another server have the room: the lock is given back before the session
        is closed, since the server ends a closed session's backend (and its locks) only
        some moments later, when a server opening the room at once would be refused. A
        session that cannot answer is closed all the same (its end releases the lock)."""
        try:
            self._db.execute(self._unlock, (self._key,)).close()
        except database_errors():
            pass
        finally:
            self._db.close()
