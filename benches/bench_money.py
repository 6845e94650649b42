"""Money at the tables: the ledger's cost per hand in the room (issue 19 target: under
0.2 ms a hand; benchmarks, not tests).

Run: ``python -m pytest benches/bench_money.py --benchmark-enable`` (wall clock), or
``PYTHONPATH=python python benches/bench_money.py`` (CPU time of the process, the two
rooms interleaved round by round: what benches/README.md reports). A room on a file in
WAL mode (``synchronous=NORMAL``, as served) with one six-seat table of calling
stations (rake 5%, capped at 30; a seat below half the maximum tops up) plays hands
through its runner, each change committed at once (no event loop: every change is its
own commit, the dearest case). The same hands are played by a guest room (chips from
nowhere) and by a room with accounts (bots with bankrolls, rake and top-ups through the
ledger, every table change checked for seats that end); the difference is the ledger's
cost per hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.game import Rake
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import TableConfig

HANDS = 20  # a round
TABLE = TableConfig(small_blind=5, big_blind=10, seats=6, rake=Rake(500, cap=30))


def _room(path: Path | str, guests: bool, synchronous: str = "normal") -> Room:
    settings = RoomSettings(
        tables=1,
        bots=6,
        bot_delay=0.0,
        pause=0.0,
        configs=[TABLE],
        bot_kinds=[("station",)],
        seed=3,
        guests=guests,
        bot_bankroll=10**12,
        clock=lambda: 100.0,
    )
    return Room.open(str(path), settings, synchronous=synchronous)


def play(runner: TableRunner, hands: int) -> None:
    """``hands`` hands of bots, with their top-ups between hands."""
    for _ in range(hands):
        if runner.bankrolls._bots_short():
            with runner.change():
                runner.bankrolls._top_up_bots()
        with runner.change():
            runner.table.start_hand(now=100.0)
        while runner.table.in_hand:
            seat = runner.table.to_act
            assert seat is not None
            runner.bot_turn(seat)


@pytest.fixture(params=[True, False], ids=["guests", "accounts"])
def runner(request: Any, tmp_path: Path) -> Iterator[TableRunner]:
    room = _room(tmp_path / "room.db", request.param)
    yield room.runners[0]
    room.store.close()


def test_hands_in_a_room(benchmark: Any, runner: TableRunner) -> None:
    benchmark.group = "money: hands through the room, guests against accounts"
    benchmark.pedantic(play, args=(runner, HANDS), rounds=15, warmup_rounds=1)
    benchmark.extra_info["items"] = HANDS


@pytest.fixture(params=["sqlite", "postgresql"])
def durable_room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    """The room with accounts, every commit durable: a SQLite file with
    ``synchronous=FULL``, or a PostgreSQL schema on the cluster above (TCP, 127.0.0.1)."""
    if request.param == "sqlite":
        room = _room(tmp_path / "room.db", False, synchronous="full")
        yield room
        room.store.close()
        return
    with request.getfixturevalue("durable").schema() as url:
        room = _room(url, False)
        yield room
        room.store.close()


def test_durable_hands_on_sqlite_and_postgresql(benchmark: Any, durable_room: Room) -> None:
    """Issue 33's "durable commit of a hand with its ledger entries": the same hands,
    each change its own durable commit (a decision's move row; a hand's end its
    snapshot, log and ledger entries), on each database. ``commits`` a hand is said."""
    benchmark.group = "money: hands with accounts, durable commits, SQLite against PostgreSQL"
    store, commits = durable_room.store, itertools.count()
    transaction = store.transaction

    def counted() -> Any:
        next(commits)
        return transaction()

    store.transaction = counted  # type: ignore[method-assign]
    benchmark.pedantic(play, args=(durable_room.runners[0], HANDS), rounds=5, warmup_rounds=1)
    benchmark.extra_info["items"] = HANDS
    benchmark.extra_info["commits a hand"] = next(commits) / (6 * HANDS)


def main() -> None:
    """Rounds of both rooms interleaved, timed by the process's CPU time."""
    import tempfile
    import time

    folder = Path(tempfile.mkdtemp())
    rooms = {guests: _room(folder / f"{guests}.db", guests) for guests in (True, False)}
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(20):
        for guests, room in rooms.items():
            start = time.process_time()
            play(room.runners[0], HANDS)
            times[guests].append((time.process_time() - start) / HANDS * 1000)
    for guests, spent in times.items():
        spent.sort()
        name = "guests" if guests else "accounts"
        print(f"{name}: fastest {spent[0]:.2f} ms a hand, median {spent[len(spent) // 2]:.2f} ms")
    for room in rooms.values():
        room.store.close()


if __name__ == "__main__":
    main()
