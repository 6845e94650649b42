"""What the ``meta`` table notes of one table, each under the key ``KIND:TABLE`` (the
kinds are :data:`~doubleholdem.server.cluster.fencing.TABLE_KEYS`, fenced by the
database as the table's own rows): a table stored before the ledger whose chips it has
not entered yet (``opening``), the first occupancy of a table seated through the ledger
(``legacy``), the bots a table paid by a wallet outside the database is still to seat
(``bots_to_seat``), how many times a repair made the table anew (``repairs``).

>>> key(REPAIRS, 3)
'repairs:3'
"""

from __future__ import annotations

from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster.fencing import TABLE_KEYS
from doubleholdem.server.storage.survey import meta_int

__all__ = [
    "BOTS_TO_SEAT",
    "LEGACY",
    "OPENING",
    "REPAIRS",
    "key",
    "legacy_below",
    "noted",
    "openings",
    "repairs",
]

OPENING, LEGACY, BOTS_TO_SEAT, REPAIRS = TABLE_KEYS


def key(kind: str, table_id: int) -> str:
    """The key of what ``kind`` notes of table ``table_id``."""
    return f"{kind}:{table_id}"


def noted(db: Connection, kind: str) -> dict[int, str]:
    """What ``kind`` notes of each table (table -> value)."""
    rows = db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (f"{kind}:%",))
    return {int(name.removeprefix(f"{kind}:")): value for name, value in rows}


def openings(db: Connection) -> list[int]:
    """The tables stored before the ledger whose chips it has not entered yet."""
    return sorted(noted(db, OPENING))


def legacy_below(db: Connection, table_id: int) -> int:
    """The first occupancy of table ``table_id`` seated through the ledger (0 unless the
    table is older than the ledger)."""
    return meta_int(db, key(LEGACY, table_id)) or 0


def repairs(db: Connection, table_id: int) -> int:
    """How many times table ``table_id`` was dropped by a repair and made anew."""
    return meta_int(db, key(REPAIRS, table_id)) or 0
