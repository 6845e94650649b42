"""Reads on the event loop while a PostgreSQL group commit is in flight on its thread
(python/doubleholdem/server/storage/commit.py, issue 33): a resumed token and a retried
action id answer from what is committed and what the room holds in memory, never from
the commit's transaction in progress; a read while that transaction is aborted does not
raise; an action whose commit failed is applied once when retried, never answered as a
repeat of the undone one."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator

import pytest

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage, token_hash
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from faults import database_error
from money_room import send, sent

HEADS_UP = TableConfig(small_blind=5, big_blind=10, seats=2)


@pytest.fixture
def store(postgres_url: str) -> Iterator[Storage]:
    store = Storage(postgres_url)
    yield store
    store.close()


class Held:
    """A step that writes, then holds its commit's transaction on the commit's thread
    until released (optionally after aborting it by a failed statement), then fails
    the commit or lets it commit."""

    def __init__(self, *, abort: bool) -> None:
        self.written = threading.Event()
        self.release = threading.Event()
        self.abort = abort

    def __call__(self, s: Storage) -> None:
        s.add_table(0, '{"snapshot": 0}', {})
        s.seat_tokens.put("in-flight", 0, 1, "ann")
        s.seat_tokens.put_action("in-flight", "a1", 0, 1)
        failed: Exception | None = None
        if self.abort:
            try:
                database_error(s)  # the transaction is aborted from here on
            except Exception as error:
                failed = error
        self.written.set()
        self.release.wait()
        if failed is not None:
            raise failed


@pytest.mark.parametrize("abort", [False, True], ids=["writing", "aborted"])
def test_loop_reads_see_only_what_is_committed_while_a_commit_flies(
    store: Storage, abort: bool
) -> None:
    async def scenario() -> None:
        commit = GroupCommit(store)
        held = Held(abort=abort)
        commit.later([held], lambda: None)
        await asyncio.sleep(0)  # the flush: the commit flies
        await asyncio.to_thread(held.written.wait)
        # on the loop, while the commit's rows are written and not committed
        assert store.seat_tokens.find("in-flight") is None
        assert store.seat_tokens.action_applied("in-flight", "a1") is False
        held.release.set()
        done = asyncio.Event()
        commit.after(done.set)
        await done.wait()
        assert (commit.refusing is not None) == abort
        committed = store.seat_tokens.find("in-flight")
        assert committed == (None if abort else (0, 1, "ann"))
        assert store.seat_tokens.action_applied("in-flight", "a1") is not abort

    asyncio.run(scenario())


async def _landed(room: Room) -> None:
    done = asyncio.Event()
    room.commit.after(done.set)
    await done.wait()


def test_an_action_whose_commit_failed_is_applied_once_when_retried(postgres_url: str) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=0.0, configs=[HEADS_UP], guests=True)
    room = Room.open(postgres_url, settings)

    async def scenario() -> None:
        players = [room.connect(), room.connect()]
        told = [
            send(room, c, type="sit", table=0, seat=n, name=f"p{n}", buy_in=1000)
            for n, c in enumerate(players)
        ]
        await room.start()
        runner = room.runners[0]
        while not runner.table.in_hand:
            await _landed(room)
            await asyncio.sleep(0)
        await _landed(room)
        tokens = [
            next(m["token"] for m in told[n] + sent(c) if m["type"] == "seated")
            for n, c in enumerate(players)
        ]
        store, real = room.store, room.store.seat_tokens.put_action
        held = Held(abort=True)

        def put_action(hashed: str, action_id: str, table_id: int, hand: int) -> None:
            real(hashed, action_id, table_id, hand)
            store.seat_tokens.put_action = real  # type: ignore[method-assign]  # once
            try:
                database_error(store)  # aborts the transaction: the commit fails
            finally:
                held.written.set()
                held.release.wait()

        store.seat_tokens.put_action = put_action  # type: ignore[method-assign]
        to_act = runner.table.to_act
        assert to_act is not None
        other = 1 - to_act
        hand = runner.table.hand_number
        act = {"v": 2, "type": "act", "id": "x1", "hand": hand, "action": "call"}
        room.handle(players[to_act], json.dumps(act))
        await asyncio.to_thread(held.written.wait)  # its commit holds an aborted transaction
        # reads on the loop meanwhile: a retry, another id, a resume by token
        room.handle(players[to_act], json.dumps(act))
        room.handle(players[other], json.dumps({**act, "id": "y1"}))
        watcher = room.connect()
        room.handle(watcher, json.dumps({"v": 2, "type": "resume", "token": tokens[other]}))
        assert [m["type"] for m in sent(watcher)][-1:] == ["seated"]
        held.release.set()
        await _landed(room)
        answered = sent(players[to_act])
        assert [m.get("code") for m in answered] == ["unavailable"]  # never "repeated"
        assert room.commit.writable()  # a heartbeat commit now: writes taken again
        assert runner.table.to_act == to_act and runner.table.hand_number == hand
        room.handle(players[to_act], json.dumps(act))  # the client retries: applied
        await _landed(room)
        results = [m for m in sent(players[to_act]) if m["type"] == "result"]
        assert results == [{"v": 2, "type": "result", "id": "x1", "ok": True}]
        assert store.seat_tokens.action_applied(token_hash(tokens[to_act]), "x1")
        await room.stop()

    asyncio.run(scenario())
