"""The action ids of tournament decisions (docs/PROTOCOL.md, "Tournaments"): a
decision sent with an ``id`` (``tournament_act``, or the HTTP API's ``act``) is noted in
``tournament_actions`` in the same transaction as the decision, with what it decided, so
that the same decision resent (a client retrying after a dropped connection) is answered
``repeated`` and not applied again, even after a restart, and the id sent again with
another decision is refused. The ids of a table's hands are forgotten as a cash table's
are (:meth:`SeatTokens.forget_actions
<doubleholdem.server.storage.seat_tokens.SeatTokens.forget_actions>`): at the end of a hand,
those of the hands before it; and all of a tournament's once it is over.

The table is made by :mod:`doubleholdem.server.storage.database` (added without a new
schema version: an older server reads the database still)."""

from __future__ import annotations

from doubleholdem.database.connection import Connection

__all__ = ["SCHEMA", "decided", "forget", "forget_tournament", "put"]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tournament_actions (tournament_id INTEGER NOT NULL,"
    " player TEXT NOT NULL, id TEXT NOT NULL, table_number INTEGER NOT NULL,"
    " hand INTEGER NOT NULL, decision TEXT NOT NULL, PRIMARY KEY (tournament_id, player, id))",
    "CREATE INDEX IF NOT EXISTS tournament_actions_by_hand"
    " ON tournament_actions (tournament_id, table_number, hand)",
)


def put(
    db: Connection,
    tournament_id: int,
    player: str,
    action_id: str,
    table: int,
    hand: int,
    decision: str,
) -> None:
    """Notes that ``player``'s action ``action_id``, ``decision`` in hand ``hand`` of
    table ``table``, was applied (in the caller's transaction)."""
    db.execute(
        "INSERT INTO tournament_actions VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, player, action_id, table, hand, decision),
    )


def decided(db: Connection, tournament_id: int, player: str, action_id: str) -> str | None:
    """What ``player``'s action ``action_id`` decided, if it was applied and is still
    remembered."""
    row = db.execute(
        "SELECT decision FROM tournament_actions WHERE tournament_id = ? AND player = ? AND id = ?",
        (tournament_id, player, action_id),
    ).fetchone()
    return None if row is None else str(row[0])


def forget(db: Connection, tournament_id: int, table: int, before_hand: int) -> None:
    """Forgets the ids of table ``table``'s hands before ``before_hand`` (a retry of
    those is refused as stale anyway)."""
    db.execute(
        "DELETE FROM tournament_actions WHERE tournament_id = ? AND table_number = ? AND hand < ?",
        (tournament_id, table, before_hand),
    )


def forget_tournament(db: Connection, tournament_id: int) -> None:
    """Forgets every id of a tournament (it is over)."""
    db.execute("DELETE FROM tournament_actions WHERE tournament_id = ?", (tournament_id,))
