"""The lease rules: which process owns each table of a room, by the database's clock.

A process that serves a room has a row in ``processes`` (its id, random for each start;
the address its clients reach it at; when it started, its last heartbeat and when it
expires; whether it is stopping; the key of the session advisory lock it holds for its
life on PostgreSQL). Each table has a row in ``leases``: its owner (a process id, or
none) and its *epoch*, raised by one each time the table changes hands.

- A process is *live* while its row has not expired (its heartbeat renews it, every
  :data:`RENEW_SECONDS`, to :data:`LEASE_SECONDS` after the database's clock), it is not
  stopping, and, on PostgreSQL, its session still holds its advisory lock (a process
  killed with ``kill -9`` loses its session, and so its tables, at once).
- A lease is *takeable* when it has no owner or its owner is not live; a process
  acquires takeable leases (:func:`acquire`), each with its epoch raised by one, and
  releases its own at once when it stops cleanly (:func:`release`).
- A process that is dead for the others (its row expired or gone) may still hold its
  sessions open, frozen (``SIGSTOP``) or cut off, with rows of the leases locked in a
  transaction it never ends (a pipeline of statements stopped half-way is no idle
  transaction, which PostgreSQL ends by itself), or the ledger's lock: at each look for
  takeable tables a process ends the sessions of the processes dead for a while
  (:func:`end_dead_sessions`, each session named by its process: :func:`session_name`),
  and their locks go with them.
- Fencing (:func:`fence`): a transaction that writes a table's rows first reads the
  table's lease, locked against a change of hands until it ends (``FOR SHARE``), and
  writes only the tables whose lease still names the writer with the epoch it was
  granted; a process frozen while another took its table finds a raised epoch and
  writes nothing of it.

A part of the room that is no table, run by one process at a time, is leased the same
way, under a row of ``leases`` with a negative id (:data:`TOURNAMENTS`: the room's
tournaments, whose tables are not leased apart): :func:`acquire_part` takes it when it
is takeable, :func:`part_owner` says who holds it, and a table's acquisition never
takes it.

One heartbeat renews all of a process's leases (one row written a second, however many
tables), and no row a commit locks is written by a heartbeat, so the two never wait for
each other. Times are the database's (PostgreSQL's ``clock_timestamp()``; SQLite's
``julianday('now')``), never a machine's own, so machines' clocks may differ.

>>> from doubleholdem.database.url import sqlite
>>> db = sqlite(":memory:")
>>> for statement in SCHEMA:
...     _ = db.execute(statement)
>>> _ = db.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY)")
>>> _ = db.executemany("INSERT INTO tables VALUES (?)", [(0,), (1,), (2,)])
>>> register(db, "p1", "http://a:8000", lock=None)
>>> acquire(db, "p1", want=2)
{0: 1, 1: 1}
>>> register(db, "p2", "http://b:8000", lock=None)
>>> acquire(db, "p2", want=5)
{2: 1}
>>> owners(db)
{0: Owner(process='p1', address='http://a:8000'), 1: Owner(process='p1', \
address='http://a:8000'), 2: Owner(process='p2', address='http://b:8000')}
>>> release(db, "p1")
>>> acquire(db, "p2", want=5)
{0: 2, 1: 2}
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from doubleholdem.database.connection import SQLITE, Connection, begin, dialect
from doubleholdem.errors import DoubleHoldemError

__all__ = [
    "LEASE_SECONDS",
    "RENEW_SECONDS",
    "SCHEMA",
    "SESSIONS_END_SECONDS",
    "TOURNAMENTS",
    "LeaseLost",
    "Owner",
    "acquire",
    "acquire_part",
    "end_dead_sessions",
    "fence",
    "grant_new",
    "heartbeat",
    "held_by_others",
    "live_processes",
    "owners",
    "part_owner",
    "register",
    "registered",
    "release",
    "session_name",
    "stopping",
    "vacate",
]

LEASE_SECONDS = 3.0  # a process's leases expire this long after its last heartbeat
RENEW_SECONDS = 1.0  # between heartbeats (and looks for takeable tables)
# a dead process's sessions are ended this long after its row expired (not at once: a
# process still starting, before its first heartbeat, or slow for a moment keeps them)
SESSIONS_END_SECONDS = LEASE_SECONDS
_SESSION_PREFIX = "doubleholdem "  # a process's sessions' name: this and its id
_NAME_LENGTH = 63  # the characters of an application_name PostgreSQL keeps
TOURNAMENTS = -1  # the lease of the room's tournaments (a part of the room, no table)

# the tables, in SQLite's words (doubleholdem.database.ddl says them in PostgreSQL's)
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS processes (id TEXT PRIMARY KEY, address TEXT NOT NULL,"
    " started REAL NOT NULL, heartbeat REAL NOT NULL, expires REAL NOT NULL,"
    " stopping INTEGER NOT NULL DEFAULT 0, lock INTEGER)",
    "CREATE TABLE IF NOT EXISTS leases (table_id INTEGER PRIMARY KEY, owner TEXT,"
    " epoch INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS leases_by_owner ON leases (owner)",
)


class LeaseLost(DoubleHoldemError, RuntimeError):
    """This process no longer owns ``tables`` (another took them, their epoch raised,
    while it was frozen, cut off or slow): nothing of theirs was written.
    ``by_database``: found by the database's fencing triggers, which refused a write
    (:mod:`~doubleholdem.server.cluster.fencing`), not by this process's own check."""

    code = "moved"

    def __init__(self, tables: Iterable[int], *, by_database: bool = False) -> None:
        self.tables = tuple(sorted(tables))
        self.by_database = by_database
        listed = ", ".join(str(t) for t in self.tables)
        super().__init__(f"the lease of table {listed} was lost: another process serves it")


