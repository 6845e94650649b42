"""One server per database: an exclusive lock (``fcntl.flock``) on a side file beside
it, ``PATH.lock``, which holds the process id of the server that has it. The lock goes
with the process (a crash releases it).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "tables.db")
>>> lock = DatabaseLock(path)
>>> DatabaseLock(path)
Traceback (most recent call last):
...
doubleholdem.errors.DatabaseInUse: ... is in use by process ... (one server per database)
>>> lock.release()
>>> DatabaseLock(path).release()
"""

from __future__ import annotations

import os

from doubleholdem.errors import DatabaseInUse

__all__ = ["DatabaseLock"]


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
