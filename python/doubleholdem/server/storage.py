"""Durable state of the game server: one SQLite database in WAL mode (the standard
library's :mod:`sqlite3`). Every change to a table is one transaction, with the seat
tokens and the client action ids it applied: a decision or a deadline passing adds one
*move* row (a few bytes of JSON), any other change (a hand starting or ending, a player
sitting down, a top-up, ...) stores the table's whole
:meth:`~doubleholdem.table.Table.to_json` snapshot and drops its moves; at the end of
each hand the hand's log is stored too (finished hands live here, not in memory). The
table is its snapshot with its moves replayed through the rules. A reply goes out only
after its transaction is committed, so after a crash (``kill -9`` at any moment) the
database holds every change anybody was told about.

Each move row carries the SHA-256 of the snapshot's checksum, its number and its text: an
edited, reordered or foreign row, or a gap in the numbers, is refused on reading
(:class:`~doubleholdem.errors.TamperedSnapshot`), like an edited snapshot.

``synchronous=NORMAL`` (the default here) survives the process being killed; ``full``
also survives the machine losing power, at the price of a disk flush per change.

>>> store = Storage(":memory:")
>>> with store.transaction():
...     store.put_table(0, '{"snapshot": 1}', {"0": "random"})
...     store.put_token("token-hash", 0, 3, "ann")
>>> with store.transaction():
...     store.put_move(0, '["advance",12.5]')
>>> [(row.id, row.snapshot, row.bots, row.moves) for row in store.tables()]
[(0, '{"snapshot": 1}', {'0': 'random'}, ['["advance",12.5]'])]
>>> store.token("token-hash")
(0, 3, 'ann')
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any, NamedTuple

from doubleholdem.errors import TamperedSnapshot

__all__ = ["SCHEMA_VERSION", "Storage", "StoredTable", "move_hash", "read_tables", "token_hash"]

SCHEMA_VERSION = 2
CHECKPOINT_SECONDS = 1.0
WAL_LIMIT = 16 * 2**20
BUSY_SECONDS = 5.0  # how long a transaction waits for the write lock

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    snapshot TEXT NOT NULL,
    bots TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    move TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    log TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    token TEXT NOT NULL,
    id TEXT NOT NULL,
    table_id INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    PRIMARY KEY (token, id)
);
CREATE INDEX IF NOT EXISTS actions_by_hand ON actions (table_id, hand);
"""


