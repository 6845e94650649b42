"""The rows of the room's tournaments (schema 8: made by
:mod:`doubleholdem.server.storage.database`), written by
:mod:`doubleholdem.server.tournaments.stored`, and the audit of their pools
(:func:`pool_problems`).

A tournament is stored in rows that a hand changes few of. ``tournaments`` holds one
row per tournament: its status, the name of its spec and, once over, its lobby summary,
which the room reads without loading it (only the tournaments not over are loaded
when the room opens; those over are listed a page at a time: :func:`over_page`).
``tournament_parts`` holds its state cut into parts
(:func:`~doubleholdem.tournament.snapshot.parts` of the library's tournament without
its tables, and the room's own beside them): one per entry, per table, per placing,
the counters, the random generator, ..., each with the tag of its text, name and
tournament (:func:`part_tag`: its SHA-256, or its HMAC under the room's snapshot key);
a change writes again only the parts it changed. ``tournament_tables`` holds one row per
table, the table's own snapshot, written again only when that table changes otherwise
than by a decision; a decision or a deadline passing at a table is a *move* row of
``tournament_moves`` (a few bytes of JSON, :mod:`~doubleholdem.server.storage.journal`'s
format) after its snapshot, carrying the SHA-256 of the snapshot's checksum, its number
and its text, as a cash table's moves do (:func:`~doubleholdem.server.storage.survey.tagged`);
``tournament_heads`` keeps each table's number of moves (and its snapshot's checksum,
which the next move hangs from), so that moves cut off at the end are seen. The
tournament is its parts with each table's snapshot and its moves replayed through the
rules (:func:`restore`); an edited, reordered, missing or foreign row is refused
(:class:`TamperedSnapshot`).

A tournament stored by schema 7 or before holds its state in its row (the room's state
with the library's snapshot without the tables'; of schema 5, with every table's in
it): it is still read (:func:`restore` takes it), and the room stores it in parts when
it first loads it.

The audit holds each tournament's pool in the ledger against what its rows say it
holds (docs/room-tournaments.md, "Money")."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, NamedTuple

from doubleholdem.database.connection import Connection, has_table
from doubleholdem.errors import DoubleHoldemError, TamperedSnapshot
from doubleholdem.server.storage.journal import replay
from doubleholdem.server.storage.survey import snapshot_anchor, tagged
from doubleholdem.table import Table
from doubleholdem.tournament import Tournament
from doubleholdem.tournament.snapshot import from_parts, part_names

__all__ = [
    "OVER",
    "StoredTournament",
    "drop_table",
    "last_id",
    "named",
    "over_page",
    "part_tag",
    "pool_held",
    "pool_problems",
    "put",
    "put_move",
    "put_parts",
    "put_table",
    "read",
    "restore",
    "rows",
    "state",
    "status",
]

OVER = ("finished", "cancelled")  # a tournament paid out or refunded: its pool is empty


class StoredTournament(NamedTuple):
    """A tournament's rows: its id; its state's text of schema 7 or before (the room's
    state with the library's snapshot: :data:`OLD_FORM`), else ``""``; each table's
    snapshot with the moves made since (JSON texts, in order, checked against their
    checksums and their head), by table number; and of schema 8 its parts (name ->
    (text, tag)), checked by :func:`restore`."""

    id: int
    state: str
    tables: dict[int, tuple[str, list[str]]]
    parts: dict[str, tuple[str, str]]


def part_tag(key: bytes | None, tournament_id: int, name: str, text: str) -> str:
    """The tag of part ``name`` of tournament ``tournament_id`` whose text is ``text``:
    its SHA-256, or with the room's snapshot ``key`` its HMAC (a part edited, or moved
    to another name or tournament, does not match it)."""
    message = f"{tournament_id}:{name}:{text}".encode()
    if key is None:
        return hashlib.sha256(message).hexdigest()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def put(db: Connection, tournament_id: int, status: str, name: str, summary: str | None) -> None:
    """Writes the row of tournament ``tournament_id`` (inside the caller's transaction):
    its ``status``, the ``name`` of its spec and, once over, its lobby ``summary``
    (JSON text); its state is in its parts (:func:`put_parts`)."""
    db.execute(
        "INSERT INTO tournaments (id, state, status, name, summary) VALUES (?, '', ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET state = '', status = excluded.status,"
        " name = excluded.name, summary = excluded.summary",
        (tournament_id, status, name, summary),
    )


def put_parts(
    db: Connection, tournament_id: int, written: list[tuple[str, str, str]], gone: list[str]
) -> None:
    """Writes the parts ``written`` (name, text, tag) of tournament ``tournament_id`` and
    forgets those ``gone`` (inside the caller's transaction)."""
    if written:
        db.executemany(
            "INSERT INTO tournament_parts (tournament_id, name, part, tag) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (tournament_id, name) DO UPDATE SET part = excluded.part,"
            " tag = excluded.tag",
            [(tournament_id, *part) for part in written],
        )
    if gone:
        db.executemany(
            "DELETE FROM tournament_parts WHERE tournament_id = ? AND name = ?",
            [(tournament_id, name) for name in gone],
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


def state(db: Connection, tournament_id: int) -> tuple[str, str] | None:
    """The state text (``""`` of schema 8: in its parts) and the status of tournament
    ``tournament_id``, or ``None``."""
    row = db.execute(
        "SELECT state, status FROM tournaments WHERE id = ?", (tournament_id,)
    ).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def status(db: Connection, tournament_id: int) -> str | None:
    """The status of tournament ``tournament_id`` as its row notes it, or ``None``."""
    row = db.execute("SELECT status FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return None if row is None else str(row[0])


def rows(db: Connection, *, over: bool | None = None) -> list[tuple[int, str]]:
    """The id and status of each stored tournament, by id (none in a database without
    the table); with ``over`` only those over (True) or not (False)."""
    if not has_table(db, "tournaments"):
        return []
    where = {None: "", True: " WHERE status IN (?, ?)", False: " WHERE status NOT IN (?, ?)"}
    found = db.execute(
        f"SELECT id, status FROM tournaments{where[over]} ORDER BY id", () if over is None else OVER
    ).fetchall()
    return [(int(i), str(status)) for i, status in found]


def over_page(db: Connection, before: int, count: int) -> list[tuple[int, str | None]]:
    """At most ``count`` tournaments over (finished or cancelled) with an id below
    ``before``, newest first: each one's id and its lobby summary (``None`` where its
    row holds none: stored over by schema 7)."""
    found = db.execute(
        "SELECT id, summary FROM tournaments WHERE status IN (?, ?) AND id < ?"
        " ORDER BY id DESC LIMIT ?",
        (*OVER, before, count),
    ).fetchall()
    return [(int(i), None if summary is None else str(summary)) for i, summary in found]


def named(db: Connection, name: str) -> bool:
    """Whether a tournament of the spec ``name`` is stored."""
    query = "SELECT 1 FROM tournaments WHERE name = ? LIMIT 1"
    return db.execute(query, (name,)).fetchone() is not None


def last_id(db: Connection) -> int:
    """The highest id of a stored tournament (-1: none)."""
    (found,) = db.execute("SELECT COALESCE(MAX(id), -1) FROM tournaments").fetchone()
    return int(found)


def read(db: Connection, tournament_id: int, state: str) -> StoredTournament:
    """Tournament ``tournament_id`` (its ``state`` read already) with its tables' rows,
    checked, and its parts (checked by :func:`restore`); :class:`TamperedSnapshot`
    naming the first problem."""
    key = (tournament_id,)
    parts: dict[str, tuple[str, str]] = {}
    if has_table(db, "tournament_parts"):
        query = "SELECT name, part, tag FROM tournament_parts WHERE tournament_id = ?"
        parts = {str(n): (str(text), str(tag)) for n, text, tag in db.execute(query, key)}
    if not has_table(db, "tournament_tables"):
        return StoredTournament(tournament_id, state, {}, parts)
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
    return StoredTournament(tournament_id, state, tables, parts)


def restore(stored: StoredTournament, key: bytes | None) -> tuple[dict[str, Any], Tournament]:
    """The room's own parts of ``stored`` (name -> JSON value; of schema 7 or before, its
    state decoded from JSON: ``whole``) and the library's tournament: its parts
    (:func:`~doubleholdem.tournament.snapshot.from_parts`), or of schema 7 or before the
    snapshot in its state, with each table's snapshot and its moves replayed through
    the rules; of schema 5, the whole snapshot (every table in it).
    :class:`~doubleholdem.errors.InvalidSnapshot` if it is not one."""
    if stored.state:
        data = json.loads(stored.state)
        text = data.get("tournament") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise TamperedSnapshot("its tournament is not a snapshot's text")
        if one_row(text):
            return data, Tournament.from_json(text, key)
        return data, Tournament.from_json(text, key, tables=_tables(stored, key))
    found = {}
    for name, (text, tag) in stored.parts.items():
        if not hmac.compare_digest(part_tag(key, stored.id, name, text), tag):
            raise TamperedSnapshot(f"its part {name} does not match its tag")
        found[name] = json.loads(text)
    if "tournament" not in found:
        raise TamperedSnapshot("its parts hold no tournament")
    own = part_names(found["tournament"])
    tournament = from_parts(Tournament, {n: v for n, v in found.items() if n in own}, key,
                            _tables(stored, key))  # fmt: skip
    return {n: v for n, v in found.items() if n not in own}, tournament


def _tables(stored: StoredTournament, key: bytes | None) -> dict[int, Table]:
    """Each table of ``stored``: its snapshot with its moves replayed through the rules."""
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
    return tables


def one_row(tournament: str) -> bool:
    """Whether the snapshot text ``tournament`` holds its tables' (schema 5's one-row
    form), as a glance at its text says (the snapshot's check reads it whole)."""
    return '"tables":{' in tournament


def pool_held(stored: StoredTournament, key: bytes | None) -> int:
    """The chips the rows of a tournament not over say its pool holds: the library's
    pool. :class:`~doubleholdem.errors.DoubleHoldemError` (or a ``ValueError``,
    ``KeyError``, ``TypeError``) if they cannot be read."""
    return restore(stored, key)[1].pool


def pool_problems(db: Connection, key: bytes | None = None) -> list[str]:
    """Each stored tournament's pool in the ledger against what its rows say it holds
    (none once it is over, paid out or refunded), and no pool in the ledger without its
    tournament. Tournaments are numbered from 1."""
    problems = []
    held: dict[int, int] = {}
    for tournament_id, status in rows(db):
        if status in OVER:
            held[tournament_id] = 0
            continue
        try:
            text, _ = state(db, tournament_id) or ("", "")
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
