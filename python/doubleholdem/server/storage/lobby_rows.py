"""Each table's lobby summary in the database (table ``lobby``), so that every process
of a room in PostgreSQL lists the tables the others serve (docs/postgres.md, "Many
processes, one room"). The process serving a table writes its summary with the table's
snapshot (a hand starting or ending, a player sitting down or leaving: not at each
decision), in the same transaction, and tells the room's other processes with
PostgreSQL's ``NOTIFY`` on the room's :func:`channel` (delivered when the transaction
commits; the payload is the table's id). A reader listens there and reads the rows
named (:func:`read_summaries`): the notification is a wake-up, the database the truth.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> _ = db.execute("CREATE TABLE lobby (table_id INTEGER PRIMARY KEY, summary TEXT NOT NULL)")
>>> put_summary(db, 2, '{"id": 2}', None)
>>> put_summary(db, 2, '{"id": 2, "hand_number": 1}', None)
>>> read_summaries(db, [2, 5])
{2: {'id': 2, 'hand_number': 1}}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from doubleholdem.database.connection import SQLITE, Connection, dialect

__all__ = ["SUMMARY_TABLE", "channel", "put_summary", "read_summaries", "summaries_from"]

SUMMARY_TABLE = (
    "CREATE TABLE IF NOT EXISTS lobby (table_id INTEGER PRIMARY KEY, summary TEXT NOT NULL)"
)
"""The table of the summaries (made as the room's database is opened)."""

_PAGE = 1000  # rows read at once by summaries_from


def channel(db: Connection) -> str | None:
    """The ``NOTIFY`` channel of the room in ``db``'s first schema (channels are the
    database's, not a schema's: one per room): ``None`` on SQLite, which has none."""
    if dialect(db) == SQLITE:
        return None
    (schema,) = db.execute("SELECT current_schema()").fetchone()
    return "dh_lobby_" + hashlib.sha256(str(schema).encode()).hexdigest()[:20]


def put_summary(db: Connection, table_id: int, summary: str, notify: str | None) -> None:
    """Stores the summary (JSON text) of table ``table_id``, inside the caller's
    transaction, and notifies the channel ``notify`` (``None``: nobody) when it
    commits."""
    upsert = (
        "INSERT INTO lobby VALUES (?, ?) "
        "ON CONFLICT (table_id) DO UPDATE SET summary = excluded.summary"
    )
    if notify is None:
        db.execute(upsert, (table_id, summary))
    else:  # one round trip: the row and its notification
        notified = (
            f"WITH written AS ({upsert} RETURNING table_id) SELECT pg_notify(?, ?) FROM written"
        )
        db.execute(notified, (table_id, summary, notify, str(table_id))).close()


def read_summaries(db: Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The stored summaries of the tables ``ids`` (those that have one)."""
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), _PAGE):
        part = list(ids[start : start + _PAGE])
        marks = ", ".join("?" * len(part))
        rows = db.execute(f"SELECT table_id, summary FROM lobby WHERE table_id IN ({marks})", part)
        found.update((int(i), summary) for i, text in rows if (summary := _decoded(text)))
    return found


def _decoded(text: str) -> dict[str, Any] | None:
    """A stored summary, or ``None`` for a row that is not one (left out of lobbies)."""
    try:
        summary = json.loads(text)
    except ValueError:
        return None
    return summary if isinstance(summary, dict) else None


def summaries_from(db: Connection, first: int) -> list[tuple[int, dict[str, Any] | None]]:
    """At most 1,000 stored summaries from table id ``first`` on, in order (``None`` for
    a row that is not one): a room's summaries are read page by page (the reader's
    first reading)."""
    rows = db.execute(
        "SELECT table_id, summary FROM lobby WHERE table_id >= ? ORDER BY table_id LIMIT ?",
        (first, _PAGE),
    )
    return [(int(i), _decoded(text)) for i, text in rows]
