"""A table's own change whose commit fails is made again once the database takes
writes again, without any request to wake it (issue 30, item 7): a seat overdue for
removal from the sit-out clock (docs/tables.md) whose removal failed to commit is
removed as soon as a heartbeat commit succeeds, its chips going back as with any
removal."""

from __future__ import annotations

import asyncio

import pytest

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from faults import fail_next_write
from server_harness import Client, ServerThread, served

CONFIG = TableConfig(small_blind=5, big_blind=10, seats=2, action_time=10.0, time_bank=0)


class FakeClock:
    """The room's clock: time passes only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _until(test: object, polls: int = 4000) -> None:
    """Until ``test()`` holds (polled between turns of the loop; a bounded number of
    polls, so a bug fails the test rather than hanging it)."""
    for _ in range(polls):
        if test():  # type: ignore[operator]
            return
        await asyncio.sleep(0.005)
    raise AssertionError("timed out waiting")


@pytest.mark.parametrize("room_db", ["sqlite", "postgresql"], indirect=True)
def test_a_removal_whose_commit_failed_is_made_once_writes_are_taken(room_db: str) -> None:
    clock = FakeClock()
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=0.0, configs=[CONFIG], seed=3, clock=clock
    )
    settings.remove_after, settings.busted_after = 300.0, 60.0
    room = Room.open(room_db, settings)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann = await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        assert (await ann.next("seated"))["seat"] == 0
        await ann.send(type="sit_out")
        await _until(lambda: (runner.table.seats()[0] or {}).get("sitting_out", False))
        # and committed: the write made to fail below is the removal's, not the sit-out's
        # (on PostgreSQL its commit may still be on its thread)
        await _until(room.commit.idle)
        left_to_fail = fail_next_write(room)  # the removal's snapshot fails to commit
        loop = room.tables._playing[0].get_loop()
        clock.now += 300.0
        loop.call_soon_threadsafe(runner.wake.set)  # the clock moved: one wake, no more
        await _until(lambda: left_to_fail() == 0)  # the removal was made, and failed
        left = await ann.next("left", timeout=20.0)  # made again, with no request
        assert left["seat"] == 0 and left["after_hand"] is False and left["cash_out"] == 1000
        assert runner.table.seats()[0] is None and 0 not in runner.humans
        assert room.commit.refusing is None
        assert room.tables._stored(0)[0].seats()[0] is None  # the removal is committed
        await ann.close()

    served(room, scenario)
