"""The server's durable state (python/doubleholdem/server/storage/storage.py): a table is its last
snapshot with the moves made since replayed through the rules. After every committed
change of many random hands, that gives the live table exactly; most changes store a
move, not a snapshot; and edited, reordered, missing, foreign or unplayable move rows
are refused on restore with a clear error."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from doubleholdem.database.connection import Connection
from doubleholdem.database.url import connect
from doubleholdem.errors import TamperedSnapshot
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.storage.storage import Storage, move_hash, read_tables
from doubleholdem.server.storage.survey import read_table
from doubleholdem.server.tables.room import Room
from server_harness import stored_mid_hand, until_hands

HANDS = 30
DATA = Path(__file__).parent / "data"


class RestoreCheck:
    """After each commit (:meth:`GroupCommit.flush`), every table restored from the database
    must be the live table (a flush that finds the write lock held, as a checkpoint may
    hold it for a moment, commits nothing and leaves a later flush due: that one is
    checked)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.flush = room.commit.flush
        self.checked = 0
        self.most_moves = 0
        self.problems: list[str] = []

    def __call__(self) -> None:
        self.flush()
        if not self.room.commit.ready.is_set():
            return  # the commit waits for the write lock: checked at the flush that makes it
        for stored in self.room.store.tables():
            self.most_moves = max(self.most_moves, len(stored.moves))
            self.checked += 1
            live = self.room.runners[stored.id].table
            if restore(stored).to_json() != live.to_json():
                self.problems.append(f"table {stored.id} hand {live.hand_number}")


async def _play(room: Room) -> None:
    await room.start()
    try:
        for runner in room.runners.values():
            connection = room.connect()
            connection.outbox.put_nowait = lambda text: None  # type: ignore[method-assign]
            room._watch(connection, runner, None)
        await until_hands(room, HANDS)
    finally:
        await room.stop()


def test_restore_gives_the_live_table_after_every_change(room_db: str, monkeypatch: Any) -> None:
    # the check reads the database as each flush returns: the commit on the event loop
    # (on PostgreSQL it runs on the commit's thread, landing later)
    monkeypatch.setattr(Storage, "commits_off_loop", property(lambda self: False))
    settings = RoomSettings(tables=2, bots=6, bot_delay=0.0, pause=0.0, seed=5)
    room = Room.open(room_db, settings)
    check = RestoreCheck(room)
    room.commit.flush = check  # type: ignore[method-assign]
    asyncio.run(_play(room))
    assert check.problems == []
    assert check.checked > 300 and check.most_moves >= 5
    reopened = Room.open(room_db, settings)  # as after a restart
    for table_id, runner in reopened.runners.items():
        assert runner.table.to_json() == room.runners[table_id].table.to_json()
    reopened.store.close()


def _stored_mid_hand(room_db: str) -> str:
    """A database whose table 0 has a few moves after its snapshot."""
    stored_mid_hand(room_db, RoomSettings(tables=1, bots=4, bot_delay=0.0, pause=0.0, seed=3))
    return room_db


@contextlib.contextmanager
def _connected(target: str) -> Iterator[Connection]:
    db = connect(target)
    try:
        yield db
    finally:
        db.close()


def _edit(target: str, sql: str, *args: object) -> None:
    with _connected(target) as db:
        db.execute(sql, args).close()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE moves SET move = replace(move, '[\"decide\",', '[\"decide\", ') WHERE number = 2",
        "DELETE FROM moves WHERE number = 2",
        "UPDATE moves SET number = number + 10 WHERE number = 2",
        "UPDATE tables SET snapshot = snapshot || ' '",
    ],
    ids=["edited", "missing", "reordered", "other snapshot"],
)
def test_tampered_move_rows_are_refused(room_db: str, sql: str) -> None:
    path = _stored_mid_hand(room_db)
    _edit(path, sql)
    with _connected(path) as db, pytest.raises(TamperedSnapshot, match="table 0"):
        [restore(t) for t in read_tables(db)]
    with pytest.raises(TamperedSnapshot):
        Room.open(path, RoomSettings(tables=1, bots=4))


class _WrittenBetween:
    """A connection on which, right after the statement that reads table 0's head,
    another process stores table 0's next move (as the one that took the table over
    from this one does)."""

    def __init__(self, db: Connection, target: str) -> None:
        self.db = db
        self.target = target

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        cursor = self.db.execute(sql, parameters)
        if "JOIN heads" in sql:
            with _connected(self.target) as other:
                other.execute("BEGIN").close()
                other.execute(
                    "INSERT INTO moves (table_id, number, move, sha256) SELECT table_id,"
                    " number + 1000, move, sha256 FROM moves WHERE table_id = 0 AND number = 1"
                ).close()
                other.execute("UPDATE heads SET moves = moves + 1 WHERE table_id = 0").close()
                other.execute("COMMIT").close()
        return cursor


def test_a_table_is_read_in_one_picture_while_another_process_writes_it(
    postgres_url: str,
) -> None:
    """A table read back (after a failed commit) while the process that took it over
    writes it: its head and its moves are read as of one moment. Before, a move stored
    between the two reads failed the table as tampered (``2 moves stored, its head
    1``), and the failed commit's landing stopped there for good (CI's run of
    test_cluster_room). PostgreSQL: the room of many processes."""
    path = _stored_mid_hand(postgres_url)
    with _connected(path) as db:
        before = read_table(db, 0)
        during = read_table(cast(Connection, _WrittenBetween(db, path)), 0)
        (head,) = db.execute("SELECT moves FROM heads WHERE table_id = 0").fetchone()
    assert during == before
    assert head == len(before.moves) + 1  # (written meanwhile: not one of its moves)


def test_a_move_the_rules_refuse_is_refused(room_db: str) -> None:
    path = _stored_mid_hand(room_db)
    with _connected(path) as db:
        (snapshot,) = db.execute("SELECT snapshot FROM tables").fetchone()
        move = json.dumps(["decide", 9, "call", None, 1e18])  # checksum right, move not
        db.execute("UPDATE moves SET move = ?, sha256 = ? WHERE number = 3",
                   (move, move_hash(snapshot, 3, move)))  # fmt: skip
    with (
        _connected(path) as db,
        pytest.raises(TamperedSnapshot, match="table 0: move 3 cannot be replayed"),
    ):
        restore(read_tables(db)[0])


@pytest.mark.parametrize("name", ["schema3.db", "schema4.db"])
def test_the_tables_of_old_databases_read_as_before(tmp_path: Path, name: str) -> None:
    """Each table of the databases written by older code (tests/server/data), its
    snapshot with its moves replayed, shows what it showed before the table's entries
    were typed records (data/restored_before.json, written by a7926d0's code): the
    same snapshot text, log, seats' views and own entries, byte for byte."""
    before = json.loads((DATA / "restored_before.json").read_text())
    path = tmp_path / name
    shutil.copy(DATA / name, path)
    db = sqlite3.connect(path)
    tables = read_tables(db)
    db.close()
    assert sorted(f"{name}:{stored.id}" for stored in tables) == sorted(
        key for key in before if key.startswith(f"{name}:")
    )
    for stored in tables:
        table, written = restore(stored), before[f"{name}:{stored.id}"]
        assert table.to_json() == written["json"]
        assert json.dumps(table.event_log(everything=True)) == written["log"]
        seen = [json.dumps(table.event_log(seat)) for seat in range(table.config.seats)]
        assert seen == written["seen"]
        assert json.dumps(table.seating_entries(0)) == written["seating"]
        assert len(stored.moves) == written["moves"]
