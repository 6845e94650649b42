"""Finished hands in the server's database, and the index of who played each: a stored
hand (``hands``: its log, every card) gets, in the same transaction, a row of
``hand_index`` (its table, number, the time it ended and its place in the order stored)
and a row of ``hand_players`` for each seat dealt in (the seat, its player and its
occupancy: the table's number of that seating). A seating's or a player's hands are then
found through ``hand_players``' indexes, reading only those rows and at most the hands
asked for, whatever the others stored (:func:`seat_logs`, :func:`player_records`). The
retention forgets by count and by age in bounded steps, never the last hands of a
seating a person holds (:func:`forget`).

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> _ = db.execute("CREATE TABLE hands (table_id, number, log, PRIMARY KEY (table_id, number))")
>>> for statement in SCHEMA:
...     _ = db.execute(statement)
>>> record = {"kind": "phh", "hand_number": 1, "table": 0, "seats": [2, 1],
...           "players": ["ann", "bob"], "occupancies": [7, 3], "text": ""}
>>> put(db, 0, 1, [{"kind": "hand_end", "at": 60.0}, record])
>>> [log[-1]["players"] for log in seat_logs(db, 0, (3, "bob", 0), last=5)]
[['ann', 'bob']]
>>> seat_logs(db, 0, (4, "bob", 0), last=5), player_records(db, "ann", last=5)[0]["players"]
([], ['ann', 'bob'])
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from doubleholdem.database.connection import SQLITE, Connection, dialect, inserted_id
from doubleholdem.wording import table_said

__all__ = [
    "FORGET_BATCH",
    "SCHEMA",
    "Seating",
    "add_occupancies",
    "build_index",
    "forget",
    "hand_time",
    "player_records",
    "put",
    "seat_logs",
    "tournament_key",
]

FORGET_BATCH = 100  # finished hands forgotten at most in one commit (the retention)
RECORD = "phh"  # the kind of a log's last entry: its PHH record (table.history.RECORD)

_BY_SEATING = (
    "CREATE INDEX IF NOT EXISTS hand_players_by_seating ON hand_players"
    " (table_id, occupancy, player, seat, seq)"
)
SCHEMA = (
    # one row a stored hand: ``seq`` its place in the order stored (the newest first is
    # an account's order across tables), ``ended`` the time it ended (the retention by age)
    "CREATE TABLE IF NOT EXISTS hand_index (seq INTEGER PRIMARY KEY, table_id INTEGER NOT"
    " NULL, number INTEGER NOT NULL, ended REAL NOT NULL, UNIQUE (table_id, number))",
    "CREATE INDEX IF NOT EXISTS hand_index_by_time ON hand_index (table_id, ended)",
    # one row a seat dealt into a stored hand (seats zero-based, as the tables number
    # them), with its occupancy (NULL in a hand whose record names none: an older one)
    "CREATE TABLE IF NOT EXISTS hand_players (seq INTEGER NOT NULL, seat INTEGER NOT NULL,"
    " table_id INTEGER NOT NULL, player TEXT NOT NULL, occupancy INTEGER,"
    " PRIMARY KEY (seq, seat)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS hand_players_by_player ON hand_players (player, seq)",
    _BY_SEATING,
)
Seating = tuple[int, str, int]
"""A seating: its occupancy, its player, its seat (zero-based)."""

# a seating's hands, and those of its player in its seat stored without occupancies
# (before the records named them): ``occupancy IS ?``, the seating's or NULL; SQLite is
# told its index (its planner may pick the player's), PostgreSQL's planner picks it
_SEATING_HANDS = (
    "SELECT seq FROM hand_players INDEXED BY hand_players_by_seating WHERE table_id = ?"
    " AND occupancy IS ? AND player = ? AND seat = ? ORDER BY seq DESC LIMIT ?"
)
_SEATING_HANDS_PG = (
    "SELECT seq FROM hand_players WHERE table_id = ? AND occupancy IS NOT DISTINCT FROM ?"
    " AND player = ? AND seat = ? ORDER BY seq DESC LIMIT ?"
)
_LOG = (
    "SELECT h.log FROM hand_index i JOIN hands h ON h.table_id = i.table_id"
    " AND h.number = i.number WHERE i.seq = ?"
)
# the last entry of each log only (its PHH record, as stored by the room), parsed by SQLite
_PLAYER_RECORDS = (
    "SELECT json_extract(h.log, '$[#-1]') FROM hand_players p INDEXED BY hand_players_by_player"
    " JOIN hand_index i ON i.seq = p.seq"
    " JOIN hands h ON h.table_id = i.table_id AND h.number = i.number"
    " WHERE p.player = ? ORDER BY p.seq DESC LIMIT ?"
)
_PLAYER_RECORDS_PG = (
    "SELECT (h.log::jsonb -> -1)::text FROM hand_players p"
    " JOIN hand_index i ON i.seq = p.seq"
    " JOIN hands h ON h.table_id = i.table_id AND h.number = i.number"
    " WHERE p.player = ? ORDER BY p.seq DESC LIMIT ?"
)


TOURNAMENT_TABLES = 1_000_000  # tables one tournament may number at most (keys apart)


def tournament_key(tournament: int, table: int) -> int:
    """The table id under which the hands of table ``table`` (numbered from 1) of
    tournament ``tournament`` (from 0) are stored: negative, so that no cash table's id
    (from 0) is one; each tournament table its own.

    >>> tournament_key(0, 1), tournament_key(2, 7)
    (-2, -2000008)
    """
    if not 0 < table < TOURNAMENT_TABLES or tournament < 0:
        raise ValueError(f"no table {table} of tournament {tournament + 1}")
    return -1 - (tournament * TOURNAMENT_TABLES + table)


def hand_time(log: list[dict[str, Any]]) -> float:
    """When the hand of ``log`` ended: its ``hand_end`` entry's time (else the latest
    time in the log, else 0: a log without times is the oldest there is)."""
    times = [e["at"] for e in log if e.get("kind") == "hand_end" and "at" in e]
    if not times:
        times = [e["at"] for e in log if isinstance(e.get("at"), (int, float))]
    return float(max(times, default=0.0))


def _seats(log: list[dict[str, Any]]) -> list[tuple[int, str, int | None]]:
    """(seat, player, occupancy) of every seat dealt into the hand of ``log`` (its PHH
    record, the log's last entry of its kind; none without one; occupancies ``None``
    when the record names none)."""
    record = next((e for e in reversed(log) if e.get("kind") == RECORD), None)
    if record is None:
        return []
    seats, players = record["seats"], record["players"]
    occupancies = record.get("occupancies", [None] * len(seats))
    if not len(seats) == len(players) == len(occupancies):  # zip(strict=) is Python 3.10
        raise ValueError("a hand's record names as many seats, players and occupancies")
    rows = zip(seats, players, occupancies)
    return [(int(s) - 1, str(p), None if o is None else int(o)) for s, p, o in rows]


def put(db: Connection, table_id: int, number: int, log: list[dict[str, Any]]) -> None:
    """Stores the log of hand ``number`` of table ``table_id`` with its index rows
    (in the caller's transaction); a hand stored again replaces the old one whole."""
    _drop(db, table_id, [number])
    db.execute(
        "INSERT INTO hands VALUES (?, ?, ?)",
        (table_id, number, json.dumps(log, separators=(",", ":"))),
    )
    _index(db, table_id, number, log)


def _index(db: Connection, table_id: int, number: int, log: list[dict[str, Any]]) -> None:
    seq = inserted_id(
        db,
        "INSERT INTO hand_index (table_id, number, ended) VALUES (?, ?, ?)",
        (table_id, number, hand_time(log)),
        key="seq",
    )
    db.executemany(
        "INSERT INTO hand_players VALUES (?, ?, ?, ?, ?)",
        [(seq, seat, table_id, player, occupancy) for seat, player, occupancy in _seats(log)],
    )


def _drop(db: Connection, table_id: int, numbers: list[int]) -> None:
    """Forgets hands ``numbers`` of table ``table_id`` and their index rows."""
    seqs = [
        (seq,)
        for number in numbers
        for (seq,) in db.execute(
            "SELECT seq FROM hand_index WHERE table_id = ? AND number = ?", (table_id, number)
        )
    ]
    db.executemany("DELETE FROM hand_players WHERE seq = ?", seqs)
    db.executemany("DELETE FROM hand_index WHERE seq = ?", seqs)
    db.executemany(
        "DELETE FROM hands WHERE table_id = ? AND number = ?", [(table_id, n) for n in numbers]
    )


def _seating_hands(db: Connection, table_id: int, seating: Seating, last: int) -> list[int]:
    """The ``seq`` of the last ``last`` hands of ``seating`` at table ``table_id``, newest
    first: the hands of its occupancy and, stored before the records named occupancies,
    those its player played in its seat."""
    occupancy, player, seat = seating
    found: list[int] = []
    query = _SEATING_HANDS if dialect(db) == SQLITE else _SEATING_HANDS_PG
    for which in (occupancy, None):
        rows = db.execute(query, (table_id, which, player, seat, last))
        found += [seq for (seq,) in rows]
    return sorted(found, reverse=True)[:last]


def latest(db: Connection, table_id: int, *, last: int) -> list[tuple[int, list[dict[str, Any]]]]:
    """The ``last`` finished hands of a table as (number, log), oldest first."""
    rows = db.execute(
        "SELECT number, log FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ?",
        (table_id, last),
    ).fetchall()
    return [(number, json.loads(log)) for number, log in reversed(rows)]


def seat_logs(
    db: Connection, table_id: int, seating: Seating, *, last: int
) -> list[list[dict[str, Any]]]:
    """The logs of the last ``last`` hands of ``seating`` at table ``table_id`` (a player
    who sat down again is another seating), newest first (``db`` any connection to the
    database)."""
    logs = [
        db.execute(_LOG, (seq,)).fetchone() for seq in _seating_hands(db, table_id, seating, last)
    ]
    return [json.loads(row[0]) for row in logs if row is not None]


def player_records(db: Connection, player: str, *, last: int) -> list[dict[str, Any]]:
    """The PHH records (:func:`doubleholdem.table.history.hand_record`) of the last
    ``last`` hands ``player`` was dealt into at any table, the last stored first (``db``
    any connection to the database): each log's last entry, read without the rest."""
    query = _PLAYER_RECORDS if dialect(db) == SQLITE else _PLAYER_RECORDS_PG
    rows = db.execute(query, (player, last))
    return [record for (text,) in rows if (record := json.loads(text)).get("kind") == RECORD]


def _protected(
    db: Connection, table_id: int, seatings: Iterable[Seating], protect: int
) -> set[int]:
    """The ``seq`` of the last ``protect`` hands of each of ``seatings`` at table
    ``table_id``."""
    return {seq for seating in seatings for seq in _seating_hands(db, table_id, seating, protect)}


def forget(
    db: Connection,
    table_id: int,
    *,
    last: int,
    keep: int | None,
    older_than: float | None = None,
    open_seats: Iterable[Seating] = (),
    protect: int = 0,
) -> None:
    """The retention of table ``table_id``'s finished hands, one bounded step (in the
    caller's transaction): forgets at most ``FORGET_BATCH`` of the oldest hands that are
    older than its last ``keep`` (``last`` the newest hand's number) or that ended before
    ``older_than``, but none of the last ``protect`` hands of each of ``open_seats``
    (the seatings persons hold now: the hands they may still ask for),
    with the chat lines said up to the newest hand forgotten. A backlog goes in such
    steps."""
    spared = _protected(db, table_id, open_seats, protect)
    limit = FORGET_BATCH + len(spared)
    found: dict[int, int] = {}  # seq -> number
    if keep is not None:
        rows = db.execute(
            "SELECT seq, number FROM hand_index WHERE table_id = ? AND number <= ?"
            " ORDER BY number LIMIT ?",
            (table_id, last - keep, limit),
        )
        found.update(rows)
    if older_than is not None:
        rows = db.execute(
            "SELECT seq, number FROM hand_index WHERE table_id = ? AND ended < ?"
            " ORDER BY ended LIMIT ?",
            (table_id, older_than, limit),
        )
        found.update(rows)
    numbers = sorted(n for seq, n in found.items() if seq not in spared)[:FORGET_BATCH]
    if not numbers:
        return
    _drop(db, table_id, numbers)
    db.execute(
        "DELETE FROM chat WHERE number IN (SELECT number FROM chat WHERE table_id = ?"
        " AND hand <= ? ORDER BY number LIMIT ?)",
        (table_id, numbers[-1], FORGET_BATCH * 20),
    )


def add_occupancies(db: Connection) -> None:
    """Gives ``hand_players`` its ``occupancy`` column (NULL in the rows it holds) and
    its index by seating where a database of schema 5 was written without them (by the
    first versions of schema 5, on main for an hour on 2026-12-04)."""
    if dialect(db) != SQLITE:  # made with its occupancies (PostgreSQL rooms are newer)
        return
    columns = {row[1] for row in db.execute("PRAGMA table_info(hand_players)")}
    if "occupancy" not in columns:
        db.execute("ALTER TABLE hand_players ADD COLUMN occupancy INTEGER")
    db.execute(_BY_SEATING)
    db.execute("DROP INDEX IF EXISTS hand_players_by_seat")
    db.execute("DROP INDEX IF EXISTS hand_players_by_occupancy")


def build_index(db: Connection) -> int:
    """Makes the index tables and indexes every stored hand, in the order stored (in the
    caller's transaction: an upgrade); returns how many. A log that is not a hand's
    raises :class:`ValueError` naming its table and hand."""
    for statement in SCHEMA:
        db.execute(statement)
    count = 0
    for table_id, number, text in db.execute(
        "SELECT table_id, number, log FROM hands ORDER BY rowid"
    ):
        try:
            _index(db, table_id, number, json.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError):
            said = f", hand {number}: its stored log is not a hand's"  # the command line
            raise ValueError(table_said(table_id) + said) from None  # says it from 1
        count += 1
    return count
