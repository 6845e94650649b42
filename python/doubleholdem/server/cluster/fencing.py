"""Fencing, on the writer's side: what one connection's transaction wrote, table by
table, and the check before its ``COMMIT`` that this process still holds each such
table's lease with the epoch it was granted (:func:`~doubleholdem.server.cluster.leases.fence`).

>>> from doubleholdem.database.url import sqlite
>>> from doubleholdem.server.cluster import leases
>>> db = sqlite(":memory:")
>>> for statement in (*leases.SCHEMA, "CREATE TABLE tables (id INTEGER PRIMARY KEY)"):
...     _ = db.execute(statement)
>>> _ = db.execute("INSERT INTO tables VALUES (0)")
>>> leases.register(db, "p1", "http://a", lock=None)
>>> fence = Fence()
>>> fence.grant("p1", leases.acquire(db, "p1", want=1))
>>> fence.touched.add(0)
>>> fence.check(db)  # still p1's, epoch 1
>>> leases.acquire(db, "p2", want=1, steal=True)  # another process took it
{0: 2}
>>> fence.clear()
>>> fence.touched.add(0)
>>> fence.check(db)
Traceback (most recent call last):
...
doubleholdem.server.cluster.leases.LeaseLost: the lease of table 0 was lost: ...
"""

from __future__ import annotations

from collections.abc import Mapping

from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import LeaseLost

__all__ = ["Fence"]


class Fence:
    """The leases a storage writes under: :attr:`process` (``None``: nothing is fenced,
    the room is this process's alone) and the epoch of each table it holds
    (:attr:`epochs`); :attr:`touched`, the tables the transaction under way wrote."""

    def __init__(self) -> None:
        self.process: str | None = None
        self.epochs: dict[int, int] = {}
        self.touched: set[int] = set()
        self._fenced: set[int] = set()

    def grant(self, process: str, epochs: Mapping[int, int]) -> None:
        """``process`` holds the leases of ``epochs`` (table -> epoch) from now on."""
        self.process = process
        self.epochs.update(epochs)

    def fence(self, db: Connection, tables: set[int]) -> set[int]:
        """Inside a transaction on ``db``: the tables of ``tables`` whose lease this
        process lost, not to be written; the others' leases stay this process's until
        the transaction ends."""
        wanted = tables - self._fenced  # (fenced in this transaction already: held)
        return self.fence_epochs(db, {(t, self.epochs.get(t, -1)) for t in wanted})

    def fence_epochs(self, db: Connection, epochs: set[tuple[int, int]]) -> set[int]:
        """:meth:`fence` for changes made under the given (table, epoch) leases, the
        epochs the tables held when the changes were made: the tables whose lease
        this process holds no more under that epoch (a change made before its table was
        lost and taken back is not written under the newer lease; a table with changes
        of two epochs is fenced by the older)."""
        if self.process is None or not epochs:
            return set()
        oldest: dict[int, int] = {}
        for table, epoch in epochs:
            oldest[table] = min(epoch, oldest.get(table, epoch))
        lost = leases.fence(db, self.process, oldest)
        self._fenced |= set(oldest) - lost
        return lost

    def check(self, db: Connection) -> None:
        """Before ``COMMIT``: :class:`LeaseLost` if the transaction wrote a table whose
        lease this process lost (the caller then rolls it back)."""
        if self.process is not None and self.touched:
            lost = self.fence(db, self.touched)
            if lost:
                raise LeaseLost(lost)

    def clear(self) -> None:
        """The transaction ended."""
        self.touched.clear()
        self._fenced.clear()
