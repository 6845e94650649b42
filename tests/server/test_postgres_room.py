"""A room served from PostgreSQL by one process (issue 33): made fresh or as copied from
SQLite, refused where the schema holds something else, and held by one server at a
time (a session advisory lock of the room's schema, released when the server's session
ends) until tables are leased."""

from __future__ import annotations

import contextlib
import os
import random
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main
from doubleholdem.database.url import connect
from doubleholdem.errors import DamagedDatabase
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.lock import DatabaseInUse
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
        db.execute("UPDATE meta SET value = '10' WHERE key = 'schema'").close()
    with pytest.raises(
        DamagedDatabase,
        match="written with schema version 10; a room in PostgreSQL is of version 9, 5, 6, 7 or 8",
    ):
        Storage(postgres_url)


def _hand(number: int, players: tuple[str, str], occupancies: tuple[int, int] | None) -> list[Any]:
    """A finished hand's log as the index reads it: its end's time, its PHH record."""
    record: dict[str, Any] = {"kind": "phh", "hand_number": number, "table": 0}
    record.update(seats=[1, 2], players=list(players), text=f"hand {number}")
    if occupancies is not None:  # a hand stored before records named occupancies: none
        record["occupancies"] = list(occupancies)
    return [{"kind": "hand_end", "at": 1000.0 + number}, record]


def _reads(store: Storage) -> list[Any]:
    """What the room reads of its finished hands: the last hands, each seating's (its
    occupancy, player and seat), each player's records, then again after a retention
    step by count that spares ann's seating 1 in seat 0."""
    seatings = [(o, p, s) for o in (1, 2, 3) for p in ("ann", "bob") for s in (0, 1)]
    reads: list[Any] = [store.hands(0, last=7)]
    reads += [store.seat_hands(0, seating, last=4) for seating in seatings]
    reads += [store.player_hands(name, last=5) for name in ("ann", "bob", "cy")]
    with store.transaction():
        store.forget_hands(0, 40, 10, open_seats=[(1, "ann", 0)], protect=3)
    return [*reads, [number for number, _ in store.hands(0, last=100)]]


def test_the_hand_index_reads_the_same_on_both_databases(tmp_path: Path, postgres_url: str) -> None:
    """The same hands stored in SQLite and PostgreSQL read back the same way (the
    seating's and the player's queries are said in each database's words)."""
    rng = random.Random(4)
    hands = []
    for number in range(1, 41):
        players = rng.choice([("ann", "bob"), ("bob", "ann"), ("ann", "cy"), ("cy", "bob")])
        occupancies = None if number <= 8 else (rng.randint(1, 3), rng.randint(1, 3))
        hands.append(_hand(number, players, occupancies))
    found = []
    for target in (str(tmp_path / "tables.db"), postgres_url):
        store = Storage(target)
        try:
            with store.transaction():
                for number, log in enumerate(hands, 1):
                    store.put_hand(0, number, log)
            found.append(_reads(store))
        finally:
            store.close()
    assert found[0] == found[1]
    reads = found[0]
    assert all(reads[1:16])  # every seating's hands and player's records found
    kept = reads[-1]  # the last 10, and up to 3 older ones of ann's seating spared
    assert kept[-10:] == list(range(31, 41)) and 1 <= len(kept) - 10 <= 3


def test_a_damaged_room_is_repaired_with_its_tables_kept_in_a_schema_beside_it(
    postgres_url: str,
) -> None:
    """``serve --repair`` keeps the room as it was before it drops a damaged table: a
    SQLite room's file copied, a PostgreSQL room's tables into a schema beside its own
    (``ROOM_before_repair``, then ``_2``: each repair its own)."""
    stored_mid_hand(postgres_url, SETTINGS)
    with contextlib.closing(connect(postgres_url)) as db:
        db.execute("DELETE FROM moves WHERE number = 2").close()
        (schema,) = db.execute("SELECT current_schema()").fetchone()
    for kept in (f"{schema}_before_repair", f"{schema}_before_repair_2"):
        if kept.endswith("_2"):  # damaged again, repaired again
            with contextlib.closing(connect(postgres_url)) as db:
                db.execute("DELETE FROM heads WHERE table_id = 0").close()
        room = Room.open(postgres_url, SETTINGS, repair=True)
        try:
            assert len(room.repaired) == 1 and "table 1: " in room.repaired[0]
        finally:
            room.store.close()
        with contextlib.closing(connect(postgres_url)) as db:
            copied = db.execute(f'SELECT COUNT(*) FROM "{kept}".moves').fetchone()
            (tables,) = db.execute(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?",
                (kept,),
            ).fetchone()
            (own,) = db.execute(
                "SELECT COUNT(*) FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            ).fetchone()
        assert copied == ((2,) if kept.endswith("repair") else (0,)) and tables == own
    Room.open(postgres_url, SETTINGS).store.close()  # whole again
    with contextlib.closing(connect(postgres_url)) as db:  # the cluster's schemas are shared
        for kept in (f"{schema}_before_repair", f"{schema}_before_repair_2"):
            db.execute(f'DROP SCHEMA "{kept}" CASCADE').close()


def test_another_connections_commit_changes_the_data_version(postgres_url: str) -> None:
    """What the accounts' watch looks at (a freeze from the command line) changes when
    another connection commits to the room's database."""
    store = Storage(postgres_url)
    try:
        before = store.data_version()
        with contextlib.closing(connect(postgres_url)) as other:
            other.execute("UPDATE meta SET value = value WHERE key = 'schema'").close()
        assert store.data_version() != before
    finally:
        store.close()