def token_hash(token: str) -> str:
    """What the database keeps of a seat token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def move_hash(snapshot: str, number: int, move: str) -> str:
    """The checksum of move ``number`` (from 1) after the snapshot ``snapshot``."""
    return _move_hash(_anchor(snapshot), number, move)


def _anchor(snapshot: str) -> str:
    return hashlib.sha256(snapshot.encode()).hexdigest()


def _move_hash(anchor: str, number: int, move: str) -> str:
    return hashlib.sha256(f"{anchor}:{number}:{move}".encode()).hexdigest()


class StoredTable(NamedTuple):
    """A table as stored: its id, its snapshot text, its bot seats (seat -> kind) and the
    moves made since the snapshot, in order (JSON texts)."""

    id: int
    snapshot: str
    bots: dict[str, str]
    moves: list[str]


def read_tables(db: sqlite3.Connection) -> list[StoredTable]:
    """Every table stored in ``db``, by id, its move rows checked."""
    moves: dict[int, list[tuple[int, str, str]]] = {}
    for table_id, number, move, digest in db.execute(
        "SELECT table_id, number, move, sha256 FROM moves ORDER BY table_id, number"
    ):
        moves.setdefault(table_id, []).append((number, move, digest))
    rows = db.execute("SELECT id, snapshot, bots FROM tables ORDER BY id").fetchall()
    return [
        StoredTable(i, snapshot, json.loads(bots), _checked(i, snapshot, moves.pop(i, [])))
        for i, snapshot, bots in rows
    ]


def _checked(table_id: int, snapshot: str, rows: list[tuple[int, str, str]]) -> list[str]:
    anchor = _anchor(snapshot)
    for expected, (number, move, digest) in enumerate(rows, 1):
        if number != expected or _move_hash(anchor, number, move) != digest:
            raise TamperedSnapshot(
                f"table {table_id}: move row {number} does not match its checksum, its "
                "place or its snapshot"
            )
    return [move for _, move, _ in rows]


class Storage:
    """The server's database at ``path`` (created if missing)."""

    def __init__(self, path: str, *, synchronous: str = "normal") -> None:
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
        self.path = path
        self._db = sqlite3.connect(
            path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.executescript(_SCHEMA)
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        self._depth = 0
        self._reserved = False  # reserve() began the next transaction
        self._stop = threading.Event()
        # per table: the checksum of its snapshot and its number of moves (forgotten on
        # a rollback, then read again)
        self._heads: dict[int, tuple[str, int]] = {}
        self._checkpoints: threading.Thread | None = None
        if path != ":memory:":
            # Checkpoints (which flush the disk) run in a thread of their own, so that
            # commits on the event loop never wait for a disk flush.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpoints = threading.Thread(
                target=self._checkpoint, name="doubleholdem-checkpoints", daemon=True
            )
            self._checkpoints.start()

    def _checkpoint(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                # PASSIVE never waits for the server; it cannot reset a log that is
                # written to all the time, so past WAL_LIMIT bytes a TRUNCATE does, right
                # after the PASSIVE one has copied nearly everything: it holds the write
                # lock only for what the server wrote in between (the server's commits
                # meanwhile wait without blocking its event loop: :meth:`reserve`)
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                try:
                    size = os.path.getsize(self.path + "-wal")
                except OSError:
                    size = 0
                if size > WAL_LIMIT:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()

    def close(self) -> None:
        """Closes the database."""
        self._stop.set()
        if self._checkpoints is not None:
            self._checkpoints.join()
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def reserve(self) -> bool:
        """Begins the next :meth:`transaction` now if the database can be written at
        once: True; False, without waiting, while another connection holds the write
        lock (a checkpoint resetting the log, for a few milliseconds)."""
        if self._depth or self._reserved:
            return True
        self._db.execute("PRAGMA busy_timeout = 0")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                return False
            raise
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        self._reserved = True
        return True

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic change (nested uses join the outer one)."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        if self._reserved:
            self._reserved = False
        else:
            self._db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            self._heads.clear()
            raise
        else:
            self._db.execute("COMMIT")
        finally:
            self._depth = 0

    # tables

    def tables(self) -> list[StoredTable]:
        """Every stored table, by id (:func:`read_tables`)."""
        return read_tables(self._db)

    def table(self, table_id: int) -> StoredTable:
        """The stored table ``table_id``, its move rows checked."""
        row = self._db.execute(
            "SELECT snapshot, bots FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise TamperedSnapshot(f"table {table_id} is not in the database")
        snapshot, bots = row
        rows = self._db.execute(
            "SELECT number, move, sha256 FROM moves WHERE table_id = ? ORDER BY number",
            (table_id,),
        ).fetchall()
        return StoredTable(table_id, snapshot, json.loads(bots), _checked(table_id, snapshot, rows))

    def put_table(self, table_id: int, snapshot: str, bots: dict[str, str] | None = None) -> None:
        """Stores the table's snapshot (and, when given, its bot seats), which replaces
        its moves."""
        self._db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
        self._heads[table_id] = (_anchor(snapshot), 0)
        if bots is None:
            self._db.execute("UPDATE tables SET snapshot = ? WHERE id = ?", (snapshot, table_id))
        else:
            self._db.execute(
                "INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                (table_id, snapshot, json.dumps(bots)),
            )

    def put_move(self, table_id: int, move: str) -> None:
        """Stores the next move of a table (after its snapshot and its earlier moves)."""
        head = self._heads.get(table_id)
        if head is None:
            snapshot, count = self._db.execute(
                "SELECT snapshot, (SELECT COUNT(*) FROM moves WHERE table_id = id) "
                "FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            head = (_anchor(snapshot), count)
        anchor, number = head[0], head[1] + 1
        self._db.execute(
            "INSERT INTO moves VALUES (?, ?, ?, ?)",
            (table_id, number, move, _move_hash(anchor, number, move)),
        )
        self._heads[table_id] = (anchor, number)

    # finished hands

    def put_hand(self, table_id: int, number: int, log: list[dict[str, Any]]) -> None:
        """Stores the log of a finished hand (the server's record: every card)."""
        self._db.execute(
            "INSERT OR REPLACE INTO hands VALUES (?, ?, ?)",
            (table_id, number, json.dumps(log, separators=(",", ":"))),
        )

    def hands(self, table_id: int, *, last: int = 20) -> list[tuple[int, list[dict[str, Any]]]]:
        """The ``last`` finished hands of a table as (number, log), oldest first."""
        rows = self._db.execute(
            "SELECT number, log FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ?",
            (table_id, last),
        ).fetchall()
        return [(number, json.loads(log)) for number, log in reversed(rows)]

    # seat tokens

    def put_token(self, hashed: str, table_id: int, seat: int, player: str) -> None:
        """Stores a seat token's hash."""
        self._db.execute(
            "INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?)", (hashed, table_id, seat, player)
        )

    def token(self, hashed: str) -> tuple[int, int, str] | None:
        """(table, seat, player) of a token hash, or ``None``."""
        row = self._db.execute(
            "SELECT table_id, seat, player FROM tokens WHERE hash = ?", (hashed,)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def tokens(self, table_id: int) -> list[tuple[str, int, str]]:
        """(hash, seat, player) of every token of a table."""
        rows = self._db.execute(
            "SELECT hash, seat, player FROM tokens WHERE table_id = ?", (table_id,)
        )
        return [(str(h), int(s), str(p)) for h, s, p in rows]

    def drop_token(self, hashed: str) -> None:
        """Forgets a token (its player left) and the action ids sent with it."""
        self._db.execute("DELETE FROM tokens WHERE hash = ?", (hashed,))
        self._db.execute("DELETE FROM actions WHERE token = ?", (hashed,))

    # client action ids

    def put_action(self, hashed: str, action_id: str, table_id: int, hand: int) -> None:
        """Notes that the action ``action_id`` of a token was applied."""
        self._db.execute(
            "INSERT INTO actions VALUES (?, ?, ?, ?)", (hashed, action_id, table_id, hand)
        )

    def action_applied(self, hashed: str, action_id: str) -> bool:
        """True if that action id of that token was applied already."""
        row = self._db.execute(
            "SELECT 1 FROM actions WHERE token = ? AND id = ?", (hashed, action_id)
        ).fetchone()
        return row is not None

    def forget_actions(self, table_id: int, before_hand: int) -> None:
        """Forgets the action ids of a table's hands before ``before_hand`` (retries of
        those are refused as stale anyway)."""
        self._db.execute(
            "DELETE FROM actions WHERE table_id = ? AND hand < ?", (table_id, before_hand)
        )
