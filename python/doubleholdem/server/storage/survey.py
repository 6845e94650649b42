"""Reading the server's database and naming what is damaged in it (issue 17): the
tables that hold together as rows, their move rows checked against their snapshot and
their head, and a :class:`Damage` for each of the others. The storage
(:mod:`doubleholdem.server.storage.storage`) writes what this reads."""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from doubleholdem.database.connection import Connection, reading
from doubleholdem.errors import TamperedSnapshot
from doubleholdem.wording import table_said, told

__all__ = [
    "MAX_TABLES",
    "Damage",
    "StoredTable",
    "move_hash",
    "read_chat",
    "read_table",
    "read_tables",
    "read_tokens",
    "survey",
]

MAX_TABLES = 100_000  # the most tables a database may hold (the protocol's table ids)


def move_hash(snapshot: str, number: int, move: str) -> str:
    """The checksum of move ``number`` (from 1) after the snapshot ``snapshot``."""
    return tagged(snapshot_anchor(snapshot), number, move)


def snapshot_anchor(snapshot: str) -> str:
    """What a table's move checksums hang from: the SHA-256 of its snapshot."""
    return hashlib.sha256(snapshot.encode()).hexdigest()


def tagged(anchor: str, number: int, move: str) -> str:
    """The checksum of move ``number`` hung from ``anchor``."""
    return hashlib.sha256(f"{anchor}:{number}:{move}".encode()).hexdigest()


class StoredTable(NamedTuple):
    """A table as stored: its id, its snapshot text, its bot seats (seat -> kind), the
    moves made since the snapshot, in order (JSON texts), and its seat tokens as (hash,
    seat, player)."""

    id: int
    snapshot: str
    bots: dict[str, str]
    moves: list[str]
    tokens: tuple[tuple[str, int, str], ...] = ()


class Damage(NamedTuple):
    """A problem found in a database: the table it concerns (``None``: the whole file)
    and what is wrong."""

    table: int | None
    problem: str

    def __str__(self) -> str:
        return str(self.wording())

    def wording(self) -> str:
        """What is wrong, after the table it concerns (its number kept: a
        :class:`~doubleholdem.wording.Wording`)."""
        return self.problem if self.table is None else table_said(self.table) + ": " + self.problem


def read_tables(db: Connection) -> list[StoredTable]:
    """Every table stored in ``db``, by id, checked; :class:`TamperedSnapshot` naming
    the first problem found (:func:`survey`)."""
    tables, damage = survey(db)
    if damage:
        raise TamperedSnapshot(str(damage[0]))
    return tables


def read_table(db: Connection, table_id: int) -> StoredTable:
    """The stored table ``table_id`` of ``db``, its move rows checked against its
    snapshot and its head, read in one consistent picture (another process may write
    it meanwhile: the one that took it over from this one); :class:`TamperedSnapshot`
    naming what is wrong."""
    with reading(db):
        return _read_table(db, table_id)


