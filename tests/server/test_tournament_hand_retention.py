"""The room's hand retention applied to tournaments (docs/room-tournaments.md, "Hands"):
every hand of a tournament is kept while it runs; once it is over each of its tables
keeps its last ``keep_hands`` hands and none older than ``keep_hands_days``, forgotten
in bounded steps. On SQLite and PostgreSQL (``room_db``), step by step on the test's
clock."""

from __future__ import annotations

import asyncio

from doubleholdem.server.settings import DAY, RoomSettings
from doubleholdem.server.storage import hands
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.room import Tournaments
from tournaments_room import Clock, audit, play, run_here, sign_up, sit_and_go


def _room(
    path: str, clock: Clock, keep_hands: int | None = None, keep_hands_days: float | None = None
) -> tuple[Room, Tournaments]:
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, seed=7, clock=clock,
                            keep_hands=keep_hands, keep_hands_days=keep_hands_days)  # fmt: skip
    room = Room.open(path, settings)
    return room, run_here(room, settings, [sit_and_go(seats=2)])


def _numbers(room: Room, tournament: int) -> dict[int, list[int]]:
    """Each table's stored hand numbers (by the table's number in the tournament)."""
    found: dict[int, list[int]] = {}
    for table in range(1, 10):
        db = room.store.committed()  # (on the loop: a commit may be in flight)
        rows = db.execute(
            "SELECT number FROM hand_index WHERE table_id = ? ORDER BY number",
            (hands.tournament_key(tournament, table),),
        ).fetchall()
        if rows:
            found[table] = [int(n) for (n,) in rows]
    return found


def _played(path: str, keep: int) -> tuple[Room, Tournaments, Clock, dict[int, list[int]]]:
    """A sit-and-go of two people and two bots at heads-up tables played to its end,
    the retention asked for at every step (nothing forgotten while it runs)."""
    clock = Clock()
    room, tournaments = _room(path, clock, keep_hands=keep)
    for name in ("ann", "bob"):
        sign_up(room, name, 1000)
        tournaments.register(0, name)
    runner = tournaments.runner(0)
    stored: list[dict[int, list[int]]] = []

    def each() -> None:
        if runner.stored.status != "running":
            return  # over: looked at below
        tournaments.forget_old_hands()
        room.commit.flush()
        now = _numbers(room, 0)
        if stored:
            for table, numbers in stored[-1].items():  # none forgotten while it runs
                assert now[table][: len(numbers)] == numbers
        stored[:] = [now]

    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "finished",
         each=each)  # fmt: skip
    return room, tournaments, clock, _numbers(room, 0)


def test_a_tournament_over_keeps_the_last_keep_hands_of_each_table(room_db: str) -> None:
    room, tournaments, _clock, before = _played(room_db, keep=2)
    assert len(before) >= 2 and any(len(n) > 2 for n in before.values())
    for _ in range(3):  # the first step forgets, the next ones find nothing more
        tournaments.forget_old_hands()
        room.commit.flush()
    after = _numbers(room, 0)
    assert after == {table: numbers[-2:] for table, numbers in before.items()}
    assert tournaments.retained == {0}  # not looked at again
    assert audit(room) == []
    room.store.close()


def test_hands_of_a_tournament_over_age_out_after_keep_hands_days(room_db: str) -> None:
    clock = Clock()
    room, tournaments = _room(room_db, clock, keep_hands_days=1)
    for name in ("ann", "bob"):
        sign_up(room, name, 1000)
        tournaments.register(0, name)
    runner = tournaments.runner(0)
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "finished")
    played = _numbers(room, 0)
    tournaments.forget_old_hands()
    room.commit.flush()
    assert _numbers(room, 0) == played  # not a day old yet
    clock.now += 2 * DAY
    for _ in range(3):
        tournaments.forget_old_hands()
        room.commit.flush()
    assert played and _numbers(room, 0) == {}
    assert 0 not in tournaments.retained  # hands may still age in: looked at again
    room.store.close()


def test_the_running_room_applies_it_to_tournaments_over(room_db: str) -> None:
    """The room's task (every ``RETENTION_SECONDS``, its first look at once) hands the
    step to the group commit on the event loop, as the server runs."""
    room, tournaments, _clock, before = _played(room_db, keep=1)
    kept = {table: numbers[-1:] for table, numbers in before.items()}

    async def scenario() -> None:
        await tournaments.start()
        try:
            for _ in range(10_000):  # turns of the loop until the commit (bounded)
                if _numbers(room, 0) == kept:
                    return
                await asyncio.sleep(0)
            raise AssertionError("the retention never ran")
        finally:
            await tournaments.stop()

    asyncio.run(scenario())
    room.store.close()
