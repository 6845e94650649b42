"""A room whose write session PostgreSQL ended goes on, on a new one (issue 33). A
process frozen (``SIGSTOP``) or stalled on a loaded machine with a transaction open
longer than its lease has its session ended by the server (the room sets
``idle_in_transaction_session_timeout`` to the lease's length, so that its leases'
locks go with it), as does an operator's ``pg_terminate_backend`` or a restarted
server. Before, every later statement failed on the lost connection: the failed
commit's undo could not read the tables back, the room refused writes for good while
its membership, on a connection of its own, kept renewing its leases, and its tables,
some taken over from a dead process, dealt no hand again (the failover runs' "a table
taken over dealt no new hand within 120 s"). Now the storage opens a new session once
the transaction is rolled back, with the room's session settings, and the tables play
on from what was committed. The sessions of work off the event loop (the desk's, the
storage's readers') likewise open anew."""

from __future__ import annotations

import asyncio
import contextlib
import time
from functools import partial

import pytest

from doubleholdem.database.failure import database_errors
from doubleholdem.database.url import connect
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.thread_connections import ThreadConnections
from doubleholdem.server.tables.room import Room
from server_harness import DOUBLE_THREE

HANDS = 3  # played after the session ended: the room goes on


def _terminate(url: str, pid: int) -> None:
    """Ends the session of backend ``pid`` as an operator (or the server) would."""
    with contextlib.closing(connect(url)) as db:
        db.execute("SELECT pg_terminate_backend(?)", (pid,)).close()


def _end_session(room: Room, url: str, in_transaction: bool, ended: asyncio.Event) -> None:
    """Called between two commits (the session is the loop's until it returns): ends
    the room's write session, with the next commit's transaction open
    (``in_transaction``, as a stalled process's) or not."""
    if in_transaction and not room.store.reserve():
        return  # (the event never set: the test fails, bounded)
    (pid,) = room.store.db.execute("SELECT pg_backend_pid()").fetchone()
    _terminate(url, pid)
    ended.set()


async def _played(room: Room, after: int) -> None:
    """Until table 0 dealt ``HANDS`` hands past hand ``after`` with the database taking
    writes (each hand a commit: the event), a minute at most."""
    runner = room.runners[0]
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        if runner.table.hand_number >= after + HANDS and room.commit.refusing is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(
        f"table 0 at hand {runner.table.hand_number} (from {after}), the database "
        f"refusing writes: {room.commit.refusing}"
    )


@pytest.mark.parametrize("in_transaction", [True, False])
def test_a_room_whose_write_session_ended_plays_on(postgres_url: str, in_transaction: bool) -> None:
    settings = RoomSettings(
        tables=1, bots=2, bot_delay=0.0, pause=0.0, configs=[DOUBLE_THREE], guests=True, seed=3
    )
    room = Room.open(postgres_url, settings, lease_seconds=30.0)
    (idle,) = room.store.db.execute("SHOW idle_in_transaction_session_timeout").fetchone()

    async def main() -> None:
        await room.tables.start()
        try:
            await _played(room, 0)
            ended = asyncio.Event()
            room.commit.after(partial(_end_session, room, postgres_url, in_transaction, ended))
            # (the table plays on: the commit is seldom idle for long)
            await asyncio.wait_for(ended.wait(), 60.0)
            await _played(room, room.runners[0].table.hand_number)
        finally:
            await room.tables.stop()
            landed = asyncio.Event()  # (the last commit, on its thread, ends first)
            room.commit.after(landed.set)
            await landed.wait()

    asyncio.run(main())
    # a new session, with the room's settings
    (pid,) = room.store.db.execute("SELECT pg_backend_pid()").fetchone()
    assert room.store.db.execute("SHOW idle_in_transaction_session_timeout").fetchone() == (idle,)
    assert idle == "30s"
    room.store.close()
    assert pid


def test_a_read_between_commits_after_the_session_ended_opens_a_new_one(
    postgres_url: str,
) -> None:
    """A read on the room's write connection outside any transaction (on the event loop
    between two commits: a bot's bankroll, the accounts' watch) fails on a session the
    server ended, and the next has a new session with the room's settings. Before,
    every such read failed until the next commit opened one: a table whose next move
    began with a read (a bot short of chips) failed each second and never wrote, so a
    process woken after its tables were taken never found them lost (CI's failure of
    test_cluster_room's takeover)."""
    settings = RoomSettings(tables=1, bots=0, configs=[DOUBLE_THREE], guests=True)
    room = Room.open(postgres_url, settings, lease_seconds=30.0)
    db = room.store.db
    try:
        (pid,) = db.execute("SELECT pg_backend_pid()").fetchone()
        _terminate(postgres_url, pid)
        with pytest.raises(database_errors()):  # the statement that finds it ended
            db.execute("SELECT 1").fetchone()
        (again, idle) = db.execute(
            "SELECT pg_backend_pid(), current_setting('idle_in_transaction_session_timeout')"
        ).fetchone()
        assert again != pid and idle == "30s"
    finally:
        room.store.close()


