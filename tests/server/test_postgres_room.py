"""A room served from PostgreSQL by one process (issue 33): made fresh or as copied from
SQLite, refused where the schema holds something else, and held by one server at a
time (a session advisory lock of the room's schema, released when the server's session
ends) until tables are leased."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from doubleholdem.cli import main
from doubleholdem.database.url import connect
from doubleholdem.errors import DamagedDatabase, DatabaseInUse
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.room import Room
from server_harness import stored_mid_hand

SETTINGS = RoomSettings(tables=1, bots=4, bot_delay=0.0, pause=0.0, seed=3)


def test_a_second_server_on_the_same_room_is_refused_naming_the_first(postgres_url: str) -> None:
    first = Storage(postgres_url)
    try:
        with pytest.raises(
            DatabaseInUse, match=f"in use by doubleholdem serve, process {os.getpid()} "
        ):
            Storage(postgres_url)
        with contextlib.closing(connect(postgres_url)) as db:  # refused: nothing changed
            assert db.execute("SELECT value FROM meta WHERE key = 'tables'").fetchone() == ("0",)
    finally:
        first.close()
    Storage(postgres_url).close()  # the first one's end lets the next one in


def test_a_room_copied_from_sqlite_is_served_as_it_was(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "room.db"
    tables = stored_mid_hand(source, SETTINGS)
    assert main(["db", "copy", str(source), postgres_url]) == 0
    capsys.readouterr()
    room = Room.open(postgres_url, SETTINGS)
    try:
        assert {i: r.table.to_json() for i, r in room.runners.items()} == tables
    finally:
        room.store.close()


def test_a_schema_of_other_tables_is_refused_and_left_as_it_is(postgres_url: str) -> None:
    with contextlib.closing(connect(postgres_url)) as db:
        db.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY)").close()
    with pytest.raises(DamagedDatabase, match=r"not a doubleholdem database \(tables orders"):
        Storage(postgres_url)
    with contextlib.closing(connect(postgres_url)) as db:
        found = db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
    assert found == [("orders",)]


def test_a_room_of_another_schema_version_is_refused_naming_it(postgres_url: str) -> None:
    Storage(postgres_url).close()
    with contextlib.closing(connect(postgres_url)) as db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'schema'").close()
    with pytest.raises(
        DamagedDatabase, match="written with schema version 9; a room in PostgreSQL is of version 5"
    ):
        Storage(postgres_url)
