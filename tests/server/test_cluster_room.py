"""Many processes on one PostgreSQL room (issue 33): fencing refuses a stale owner's
writes in the database, the group commit leaves a lost table out and commits the rest,
and two rooms on one schema split the tables and take over each other's when one's
leases expire, as a restart restores them, with no chip made or lost and every hand
settled once. Waits are for events (a table's owner changing, hands stored), never for
a length of time."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import http.client
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cluster_harness import audit_problems, unsettled_hands
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.lock import DatabaseInUse
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.spec import load_tournaments
from ports import free_port
from server_harness import ServerThread, stored_mid_hand

SETTINGS = RoomSettings(tables=4, bots=3, bot_delay=0.0, pause=0.0, seed=5)
RENEW = 0.05  # the tests' heartbeats: often, so that the events come soon


def test_servers_share_a_room_and_a_repair_holds_it_alone(postgres_url: str) -> None:
    first = Room.open(postgres_url, SETTINGS)
    try:
        second_settings = copy.copy(SETTINGS)
        second_settings.process = "second"
        Room.open(postgres_url, second_settings).store.close()  # two serve one room
        with pytest.raises(DatabaseInUse, match=r"which serves it$"):
            Room.open(postgres_url, second_settings, repair=True)
    finally:
        first.store.close()
    repairing = Room.open(postgres_url, SETTINGS, repair=True)
    try:
        with pytest.raises(DatabaseInUse, match="which serves it alone"):
            Room.open(postgres_url, SETTINGS)
    finally:
        repairing.store.close()


def _counts(url: str) -> tuple[Any, ...]:
    with contextlib.closing(connect(url)) as db:
        moves = db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
        heads = db.execute("SELECT table_id, moves FROM heads ORDER BY table_id").fetchall()
        snapshots = db.execute("SELECT id, snapshot FROM tables ORDER BY id").fetchall()
    return moves, heads, snapshots


def _owning(store: Storage, process: str) -> dict[int, int]:
    """``store`` writes as ``process``, which takes every table's lease (epoch raised)."""
    store.fencing.process = process
    taken = leases.acquire(store.db, process, want=100, steal=True)
    store.fencing.epochs.update(taken)
    return taken


def test_a_stale_owners_write_is_refused_by_the_database(postgres_url: str) -> None:
    stored_mid_hand(postgres_url, RoomSettings(tables=2, bots=2, seed=3))
    old = Storage(postgres_url, shared=True)
    new = Storage(postgres_url, shared=True)
    try:
        assert _owning(old, "old") == {0: 2, 1: 2}  # (the room's own process had epoch 1)
        assert _owning(new, "new") == {0: 3, 1: 3}  # old froze meanwhile: new took them
        before = _counts(postgres_url)
        with pytest.raises(LeaseLost, match="lease of table 0 was lost"), old.transaction():
            old.put_move(0, '["advance", 1.0]')
        with pytest.raises(LeaseLost, match="lease of table 1 was lost"), old.transaction():
            old.put_table(1, before[2][1][1])
        assert _counts(postgres_url) == before  # nothing written
        with new.transaction():  # the owner writes
            new.put_table(1, before[2][1][1])
    finally:
        old.close()
        new.close()


def test_the_group_commit_leaves_a_lost_table_out_and_commits_the_others(
    postgres_url: str,
) -> None:
    stored_mid_hand(postgres_url, RoomSettings(tables=2, bots=2, seed=3))
    store = Storage(postgres_url, shared=True)
    thief = Storage(postgres_url, shared=True)
    try:
        _owning(store, "me")
        thief.fencing.process = "thief"
        leases.acquire(thief.db, "thief", want=1, steal=True, only=[0])  # table 0 taken
        snapshot = _counts(postgres_url)[2]
        lost, undone, sent = asyncio.run(_one_commit(store))
        assert lost == [{0}] and undone == [] and sent == ["0:refused", "1:done"]
        assert store.chat(0) == [] and store.chat(1) == [{"text": "hello 1"}]
        assert _counts(postgres_url)[2] == snapshot
        # a payment at the lost table is refused before anything is written
        commit = GroupCommit(store)
        commit.lost = lost.append
        with pytest.raises(LeaseLost), commit.paying(0):
            raise AssertionError("not reached")
        assert lost == [{0}, {0}] and not store.in_transaction
    finally:
        store.close()
        thief.close()


async def _one_commit(store: Storage) -> tuple[list[set[int]], list[int], list[str]]:
    """Changes of tables 0 and 1 in one group commit: what it lost, undid and sent."""
    commit = GroupCommit(store)
    lost: list[set[int]] = []
    commit.lost = lost.append
    undone: list[int] = []
    sent: list[str] = []

    class Client:
        def __init__(self, table: int) -> None:
            self.table = table

        def send(self, text: str) -> None:
            sent.append(f"{self.table}:{text}")

    for table in (0, 1):
        commit.later(
            [lambda s, t=table: s.put_chat(t, 1, {"text": f"hello {t}"})],
            lambda t=table: undone.append(t),
            table=table,
        )
        commit.post(Client(table), "done")
        commit.instead(Client(table), "refused")
    ended = asyncio.Event()
    commit.after(ended.set)
    await ended.wait()
    return lost, undone, sent


