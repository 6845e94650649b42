"""The ``actions`` table read a hand at a time: the action ids applied at a table during
one hand (written by :meth:`SeatTokens.put_action
<doubleholdem.server.storage.seat_tokens.SeatTokens.put_action>`, one row a decision), for
:class:`~doubleholdem.server.tables.applied_actions.AppliedActions`, on any connection to
the room's database, SQLite or PostgreSQL."""

from __future__ import annotations

from doubleholdem.database.connection import Connection

__all__ = ["hand_actions"]


def hand_actions(db: Connection, table_id: int, hand: int) -> set[tuple[str, str]]:
    """The (token hash, action id) of every action applied at table ``table_id`` during
    hand number ``hand`` and not forgotten."""
    rows = db.execute(
        "SELECT token, id FROM actions WHERE table_id = ? AND hand = ?", (table_id, hand)
    )
    return {(str(token), str(action_id)) for token, action_id in rows}