@pytest.mark.parametrize("in_transaction", [False, True])
def test_a_connection_left_busy_in_pipeline_mode_is_lost(
    postgres_url: str, in_transaction: bool
) -> None:
    """A connection that a failed ``executemany`` left in pipeline mode, busy (the
    server ended the session in its midst; psycopg still holds it open) refuses every
    statement, "cannot exit pipeline mode while busy": it is lost, and a new session
    opens as for one the server ended (for a read outside a transaction, or once the
    storage ended the transaction). Before, `lost` was False and every later
    statement failed for good: the woken room of CI's test_cluster_room never wrote
    again."""
    settings = RoomSettings(tables=1, bots=0, configs=[DOUBLE_THREE], guests=True)
    room = Room.open(postgres_url, settings)
    store = room.store
    try:
        if in_transaction:
            assert store.reserve()
        stuck = store.db.connection.pgconn  # type: ignore[attr-defined]
        stuck.enter_pipeline_mode()
        stuck.send_query_params(b"SELECT 1", None)  # its result never read
        if in_transaction:
            for _ in range(2):  # the transaction's statements: no new session
                with pytest.raises(database_errors()):
                    store.db.execute("SELECT 1").fetchone()
            store.abandon()
        assert store.db.execute("SELECT 2").fetchone() == (2,)  # (outside: at once)
    finally:
        store.close()


def test_a_transaction_whose_session_ended_runs_nothing_more(postgres_url: str) -> None:
    """Inside a transaction a session the server ended stays lost: the transaction's
    later statements fail, none runs on a new session (in autocommit, it would be
    written without the rest), until the storage ends the transaction."""
    settings = RoomSettings(tables=1, bots=0, configs=[DOUBLE_THREE], guests=True)
    room = Room.open(postgres_url, settings)
    store = room.store
    try:
        assert store.reserve()
        (pid,) = store.db.execute("SELECT pg_backend_pid()").fetchone()
        _terminate(postgres_url, pid)
        for _ in range(2):
            with pytest.raises(database_errors()):
                store.db.execute("INSERT INTO meta (key, value) VALUES ('late', 'x')")
        store.abandon()  # the transaction ended: a new session
        rows = store.db.execute("SELECT value FROM meta WHERE key = 'late'").fetchall()
        assert rows == []
    finally:
        store.close()


@pytest.mark.parametrize("read_only", [False, True])
def test_a_thread_whose_session_ended_opens_a_new_one(postgres_url: str, read_only: bool) -> None:
    """The sessions of work off the event loop (the desk's, the storage's readers'): one
    the server ended fails the statement that finds it so, and the thread's next call
    has a new session with its name. Before, every later call on that thread failed
    (the room's processes end a dead one's named sessions: one only slow lost its desk
    for good)."""
    connections = ThreadConnections(
        postgres_url, busy_seconds=1.0, read_only=read_only, name="doubleholdem p1"
    )
    try:
        (pid,) = connections.get().execute("SELECT pg_backend_pid()").fetchone()
        _terminate(postgres_url, pid)
        with pytest.raises(database_errors()):
            connections.get().execute("SELECT 1").fetchone()
        db = connections.get()
        (again, name) = db.execute(
            "SELECT pg_backend_pid(), current_setting('application_name')"
        ).fetchone()
        assert again != pid and name == "doubleholdem p1"
        if read_only:  # opened as the first was
            assert db.execute("SHOW transaction_read_only").fetchone() == ("on",)
    finally:
        connections.close()


def test_a_desk_whose_session_ended_still_answers_a_cookie(postgres_url: str) -> None:
    """The account of a cookie is read again on a new session when the server ended the
    thread's (a process woken from a freeze finds its sessions ended by the others):
    the request is answered, not failed (a WebSocket opened then was answered 500)."""
    settings = RoomSettings(tables=1, bots=0, configs=[DOUBLE_THREE], guests=True)
    room = Room.open(postgres_url, settings)
    desk = Desk(postgres_url, settings)
    try:
        account, token = desk.sign_up("ann", "a long enough password", address="127.0.0.1")
        (pid,) = desk._db().execute("SELECT pg_backend_pid()").fetchone()
        _terminate(postgres_url, pid)
        found = desk.session(token)
        assert found is not None and found.name == account.name == "ann"
    finally:
        desk.close()
        room.store.close()
