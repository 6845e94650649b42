"""The rows of the room's tournaments (schema 6: made by
:mod:`doubleholdem.server.storage.database`), written by
:mod:`doubleholdem.server.tournaments.stored`, and the audit of their pools
(:func:`pool_problems`).

A tournament is stored as the cash tables are, per table: ``tournaments`` holds one row
per tournament, its own state as JSON text (its ``status`` and the library's snapshot
without the tables', :meth:`Tournament.to_json(tables=False)
<doubleholdem.tournament.Tournament.to_json>`, among other things);
``tournament_tables`` one row per table, the table's own snapshot, written again only
when that table changes otherwise than by a decision; a decision or a deadline passing
at a table is a *move* row of ``tournament_moves`` (a few bytes of JSON,
:mod:`~doubleholdem.server.storage.journal`'s format) after its snapshot, carrying the
SHA-256 of the snapshot's checksum, its number and its text, as a cash table's moves do
(:func:`~doubleholdem.server.storage.survey.tagged`); ``tournament_heads`` keeps each
table's number of moves (and its snapshot's checksum, which the next move hangs from),
so that moves cut off at the end are seen. The tournament is its state with each table's
snapshot and its moves replayed through the rules (:func:`restore`); an edited,
reordered, missing or foreign row is refused (:class:`TamperedSnapshot`).

A tournament of schema 5 is one row holding the library's whole snapshot (every
table's in it): it is still read (:func:`restore` takes it), and the room stores it
apart when it first loads it.

The audit holds each tournament's pool in the ledger against what its rows say it
holds (docs/room-tournaments.md, "Money")."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from doubleholdem.database.connection import Connection, has_table
from doubleholdem.errors import DoubleHoldemError, TamperedSnapshot
from doubleholdem.server.storage.journal import replay
from doubleholdem.server.storage.survey import snapshot_anchor, tagged
from doubleholdem.table import Table
from doubleholdem.tournament import Tournament

__all__ = [
    "OVER",
    "StoredTournament",
    "drop_table",
    "pool_held",
    "pool_problems",
    "put",
    "put_move",
    "put_table",
    "read",
    "restore",
    "rows",
    "state",
]

OVER = ("finished", "cancelled")  # a tournament paid out or refunded: its pool is empty


class StoredTournament(NamedTuple):
    """A tournament's rows: its id, its state's text, and each table's snapshot with
    the moves made since (JSON texts, in order, checked against their checksums and
    their head), by table number."""

    id: int
    state: str
    tables: dict[int, tuple[str, list[str]]]


def put(db: Connection, tournament_id: int, text: str) -> None:
    """Writes the state of tournament ``tournament_id`` (inside the caller's
    transaction)."""
    db.execute(
        "INSERT INTO tournaments (id, state) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET state = excluded.state",
        (tournament_id, text),
    )


def put_table(db: Connection, tournament_id: int, number: int, snapshot: str) -> None:
    """Writes the snapshot of table ``number`` of the tournament, which replaces its
    moves."""
    key = (tournament_id, number)
    db.execute("DELETE FROM tournament_moves WHERE tournament_id = ? AND table_number = ?", key)
    db.execute(
        "INSERT INTO tournament_tables (tournament_id, number, snapshot) VALUES (?, ?, ?)"
        " ON CONFLICT (tournament_id, number) DO UPDATE SET snapshot = excluded.snapshot",
        (*key, snapshot),
    )
    db.execute(
        "INSERT INTO tournament_heads (tournament_id, number, anchor, moves) VALUES (?, ?, ?, 0)"
        " ON CONFLICT (tournament_id, number) DO UPDATE SET anchor = excluded.anchor, moves = 0",
        (*key, snapshot_anchor(snapshot)),
    )


def put_move(db: Connection, tournament_id: int, number: int, move: str) -> None:
    """Writes the next move of table ``number`` of the tournament (after its snapshot
    and its earlier moves)."""
    key = (tournament_id, number)
    anchor, count = db.execute(
        "SELECT anchor, moves FROM tournament_heads WHERE tournament_id = ? AND number = ?", key
    ).fetchone()
    count += 1
    db.execute(
        "INSERT INTO tournament_moves (tournament_id, table_number, number, move, sha256)"
        " VALUES (?, ?, ?, ?, ?)",
        (*key, count, move, tagged(anchor, count, move)),
    )
    db.execute(
        "UPDATE tournament_heads SET moves = ? WHERE tournament_id = ? AND number = ?",
        (count, *key),
    )


def drop_table(db: Connection, tournament_id: int, number: int) -> None:
    """Forgets table ``number`` of the tournament (broken: TRN-14)."""
    db.execute(
        "DELETE FROM tournament_moves WHERE tournament_id = ? AND table_number = ?",
        (tournament_id, number),
    )
    for name in ("tournament_tables", "tournament_heads"):
        db.execute(
            f"DELETE FROM {name} WHERE tournament_id = ? AND number = ?", (tournament_id, number)
        )


def state(db: Connection, tournament_id: int) -> str | None:
    """The state text of tournament ``tournament_id``, or ``None``."""
    row = db.execute("SELECT state FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return None if row is None else str(row[0])


def rows(db: Connection) -> list[tuple[int, str]]:
    """Every stored tournament's id and state text, by id (none in a database without
    the table)."""
    if not has_table(db, "tournaments"):
        return []
    found = db.execute("SELECT id, state FROM tournaments ORDER BY id").fetchall()
    return [(int(i), str(text)) for i, text in found]


def read(db: Connection, tournament_id: int, state: str) -> StoredTournament:
    """Tournament ``tournament_id`` (its ``state`` read already) with its tables' rows,
    checked; :class:`TamperedSnapshot` naming the first problem."""
    if not has_table(db, "tournament_tables"):
        return StoredTournament(tournament_id, state, {})
    key = (tournament_id,)
    said = f"tournament {tournament_id + 1}"
    snapshots = dict(
        db.execute(
            "SELECT number, snapshot FROM tournament_tables WHERE tournament_id = ?", key
        ).fetchall()
    )
    heads = {
        n: (anchor, moves)
        for n, anchor, moves in db.execute(
            "SELECT number, anchor, moves FROM tournament_heads WHERE tournament_id = ?", key
        )
    }
    moves: dict[int, list[tuple[int, str, str]]] = {}
    for table, number, move, digest in db.execute(
        "SELECT table_number, number, move, sha256 FROM tournament_moves"
        " WHERE tournament_id = ? ORDER BY table_number, number",
        key,
    ):
        moves.setdefault(int(table), []).append((int(number), str(move), str(digest)))
    if set(heads) != set(snapshots) or not set(moves) <= set(snapshots):
        raise TamperedSnapshot(f"{said}: its tables' rows, heads and moves do not match")
    tables = {}
    for number, snapshot in sorted(snapshots.items()):
        anchor, head = heads[number]
        made = moves.get(number, [])
        if anchor != snapshot_anchor(snapshot) or len(made) != head:
            raise TamperedSnapshot(
                f"{said}, table {number}: {len(made)} moves stored, its head {head}, or its "
                "snapshot is not the one its moves follow"
            )
        for expected, (n, move, digest) in enumerate(made, 1):
            if n != expected or tagged(anchor, n, move) != digest:
                raise TamperedSnapshot(
                    f"{said}, table {number}: move row {n} does not match its checksum, its "
                    "place or its snapshot"
                )
        tables[int(number)] = (str(snapshot), [move for _, move, _ in made])
    return StoredTournament(tournament_id, state, tables)


def restore(stored: StoredTournament, tournament: Any, key: bytes | None) -> Tournament:
    """The library's tournament of ``stored``, whose state holds its snapshot
    ``tournament`` (decoded from JSON): each table's snapshot with its moves replayed
    through the rules, given to :meth:`Tournament.from_json
    <doubleholdem.tournament.Tournament.from_json>`; or, of schema 5, the whole snapshot
    (every table in it). :class:`~doubleholdem.errors.InvalidSnapshot` if it is not one."""
    if not isinstance(tournament, str):
        raise TamperedSnapshot("its tournament is not a snapshot's text")
    if one_row(tournament):
        return Tournament.from_json(tournament, key)
    tables = {}
    for number, (snapshot, moves) in stored.tables.items():
        table = Table.from_json(snapshot, key)
        for made, text in enumerate(moves, 1):
            try:
                replay(table, json.loads(text))
            except (DoubleHoldemError, ValueError, TypeError) as error:
                raise TamperedSnapshot(
                    f"table {number}: move {made} cannot be replayed: {error}"
                ) from None
        tables[number] = table
    return Tournament.from_json(tournament, key, tables=tables)


def one_row(tournament: str) -> bool:
    """Whether the snapshot text ``tournament`` holds its tables' (schema 5's one-row
    form), as a glance at its text says (the snapshot's check reads it whole)."""
    return '"tables":{' in tournament


def pool_held(stored: StoredTournament, key: bytes | None) -> int:
    """The chips a tournament's rows say its pool holds: the library's pool until it is
    over, then none. :class:`~doubleholdem.errors.DoubleHoldemError` (or a
    ``ValueError``, ``KeyError``, ``TypeError``) if they cannot be read."""
    data = json.loads(stored.state)
    if data["status"] in OVER:
        return 0
    return restore(stored, data["tournament"], key).pool


def pool_problems(db: Connection, key: bytes | None = None) -> list[str]:
    """Each stored tournament's pool in the ledger against what its rows say it holds,
    and no pool in the ledger without its tournament. Tournaments are numbered from 1."""
    problems = []
    held: dict[int, int] = {}
    for tournament_id, text in rows(db):
        try:
            held[tournament_id] = pool_held(read(db, tournament_id, text), key)
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
