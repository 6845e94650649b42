"""A process frozen (SIGSTOP) inside a transaction of its membership (a lease acquired
or released: its rows locked until it commits) holds no lease from the others while it
sleeps: the membership's session ends a lease's length after the transaction went idle
(``idle_in_transaction_session_timeout``), its rows' locks and its advisory lock (its
liveness) with it, and another process takes its tables. Before, the others skipped the
locked rows (``SKIP LOCKED``) until the frozen process woke: its tables were served by
nobody (seen in the failover tests: "tables [0, 2] not served" after a minute). Woken,
the process opens a new session and is live again."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.database.connection import Connection, begin
from doubleholdem.database.failure import database_errors
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.member import Membership
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import DOUBLE_THREE

LEASE = 0.5  # seconds: the lease's length, so the frozen session's end, in this test


def _room_of_p1(url: str, *, tables: int) -> Room:
    """A room of ``tables`` tables served by process p1 (its leases ``LEASE`` long)."""
    settings = RoomSettings(
        tables=tables, bots=0, configs=[DOUBLE_THREE], guests=True, process="p1",
        address="http://127.0.0.1:8001",
    )  # fmt: skip
    return Room.open(url, settings, lease_seconds=LEASE)


def test_a_process_frozen_in_a_membership_transaction_loses_its_tables(
    postgres_url: str,
) -> None:
    room = _room_of_p1(postgres_url, tables=2)
    frozen = room.tables.membership
    assert frozen is not None and sorted(frozen.held) == [0, 1]
    other = Membership(postgres_url, "http://127.0.0.1:8002", exclusive=False, lease_seconds=30.0)
    try:
        # frozen as it releases its leases: their rows locked, never committed
        frozen._db.execute("BEGIN")
        frozen._db.execute("UPDATE leases SET owner = owner WHERE owner = ?", (frozen.id,))
        taken: dict[int, int] = {}
        deadline = time.monotonic() + 60.0
        while len(taken) < 2:  # each look a transaction of its own: the event
            assert time.monotonic() < deadline, f"the frozen process's tables not taken: {taken}"
            taken.update(leases.acquire(other._db, other.id, want=2))
            time.sleep(0.05)
        assert sorted(taken) == [0, 1]
        # woken: its next statement finds the session gone; a new one opens, live again
        with pytest.raises(database_errors()):
            frozen._db.execute("COMMIT")
        frozen._reopen_if_lost()
        assert leases.heartbeat(frozen._db, frozen.id, 30.0)
        live = {p.process for p in leases.live_processes(other._db)}
        assert live == {frozen.id, other.id}
    finally:
        other.close()
        with contextlib.suppress(*database_errors()):
            room.store.close()


def test_a_dead_process_session_left_holding_a_lease_row_is_ended_by_the_taker(
    postgres_url: str,
) -> None:
    """A process frozen half-way through a pipeline of statements (psycopg's
    ``executemany``) leaves its session active, not idle in a transaction: PostgreSQL
    never ends it, and the lease row it fenced stayed locked while it slept (the
    failover test's "tables [0, 1] not served" within a minute). The process taking
    the tables of a dead owner (its row expired) ends that owner's sessions first."""
    room = _room_of_p1(postgres_url, tables=2)
    dead, db = room.tables.membership, room.store.db
    assert dead is not None and sorted(dead.held) == [0, 1]
    # its storage's session stopped in a commit: never ended by the server by itself
    db.execute("SELECT set_config('idle_in_transaction_session_timeout', '0', false)").close()
    db.execute("BEGIN")
    assert leases.fence(db, dead.id, dead.held) == set()  # both lease rows locked
    other = Membership(postgres_url, "http://127.0.0.1:8002", exclusive=False, lease_seconds=30.0)
    try:
        taken: dict[int, int] = {}
        deadline = time.monotonic() + 30.0
        while len(taken) < 2:  # each look a transaction of its own: the event
            assert time.monotonic() < deadline, f"the dead process's tables not taken: {taken}"
            taken.update(other._acquire(want=2, steal=False))
            time.sleep(0.05)
        assert sorted(taken) == [0, 1]
        with pytest.raises(database_errors()):  # its session ended
            db.execute("COMMIT")
    finally:
        other.close()
        with contextlib.suppress(*database_errors()):
            db.execute("ROLLBACK")  # (where its session was not ended: the test failed)
        with contextlib.suppress(*database_errors()):
            room.store.close()


def test_a_dead_process_desk_session_left_holding_the_ledger_lock_is_ended(
    postgres_url: str,
) -> None:
    """The desk's sessions (sign-ups, the cashier: off the event loop) are named by
    their process too: one frozen inside a money movement held the ledger's lock, and
    every other process's money waited for it for good; the process taking the dead
    one's tables ends them, and the lock is free."""
    room = _room_of_p1(postgres_url, tables=1)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    other = Membership(postgres_url, "http://127.0.0.1:8002", exclusive=False, lease_seconds=30.0)
    moving = desk._db()  # the desk's session, stopped inside a money movement
    probe = connect(postgres_url)
    try:
        begin(moving)
        ledger.lock(moving)
        begin(probe)
        taken: dict[int, int] = {}
        deadline = time.monotonic() + 30.0
        while not probe.execute(  # the ledger's lock, as ledger.lock takes it
            "SELECT pg_try_advisory_xact_lock(hashtext('doubleholdem:ledger'),"
            " hashtext(COALESCE(current_schema(), '')))"
        ).fetchone()[0]:
            assert time.monotonic() < deadline, "the ledger's lock is still held"
            taken.update(other._acquire(want=1 - len(taken), steal=False))  # a look
            time.sleep(0.05)
        probe.execute("ROLLBACK")
        assert list(taken) == [0]  # (taken at once: its lease row was not locked)
        with pytest.raises(database_errors()):  # its session ended
            moving.execute("COMMIT")
    finally:
        probe.close()
        other.close()
        with contextlib.suppress(*database_errors()):
            moving.execute("ROLLBACK")
        desk.close()
        with contextlib.suppress(*database_errors()):
            room.store.close()


def _ended(db: Connection, pid: int) -> None:
    """Until the backend ``pid`` is gone (its session ended by a look's signal)."""
    deadline = time.monotonic() + 30.0
    while db.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ?", (pid,)).fetchone():
        assert time.monotonic() < deadline, f"session {pid} was not ended"
        time.sleep(0.01)


def test_a_process_woken_long_after_its_row_expired_is_live_again(postgres_url: str) -> None:
    """A process frozen (or cut off) for longer than its lease and
    ``SESSIONS_END_SECONDS`` finds its sessions ended by the others as it wakes; the
    new session it opens is live at once (its row renewed), so the others' next look
    leaves it alone. Before, its row was renewed only at its next tick, a second later,
    and every look of the others in between ended the new session too: it never came
    back (benches/failover.py's SIGSTOP cycles, a process of three lost for good)."""
    room = _room_of_p1(postgres_url, tables=1)
    woken = room.tables.membership
    assert woken is not None
    other = Membership(postgres_url, "http://127.0.0.1:8002", exclusive=False, lease_seconds=30.0)
    try:
        (pid,) = woken._db.execute("SELECT pg_backend_pid()").fetchone()
        # frozen: its row expired long ago; the others' look ends its sessions
        other._db.execute("UPDATE processes SET expires = expires - 100 WHERE id = ?", (woken.id,))
        assert leases.end_dead_sessions(other._db) >= 1  # an other's look
        _ended(other._db, pid)
        # woken: its tick's first statement finds the session gone; the thread recovers
        with pytest.raises(database_errors()):
            woken._tick(_nothing, _read, _nothing, _nothing, _nothing)
        woken._recover()
        assert leases.end_dead_sessions(other._db) == 0  # the others' next look: no end
        woken._tick(_nothing, _read, _nothing, _nothing, _nothing)  # it goes on
        assert woken.id in {p.process for p in leases.live_processes(other._db)}
    finally:
        other.close()
        with contextlib.suppress(*database_errors()):
            room.store.close()


def _nothing(*args: object) -> None:
    """A callback of the membership's thread that the test does not need."""


def _now(callback: Callable[..., None], *args: object) -> None:
    """How the membership's thread tells the loop: here at once."""
    callback(*args)


def _read(db: Connection, epochs: dict[int, int]) -> None:
    """What the membership reads of the tables it takes (none here)."""


def test_tables_let_go_are_shed_once_while_their_last_commit_is_pending(
    postgres_url: str,
) -> None:
    """A process holding more than its share lets that many tables go and hands them
    over once their last changes are committed; a tick in between (a slow commit)
    does not count them as still its own and shed as many more (the tables changed
    hands again and again as processes started)."""
    room = _room_of_p1(postgres_url, tables=4)
    member = room.tables.membership
    assert member is not None and sorted(member.held) == [0, 1, 2, 3]
    other = Membership(postgres_url, "http://127.0.0.1:8002", exclusive=False, lease_seconds=30.0)
    told: list[int] = []
    try:
        member._tick(_now, _read, _nothing, _nothing, told.append)
        assert told == [2]  # two live processes: a share of two
        member.letting_go({0, 1})  # the loop let them go; their commit is pending
        member._tick(_now, _read, _nothing, _nothing, told.append)
        assert told == [2]  # not told again
        member.hand_over({0, 1})  # committed: released at the next tick
        member._tick(_now, _read, _nothing, _nothing, told.append)
        assert told == [2] and sorted(leases.acquire(other._db, other.id, want=4)) == [0, 1]
    finally:
        other.close()
        with contextlib.suppress(*database_errors()):
            room.store.close()