class Owner(NamedTuple):
    """The live process that serves a table: its id and the address clients reach it at."""

    process: str
    address: str


def _now(db: Connection) -> str:
    """The database's clock, in seconds since 1970, as SQL."""
    if dialect(db) == SQLITE:
        return "((julianday('now') - 2440587.5) * 86400.0)"
    return "EXTRACT(EPOCH FROM clock_timestamp())::float8"


def _live(db: Connection, alias: str = "p") -> str:
    """SQL true of a live process row ``alias`` (see the module)."""
    condition = f"{alias}.expires > {_now(db)} AND {alias}.stopping = 0"
    if dialect(db) == SQLITE:
        return condition
    return (
        f"{condition} AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'"
        " AND l.granted AND l.database = (SELECT oid FROM pg_database"
        " WHERE datname = current_database())"
        f" AND l.classid::text::bigint = ({alias}.lock >> 32) & 4294967295"
        f" AND l.objid::text::bigint = {alias}.lock & 4294967295 AND l.objsubid = 1)"
    )


@contextlib.contextmanager
def _transaction(db: Connection) -> Iterator[None]:
    """The caller's transaction on ``db``, or one of its own begun and ended here."""
    if db.in_transaction:
        yield
        return
    begin(db)
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def register(
    db: Connection, process: str, address: str, *, lock: int | None, seconds: float = LEASE_SECONDS
) -> None:
    """Adds the row of ``process`` (reachable at ``address``; ``lock`` the key of the
    session advisory lock it holds, PostgreSQL) live for ``seconds``; a process's rows
    dead for a minute go with it."""
    now = _now(db)
    with _transaction(db):
        db.execute(f"DELETE FROM processes WHERE expires < {now} - 60")
        db.execute(
            "INSERT INTO processes (id, address, started, heartbeat, expires, stopping, lock)"
            f" VALUES (?, ?, {now}, {now}, {now} + ?, 0, ?)",
            (process, address, seconds, lock),
        )


def heartbeat(db: Connection, process: str, seconds: float = LEASE_SECONDS) -> bool:
    """Renews every lease of ``process`` for ``seconds`` (its row's expiry, one row):
    False if its row is gone (a process that stopped)."""
    now = _now(db)
    changed = db.execute(
        f"UPDATE processes SET heartbeat = {now}, expires = {now} + ? WHERE id = ?",
        (seconds, process),
    ).rowcount
    return changed == 1


def stopping(db: Connection, process: str) -> None:
    """Notes that ``process`` stops: it counts as live no more (nobody spreads tables on
    it), while it finishes its last commit before it releases them."""
    db.execute("UPDATE processes SET stopping = 1 WHERE id = ?", (process,))


def live_processes(db: Connection) -> list[Owner]:
    """The live processes, by id."""
    rows = db.execute(f"SELECT p.id, p.address FROM processes p WHERE {_live(db)} ORDER BY p.id")
    return [Owner(str(i), str(a)) for i, a in rows]


def registered(db: Connection) -> list[Owner]:
    """Every process of the room with a row, live or not (stopping, or dead and not
    yet swept a minute later), by id: the addresses the room's clients may come
    from."""
    rows = db.execute("SELECT id, address FROM processes ORDER BY id")
    return [Owner(str(i), str(a)) for i, a in rows]


def session_name(process: str) -> str:
    """The ``application_name`` of the PostgreSQL sessions of ``process`` that may hold
    locks the others wait for (its storage's, its membership's, its desk's): what
    :func:`end_dead_sessions` finds them by (at most 63 characters, as PostgreSQL keeps
    them)."""
    return f"{_SESSION_PREFIX}{process}"[:_NAME_LENGTH]


