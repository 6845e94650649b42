"""The move journal: both sides of the move format in one place. A decision or a deadline
passing is written as a *move* (a short JSON array: :func:`advance_move`,
:func:`decide_move`); a stored table is its snapshot with its moves replayed through the
rules (:func:`replay`, :func:`restore`). A tournament's tables are journaled the same way
(:mod:`~doubleholdem.server.storage.tournament_rows`).

>>> from doubleholdem.table import Decision
>>> decide_move(2, Decision("raise", 40), 12.5)
'["decide", 2, "raise", 40, 12.5]'
>>> advance_move(30.0)
'["advance", 30.0]'
"""

from __future__ import annotations

import json
from typing import Any

from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot, TamperedSnapshot
from doubleholdem.server.storage.storage import StoredTable
from doubleholdem.table import Decision, Table
from doubleholdem.wording import table_said, told

__all__ = ["advance_move", "decide_move", "replay", "restore"]


def advance_move(now: float) -> str:
    """The move of :meth:`Table.advance` to ``now``."""
    return json.dumps(["advance", now])


def decide_move(seat: int, decision: Decision, now: float) -> str:
    """The move of :meth:`Table.decide` of ``decision`` by ``seat`` at ``now``."""
    return json.dumps(["decide", seat, *decision, now])


def replay(table: Table, move: list[Any]) -> None:
    """Makes again on ``table`` a move written by :func:`advance_move` or
    :func:`decide_move` (decoded from JSON); ``ValueError`` if it is not one."""
    kind, *args = move
    if kind == "advance" and len(args) == 1:
        table.advance(args[0])
    elif kind == "decide" and len(args) == 4:
        seat, action, amount, now = args
        table.decide(seat, Decision(action, amount), now=now)
    else:
        raise ValueError(f"not a move: {move!r}")


def restore(stored: StoredTable, key: bytes | None = None) -> Table:
    """The stored table: its snapshot (with the room's snapshot ``key``) with its moves
    replayed through the rules; :class:`TamperedSnapshot` if the snapshot is refused or a
    move cannot be replayed."""
    try:
        table = Table.from_json(stored.snapshot, key)
    except InvalidSnapshot as error:
        raise TamperedSnapshot(table_said(stored.id) + ": " + told(error)) from None
    for number, text in enumerate(stored.moves, 1):
        try:
            replay(table, json.loads(text))
        except (DoubleHoldemError, ValueError, TypeError) as error:
            raise TamperedSnapshot(
                table_said(stored.id) + f": move {number} cannot be replayed: " + told(error)
            ) from None
    return table
