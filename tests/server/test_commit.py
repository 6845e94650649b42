"""Group commit (python/doubleholdem/server/storage/commit.py): the changes that tables make in one
turn of the event loop are committed in one transaction, and no reply or state about
them is sent before that commit."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from doubleholdem.database.url import connect
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import UNAVAILABLE, Room
from doubleholdem.table import TableConfig

HEADS_UP = TableConfig(small_blind=5, big_blind=10, seats=2)


def _messages(connection: Connection) -> list[dict[str, Any]]:
    out = []
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def _moves(path: Path | str) -> int:
    with contextlib.closing(connect(str(path))) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


async def _scenario(room: Room, path: Path | str) -> None:
    commits: list[int] = []
    transaction = room.store.transaction

    @contextlib.contextmanager
    def counted() -> Iterator[None]:
        with transaction():
            yield
        commits.append(_moves(path))  # what another reader of the database sees

    room.store.transaction = counted  # type: ignore[method-assign]
    players: dict[int, Connection] = {}
    for table in (0, 1):
        for seat in (0, 1):
            connection = room.connect()
            sit = {"v": 2, "type": "sit", "table": table, "seat": seat, "name": f"p{seat}"}
            room.handle(connection, json.dumps({**sit, "buy_in": 1000}))
            players[table * 2 + seat] = connection
    await room.start()
    try:
        for _ in range(500):
            if all(r.table.in_hand for r in room.runners.values()):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        await _landed(room)
        for connection in players.values():
            _messages(connection)
        before, committed = _moves(path), len(commits)
        acting = []
        for table, runner in room.runners.items():
            seat = runner.table.to_act
            assert seat is not None
            connection = players[table * 2 + seat]
            act = {"v": 2, "type": "act", "id": f"a{table}", "hand": runner.table.hand_number}
            room.handle(connection, json.dumps({**act, "action": "call"}))
            acting.append(connection)
        # both decisions are made, neither is committed nor answered yet
        assert _moves(path) == before and len(commits) == committed
        assert all(_messages(c) == [] for c in players.values())
        await asyncio.sleep(0)  # one turn of the event loop: the flush
        # (on PostgreSQL the commit runs on the commit's thread: nothing is sent until
        # it landed back on the event loop)
        for _ in range(5000):
            if commits[committed:]:
                break
            assert all(c.outbox.empty() for c in players.values())
            await asyncio.sleep(0.001)
        assert commits[committed:] == [before + 2]  # one transaction for both tables
        await _landed(room)
        for table, connection in enumerate(acting):
            replies = _messages(connection)
            assert replies[0] == {"v": 2, "type": "result", "id": f"a{table}", "ok": True}
            assert replies[1]["type"] == "update"
    finally:
        await room.stop()


async def _landed(room: Room) -> None:
    """Until the room's commit in flight (on PostgreSQL's commit thread) landed."""
    for _ in range(5000):
        if room.commit.idle():
            return
        await asyncio.sleep(0.001)


def _run(
    tmp_path: Path, tables: int, scenario: Callable[[Room, Path], Coroutine[Any, Any, None]]
) -> None:
    """Runs ``scenario`` on a room of heads-up tables without bots."""
    path = tmp_path / "tables.db"
    settings = RoomSettings(tables=tables, bots=0, pause=0.0, configs=[HEADS_UP], guests=True)
    asyncio.run(scenario(Room.open(str(path), settings), path))


def test_one_commit_per_turn_and_no_reply_before_it(room_db: str) -> None:
    settings = RoomSettings(tables=2, bots=0, pause=0.0, configs=[HEADS_UP], guests=True)
    asyncio.run(_scenario(Room.open(room_db, settings), room_db))


def test_reserve_does_not_wait_for_a_locked_database(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = Storage(str(path))
    other = sqlite3.connect(str(path), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # like a checkpoint resetting the log
        assert store.reserve() is False
        other.execute("COMMIT")
        assert store.reserve() is True
        with store.transaction():  # the reserved transaction
            store.add_table(0, '{"snapshot": 1}', {})
        with sqlite3.connect(str(path)) as reader:
            assert reader.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 1
    finally:
        other.close()
        store.close()


async def _heads_up_in_a_hand(room: Room) -> list[Connection]:
    """Two players sit at table 0 and the room starts; returns their connections once a
    hand is being played, with what was sent so far read."""
    players = []
    for seat in (0, 1):
        connection = room.connect()
        sit = {"v": 2, "type": "sit", "table": 0, "seat": seat, "name": f"p{seat}"}
        room.handle(connection, json.dumps({**sit, "buy_in": 1000}))
        players.append(connection)
    await room.start()
    for _ in range(500):
        if room.runners[0].table.in_hand:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    for connection in players:
        _messages(connection)
    return players


async def _locked_scenario(room: Room, path: Path) -> None:
    players = await _heads_up_in_a_hand(room)
    other = sqlite3.connect(str(path), isolation_level=None)
    try:
        runner = room.runners[0]
        other.execute("BEGIN IMMEDIATE")  # the database is locked for a while
        to_act = runner.table.to_act
        assert to_act is not None
        act = {"v": 2, "type": "act", "id": "a1", "hand": runner.table.hand_number}
        before = _moves(path)
        room.handle(players[to_act], json.dumps({**act, "action": "call"}))
        ticks = 0
        for _ in range(20):  # the event loop goes on; nothing is committed or sent
            await asyncio.sleep(0.002)
            ticks += 1
        assert ticks == 20 and all(_messages(c) == [] for c in players)
        room.handle(players[to_act], json.dumps({**act, "action": "call"}))  # a retry
        other.execute("COMMIT")
        for _ in range(500):
            if not players[to_act].outbox.empty():
                break
            await asyncio.sleep(0.002)
        replies = _messages(players[to_act])
        assert replies[0] == {"v": 2, "type": "result", "id": "a1", "ok": True}
        assert replies[1]["type"] == "update"
        assert replies[2] == {"v": 2, "type": "result", "id": "a1", "ok": True, "repeated": True}
        assert _moves(path) == before + 1
    finally:
        other.close()
        await room.stop()


def test_a_locked_database_delays_the_commit_without_blocking(tmp_path: Path) -> None:
    _run(tmp_path, 1, _locked_scenario)


async def _held_lock_scenario(room: Room, path: Path) -> None:
    players = await _heads_up_in_a_hand(room)
    other = sqlite3.connect(str(path), isolation_level=None)
    try:
        runner = room.runners[0]
        other.execute("BEGIN IMMEDIATE")  # another process keeps the lock
        to_act, number = runner.table.to_act, runner.table.hand_number
        assert to_act is not None
        act = {"v": 2, "type": "act", "id": "a1", "hand": number}
        before = _moves(path)
        room.handle(players[to_act], json.dumps({**act, "action": "call"}))
        await asyncio.sleep(0.5)  # past the patience and the wait: the commit failed
        assert room.commit._flush is None  # no more tries
        assert _moves(path) == before and _messages(players[1 - to_act]) == []
        refused = {"v": 2, "type": "error", "code": "unavailable", "message": UNAVAILABLE}
        assert _messages(players[to_act]) == [{**refused, "id": "a1"}]  # the room says so
        assert (runner.table.to_act, runner.table.hand_number) == (to_act, number)
        other.execute("COMMIT")
        room.handle(players[to_act], json.dumps({**act, "action": "call"}))  # the retry
        for _ in range(500):
            if not players[to_act].outbox.empty():
                break
            await asyncio.sleep(0.002)
        assert _messages(players[to_act])[0] == {"v": 2, "type": "result", "id": "a1", "ok": True}
        assert _moves(path) == before + 1
    finally:
        other.close()
        await room.stop()


def test_a_lock_held_too_long_fails_the_commit_and_changes_nothing(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from doubleholdem.server.storage import commit, storage

    monkeypatch.setattr(commit, "LOCK_PATIENCE", 0.05)
    monkeypatch.setattr(storage, "BUSY_SECONDS", 0.05)
    _run(tmp_path, 1, _held_lock_scenario)


def test_what_waits_for_a_commit_to_end_is_called_once_either_way() -> None:
    store = Storage(":memory:")
    commit = GroupCommit(store)
    calls: list[str] = []

    def failing(s: Storage) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    def ended() -> None:
        calls.append("ended")

    try:  # no event loop: each later() commits at once
        commit.later([lambda s: s.put_hand(0, 2, [])], lambda: calls.append("undo"), ended)
        assert calls == ["ended"]
        commit.later([failing], lambda: calls.append("undo"), ended)
        assert calls == ["ended", "undo", "ended"]  # after the undo
        assert commit.refusing == "disk I/O error"
    finally:
        store.close()