def end_dead_sessions(db: Connection) -> int:
    """PostgreSQL: ends every session (:func:`session_name`) of a dead process (its row
    expired :data:`SESSIONS_END_SECONDS` ago or more, or gone while it still owns a
    lease; one stopping finishes its last commit within that time), so that no lock it
    left (a lease row, the ledger's) keeps the live ones waiting; the number of sessions
    ended (each ends as it is signalled: its locks are gone by the next look). A process
    that was only slow finds its sessions gone and opens new ones (its tables long
    taken, under raised epochs)."""
    if dialect(db) == SQLITE:
        return 0
    rows = db.execute(
        "SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a"
        " WHERE a.datname = current_database() AND a.pid != pg_backend_pid()"
        " AND a.application_name IN (SELECT left(? || dead.id, ?) FROM"
        f" (SELECT p.id FROM processes p WHERE p.expires <= {_now(db)} - ?"
        " UNION SELECT l.owner FROM leases l WHERE l.owner IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM processes p WHERE p.id = l.owner)) AS dead)",
        (_SESSION_PREFIX, _NAME_LENGTH, SESSIONS_END_SECONDS),
    ).fetchall()
    return len(rows)


def _add_missing(db: Connection) -> None:
    """A lease row, with no owner, for each table that has none yet."""
    db.execute(
        "INSERT INTO leases (table_id, owner, epoch) SELECT t.id, NULL, 0 FROM tables t"
        " WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.table_id = t.id)"
    )


def acquire(
    db: Connection, process: str, *, want: int, steal: bool = False, only: Iterable[int] = ()
) -> dict[int, int]:
    """Takes at most ``want`` takeable leases (the lowest table ids first; with ``only``,
    among those tables) for ``process``, each with its epoch raised by one, in one
    transaction: table -> epoch. ``steal``: every lease is takeable (a process that
    holds the whole room: SQLite's lock file, a repair). On PostgreSQL a lease that
    another transaction holds (a commit fencing it, a process acquiring it) is skipped."""
    with _transaction(db):
        _add_missing(db)
        return _acquire(db, process, want=want, steal=steal, only=tuple(only))


def _acquire(
    db: Connection, process: str, *, want: int, steal: bool, only: tuple[int, ...]
) -> dict[int, int]:
    if want <= 0:
        return {}
    takeable = (
        "l.owner IS NULL OR l.owner != ?" if steal else
        f"l.owner IS NULL OR NOT EXISTS (SELECT 1 FROM processes p WHERE p.id = l.owner"
        f" AND {_live(db)})"
    )  # fmt: skip
    parameters: list[object] = [process] if steal else []
    among = " AND l.table_id >= 0"  # a table's, never a part's (negative ids)
    if only:
        among = f" AND l.table_id IN ({', '.join('?' * len(only))})"
        parameters += only
    skip = "" if dialect(db) == SQLITE else " FOR UPDATE OF l SKIP LOCKED"
    chosen = db.execute(
        f"SELECT l.table_id FROM leases l WHERE ({takeable}){among}"
        f" ORDER BY l.table_id LIMIT ?{skip}",
        (*parameters, want),
    ).fetchall()
    ids = [int(table_id) for (table_id,) in chosen]
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    db.execute(
        f"UPDATE leases SET owner = ?, epoch = epoch + 1 WHERE table_id IN ({marks})",
        (process, *ids),
    )
    rows = db.execute(
        f"SELECT table_id, epoch FROM leases WHERE table_id IN ({marks})", ids
    ).fetchall()
    return {int(t): int(e) for t, e in sorted(rows)}


def grant_new(db: Connection, process: str, tables: Iterable[int]) -> dict[int, int]:
    """Inside the transaction that makes ``tables`` (new tables, or tables made anew by
    a repair): their leases, ``process``'s, each at the next epoch: table -> epoch."""
    ids = sorted(tables)
    db.executemany(
        "INSERT INTO leases (table_id, owner, epoch) VALUES (?, ?, 1) ON CONFLICT (table_id)"
        " DO UPDATE SET owner = excluded.owner, epoch = leases.epoch + 1",
        [(t, process) for t in ids],
    )
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    rows = db.execute(f"SELECT table_id, epoch FROM leases WHERE table_id IN ({marks})", ids)
    return {int(t): int(e) for t, e in rows}


def release(db: Connection, process: str, tables: Iterable[int] | None = None) -> None:
    """Gives up the leases of ``process`` (of ``tables`` only, else every one, and its
    row goes), in one transaction: another process takes them at its next look."""
    with _transaction(db):
        if tables is None:
            db.execute("UPDATE leases SET owner = NULL WHERE owner = ?", (process,))
            db.execute("DELETE FROM processes WHERE id = ?", (process,))
        else:
            db.executemany(
                "UPDATE leases SET owner = NULL WHERE table_id = ? AND owner = ?",
                [(t, process) for t in tables],
            )


