"""A table's task that stops on an unexpected error goes on from the table's last
committed state: reloaded only once the commit still pending for it has ended, so
that what the table holds in memory and in the database stay one (and no chip paid
in that commit is lost from memory while the database keeps it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import pytest

from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from money_room import audit_ok, balance, fail_next_commit, money_room, sign_up


def _stored_table(room: Room, table_id: int) -> str:
    return restore(room.store.table(table_id), room.settings.snapshot_key).to_json()


def _sits_then_fails(room: Room, failing_commit: bool) -> Connection:
    """ann (1000 chips) asks to sit at table 0 with 400 in a served room, and right
    after, before the loop's next turn commits it, the table's task fails on a defect
    (with ``failing_commit``, that commit fails too); ann's connection."""
    ann = sign_up(room, "ann", 1000)
    runner = room.runners[0]
    sit = json.dumps({"v": 2, "type": "sit", "table": 0, "name": "ann", "buy_in": 400})

    async def sits_then_fails() -> None:
        if failing_commit:
            fail_next_commit(room, write=True)
        room.handle(ann, sit)  # paid and seated; committed at the loop's next turn
        raise RuntimeError("a defect of the table's task")

    async def serve_briefly() -> None:
        runner._run = sits_then_fails  # type: ignore[method-assign]
        task = asyncio.create_task(runner.run())
        await asyncio.sleep(0)  # it sits ann, fails, and asks for its reload after the commit
        while not room.commit.idle():  # (on PostgreSQL the commit runs on a thread)
            await asyncio.sleep(0.001)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(serve_briefly())
    return ann


def test_an_unexpected_error_reloads_the_table_only_after_its_pending_commit(
    room_db: str,
) -> None:
    room = money_room(path=room_db)
    ann = _sits_then_fails(room, failing_commit=False)
    runner = room.runners[0]
    assert runner.table.to_json() == _stored_table(room, 0)
    assert runner.table.seats()[0] is not None and ann.seat == 0
    assert balance(room, "ann") == 600
    audit_ok(room)
    room.store.close()


def test_an_unexpected_error_with_a_failing_pending_commit_reloads_what_was_before(
    room_db: str,
) -> None:
    room = money_room(path=room_db)
    ann = _sits_then_fails(room, failing_commit=True)
    runner = room.runners[0]
    assert runner.table.to_json() == _stored_table(room, 0)
    assert runner.table.seats()[0] is None and ann.seat is None
    assert balance(room, "ann") == 1000
    audit_ok(room)
    room.store.close()


def test_a_change_that_fails_part_way_leaves_nothing_of_itself(room_db: str) -> None:
    """A defect raised inside a change after it paid and changed the table (here: right
    after the buy-in of a sit) fails every change pending, as a failed commit does:
    the payment is rolled back, the table is back to its last committed state, and
    what memory and the database hold stay one (before: the buy-in was committed
    without the seat, and the audit found the table short of its ledger account)."""
    room = money_room(path=room_db)
    ann = sign_up(room, "ann", 1000)
    runner = room.runners[0]
    sit = json.dumps({"v": 2, "type": "sit", "table": 0, "name": "ann", "buy_in": 400})

    def defect(*_: object) -> str:
        raise RuntimeError("a defect after the payment")

    async def sits() -> None:
        runner.sitters.seated = defect  # type: ignore[method-assign,assignment]
        with contextlib.suppress(RuntimeError):
            room.handle(ann, sit)
        while not room.commit.idle():  # (on PostgreSQL the commit runs on a thread)
            await asyncio.sleep(0.001)

    asyncio.run(sits())
    assert runner.table.to_json() == _stored_table(room, 0)
    assert runner.table.seats()[0] is None
    assert balance(room, "ann") == 1000
    audit_ok(room)
    room.store.close()


def test_a_table_taken_over_by_another_process_is_no_error_of_its_task(
    room_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A payment of the table's own task that finds its lease moved (LeaseLost: the
    room lets the table go, and cancels the task) is said as a warning in the
    operator's log, not as an error of the table (seen in the failover tests' logs)."""
    room = money_room(path=room_db)
    runner = room.runners[0]

    async def taken() -> None:
        raise LeaseLost({0})

    async def serve_briefly() -> None:
        runner._run = taken  # type: ignore[method-assign]
        task = asyncio.create_task(runner.run())
        while "was taken over" not in caplog.text:
            await asyncio.sleep(0.001)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.WARNING, logger="doubleholdem.server"):
        asyncio.run(asyncio.wait_for(serve_briefly(), 60))
    assert "stopped on an error" not in caplog.text
    assert [r.levelname for r in caplog.records if "table 1" in r.getMessage()] == ["WARNING"]
