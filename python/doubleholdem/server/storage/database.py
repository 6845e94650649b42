"""The server's database file: made new, or checked and upgraded in place when opened
(:func:`open_database`). Schema 9 holds the server's tables (its tables' snapshots, moves
and heads, finished hands with the index of who played them:
:mod:`doubleholdem.server.storage.hands`, seat tokens, client action ids, chat, the
tournaments with each of their tables apart and their own state in parts:
:mod:`doubleholdem.server.storage.tournament_rows`) beside the accounts' tables and
ledger (:mod:`doubleholdem.accounts.schema`), and on PostgreSQL the triggers that
refuse a write of a table's rows, or the tournaments', under a lease that moved
(:data:`~doubleholdem.server.cluster.fencing.FENCE_SCHEMA`). A database of the previous
schemas (2 to 8) is upgraded in place, in one transaction (from 4: the hand index built
from the stored hands; from 5: the tables of a tournament's tables; from 6, on
PostgreSQL: the fencing triggers, SQLite's schema 7 being its 6; from 7: the table of a
tournament's parts, each tournament's status and name noted in its row, its state
still read there and stored in parts by the room that loads it; from 8, on PostgreSQL:
the fencing triggers of the rest of a table's rows and of the tournaments', SQLite's
schema 9 being its 8); an empty or foreign
file, or another schema, is refused (:class:`~doubleholdem.errors.DamagedDatabase`).
While a server holds it, its write-ahead log is checkpointed in a thread of its own
(:func:`checkpoints`).

>>> db = open_database(":memory:", "normal", busy_seconds=5.0)
>>> db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
('9',)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading

from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.database.connection import (
    SQLITE,
    Connection,
    begin,
    dialect,
    has_table,
    serialise,
    trigger_names,
)
from doubleholdem.database.ddl import postgres
from doubleholdem.database.failure import database_error, database_errors
from doubleholdem.database.url import connect, is_postgres, shown
from doubleholdem.errors import DamagedDatabase, MissingTriggers, SchemaMismatch
from doubleholdem.server.cluster.fencing import FENCE_SCHEMA, FENCE_TRIGGERS
from doubleholdem.server.cluster.leases import SCHEMA as LEASES_SCHEMA
from doubleholdem.server.storage.hands import SCHEMA as HANDS_SCHEMA
from doubleholdem.server.storage.hands import add_occupancies, build_index
from doubleholdem.server.storage.lobby_rows import SUMMARY_TABLE
from doubleholdem.server.storage.tournament_actions import SCHEMA as TOURNAMENT_ACTIONS

__all__ = [
    "CHECKPOINT_SECONDS",
    "MONEY_KINDS",
    "POSTGRES_UPGRADES_FROM",
    "SCHEMA_VERSION",
    "TABLE_ROWS",
    "UPGRADES_FROM",
    "WAL_LIMIT",
    "begin_within",
    "checkpoints",
    "make_fencing",
    "money_kind",
    "open_database",
    "open_postgres",
    "pending_upgrade",
    "put_meta",
    "room_schema",
]

# 4: the accounts' tables (doubleholdem.accounts) in the same file; 5: the hand index;
# 6: a tournament's tables stored apart (doubleholdem.server.storage.tournament_rows);
# 7: on PostgreSQL, writes fenced by the database (doubleholdem.server.cluster.fencing);
# 8: a tournament's own state in parts, its status and name in its row;
# 9: on PostgreSQL, the seat tokens, action ids, chat, lobby rows, wallet calls and the
# tournaments' rows and money fenced by the database too
SCHEMA_VERSION = 9
UPGRADES_FROM = (2, 3, 4, 5, 6, 7, 8)  # the schemas upgraded in place (PostgreSQL's: 5 to 8)
POSTGRES_UPGRADES_FROM = (5, 6, 7, 8)
CHECKPOINT_SECONDS = 1.0  # how often the log is checkpointed
WAL_LIMIT = 16 * 2**20  # the log's size past which a checkpoint resets it
# whose chips the tables hold (``meta`` key ``money``): play chips of a guest room, the
# built-in ledger's, or an embedding server's own wallet's (outside the database)
MONEY_KINDS = ("guests", "ledger", "wallet")
# the ``meta`` key of a database that tells ``wallet`` apart (before, such a room was
# noted ``ledger`` too: :func:`money_kind` tells it by what it left)
_WALLET_TOLD = "money_wallet_told"
_log = logging.getLogger("doubleholdem.server")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    snapshot TEXT NOT NULL,
    bots TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS heads (
    table_id INTEGER PRIMARY KEY,
    moves INTEGER NOT NULL
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
# schema 6: each table of a tournament apart, its snapshot, its head (the checksum of its
# snapshot and its number of moves) and its moves (doubleholdem.server.storage.tournament_rows)
_TOURNAMENT_TABLES = (
    "CREATE TABLE IF NOT EXISTS tournament_tables (tournament_id INTEGER NOT NULL,"
    " number INTEGER NOT NULL, snapshot TEXT NOT NULL, PRIMARY KEY (tournament_id, number))",
    "CREATE TABLE IF NOT EXISTS tournament_heads (tournament_id INTEGER NOT NULL,"
    " number INTEGER NOT NULL, anchor TEXT NOT NULL, moves INTEGER NOT NULL,"
    " PRIMARY KEY (tournament_id, number))",
    "CREATE TABLE IF NOT EXISTS tournament_moves (tournament_id INTEGER NOT NULL,"
    " table_number INTEGER NOT NULL, number INTEGER NOT NULL, move TEXT NOT NULL,"
    " sha256 TEXT NOT NULL, PRIMARY KEY (tournament_id, table_number, number))",
)
# schema 8: a tournament's own state in parts, each with its tag, and the tournaments'
# status, spec name and (once over) lobby summary beside their ids
# (doubleholdem.server.storage.tournament_rows)
_TOURNAMENT_PARTS = (
    "CREATE TABLE IF NOT EXISTS tournament_parts (tournament_id INTEGER NOT NULL,"
    " name TEXT NOT NULL, part TEXT NOT NULL, tag TEXT NOT NULL,"
    " PRIMARY KEY (tournament_id, name))",
)
_TOURNAMENT_COLUMNS = (
    ("status", "ALTER TABLE tournaments ADD COLUMN status TEXT NOT NULL DEFAULT ''"),
    ("name", "ALTER TABLE tournaments ADD COLUMN name TEXT NOT NULL DEFAULT ''"),
    ("summary", "ALTER TABLE tournaments ADD COLUMN summary TEXT"),
)
# added without a new schema version (a database without them gets them when opened),
# so that an older server still reads the database: the tables' chat, and the calls to
# a wallet outside the database not yet known done (doubleholdem.server.money.wallet_calls;
# AUTOINCREMENT: a call's number is never given twice, it is part of a debit's key)
# with the wallet's failures of each
_ADDED = (
    "CREATE TABLE IF NOT EXISTS chat (number INTEGER PRIMARY KEY, table_id INTEGER NOT NULL,"
    " hand INTEGER NOT NULL, line TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS chat_by_table ON chat (table_id, number)",
    "CREATE TABLE IF NOT EXISTS wallet_calls (number INTEGER PRIMARY KEY AUTOINCREMENT,"
    " table_id INTEGER NOT NULL, call TEXT NOT NULL)",
    # how often the wallet failed each call still noted, and how it failed last
    "CREATE TABLE IF NOT EXISTS wallet_failures (number INTEGER PRIMARY KEY,"
    " attempts INTEGER NOT NULL, error TEXT NOT NULL)",
    # the room's tournaments (doubleholdem.server.storage.tournament_rows): each one's
    # state of schema 7 or before (else ''), status, spec name and summary once over
    "CREATE TABLE IF NOT EXISTS tournaments (id INTEGER PRIMARY KEY, state TEXT NOT NULL,"
    " status TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '', summary TEXT)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, id)",
    # the processes serving the room and the lease of each table (one owner at a time:
    # doubleholdem.server.cluster.leases)
    *LEASES_SCHEMA,
    # each table's lobby summary, for the room's other processes (lobby_rows)
    SUMMARY_TABLE,
    # the action ids of tournament decisions (tournament_actions)
    *TOURNAMENT_ACTIONS,
)

# the rows of one table, by table and column (what dropping a table forgets)
TABLE_ROWS = (
    ("tables", "id"),
    ("heads", "table_id"),
    ("moves", "table_id"),
    ("hands", "table_id"),
    ("hand_index", "table_id"),
    ("hand_players", "table_id"),
    ("tokens", "table_id"),
    ("actions", "table_id"),
    ("chat", "table_id"),
    ("lobby", "table_id"),
)


# the tables of doubleholdem.accounts, which share the file and are none of ours
_NEIGHBOURS = ("account", "ledger_", "sqlite_")


def open_database(
    path: str, synchronous: str, *, busy_seconds: float, restore_triggers: bool = False
) -> Connection:
    """The database at ``path`` (a SQLite file, or a PostgreSQL URL:
    :func:`open_postgres`), created if missing, upgraded from the previous schema (a
    writer waits ``busy_seconds`` for the write lock); :class:`DamagedDatabase` if it
    is empty, not SQLite, not a doubleholdem database or of another schema, and
    :class:`MissingTriggers` naming them if its ledger lost append-only triggers, unless
    ``restore_triggers`` (then they are made anew)."""
    if is_postgres(path):
        return open_postgres(path, restore_triggers=restore_triggers)
    if path != ":memory:" and os.path.isfile(path) and _empty(path):
        raise DamagedDatabase(f"{path}: the file is empty, not a doubleholdem database")
    db = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        names = {n for n in names if not n.startswith(_NEIGHBOURS)}
        version = _meta_text(db, "schema") if "meta" in names else None
        if not names:
            db.executescript(_SCHEMA)
            for statement in (*HANDS_SCHEMA, *_TOURNAMENT_TABLES, *_TOURNAMENT_PARTS):
                db.execute(statement)
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.execute("INSERT INTO meta VALUES ('tables', '0')")
            db.execute("INSERT INTO meta VALUES (?, '1')", (_WALLET_TOLD,))
            ensure_schema(db)
        elif version is None:
            found = ", ".join(sorted(names))
            raise DamagedDatabase(
                f"{path}: not a doubleholdem database (tables {found}, no schema version)"
            )
        elif version in {str(v) for v in UPGRADES_FROM}:
            _upgrade(db, int(version), restore_triggers=restore_triggers)
        elif version != str(SCHEMA_VERSION):
            older = ", ".join(str(v) for v in UPGRADES_FROM)
            raise DamagedDatabase(
                f"{path}: written with schema version {version}; this version of doubleholdem "
                f"reads version {SCHEMA_VERSION} and upgrades versions {older}"
            )
        else:
            # refuses another accounts schema, naming both versions, or lost triggers
            ensure_schema(db, restore_triggers=restore_triggers)
            add_occupancies(db)
        for statement in _ADDED:
            db.execute(statement)
        _tell_wallet_rooms(db)
    except sqlite3.DatabaseError as error:
        db.close()
        raise DamagedDatabase(f"{path}: not a doubleholdem database ({error})") from None
    except MissingTriggers as error:
        db.close()
        raise MissingTriggers(f"{path}: {error}", missing=error.missing) from None
    except (SchemaMismatch, ValueError) as error:
        db.close()
        raise DamagedDatabase(f"{path}: {error}") from None
    except BaseException:
        db.close()
        raise
    return db


def open_postgres(url: str, *, restore_triggers: bool = False) -> Connection:
    """The room in the PostgreSQL database at ``url`` (in the first schema of its
    search path), its tables made in one transaction where it has none (beside the
    accounts' if it has those), else checked: schema :data:`SCHEMA_VERSION`, or 5 to 8
    upgraded in place (from 5 the tables of schema 6 made; from 5 or 6 the fencing
    triggers of schema 7; from 5 to 7 the tournaments' parts of schema 8; from any the
    fencing triggers of schema 9; an older room is upgraded by ``serve`` on SQLite
    before ``db copy``), and its ledger's triggers as
    :func:`open_database` says. A fencing trigger someone dropped is made anew
    (logged)."""
    db = connect(url, mode="rw")
    try:
        begin(db)
        serialise(db, "schema")  # another server opening it waits, then finds the room
        version = _check_postgres(url, db)
        if version == 5:
            for statement in _TOURNAMENT_TABLES:
                db.execute(postgres(statement))
        if version is not None and version < 8:
            _upgrade_to_8(db)
        ensure_schema(db, restore_triggers=restore_triggers)
        if version is None:
            for statement in room_schema():
                db.execute(postgres(statement))
            for key, value in (("schema", str(SCHEMA_VERSION)), ("tables", "0")):
                db.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
            db.execute("INSERT INTO meta VALUES (?, '1')", (_WALLET_TOLD,))
        for statement in _ADDED:
            db.execute(postgres(statement))
        make_fencing(db, upgrade=version in POSTGRES_UPGRADES_FROM)
        if version in POSTGRES_UPGRADES_FROM:
            put_meta(db, "schema", str(SCHEMA_VERSION))
        db.execute("COMMIT")
        _tell_wallet_rooms(db)
    except MissingTriggers as error:
        db.close()
        raise MissingTriggers(f"{shown(url)}: {error}", missing=error.missing) from None
    except SchemaMismatch as error:
        db.close()
        raise DamagedDatabase(f"{shown(url)}: {error}") from None
    except database_errors() as error:
        db.close()
        raise database_error(url, error) from None
    except BaseException:
        db.close()
        raise
    return db


def _check_postgres(url: str, db: Connection) -> int | None:
    """Refuses a PostgreSQL schema that holds tables but no room of this schema or of
    schema 5 to 8 (upgraded in place); the room's schema, or ``None`` where there is
    none."""
    if has_table(db, "meta"):
        version = _meta_text(db, "schema")
        readable = (SCHEMA_VERSION, *POSTGRES_UPGRADES_FROM)
        if version not in {str(v) for v in readable}:
            *first, last = (str(v) for v in POSTGRES_UPGRADES_FROM)
            older = f"{', '.join(first)} or {last}"
            raise DamagedDatabase(
                f"{shown(url)}: written with schema version {version}; a room in PostgreSQL "
                f"is of version {SCHEMA_VERSION}, {older} (`doubleholdem serve` upgrades an "
                "older SQLite room, then `doubleholdem db copy` moves it)"
            )
        return int(version)
    names = {
        str(name)
        for (name,) in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    foreign = sorted(n for n in names if not n.startswith(_NEIGHBOURS))
    if foreign:
        raise DamagedDatabase(
            f"{shown(url)}: not a doubleholdem database (tables {', '.join(foreign)}, "
            "no schema version)"
        )
    return None


def make_fencing(db: Connection, *, upgrade: bool = False) -> None:
    """Makes the fencing triggers of a room in PostgreSQL (in the caller's transaction):
    those it lacks (all of them when a room is made, copied or ``upgrade``d from an older
    schema; one someone dropped is made anew, and logged)."""
    missing = set(FENCE_TRIGGERS) - trigger_names(db)
    if not missing:
        return
    if not upgrade and len(missing) < len(FENCE_TRIGGERS):
        _log.warning("the room's fencing triggers %s were missing: made anew", sorted(missing))
    for statement in FENCE_SCHEMA:
        db.execute(statement)


def room_schema() -> tuple[str, ...]:
    """The room's own tables and indexes (beside the accounts'), each statement in
    SQLite's words, as :func:`open_database` makes them; a room in PostgreSQL says them
    in its own (:func:`doubleholdem.database.ddl.postgres`)."""
    own = (statement.strip() for statement in _SCHEMA.split(";"))
    own_statements = (statement for statement in own if statement)
    return (*own_statements, *HANDS_SCHEMA, *_TOURNAMENT_TABLES, *_TOURNAMENT_PARTS, *_ADDED)


def pending_upgrade(path: str) -> tuple[int, int] | None:
    """(schema, stored hands) of the database at ``path`` when opening it will upgrade it
    in place (:func:`open_database`), else ``None`` (as when it is missing, new or not a
    doubleholdem database: opening it says so). Reads only."""
    if path == ":memory:" or not os.path.isfile(path) or _empty(path):
        return None
    try:
        db = sqlite3.connect(path, timeout=1.0)
        try:
            version = _meta_text(db, "schema")
            if version is None or int(version) not in UPGRADES_FROM:
                return None
            (hands,) = db.execute("SELECT COUNT(*) FROM hands").fetchone()
        finally:
            db.close()
    except (sqlite3.Error, ValueError):
        return None
    return int(version), int(hands)


def _empty(path: str) -> bool:
    """Whether the file at ``path`` holds nothing, its write-ahead log included."""
    try:
        wal = os.path.getsize(path + "-wal")
    except OSError:
        wal = 0
    return os.path.getsize(path) == 0 and wal == 0


def put_meta(db: Connection, key: str, value: str) -> None:
    """Writes ``value`` under ``key`` in ``meta`` (in the caller's transaction)."""
    db.execute(
        "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def begin_within(db: Connection, wait: float, *, busy_seconds: float) -> bool:
    """Begins a writer's transaction on ``db`` if it can within ``wait`` seconds: True;
    False while another connection holds SQLite's write lock (then ``db`` waits
    ``busy_seconds`` again). PostgreSQL's writers take no lock to begin: True."""
    if not isinstance(db, sqlite3.Connection):
        begin(db)
        return True
    db.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
    try:
        begin(db)
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            return False
        raise
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
    return True


def _meta_text(db: Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def money_kind(db: Connection) -> str | None:
    """Whose chips the tables of the database ``db`` (any connection to it) hold: one of
    :data:`MONEY_KINDS`, or ``None`` before a room first said. A database written before
    ``wallet`` was told apart noted such a room ``ledger``: it is told by its name among
    rooms sharing a wallet (``meta`` key ``room``, made for such a wallet only) with no
    chips at the ledger's tables (an account room's chips at its tables are there)."""
    stored = _meta_text(db, "money")
    if stored != "ledger" or _meta_text(db, _WALLET_TOLD) is not None:
        return stored
    named = _meta_text(db, "room") is not None
    (held,) = db.execute(
        "SELECT COUNT(*) FROM ledger_accounts WHERE kind = 'table' AND balance != 0"
    ).fetchone()
    return "wallet" if named and not held else "ledger"


def _tell_wallet_rooms(db: Connection) -> None:
    """Notes ``wallet`` where a database written before it was told apart holds such a
    room (:func:`money_kind`), once, in one transaction (rooms may open it at once)."""
    if _meta_text(db, _WALLET_TOLD) is not None:
        return
    begin(db)
    try:
        if _meta_text(db, _WALLET_TOLD) is None:
            kind = money_kind(db)
            if kind is not None:
                put_meta(db, "money", kind)
            db.execute("INSERT INTO meta VALUES (?, '1')", (_WALLET_TOLD,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _upgrade(db: sqlite3.Connection, version: int, *, restore_triggers: bool) -> None:
    """Schema 2 to 8 to 9, in one transaction (SQLite's 7 is its 6 and its 9 its 8: the
    fencing of schemas 7 and 9 is PostgreSQL's alone). From 2: each table's head is its moves
    as stored, and the tables created are those stored (schema 2 could not tell more).
    From 3 (and 2): the accounts' tables; each stored table is noted as *to open*
    (``meta`` key ``opening:ID``): its chips came from nowhere, and the room enters them
    in the ledger when it first loads it
    (:meth:`~doubleholdem.server.storage.storage.Storage.openings`). From every one: the hand
    index, built from the stored hands (:func:`~doubleholdem.server.storage.hands.build_index`;
    a stored log that is not a hand's refuses the upgrade, naming it). From every one:
    the tables of a tournament's tables and parts (each tournament stored in one row, of
    schema 5 to 7, is read as it is and stored apart by the room that loads it: its
    snapshot may be keyed, and the key is the room's; its status and name are noted
    beside it: :func:`_upgrade_to_8`)."""
    begin(db)
    try:
        if version < 4:
            _upgrade_to_4(db, version)
        else:  # refuses another accounts schema, naming both versions, or lost triggers
            ensure_schema(db, restore_triggers=restore_triggers)
        if version < 5:
            (stored,) = db.execute("SELECT COUNT(*) FROM hands").fetchone()
            _log.info("building the hand index of %d stored hands (schema 5)", stored)
            build_index(db)
        else:
            add_occupancies(db)
        for statement in _TOURNAMENT_TABLES:
            db.execute(statement)
        if version < 8:
            _upgrade_to_8(db)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _upgrade_to_8(db: Connection) -> None:
    """Schema 7 (or before) to 8, in the caller's transaction: the table of a tournament's parts,
    and each stored tournament's status and spec name noted beside its id, read from
    its state (which stays where it is: the room stores it in parts when it loads it;
    a state that cannot be read is noted with no status, loaded and refused as
    before)."""
    for statement in _TOURNAMENT_PARTS:
        db.execute(statement if dialect(db) == SQLITE else postgres(statement))
    if not has_table(db, "tournaments"):
        return  # made with the columns by _ADDED
    if dialect(db) == SQLITE:
        query = "SELECT name FROM pragma_table_info('tournaments')"
    else:
        query = (
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = 'tournaments'"
        )
    columns = {str(name) for (name,) in db.execute(query)}
    for column, statement in _TOURNAMENT_COLUMNS:
        if column not in columns:
            db.execute(statement)
    for tournament_id, status, name in _noted(db):
        db.execute("UPDATE tournaments SET status = ?, name = ? WHERE id = ?",
                   (status, name, tournament_id))  # fmt: skip


def _noted(db: Connection) -> list[tuple[int, str, str]]:
    """The id, status and spec name of each tournament whose row holds its state
    (stored by schema 7 or before), as its state says (``""`` for one that cannot be
    read: it is loaded, and refused, as before)."""
    found = []
    for tournament_id, text in db.execute("SELECT id, state FROM tournaments WHERE state != ''"):
        try:
            data = json.loads(text)
            status, name = str(data["status"]), str(data["spec"]["name"])
        except (ValueError, KeyError, TypeError):
            status = name = ""
        found.append((int(tournament_id), status, name))
    return found


def _upgrade_to_4(db: sqlite3.Connection, version: int) -> None:
    """Schema 2 or 3 to 4 (:func:`_upgrade`), in its transaction."""
    for statement in _SCHEMA.split(";"):  # executescript would commit first
        if statement.strip():
            db.execute(statement)
    if version == 2:
        db.execute(
            "INSERT INTO heads SELECT id, (SELECT COUNT(*) FROM moves WHERE table_id = id) "
            "FROM tables"
        )
        (created,) = db.execute("SELECT COALESCE(MAX(id) + 1, 0) FROM tables").fetchone()
        put_meta(db, "tables", str(created))
    ensure_schema(db)
    db.execute("INSERT INTO meta SELECT 'opening:' || id, '' FROM tables")


def checkpoints(path: str, stop: threading.Event) -> None:
    """Checkpoints the write-ahead log of the database at ``path`` every
    ``CHECKPOINT_SECONDS`` until ``stop`` is set (the body of a thread of its own: a
    checkpoint flushes the disk, which commits on the event loop then never wait for).
    PASSIVE never waits for the server; it cannot reset a log that is written to all
    the time, so past ``WAL_LIMIT`` bytes a TRUNCATE does, right after the PASSIVE one
    has copied nearly everything: it holds the write lock only for what the server wrote
    in between (the server's commits meanwhile wait without blocking its event loop:
    :meth:`Storage.reserve <doubleholdem.server.storage.storage.Storage.reserve>`)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        while not stop.wait(CHECKPOINT_SECONDS):
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            try:
                size = os.path.getsize(path + "-wal")
            except OSError:
                size = 0
            if size > WAL_LIMIT:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