def owners(db: Connection) -> dict[int, Owner | None]:
    """Each table that has a lease: the live process that serves it, or ``None`` while
    none does (between a process's end and another's taking it)."""
    rows = db.execute(
        "SELECT l.table_id, p.id, p.address FROM leases l LEFT JOIN processes p"
        f" ON p.id = l.owner AND {_live(db)} WHERE l.table_id >= 0 ORDER BY l.table_id"
    ).fetchall()
    return {int(t): None if p is None else Owner(str(p), str(a)) for t, p, a in rows}


def acquire_part(db: Connection, process: str, part: int, *, steal: bool = False) -> int | None:
    """Takes the lease of ``part`` (a negative id: :data:`TOURNAMENTS`) for ``process``
    if it is takeable (no owner, or one not live; ``steal``: any, as :func:`acquire`
    says), its epoch raised by one, in one transaction: the epoch, or ``None`` (a live
    process holds it)."""
    with _transaction(db):
        db.execute(
            "INSERT INTO leases (table_id, owner, epoch) VALUES (?, NULL, 0)"
            " ON CONFLICT (table_id) DO NOTHING",
            (part,),
        )
        return _acquire(db, process, want=1, steal=steal, only=(part,)).get(part)


def part_owner(db: Connection, part: int) -> tuple[Owner | None, str | None, int]:
    """Who holds the lease of ``part``: its live owner (``None`` while none is), the
    owner the row names (live or not) and the row's epoch (0: never taken)."""
    row = db.execute(
        "SELECT l.owner, l.epoch, p.id, p.address FROM leases l LEFT JOIN processes p"
        f" ON p.id = l.owner AND {_live(db)} WHERE l.table_id = ?",
        (part,),
    ).fetchone()
    if row is None:
        return None, None, 0
    named, epoch, live, address = row
    owner = None if live is None else Owner(str(live), str(address))
    return owner, None if named is None else str(named), int(epoch)


def vacate(db: Connection) -> None:
    """Every lease left with no owner, by a tool that holds the room alone (its lock
    taken exclusively: no process serves it, whatever the leases still name after a
    ``kill -9``), so that the database's fencing takes its writes, which declare no
    lease (:mod:`~doubleholdem.server.cluster.fencing`); the epochs stay."""
    db.execute("UPDATE leases SET owner = NULL WHERE owner IS NOT NULL")


def held_by_others(db: Connection, process: str) -> set[int]:
    """The tables whose leases processes other than ``process`` hold."""
    rows = db.execute("SELECT table_id FROM leases WHERE owner != ? AND table_id >= 0", (process,))
    return {int(table_id) for (table_id,) in rows}


def fence(db: Connection, process: str, epochs: Mapping[int, int]) -> set[int]:
    """Inside the writer's transaction: the tables of ``epochs`` (table -> the epoch
    ``process`` was granted) whose lease names another owner or epoch now, and so must
    not be written; the leases of the others are locked against a change of hands
    (PostgreSQL's ``FOR SHARE``) until the transaction ends."""
    if not epochs:
        return set()
    ids = sorted(epochs)
    if dialect(db) == SQLITE:
        marks = ", ".join("?" * len(ids))
        rows = db.execute(
            f"SELECT table_id, epoch FROM leases WHERE owner = ? AND table_id IN ({marks})",
            (process, *ids),
        ).fetchall()
    else:
        rows = _fence_declared(db, process, epochs, ids)
    held = {int(row[0]): int(row[1]) for row in rows}
    return {t for t in ids if held.get(t) != epochs[t]}


def _fence_declared(
    db: Connection, process: str, epochs: Mapping[int, int], ids: list[int]
) -> list[Any]:
    """PostgreSQL's :func:`fence`: the leases of ``ids`` that ``process`` holds, locked
    ``FOR SHARE``, and for each the epoch ``process`` writes it under declared to the
    database's fencing triggers in the same statement
    (:mod:`~doubleholdem.server.cluster.fencing`: ``doubleholdem.lease_T``, local to
    the transaction)."""
    pairs = ", ".join("(?::bigint, ?::bigint)" for _ in ids)
    return db.execute(
        "SELECT l.table_id, l.epoch, set_config('doubleholdem.lease_'"
        " || translate(w.t::text, '-', 'n'), w.e || ' ' || l.owner, true)"
        f" FROM (VALUES {pairs}) AS w (t, e) JOIN leases l ON l.table_id = w.t"
        " WHERE l.owner = ? FOR SHARE OF l",
        (*(v for t in ids for v in (t, epochs[t])), process),
    ).fetchall()
