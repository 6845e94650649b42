"""The ``tournaments`` table: one row per tournament of the room, its state as JSON text
(written by :mod:`doubleholdem.server.tournaments.stored`: its ``status`` and the
library's ``tournament`` snapshot among other things), and the audit of the tournaments'
pools (:func:`pool_problems`): each pool in the ledger held against what its row says
it holds (docs/room-tournaments.md, "Money")."""

from __future__ import annotations

import json

from doubleholdem.database.connection import Connection, has_table
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.tournament import Tournament

__all__ = ["OVER", "pool_held", "pool_problems", "put", "rows"]

OVER = ("finished", "cancelled")  # a tournament paid out or refunded: its pool is empty


def put(db: Connection, tournament_id: int, text: str) -> None:
    """Writes the row of tournament ``tournament_id`` (inside the caller's transaction)."""
    db.execute(
        "INSERT INTO tournaments (id, state) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET state = excluded.state",
        (tournament_id, text),
    )


def rows(db: Connection) -> list[tuple[int, str]]:
    """Every stored tournament's id and text, by id (none in a database without the
    table)."""
    if not has_table(db, "tournaments"):
        return []
    found = db.execute("SELECT id, state FROM tournaments ORDER BY id").fetchall()
    return [(int(i), str(text)) for i, text in found]


def pool_held(text: str, key: bytes | None) -> int:
    """The chips a row says its tournament's pool holds: the library's pool until it
    is over, then none. :class:`~doubleholdem.errors.DoubleHoldemError` (or a
    ``ValueError``, ``KeyError``, ``TypeError``) if the row cannot be read."""
    data = json.loads(text)
    if data["status"] in OVER:
        return 0
    return Tournament.from_json(data["tournament"], key).pool


def pool_problems(db: Connection, key: bytes | None = None) -> list[str]:
    """Each stored tournament's pool in the ledger against what its row says it holds,
    and no pool in the ledger without its tournament. Tournaments are numbered from 1."""
    problems = []
    held: dict[int, int] = {}
    for tournament_id, text in rows(db):
        try:
            held[tournament_id] = pool_held(text, key)
        except (DoubleHoldemError, ValueError, KeyError, TypeError) as error:
            problems.append(f"tournament {tournament_id + 1}: its row cannot be read ({error})")
    found = db.execute(
        "SELECT name, balance FROM ledger_accounts WHERE kind = 'tournament'"
    ).fetchall()
    pools = {int(name): int(balance) for name, balance in found}
    for tournament_id in sorted(set(pools) | set(held)):
        in_ledger, expected = pools.get(tournament_id, 0), held.get(tournament_id)
        number = tournament_id + 1
        if expected is None and in_ledger:
            problems.append(
                f"tournament {number}: the ledger holds {in_ledger} chips in its pool, "
                "but no such tournament is stored"
            )
        elif expected is not None and in_ledger != expected:
            problems.append(
                f"tournament {number}: the ledger holds {in_ledger} chips in its pool, "
                f"its state says {expected}"
            )
    return problems
