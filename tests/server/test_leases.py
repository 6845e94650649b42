"""The lease rules (python/doubleholdem/server/cluster/leases.py, issue 33): which process
owns each table of a room, on both databases. A process's death is its row expired
(the database's clock passing, forced here by moving its expiry into the past, never by
sleeping) or, on PostgreSQL, its session's advisory lock gone (``kill -9``)."""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from doubleholdem.database.connection import POSTGRESQL, Connection, dialect
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import Owner
from doubleholdem.server.storage.storage import Storage


@dataclass
class Process:
    """A process of the room: its id and its own connection (which, on PostgreSQL, holds
    its advisory lock for its life)."""

    id: str
    db: Connection

    @property
    def owner(self) -> Owner:
        return Owner(self.id, f"http://{self.id}")


@pytest.fixture
def room(room_db: str) -> Iterator[str]:
    """A room of 4 tables (their rows only: the lease rules read nothing else)."""
    Storage(room_db).close()
    with contextlib.closing(connect(room_db)) as db:
        db.executemany("INSERT INTO tables VALUES (?, '{}', '{}')", [(i,) for i in range(4)])
    yield room_db


@pytest.fixture
def processes(room: str) -> Iterator[list[Process]]:
    made: list[Process] = []
    yield made
    for process in made:
        with contextlib.suppress(Exception):
            process.db.close()


def start(room: str, made: list[Process], name: str) -> Process:
    db = connect(room)
    key = None
    if dialect(db) == POSTGRESQL:
        key = secrets.randbits(62)
        db.execute("SELECT pg_advisory_lock(?)", (key,)).close()
    leases.register(db, name, f"http://{name}", lock=key)
    made.append(Process(name, db))
    return made[-1]


def until(event: Callable[[], bool]) -> None:
    """Waits for ``event`` (something another process does: no time is assumed)."""
    deadline = time.monotonic() + 30
    while not event():
        assert time.monotonic() < deadline, "the event never came"
        time.sleep(0.01)


def expire(process: Process) -> None:
    """The database's clock passes the process's expiry (it missed its heartbeats)."""
    process.db.execute("UPDATE processes SET expires = 0 WHERE id = ?", (process.id,)).close()


def test_free_leases_go_lowest_first_each_at_epoch_one(room: str, processes: list[Process]) -> None:
    a = start(room, processes, "a")
    assert leases.acquire(a.db, "a", want=3) == {0: 1, 1: 1, 2: 1}
    assert leases.acquire(a.db, "a", want=0) == {}
    assert leases.owners(a.db) == {0: a.owner, 1: a.owner, 2: a.owner, 3: None}


# each case: what befalls the first owner, whether the second may then take its
# tables, and the epoch they then have
DEATHS = [
    ("alive", False, 1),
    ("heartbeat after its expiry", False, 1),
    ("expired", True, 2),
    ("stopping", True, 2),
    ("released", True, 2),
]


@pytest.mark.parametrize(("fate", "takeable", "epoch"), DEATHS)
def test_a_lease_changes_hands_only_when_its_owner_is_not_live(
    room: str, processes: list[Process], fate: str, takeable: bool, epoch: int
) -> None:
    a = start(room, processes, "a")
    b = start(room, processes, "b")
    assert leases.acquire(a.db, "a", want=2) == {0: 1, 1: 1}
    if fate == "heartbeat after its expiry":
        expire(a)
        assert leases.heartbeat(a.db, "a")
    elif fate == "expired":
        expire(a)
    elif fate == "stopping":
        leases.stopping(a.db, "a")
    elif fate == "released":
        leases.release(a.db, "a")
        assert leases.owners(b.db)[0] is None  # nobody serves it until b takes it
    taken = leases.acquire(b.db, "b", want=4, only=[0, 1])
    assert taken == ({0: epoch, 1: epoch} if takeable else {})
    owner = b.owner if takeable else a.owner
    assert leases.owners(b.db)[0] == owner and leases.owners(b.db)[1] == owner
    assert leases.fence(a.db, "a", {0: 1, 1: 1}) == ({0, 1} if takeable else set())
    assert leases.fence(b.db, "b", {0: epoch}) == (set() if takeable else {0})


def test_a_killed_process_loses_its_tables_at_once_on_postgresql(
    postgres_url: str,
) -> None:
    Storage(postgres_url).close()
    made: list[Process] = []
    try:
        with contextlib.closing(connect(postgres_url)) as db:
            db.execute("INSERT INTO tables VALUES (0, '{}', '{}')").close()
        a = start(postgres_url, made, "a")
        b = start(postgres_url, made, "b")
        assert leases.acquire(a.db, "a", want=1) == {0: 1}
        assert leases.acquire(b.db, "b", want=1) == {}
        a.db.close()  # its session ends, its advisory lock with it; its row not expired
        until(lambda: leases.owners(b.db) == {0: None})  # its backend ends moments later
        assert leases.acquire(b.db, "b", want=1) == {0: 2}
        assert [p.process for p in leases.live_processes(b.db)] == ["b"]
    finally:
        for process in made:
            process.db.close()


def test_steal_takes_every_lease_of_others(room: str, processes: list[Process]) -> None:
    """A process that holds the whole room (SQLite's lock file, a repair) takes every
    lease whoever holds it, each epoch raised."""
    a = start(room, processes, "a")
    b = start(room, processes, "b")
    leases.acquire(a.db, "a", want=2)
    assert leases.acquire(b.db, "b", want=10, steal=True) == {0: 2, 1: 2, 2: 1, 3: 1}
    assert leases.acquire(b.db, "b", want=10, steal=True) == {}  # its own stay as they are


def test_concurrent_acquires_never_share_a_table(postgres_url: str) -> None:
    """Two processes acquiring at once, each inside its own transaction: the second
    skips the rows the first holds (``SKIP LOCKED``) and never takes one twice."""
    Storage(postgres_url).close()
    made: list[Process] = []
    try:
        with contextlib.closing(connect(postgres_url)) as db:
            db.executemany("INSERT INTO tables VALUES (?, '{}', '{}')", [(i,) for i in range(4)])
        a = start(postgres_url, made, "a")
        b = start(postgres_url, made, "b")
        assert leases.acquire(a.db, "a", want=0) == {}  # the lease rows are made
        a.db.execute("BEGIN").close()
        first = leases.acquire(a.db, "a", want=2)  # inside a's open transaction
        second = leases.acquire(b.db, "b", want=4)
        a.db.execute("COMMIT").close()
        assert first == {0: 1, 1: 1} and second == {2: 1, 3: 1}
    finally:
        for process in made:
            process.db.close()
