"""The seat tokens and the client action ids a room's database keeps (the ``tokens`` and
``actions`` rows): a seat token's hash names its table, seat and player, and each action
id applied with a token is noted so that a retry is not applied twice. Written inside a
:meth:`Storage.transaction <doubleholdem.server.storage.storage.Storage.transaction>`,
through the part the storage holds (``Storage.seat_tokens``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster.fencing import Fence
from doubleholdem.server.storage.survey import read_tokens

__all__ = ["SeatTokens", "token_hash"]


def token_hash(token: str) -> str:
    """What the database keeps of a seat token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


class SeatTokens:
    """The seat tokens and action ids of a room's database, a part its
    :class:`~doubleholdem.server.storage.storage.Storage` holds (``seat_tokens``):
    written on the storage's connection ``db`` inside its transactions, each table's
    rows under its lease (``fencing``: :meth:`Fence.writes
    <doubleholdem.server.cluster.fencing.Fence.writes>`, and so the database's triggers),
    and read on the event loop through ``committed`` (the committed rows while a commit
    flies)."""

    def __init__(self, db: Connection, fencing: Fence, committed: Callable[[], Connection]) -> None:
        self._db = db
        self._fencing = fencing
        self._committed = committed

    def put(self, hashed: str, table_id: int, seat: int, player: str) -> None:
        """Stores a seat token's hash."""
        self._fencing.writes(self._db, table_id)
        self._db.execute(
            "INSERT INTO tokens VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET"
            " table_id = excluded.table_id, seat = excluded.seat, player = excluded.player",
            (hashed, table_id, seat, player),
        )

    def find(self, hashed: str) -> tuple[int, int, str] | None:
        """(table, seat, player) of a token hash, or ``None`` (committed rows)."""
        row = (
            self._committed()
            .execute("SELECT table_id, seat, player FROM tokens WHERE hash = ?", (hashed,))
            .fetchone()
        )
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def of_table(self, table_id: int) -> list[tuple[str, int, str]]:
        """(hash, seat, player) of every token of a table."""
        return read_tokens(self._db, table_id)

    def drop(self, hashed: str, table_id: int) -> None:
        """Forgets a token of table ``table_id`` (its player left) and the action ids
        sent with it."""
        self._fencing.writes(self._db, table_id)
        self._db.execute("DELETE FROM tokens WHERE hash = ?", (hashed,))
        self._db.execute("DELETE FROM actions WHERE token = ?", (hashed,))

    def put_action(self, hashed: str, action_id: str, table_id: int, hand: int) -> None:
        """Notes that the action ``action_id`` of a token was applied."""
        self._fencing.writes(self._db, table_id)
        self._db.execute(
            "INSERT INTO actions VALUES (?, ?, ?, ?)", (hashed, action_id, table_id, hand)
        )

    def action_applied(self, hashed: str, action_id: str) -> bool:
        """True if that action id of that token was applied (committed rows)."""
        row = (
            self._committed()
            .execute("SELECT 1 FROM actions WHERE token = ? AND id = ?", (hashed, action_id))
            .fetchone()
        )
        return row is not None

    def forget_actions(self, table_id: int, before_hand: int) -> None:
        """Forgets the action ids of a table's hands before ``before_hand`` (retries of
        those are refused as stale anyway)."""
        self._fencing.writes(self._db, table_id)
        self._db.execute(
            "DELETE FROM actions WHERE table_id = ? AND hand < ?", (table_id, before_hand)
        )
