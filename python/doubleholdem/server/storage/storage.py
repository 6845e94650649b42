"""Durable state of the game server: one SQLite database in WAL mode (the standard
library's :mod:`sqlite3`), or a PostgreSQL database named by a ``postgresql://`` URL
(:mod:`doubleholdem.database`: the same SQL text). Every change to a table is one
transaction, with the seat tokens and the client action ids it applied: a decision or a
deadline passing adds one *move* row (a few bytes of JSON), any other change (a hand
starting or ending, a player sitting down, a top-up, ...) stores the table's whole
:meth:`~doubleholdem.table.Table.to_json` snapshot and drops its moves; at the end of
each hand the hand's log is stored too (finished hands live here, not in memory). The
table is its snapshot with its moves replayed through the rules. A reply goes out only
after its transaction is committed, so after a crash (``kill -9`` at any moment) the
database holds every change anybody was told about.

Each move row carries the SHA-256 of the snapshot's checksum, its number and its text: an
edited, reordered or foreign row, or a gap in the numbers, is refused on reading
(:class:`~doubleholdem.errors.TamperedSnapshot`), like an edited snapshot. Each table's
*head* (its number of moves, in ``heads``, written with every change) shows moves cut
off at the end, and the number of tables created (``meta``) a missing ``tables`` row:
:meth:`Storage.survey` names every such problem (:class:`Damage`). The file is made,
checked and upgraded by :mod:`doubleholdem.server.storage.database` (an upgrade from schema 3
notes each table's chips as the ledger's opening, :meth:`Storage.openings`). Its lock
(:func:`~doubleholdem.server.storage.lock.room_lock`) is held while it is open.

``synchronous=NORMAL`` (the default here) survives the process being killed; ``full``
also survives the machine losing power, at the price of a disk flush per change
(SQLite's; PostgreSQL's durability is its server's settings).

>>> store = Storage(":memory:")
>>> with store.transaction():
...     store.add_table(0, '{"snapshot": 1}', {"0": "random"})
...     store.seat_tokens.put("token-hash", 0, 3, "ann")
>>> with store.transaction():
...     store.put_move(0, '["advance",12.5]')
>>> [(row.id, row.snapshot, row.bots, row.moves) for row in store.tables()]
[(0, '{"snapshot": 1}', {'0': 'random'}, ['["advance",12.5]'])]
>>> store.seat_tokens.find("token-hash")
(0, 3, 'ann')
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from doubleholdem.database.connection import SQLITE, Connection, begin, dialect, inserted_id
from doubleholdem.database.failure import database_errors
from doubleholdem.database.postgres import PostgresConnection
from doubleholdem.database.url import shown
from doubleholdem.errors import MissingTriggers
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.fencing import Fence, refused_tables
from doubleholdem.server.cluster.leases import LeaseLost, Owner
from doubleholdem.server.storage import hands, table_meta, wallet_rows
from doubleholdem.server.storage.database import (
    TABLE_ROWS,
    begin_within,
    checkpoints,
    money_kind,
    open_database,
    put_meta,
)
from doubleholdem.server.storage.hands import FORGET_BATCH, Seating
from doubleholdem.server.storage.lock import room_lock
from doubleholdem.server.storage.schema_copy import copy_schema
from doubleholdem.server.storage.seat_tokens import SeatTokens, token_hash
from doubleholdem.server.storage.survey import (
    Damage,
    StoredTable,
    meta_int,
    move_hash,
    read_chat,
    read_table,
    read_tables,
    snapshot_anchor,
    survey,
    tagged,
)
from doubleholdem.server.storage.thread_connections import ThreadConnections
from doubleholdem.server.storage.turns import WriterTurn
from doubleholdem.server.storage.wallet_rows import WalletCallRow, wallet_calls

__all__ = [
    "FORGET_BATCH",
    "Damage",
    "LeaseLost",
    "Owner",
    "Storage",
    "StoredTable",
    "WalletCallRow",
    "move_hash",
    "read_tables",
    "token_hash",
    "wallet_calls",
]

BUSY_SECONDS = 5.0  # how long a transaction waits for the write lock
_log = logging.getLogger("doubleholdem.server")


class Storage:
    """The server's database at ``path`` (made if missing); ``shared``: see ``room_lock``."""

    def __init__(
        self,
        path: str,
        *,
        synchronous: str = "normal",
        restore_triggers: bool = False,
        shared: bool = False,
    ) -> None:
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
        self.path = path
        self._lock = None if path == ":memory:" else room_lock(path, shared=shared)
        # the ledger's append-only triggers made anew on ``restore_triggers`` (a repair)
        self.restored_triggers: tuple[str, ...] = ()
        try:
            self._db = self._open(synchronous, restore_triggers=restore_triggers)
        except BaseException:
            if self._lock is not None:
                self._lock.release()
            raise
        if isinstance(self._db, PostgresConnection):  # the loop's reads between commits
            self._db.renews = True  # find a session ended meanwhile replaced
        self._depth = 0
        self.turn = WriterTurn()  # the write connection lent to a commit's thread
        self._reserved = False  # reserve() began the next transaction
        # each thread's connection for reads (reader())
        self._readers = ThreadConnections(path, busy_seconds=BUSY_SECONDS, read_only=True)
        self._stop = threading.Event()
        # per table its snapshot's checksum and moves (until a rollback); the heads moved
        self._heads: dict[int, tuple[str, int]] = {}
        self._moved: set[int] = set()
        self.fencing = Fence()  # the leases its transactions write under
        # the seat tokens and the action ids applied with them
        self.seat_tokens = SeatTokens(self._db, self.fencing, self.committed)
        self.closing: list[Callable[[], None]] = []  # called first when it closes
        self._checkpoints: threading.Thread | None = None
        if path != ":memory:" and dialect(self._db) == SQLITE:
            # checkpoints (disk flushes) on a thread of their own: commits never wait for one
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpoints = threading.Thread(
                target=checkpoints,
                args=(path, self._stop),
                name="doubleholdem-checkpoints",
                daemon=True,
            )
            self._checkpoints.start()

    def _open(self, synchronous: str, *, restore_triggers: bool) -> Connection:
        """The database, its lost append-only triggers made anew if ``restore_triggers``
        (noted in :attr:`restored_triggers`), else refused (:class:`MissingTriggers`)."""
        try:
            return open_database(self.path, synchronous, busy_seconds=BUSY_SECONDS)
        except MissingTriggers as refused:
            if not restore_triggers:
                raise
            self.restored_triggers = refused.missing
        return open_database(
            self.path, synchronous, busy_seconds=BUSY_SECONDS, restore_triggers=True
        )

    def close(self) -> None:
        """Closes the database (after calling what is in :attr:`closing`)."""
        for then in self.closing:
            then()
        self._stop.set()
        if self._checkpoints is not None:
            self._checkpoints.join()
        self._readers.close()
        with contextlib.suppress(sqlite3.Error):
            if dialect(self._db) == SQLITE:  # another process may hold it: no wait
                self._db.execute("PRAGMA busy_timeout = 0")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        if self._lock is not None:
            self._lock.release()

    def backup(self, target: str) -> str:
        """Copies the whole database to a new file at ``target``, or, a room in
        PostgreSQL, into a new schema beside its own
        (:func:`~doubleholdem.server.storage.schema_copy.copy_schema`); where it went."""
        if not isinstance(self._db, sqlite3.Connection):
            return f"schema {copy_schema(self._db)} of {shown(self.path)}"
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        return target

    def set_session(self, name: str, value: str) -> None:
        """Sets PostgreSQL's session setting ``name`` to ``value`` on the write
        connection, again on each new session (:meth:`_reopen_if_lost`); nothing on
        SQLite."""
        if isinstance(self._db, PostgresConnection):
            self._db.set_session(name, value)

    def _reopen_if_lost(self) -> None:
        """Outside a transaction: a new session in place of one the server ended (a
        transaction left idle longer than ``idle_in_transaction_session_timeout`` by a
        frozen or stalled process, ``pg_terminate_backend``, a restart), with the
        session's settings; what it wrote uncommitted went with it. Without this every
        later statement would fail, for good. (A read outside any transaction replaces
        it by itself: :attr:`PostgresConnection.renews
        <doubleholdem.database.postgres.PostgresConnection.renews>`.)"""
        db = self._db
        if not isinstance(db, PostgresConnection) or not db.lost:
            return
        _log.warning("the room's database session was ended by the server: a new one opens")
        db.reopen()

    def reserve(self, wait: float = 0.0) -> bool:
        """Begins the next :meth:`transaction` now if the database can be written at
        once (or within ``wait`` seconds): True; False while another connection holds
        the write lock (a checkpoint resetting the log, or another process); any other
        failure raises (:func:`~doubleholdem.database.failure.database_errors`)."""
        self.turn.wait()
        if self._depth or self._reserved:
            return True
        if self._db.in_transaction:  # left open by a failure: nothing in it counts
            self._rollback()
        self._reopen_if_lost()
        if not begin_within(self._db, wait, busy_seconds=BUSY_SECONDS):
            return False
        self._reserved = True
        return True

    @property
    def commits_off_loop(self) -> bool:
        """Whether the group commit runs on a thread of its own (PostgreSQL; :attr:`turn`)."""
        return dialect(self._db) != SQLITE

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is begun (:meth:`transaction`, or :meth:`reserve`d for
        the next one) and not yet ended."""
        return bool(self._depth or self._reserved)

    def abandon(self) -> None:
        """Ends a transaction begun by :meth:`reserve` (outside :meth:`transaction`)
        without keeping anything of it: a payment refused before anything else was
        written in it, so that the write lock is not held until the next change."""
        if self._reserved and not self._depth:
            self._rollback()

    def data_version(self) -> int:
        """A number that changes when another connection commits (the desk, the command
        line): SQLite's ``data_version``; PostgreSQL's next transaction id (any's), read
        on :meth:`committed` (a read on the loop while a commit runs on its thread went
        into that commit's pipeline on the same connection, and broke it)."""
        if dialect(self._db) == SQLITE:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])
        query = "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint"
        return int(self.committed().execute(query).fetchone()[0])

    def writable(self) -> bool:
        """Whether the database takes a write now, found without waiting by committing
        a heartbeat: True, or False while it is locked, full or failing."""
        try:
            if not self.reserve():
                return False
            with self.transaction():
                put_meta(self._db, "heartbeat", repr(time.time()))
        except database_errors():
            return False
        return True

    def _rollback(self) -> None:
        """Ends the transaction without keeping anything of it, and forgets what was
        cached from it (a failed ``COMMIT`` may have ended it already)."""
        self._heads.clear()
        self._moved.clear()
        self.fencing.clear()
        self._reserved = False
        with contextlib.suppress(*database_errors()):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        self._reopen_if_lost()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic change (nested uses join the outer one). If anything in it fails,
        ``COMMIT`` included, it is rolled back whole, with every cache derived from it,
        and the error raised."""
        self.turn.wait()
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            if self._reserved:
                self._reserved = False
            else:
                self._reopen_if_lost()
                begin(self._db)
            yield
            self._write_heads()
            self.fencing.check(self._db)
            self._db.execute("COMMIT")
            self.fencing.clear()
        except BaseException as error:
            self._rollback()
            if refused := refused_tables(error):  # the database's fencing refused a table
                raise LeaseLost(refused, by_database=True) from error
            raise
        finally:
            self._depth = 0

    def owners(self) -> dict[int, Owner | None]:
        """Each table: the live process that serves it, or ``None`` while none does
        (:func:`~doubleholdem.server.cluster.leases.owners`). One query."""
        return leases.owners(self._db)

    @property
    def db(self) -> Connection:
        """The connection, for writers that join the storage's transactions (the ledger
        of :mod:`doubleholdem.accounts`, through
        :class:`~doubleholdem.accounts.wallet.LedgerWallet`). Write through it only
        inside :meth:`transaction` (or a payment joining the next one:
        :meth:`doubleholdem.server.storage.commit.GroupCommit.paying`)."""
        return self._db

    # tables

    def tables(self) -> list[StoredTable]:
        """Every stored table, by id (:func:`read_tables`)."""
        return read_tables(self._db)

    def survey(self) -> tuple[list[StoredTable], list[Damage]]:
        """The tables that hold together and the problems of the others (:func:`survey`)."""
        return survey(self._db)

    def table(self, table_id: int) -> StoredTable:
        """The stored table ``table_id``, its move rows checked (:func:`read_table`)."""
        return read_table(self._db, table_id)

    def count(self) -> int:
        """How many tables were created (ids 0 to this, excluded)."""
        return meta_int(self._db, "tables") or 0

    def add_table(self, table_id: int, snapshot: str, bots: dict[str, str]) -> None:
        """Stores a new table: its snapshot and its bot seats (seat -> kind)."""
        self.fencing.writes(self._db, table_id)
        self._db.execute(
            "INSERT INTO tables VALUES (?, ?, ?)", (table_id, snapshot, json.dumps(bots))
        )
        self._db.execute("INSERT INTO heads VALUES (?, 0)", (table_id,))
        self._heads[table_id] = (snapshot_anchor(snapshot), 0)
        self._db.execute(
            "UPDATE meta SET value = ? WHERE key = 'tables'",
            (str(max(self.count(), table_id + 1)),),
        )

    def put_bots(self, table_id: int, bots: dict[str, str]) -> None:
        """Stores the bot seats of a table (seat -> kind): a bot left, or sat down."""
        self.fencing.writes(self._db, table_id)
        self._db.execute("UPDATE tables SET bots = ? WHERE id = ?", (json.dumps(bots), table_id))

    def bots_to_seat(self) -> dict[int, dict[int, str]]:
        """The bots that new tables paid by a wallet outside the database are still to
        seat: table -> seat -> kind (:meth:`note_bots_to_seat`)."""
        noted = table_meta.noted(self._db, table_meta.BOTS_TO_SEAT)
        return {t: {int(s): k for s, k in json.loads(v).items()} for t, v in noted.items()}

    def note_bots_to_seat(self, table_id: int, bots: dict[int, str]) -> None:
        """Notes the bots new table ``table_id`` is to seat (seat -> kind). Paid by a
        wallet outside the database, they sit down after the table's creation is
        committed, each in a commit of its own that forgets it (:meth:`bot_seated`), so
        that a restart seats those a crash or a failure left out."""
        self.fencing.writes(self._db, table_id)
        value = json.dumps({str(s): k for s, k in sorted(bots.items())})
        put_meta(self._db, table_meta.key(table_meta.BOTS_TO_SEAT, table_id), value)

    def bot_seated(self, table_id: int, seat: int) -> None:
        """Table ``table_id`` is no longer to seat a bot in ``seat``: it sat down, or
        cannot (:meth:`note_bots_to_seat`)."""
        self.fencing.writes(self._db, table_id)
        bots = self.bots_to_seat().get(table_id, {})
        bots.pop(seat, None)
        if bots:
            self.note_bots_to_seat(table_id, bots)
        else:
            noted = table_meta.key(table_meta.BOTS_TO_SEAT, table_id)
            self._db.execute("DELETE FROM meta WHERE key = ?", (noted,))

    def openings(self) -> list[int]:
        """The tables stored before the ledger (a database upgraded from schema 3),
        whose chips the ledger has not entered yet (:meth:`opened`)."""
        return table_meta.openings(self._db)

    def opened(self, table_id: int, first_occupancy: int) -> None:
        """The ledger entered table ``table_id``'s chips: its seats of occupancies below
        ``first_occupancy`` were seated before the ledger (:meth:`legacy_below`)."""
        self.fencing.writes(self._db, table_id)
        opening = table_meta.key(table_meta.OPENING, table_id)
        self._db.execute("DELETE FROM meta WHERE key = ?", (opening,))
        put_meta(self._db, table_meta.key(table_meta.LEGACY, table_id), str(first_occupancy))

    def legacy_below(self, table_id: int) -> int:
        """The first occupancy of table ``table_id`` seated through the ledger (0 unless
        the table is older than the ledger: :meth:`opened`)."""
        return table_meta.legacy_below(self._db, table_id)

    def room_name(self) -> str:
        """The room's name among rooms sharing a wallet outside their databases (it
        names the room in that wallet's keys): random, made the first time it is asked
        (inside a transaction), then kept."""
        self._db.execute(
            "INSERT INTO meta VALUES ('room', ?) ON CONFLICT (key) DO NOTHING",
            (secrets.token_hex(6),),
        )
        return str(self._db.execute("SELECT value FROM meta WHERE key = 'room'").fetchone()[0])

    def money_kind(self) -> str | None:
        """Whose chips the tables hold: ``"guests"`` (play chips, outside the ledger),
        ``"ledger"`` (accounts' money), ``"wallet"`` (an embedding server's own
        wallet's), or ``None`` before a room first said (:meth:`set_money_kind`;
        :func:`~doubleholdem.server.storage.database.money_kind`)."""
        return money_kind(self._db)

    def set_money_kind(self, kind: str) -> None:
        """Notes whose chips the tables hold (:meth:`money_kind`)."""
        put_meta(self._db, "money", kind)

    def drop_table(self, table_id: int) -> None:
        """Forgets every row of a table (to repair a damaged database) and what the
        meta table notes of it, and counts the repair (:meth:`repairs`)."""
        self.fencing.writes(self._db, table_id)
        for name, column in TABLE_ROWS:
            self._db.execute(f"DELETE FROM {name} WHERE {column} = ?", (table_id,))
        for kind in (table_meta.OPENING, table_meta.LEGACY, table_meta.BOTS_TO_SEAT):
            self._db.execute("DELETE FROM meta WHERE key = ?", (table_meta.key(kind, table_id),))
        repairs = str(self.repairs(table_id) + 1)
        put_meta(self._db, table_meta.key(table_meta.REPAIRS, table_id), repairs)
        self.let_go(table_id)
        self._moved.discard(table_id)

    def repairs(self, table_id: int) -> int:
        """How many times table ``table_id`` was dropped by a repair and made anew (its
        money's keys then name the table's new life:
        :class:`~doubleholdem.server.money.table_money.TableMoney`)."""
        return table_meta.repairs(self._db, table_id)

    def let_go(self, table_id: int) -> None:
        """Forgets table ``table_id``'s head kept between transactions (another process
        writes its moves now; read again from the database if it comes back)."""
        self._heads.pop(table_id, None)

    def put_table(self, table_id: int, snapshot: str) -> None:
        """Stores the table's snapshot, which replaces its moves."""
        self.fencing.writes(self._db, table_id)
        self._db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
        self._db.execute("UPDATE tables SET snapshot = ? WHERE id = ?", (snapshot, table_id))
        self._heads[table_id] = (snapshot_anchor(snapshot), 0)
        self._moved.add(table_id)

    def put_move(self, table_id: int, move: str) -> None:
        """Stores the next move of a table (after its snapshot and its earlier moves)."""
        self.fencing.writes(self._db, table_id)
        head = self._heads.get(table_id)
        if head is None:
            snapshot, count = self._db.execute(
                "SELECT t.snapshot, h.moves FROM tables t JOIN heads h ON h.table_id = t.id "
                "WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            head = (snapshot_anchor(snapshot), count)
        anchor, number = head[0], head[1] + 1
        self._db.execute(
            "INSERT INTO moves VALUES (?, ?, ?, ?)",
            (table_id, number, move, tagged(anchor, number, move)),
        )
        self._heads[table_id] = (anchor, number)
        self._moved.add(table_id)

    def _write_heads(self) -> None:
        """Stores the head of each table the transaction moved (once per table)."""
        heads = self._heads
        self._db.executemany(
            "UPDATE heads SET moves = ? WHERE table_id = ?",
            [(heads[i][1], i) for i in self._moved if i in heads],
        )
        self._moved.clear()

    # finished hands

    def put_hand(self, table_id: int, number: int, log: list[dict[str, Any]]) -> None:
        """Stores the log of a finished hand (the server's record: every card) with the
        index of who played it (:func:`doubleholdem.server.storage.hands.put`)."""
        self.fencing.writes(self._db, table_id)
        hands.put(self._db, table_id, number, log)

    def forget_hands(self, table_id: int, last: int, keep: int | None, **rule: Any) -> None:
        """The retention of finished hands, one step of at most ``FORGET_BATCH``: forgets
        the hands of a table numbered up to ``last - keep`` (``last`` the hand just
        stored) and, by ``rule``, those ended before ``older_than``, sparing the last
        ``protect`` of each seating of ``open_seats``
        (:func:`doubleholdem.server.storage.hands.forget`)."""
        self.fencing.writes(self._db, table_id)
        hands.forget(self._db, table_id, last=last, keep=keep, **rule)

    def hands(self, table_id: int, *, last: int = 20) -> list[tuple[int, list[dict[str, Any]]]]:
        """The ``last`` finished hands of a table as (number, log), oldest first
        (:func:`doubleholdem.server.storage.hands.latest`)."""
        return hands.latest(self._db, table_id, last=last)

    def seat_hands(
        self, table_id: int, seating: Seating, *, last: int
    ) -> list[list[dict[str, Any]]]:
        """The logs of the last ``last`` hands of ``seating`` (occupancy, player, seat)
        at table ``table_id``, newest first (:func:`doubleholdem.server.storage.hands.seat_logs`),
        read on this thread's own connection (:meth:`reader`): call it off the loop."""
        return hands.seat_logs(self.reader(), table_id, seating, last=last)

    def player_hands(self, player: str, *, last: int) -> list[dict[str, Any]]:
        """The PHH records of the last ``last`` hands ``player`` played at any table,
        newest first (:func:`~doubleholdem.server.storage.hands.player_records`)."""
        return hands.player_records(self.reader(), player, last=last)

    def reader(self) -> Connection:
        """This thread's read-only connection (made on first use, closed with the storage):
        committed rows only, never a transaction in progress (in-memory: the storage's own)."""
        return self._db if self.path == ":memory:" else self._readers.get()

    def committed(self) -> Connection:
        """For reads on the loop: :meth:`reader` (committed rows) while a commit flies."""
        return self.reader() if self.turn.lent_elsewhere() else self._db

    # chat

    def put_chat(self, table_id: int, hand: int, line: dict[str, Any]) -> None:
        """Stores a chat line of a table, said during (or after) hand number ``hand``
        (forgotten with that hand, :meth:`forget_hands`)."""
        text = json.dumps(line, separators=(",", ":"))
        self.fencing.writes(self._db, table_id)
        self._db.execute(
            "INSERT INTO chat (table_id, hand, line) VALUES (?, ?, ?)", (table_id, hand, text)
        )

    def chat(self, table_id: int, *, last: int = 50) -> list[dict[str, Any]]:
        """The ``last`` chat lines of a table, oldest first."""
        return read_chat(self._db, table_id, last)

    # calls to a wallet outside the database

    def add_wallet_call(self, table_id: int, call: str) -> int:
        """Notes a call to a wallet outside the database (its JSON text,
        :mod:`doubleholdem.server.money.wallet_calls`) about table ``table_id``; returns its
        number, never given twice."""
        self.fencing.writes(self._db, table_id)
        insert = "INSERT INTO wallet_calls (table_id, call) VALUES (?, ?)"
        return inserted_id(self._db, insert, (table_id, call), key="number")

    def wallet_calls(self, table_id: int | None = None) -> list[WalletCallRow]:
        """:func:`wallet_calls` (about table ``table_id``, or any), as committed: read on
        the loop (a buy-in's check, the table's finisher) while a commit may be running
        its pipeline on the write connection (:meth:`committed`; the notes a commit in
        flight forgets are skipped by their reader:
        :meth:`~doubleholdem.server.money.paid_seats.PaidSeats.forgetting`)."""
        return wallet_calls(self.committed(), table_id)

    def wallet_call_failed(self, number: int, error: str) -> None:
        """The wallet failed the call of this number (once more): ``error`` says how."""
        self._fence_wallet_calls([number])
        wallet_rows.note_failure(self._db, number, error)

    def forget_wallet_calls(self, numbers: list[int]) -> None:
        """Forgets the wallet calls of these numbers (known done)."""
        self._fence_wallet_calls(numbers)
        wallet_rows.forget(self._db, numbers)

    def _fence_wallet_calls(self, numbers: list[int]) -> None:
        """The wallet calls of ``numbers`` are written: their tables' leases first."""
        for table_id in sorted(wallet_rows.tables_of(self._db, numbers)):
            self.fencing.writes(self._db, table_id)