def _until(event: Callable[[], bool], what: str) -> None:
    """Waits for ``event`` (the rooms play meanwhile, each on its own thread)."""
    deadline = time.monotonic() + 120
    while not event():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


class Serving:
    """A room served on a thread of its own, with its own event loop, as a process
    serves it (two rooms on one loop would wait for each other's ledger lock)."""

    def __init__(self, url: str, name: str) -> None:
        settings = copy.copy(SETTINGS)
        settings.process, settings.address = name, f"http://{name}"
        self.room = Room.open(url, settings)
        member = self.room.tables.membership
        assert member is not None
        member.renew_seconds = RENEW
        self.member = member
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._thread = threading.Thread(target=self._serve, name=f"room-{name}")
        self._thread.start()

    def _serve(self) -> None:
        async def serve() -> None:
            await self.room.start()
            await self._stop.wait()
            await self.room.stop()

        self._loop.run_until_complete(serve())
        self._loop.close()

    def tables(self) -> set[int]:
        return set(self.room.runners)

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join()


def _two_rooms(url: str) -> dict[str, Any]:
    first = Serving(url, "first")
    found: dict[str, Any] = {"made": first.tables()}  # it made the room: every table its own
    second = Serving(url, "second")
    try:
        _until(lambda: len(first.tables()) == len(second.tables()) == 2, "tables spread")
        owners = first.room.store.reader()  # a connection of the test's thread
        found["spread"] = sorted(
            (t, o.address) for t, o in leases.owners(owners).items() if o is not None
        )
        found["handed"] = second.tables()
        _until(lambda: _hands(url) >= 12, "hands played on both")
        # the second process freezes: its heartbeats stop and its leases expire
        second.member.halt()
        with contextlib.closing(connect(url)) as db:
            db.execute("UPDATE processes SET expires = 0 WHERE id = ?", (second.member.id,))
        began = time.monotonic()
        _until(lambda: len(first.tables()) == 4, "the first takes the second's tables")
        found["takeover_seconds"] = time.monotonic() - began
        # woken, the second writes nothing more of its tables: it finds them lost
        _until(lambda: not second.tables(), "the second lets its lost tables go")
        hands = _hands(url)
        _until(lambda: _hands(url) >= hands + 8, "play goes on at the first")
        found["epochs"] = {t: e for t, (_, e) in _leases(url).items()}
    finally:
        second.stop()
        first.stop()
    return found


def _hands(url: str) -> int:
    with contextlib.closing(connect(url)) as db:
        return int(db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])


def _leases(url: str) -> dict[int, tuple[str | None, int]]:
    with contextlib.closing(connect(url)) as db:
        rows = db.execute("SELECT table_id, owner, epoch FROM leases").fetchall()
    return {int(t): (o, int(e)) for t, o, e in rows}


def test_two_rooms_split_the_tables_and_one_takes_over_the_others(postgres_url: str) -> None:
    found = _two_rooms(postgres_url)
    assert found["made"] == {0, 1, 2, 3}
    addresses = [address for _, address in found["spread"]]
    assert sorted(addresses) == ["http://first"] * 2 + ["http://second"] * 2
    for table in found["handed"]:  # made (1), handed over (2), taken back (3)
        assert found["epochs"][table] == 3
    assert audit_problems(postgres_url) == []
    assert unsettled_hands(postgres_url) == []
    assert all(owner is None for owner, _ in _leases(postgres_url).values())  # released


def test_one_process_of_a_room_runs_its_tournaments(
    postgres_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A tournament's tables are not leased apart: of the processes serving a room, the
    first to start with tournaments runs them all (it holds their lease); another runs
    none (a warning naming the first) and sends their requests there (a redirect to
    the first's address) rather than play the same tournament twice. Once the first
    stops, the other takes them over at its next heartbeat."""
    config = tmp_path / "room.toml"
    config.write_text('[[tournament]]\nname = "Sunday"\nkind = "sit-and-go"\ncapacity = 6\n')
    specs = load_tournaments(str(config))

    def server(name: str, port: int) -> ServerThread:
        settings = copy.copy(SETTINGS)
        settings.process = name
        settings.address = f"http://127.0.0.1:{port}"
        room = Room.open(postgres_url, settings)
        desk = Desk(room.store.path, room.settings)
        return ServerThread(room, desk=desk, tournaments=specs, port=port)

    def lobby(served: ServerThread) -> tuple[int, str | None]:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        try:  # redirects not followed
            connection.request("GET", "/api/tournaments")
            reply = connection.getresponse()
            return reply.status, reply.getheader("Location")
        finally:
            connection.close()

    first = server("first", free_port())
    with first:
        assert lobby(first) == (200, None)
        with server("second", free_port()) as second:
            assert lobby(second) == (307, f"{first.url}/api/tournaments")
            assert "runs none of the room's tournaments" in caplog.text
            assert "process first" in caplog.text
            first.__exit__()  # a clean stop: its leases released at once
            deadline = time.monotonic() + 30
            while lobby(second)[0] != 200:  # each heartbeat a look at the lease
                assert time.monotonic() < deadline, "the tournaments were not taken over"
                time.sleep(0.05)
