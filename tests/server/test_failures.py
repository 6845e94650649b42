"""A failed commit is survived (issue 17, item 2): whatever makes a commit fail (an error
in one of its writes, a failed ``COMMIT``, another process holding the write lock, a full
disk), the transaction and every cache derived from it are rolled back, the tables go on
from their last committed state once the database takes writes again, the event loop
never blocks on the database (``/healthz`` answers throughout and says what is wrong) and
nothing a client was sent is lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.server.protocol import apply_patch
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import commit
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from faults import database_error, fail_next_commit_statement, fail_next_write
from server_harness import ServerThread, fill, until_hands

HEADS_UP = TableConfig(small_blind=5, big_blind=10, seats=2)
SETTINGS = RoomSettings(tables=2, bots=2, bot_delay=0.0, pause=0.0, configs=[HEADS_UP], seed=1)


class Hung(BaseException):
    """The test did not finish (not an ``Exception``: a table's task catches those)."""


@pytest.fixture
def watchdog() -> Iterator[None]:
    """Fails the test instead of hanging if the event loop spins (two minutes)."""

    def expire(signum: int, frame: Any) -> None:
        raise Hung("the test did not finish: the event loop spins or hangs")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 120.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Spectator:
    """Watches every table of a room as a client would: the highest hand number it was
    sent of each table is what the room acknowledged."""

    def __init__(self, room: Room) -> None:
        self.seen: dict[int, int] = {}
        self._tasks = []
        for runner in room.runners.values():
            connection = room.connect()
            room._watch(connection, runner, None)
            self._tasks.append(asyncio.create_task(self._read(runner.id, connection)))

    async def _read(self, table: int, connection: Connection) -> None:
        view: Any = None
        while (text := await connection.outbox.get()) is not None:
            message = json.loads(text)
            if message["type"] == "state":
                view = message["view"]
            elif message["type"] == "update":
                view = apply_patch(view, message["patch"])
            if view is not None:
                self.seen[table] = max(self.seen.get(table, 0), view["hand_number"])

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()


async def _moves_again(room: Room, hands: int = 3, seconds: float = 30.0) -> bool:
    """Whether every table deals ``hands`` more hands within ``seconds``."""
    start = {i: r.table.hand_number for i, r in room.runners.items()}
    for _ in range(int(seconds * 100)):
        if all(r.table.hand_number >= start[i] + hands for i, r in room.runners.items()):
            return True
        await asyncio.sleep(0.01)
    return False


def _check_restart(path: Path | str, room: Room, seen: dict[int, int]) -> None:
    """The database loads again, and gives the tables as they were when the room stopped,
    nothing older than a client was sent."""
    reopened = Room.open(str(path), SETTINGS)
    try:
        for table_id, runner in reopened.runners.items():
            table = runner.table
            assert table.to_json() == room.runners[table_id].table.to_json()
            assert table.hand_number >= seen.get(table_id, 0)
            assert table.chips() + table.rake == table.bought_in
    finally:
        reopened.store.close()


def _survive(path: Path | str, inject: Callable[[Room], Callable[[], int]]) -> None:
    """Tables of bots play on the database at ``path`` (a file or a URL); ``inject``
    makes commits fail (it returns how many failures are still to come); every table
    must move again and restart as it stopped."""
    room = Room.open(str(path), SETTINGS)

    async def scenario() -> None:
        await room.start()
        spectator = Spectator(room)
        try:
            await until_hands(room, 2)
            left = inject(room)
            for _ in range(1000):
                if left() == 0:
                    break
                await asyncio.sleep(0.01)
            assert left() == 0, "the failure was not injected"
            assert await _moves_again(room), "a table froze after a failed commit"
            assert room.health() is None
        finally:
            spectator.stop()
            await room.stop()
        _check_restart(path, room, spectator.seen)

    asyncio.run(scenario())


def test_a_commit_that_fails_once_is_survived(room_db: str, watchdog: None) -> None:
    _survive(room_db, fail_next_write)


def test_a_failed_commit_statement_is_survived(room_db: str, watchdog: None) -> None:
    _survive(room_db, fail_next_commit_statement)


def _unreadable_after_failing(room: Room) -> Callable[[], int]:
    """The next commit fails, and the first table read back after it cannot be read
    (the database failing still: the room's processes end a woken one's sessions
    again and again, each new one soon after it opens)."""
    left = [1]
    for runner in room.runners.values():

        def load(real: Callable[[], Any] = runner._load) -> Any:
            if left[0]:
                left[0] -= 1
                database_error(room.store)
            return real()

        runner._load = load
    written = fail_next_write(room)
    return lambda: written() + left[0]


def test_a_table_that_cannot_be_read_back_after_a_failed_commit_is_survived(
    room_db: str, watchdog: None
) -> None:
    """Its undo failing, the failed commit's landing stopped part-way: the room refused
    writes for good, no table moved again (CI's run of test_cluster_room: a woken
    process read back a table whose session was ended again). The table is read again
    before its next change."""
    _survive(room_db, _unreadable_after_failing)


HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def _health(url: str) -> tuple[int, str]:
    """``/healthz``: its status and text (a slow answer fails the test)."""
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=3) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_writer_holding_the_lock(tmp_path: Path, monkeypatch: Any) -> None:
    """Another process holds the write lock (for 2.5 s here; benches/README.md has the
    12 s figures): ``/healthz`` answers throughout and says so, and every table moves
    again once the lock is released."""
    monkeypatch.setattr(commit, "LOCK_PATIENCE", 0.5)
    path = tmp_path / "tables.db"
    room = Room.open(str(path), SETTINGS)
    with ServerThread(room) as server:
        time.sleep(0.5)
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path), "2.5"], stdout=subprocess.PIPE, text=True
        )
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        answers = []
        while holder.poll() is None:
            answers.append(_health(server.url))
            time.sleep(0.02)
        holder.wait()
        assert answers and all(status in (200, 503) for status, _ in answers)
        assert any(status == 503 and "refuses writes" in text for status, text in answers)
        hands = {i: r.table.hand_number for i, r in room.runners.items()}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if all(r.table.hand_number > hands[i] + 1 for i, r in room.runners.items()):
                break
            time.sleep(0.01)
        assert all(r.table.hand_number > hands[i] + 1 for i, r in room.runners.items())
        assert _health(server.url) == (200, "ok")


@contextlib.contextmanager
def _small_disk(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (the test is skipped where mounting is
    not allowed)."""
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_disk_that_fills_and_frees(tmp_path: Path, watchdog: None) -> None:
    with _small_disk(tmp_path / "disk", "4m") as disk:
        path = disk / "tables.db"
        room = Room.open(str(path), SETTINGS)

        async def scenario() -> None:
            await room.start()
            spectator = Spectator(room)
            try:
                for _ in range(3):
                    filler = fill(disk)
                    for _ in range(3000):
                        if room.commit.refusing is not None:
                            break
                        await asyncio.sleep(0.01)
                    assert room.commit.refusing is not None, "the disk never filled"
                    assert "refuses writes" in (room.health() or "")
                    await asyncio.sleep(0.3)
                    os.unlink(filler)
                    assert await _moves_again(room), "a table froze after the disk freed"
            finally:
                spectator.stop()
                await room.stop()
            _check_restart(path, room, spectator.seen)

        asyncio.run(scenario())