def _read_table(db: Connection, table_id: int) -> StoredTable:
    row = db.execute(
        "SELECT t.snapshot, t.bots, h.moves FROM tables t JOIN heads h "
        "ON h.table_id = t.id WHERE t.id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        raise TamperedSnapshot(table_said(table_id) + " is not in the database")
    snapshot, bots, head = row
    rows = db.execute(
        "SELECT number, move, sha256 FROM moves WHERE table_id = ? ORDER BY number",
        (table_id,),
    ).fetchall()
    if len(rows) != head:
        raise TamperedSnapshot(
            table_said(table_id) + f": {len(rows)} moves stored, its head {head}"
        )
    moves = checked(table_id, snapshot, rows)
    return StoredTable(
        table_id, snapshot, json.loads(bots), moves, tuple(read_tokens(db, table_id))
    )


def read_chat(db: Connection, table_id: int, last: int) -> list[dict[str, Any]]:
    """The ``last`` chat lines of table ``table_id``, oldest first."""
    rows = db.execute(
        "SELECT line FROM chat WHERE table_id = ? ORDER BY number DESC LIMIT ?", (table_id, last)
    ).fetchall()
    return [json.loads(line) for (line,) in reversed(rows)]


def read_tokens(db: Connection, table_id: int) -> list[tuple[str, int, str]]:
    """(hash, seat, player) of every seat token of table ``table_id``."""
    rows = db.execute("SELECT hash, seat, player FROM tokens WHERE table_id = ?", (table_id,))
    return [(str(h), int(s), str(p)) for h, s, p in rows]


def survey(db: Connection) -> tuple[list[StoredTable], list[Damage]]:
    """The tables stored in ``db`` that hold together as rows (their move rows checked
    against their snapshot and their head), by id, and the problems of the others:
    ``tables`` rows missing or beyond the tables created, moves cut off or beyond the
    head, rows of tables that do not exist, a bots column that is not an object of
    seats."""
    damage: list[Damage] = []
    created = meta_int(db, "tables")
    if created is None:
        return [], [Damage(None, "the number of tables created is missing from meta")]
    rows = {i: (snap, bots) for i, snap, bots in db.execute("SELECT * FROM tables")}
    heads = dict(db.execute("SELECT table_id, moves FROM heads").fetchall())
    moves: dict[int, list[tuple[int, str, str]]] = {}
    for table_id, number, move, digest in db.execute(
        "SELECT table_id, number, move, sha256 FROM moves ORDER BY table_id, number"
    ):
        moves.setdefault(table_id, []).append((number, move, digest))
    tokens: dict[int, list[tuple[str, int, str]]] = {}
    for hashed, table_id, seat, player in db.execute("SELECT * FROM tokens"):
        tokens.setdefault(table_id, []).append((hashed, seat, player))
    if not 0 <= created <= MAX_TABLES:
        wrong = f"the number of tables created, {created}, is not 0..{MAX_TABLES}"
        return [], [Damage(None, wrong)]
    ids = set(rows) | set(range(created)) | set(heads) | set(moves) | set(tokens)
    odd = sorted(repr(i) for i in ids if type(i) is not int)
    if odd:
        return [], [Damage(None, f"rows of tables whose id is not a whole number: {odd[0]}")]
    tables: list[StoredTable] = []
    for table_id in sorted(ids):
        problem = _problem(table_id, created, rows, heads, moves)
        if problem is None:
            snapshot, bots = rows[table_id]
            problem, seats = _bots(bots)
        if problem is not None:
            damage.append(Damage(table_id, problem))
            continue
        made = [move for _, move, _ in moves.get(table_id, [])]
        tables.append(StoredTable(table_id, snapshot, seats, made, tuple(tokens.get(table_id, []))))
    return tables, damage


def _problem(
    table_id: int,
    created: int,
    rows: dict[int, tuple[str, str]],
    heads: dict[int, int],
    moves: dict[int, list[tuple[int, str, str]]],
) -> str | None:
    """What is wrong with the rows of table ``table_id``, or ``None``."""
    if table_id not in rows:
        if table_id < created:
            return f"its row in tables is missing ({created} tables were created)"
        return "rows of a table that is not in tables"
    if not 0 <= table_id < created:
        return f"a row in tables beyond the {created} tables created"
    head = heads.get(table_id)
    if head is None:
        return "its head (the number of its moves) is missing"
    made = moves.get(table_id, [])
    try:
        checked(table_id, rows[table_id][0], made)
    except TamperedSnapshot as error:
        return told(error).removeprefix(f"table {table_id}: ")
    if len(made) < head:
        return f"its last moves are missing: {len(made)} of {head} stored (cut off)"
    if len(made) > head:
        return f"{len(made)} moves stored beyond its head of {head}"
    return None


def _bots(text: str) -> tuple[str | None, dict[str, str]]:
    """The bots column read: (a problem or ``None``, seat -> kind)."""
    try:
        bots = json.loads(text)
    except ValueError:
        return "its bots column is not JSON", {}
    ok = isinstance(bots, dict) and all(
        isinstance(k, str) and k.isascii() and k.isdigit() and isinstance(v, str)
        for k, v in bots.items()
    )
    if not ok:
        return "its bots column is not an object of seats and bot kinds", {}
    return None, bots


def meta_int(db: Connection, key: str) -> int | None:
    """The whole number stored under ``key`` in ``meta``, or ``None``."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    try:
        return None if row is None else int(row[0])
    except ValueError:
        return None


def checked(table_id: int, snapshot: str, rows: list[tuple[int, str, str]]) -> list[str]:
    """The moves of ``rows`` (number, move, checksum) after ``snapshot``, each checked;
    :class:`TamperedSnapshot` naming the first that is not in its place."""
    anchor = snapshot_anchor(snapshot)
    for expected, (number, move, digest) in enumerate(rows, 1):
        if number != expected or tagged(anchor, number, move) != digest:
            raise TamperedSnapshot(
                table_said(table_id) + f": move row {number} does not match its checksum, "
                "its place or its snapshot"
            )
    return [move for _, move, _ in rows]
