"""``doubleholdem serve`` whose own fencing is blind, for the tests of the fencing the
database does (tests/server/test_database_fencing.py): its lease check reads the leases
(declaring what it declares) but never finds one lost, and its membership never tells
it a table is gone. Frozen while another process takes its tables, it wakes believing it
still holds them: only PostgreSQL's fencing triggers stand between its writes and the
room. Run as ``python tests/blind_serve.py serve ARGS...``."""

from __future__ import annotations

from typing import Any

from doubleholdem.cli import entry_point
from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.member import Membership

_fence = leases.fence
_tick = Membership._tick


def _sees_nothing_lost(db: Connection, process: str, epochs: Any) -> set[int]:
    _fence(db, process, epochs)
    return set()


def _never_told(self: Membership, tell: Any, read: Any, took: Any, lost: Any, surplus: Any) -> None:
    _tick(self, tell, read, took, lambda gone: None, surplus)


leases.fence = _sees_nothing_lost  # type: ignore[assignment]
Membership._tick = _never_told  # type: ignore[method-assign]

if __name__ == "__main__":
    entry_point()
