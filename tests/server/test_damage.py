"""A damaged database is refused, never half-used (issue 17, item 3): missing or extra
``tables`` rows, moves cut off at the end, an empty or foreign file, another schema,
out-of-range seats and a bad bots column each make ``serve`` exit with status 2 naming
the table and the problem; ``serve --repair`` keeps every table that holds together and
replaces the rest; a database of the previous schema is upgraded in place; and one
server holds a database at a time."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.database.url import connect
from doubleholdem.errors import DamagedDatabase
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.storage.lock import DatabaseInUse
from doubleholdem.server.tables.room import Room
from server_harness import stored_mid_hand

SETTINGS = RoomSettings(tables=3, bots=4, bot_delay=0.0, pause=0.0, seed=3)


def _stored(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """A database of three tables, table 0 with three moves after its snapshot, and each
    table as stored."""
    path = tmp_path / "tables.db"
    return path, stored_mid_hand(path, SETTINGS)


def _edit(path: Path, *statements: str) -> None:
    with sqlite3.connect(str(path)) as db:
        for sql in statements:
            db.execute(sql)


DAMAGE = {
    "missing row": ("DELETE FROM tables WHERE id = 1", 1, "its row in tables is missing"),
    "missing last row": ("DELETE FROM tables WHERE id = 2", 2, "its row in tables is missing"),
    "extra row": (
        "INSERT INTO tables SELECT 7, snapshot, bots FROM tables WHERE id = 0",
        7,
        "beyond the 3 tables created",
    ),
    "moves cut off": ("DELETE FROM moves WHERE number = 3", 0, "last moves are missing"),
    "all moves cut off": ("DELETE FROM moves", 0, "last moves are missing: 0 of 3"),
    "head missing": ("DELETE FROM heads WHERE table_id = 0", 0, "head"),
    "seat out of range": (
        "INSERT INTO tokens VALUES ('hash', 1, 12, 'ann')",
        1,
        "a seat token for seat 13",  # numbered from 1, as every message people read
    ),
    "bots not JSON": ("UPDATE tables SET bots = '{' WHERE id = 1", 1, "bots column is not JSON"),
    "bots not seats": ("UPDATE tables SET bots = '[1]' WHERE id = 1", 1, "not an object of seats"),
    "bot seat not a number": (
        """UPDATE tables SET bots = '{"\u00b2": "random"}' WHERE id = 1""",
        1,
        "not an object of seats",
    ),
    "bot of no kind": (
        """UPDATE tables SET bots = '{"0": "shark"}' WHERE id = 1""",
        1,
        "bots column names seat 1",
    ),
    "bot seat out of range": (
        """UPDATE tables SET bots = '{"0": "random", "40": "random"}' WHERE id = 1""",
        1,
        "bots column names seat 41",
    ),
}


@pytest.mark.parametrize("sql, table, problem", DAMAGE.values(), ids=DAMAGE.keys())
def test_damage_is_refused_and_repaired(tmp_path: Path, sql: str, table: int, problem: str) -> None:
    path, tables = _stored(tmp_path)
    _edit(path, sql)
    with sqlite3.connect(str(path)) as db:
        rows = db.execute("SELECT name, balance FROM ledger_accounts WHERE kind = 'table'")
        held = {int(name): balance for name, balance in rows}
    with pytest.raises(DamagedDatabase, match=f"table {table + 1}: .*{problem}.*--repair"):
        Room.open(str(path), SETTINGS)
    room = Room.open(str(path), SETTINGS, repair=True)
    try:
        assert room.repaired == [room.repaired[0]] and f"table {table + 1}: " in room.repaired[0]
        for table_id, runner in room.runners.items():  # the others exactly as they were
            if table_id != table:
                assert runner.table.to_json() == tables[table_id]
        assert table not in room.runners or room.runners[table].table.hand_number == 0
        assert sorted(room.runners) == [0, 1, 2]
        # the dropped table's chips went to the house through the ledger, in the
        # repair's transaction, and the new table's buy-ins are new movements
        assert audit_room(room.store.db) == {"ok": True, "problems": [], "unchecked": []}
        runner = room.runners.get(table)
        chips = 0 if runner is None else runner.table.chips()
        assert ledger.balance(room.store.db, ledger.table(table)) == chips
        repairs = room.store.db.execute(
            "SELECT key, memo FROM ledger_transactions WHERE kind = 'repair'"
        ).fetchall()
        if held.get(table):  # a table the ledger held chips at
            assert [key for key, _ in repairs] == [f"repair:{table}:0"]
            memo = json.loads(repairs[0][1])
            assert memo["table"] == table + 1 and memo["problem"] in room.repaired[0]
            assert f"its {held[table]} chips went to the house" in room.repaired[0]
        else:
            assert repairs == []
    finally:
        room.store.close()
    assert os.path.exists(str(path) + ".before-repair")
    Room.open(str(path), SETTINGS).store.close()  # whole again


@pytest.mark.parametrize("sql, table, problem", DAMAGE.values(), ids=DAMAGE.keys())
def test_damage_is_refused_on_postgresql(
    postgres_url: str, sql: str, table: int, problem: str
) -> None:
    """The same damage to a room in PostgreSQL is found and refused the same way, naming
    the table (its repair is refused there: tests/server/test_postgres_room.py)."""
    stored_mid_hand(postgres_url, SETTINGS)
    with contextlib.closing(connect(postgres_url)) as db:
        db.execute(sql).close()
    with pytest.raises(DamagedDatabase, match=f"table {table + 1}: .*{problem}.*--repair"):
        Room.open(postgres_url, SETTINGS)


@pytest.mark.parametrize(
    "sql, problem",
    [
        ("UPDATE meta SET value = '1000000000000' WHERE key = 'tables'", "not 0..100000"),
        ("INSERT INTO moves VALUES ('x', 1, '[]', '')", "id is not a whole number: 'x'"),
    ],
    ids=["too many tables", "an id not a number"],
)
def test_damage_to_the_whole_is_not_repaired(tmp_path: Path, sql: str, problem: str) -> None:
    path, _ = _stored(tmp_path)
    _edit(path, sql)
    for repair in (False, True):
        with pytest.raises(DamagedDatabase, match=problem):
            Room.open(str(path), SETTINGS, repair=repair)


def test_serve_exits_2_naming_the_table(tmp_path: Path) -> None:
    path, _ = _stored(tmp_path)
    _edit(path, "DELETE FROM tables WHERE id = 1")
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(path)]
    done = subprocess.run(
        [*command, "--port", "0"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "table 2: its row in tables is missing" in done.stderr  # id 1, the second table


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "the file is empty"),
        (b"name,stack\nann,1000\n" * 100, "not a doubleholdem database"),
    ],
    ids=["empty", "not SQLite"],
)
def test_an_empty_or_foreign_file_is_refused(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "tables.db"
    path.write_bytes(content)
    for repair in (False, True):
        with pytest.raises(DamagedDatabase, match=problem):
            Room.open(str(path), SETTINGS, repair=repair)
    assert path.read_bytes() == content


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(str(path)) as db:
        db.execute("CREATE TABLE players (name TEXT)")
    with pytest.raises(DamagedDatabase, match=r"not a doubleholdem database \(tables players"):
        Room.open(str(path), SETTINGS)


def test_the_accounts_tables_are_good_neighbours(tmp_path: Path) -> None:
    """A file where doubleholdem.accounts made its tables first is a new room's."""
    from doubleholdem.accounts.schema import ensure_schema

    path = tmp_path / "room.db"
    db = sqlite3.connect(str(path), isolation_level=None)
    ensure_schema(db)
    db.close()
    room = Room.open(str(path), SETTINGS)
    try:
        assert sorted(room.runners) == [0, 1, 2]
    finally:
        room.store.close()
    Room.open(str(path), SETTINGS).store.close()


def test_another_schema_is_refused_naming_both_versions(tmp_path: Path) -> None:
    path, _ = _stored(tmp_path)
    _edit(path, "UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(DamagedDatabase, match=f"version 99; .* reads version {SCHEMA_VERSION}"):
        Room.open(str(path), SETTINGS)


def test_the_previous_schema_is_upgraded_in_place(tmp_path: Path) -> None:
    path, tables = _stored(tmp_path)
    _edit(  # as schema 2 wrote it: no heads, no count of tables
        path,
        "DROP TABLE heads",
        "DELETE FROM meta WHERE key = 'tables'",
        "UPDATE meta SET value = '2' WHERE key = 'schema'",
    )
    room = Room.open(str(path), SETTINGS)
    try:
        assert {i: r.table.to_json() for i, r in room.runners.items()} == tables
    finally:
        room.store.close()
    with sqlite3.connect(str(path)) as db:
        schema = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        assert schema == (str(SCHEMA_VERSION),)
        assert db.execute("SELECT moves FROM heads WHERE table_id = 0").fetchone() == (3,)
    _edit(path, "DELETE FROM moves WHERE number = 3")  # and cut moves are now found
    with pytest.raises(DamagedDatabase, match="table 1: its last moves are missing"):
        Room.open(str(path), SETTINGS)


def test_one_server_per_database(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    room = Room.open(str(path), SETTINGS)
    try:
        with pytest.raises(DatabaseInUse, match=f"in use by process {os.getpid()}"):
            Room.open(str(path), SETTINGS)
        command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(path)]
        done = subprocess.run(
            [*command, "--port", "0"], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 2 and f"in use by process {os.getpid()}" in done.stderr
    finally:
        room.store.close()
    Room.open(str(path), SETTINGS).store.close()  # free again once the first has closed


def test_a_keyed_room_refuses_a_forged_table(tmp_path: Path) -> None:
    """Issue 17 item 6: with a snapshot key, a table edited in the database and given a
    fresh checksum is refused, naming the table; so is the database read without the key
    or with another one. With the key it restores as it was."""
    import hashlib
    import json
    from dataclasses import replace

    keyed = replace(SETTINGS, snapshot_key=b"k" * 32)
    path = tmp_path / "tables.db"
    room = Room.open(str(path), keyed)
    stacks = room.runners[1].table.chips()
    room.store.close()
    with sqlite3.connect(str(path)) as db:
        (text,) = db.execute("SELECT snapshot FROM tables WHERE id = 1").fetchone()
    assert '"hmac":' in text
    again = Room.open(str(path), keyed)
    assert again.runners[1].table.chips() == stacks
    again.store.close()
    for settings, said in ((SETTINGS, "keyed"), (replace(keyed, snapshot_key=b"x" * 32), "HMAC")):
        with pytest.raises(DamagedDatabase, match=f"table 1: .*{said}"):
            Room.open(str(path), settings)
    data = json.loads(text)
    data["table"]["seats"][0]["stack"] += 1000
    body = json.dumps(data["table"], separators=(",", ":"))
    forged = f'{{"version":1,"hmac":"{hashlib.sha256(body.encode()).hexdigest()}","table":{body}}}'
    _edit(path, f"UPDATE tables SET snapshot = '{forged}' WHERE id = 1")
    with pytest.raises(DamagedDatabase, match="table 2: table snapshot: the HMAC does not match"):
        Room.open(str(path), keyed)


def test_serve_reads_its_snapshot_key_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from doubleholdem.cli import main
    from doubleholdem.cli.serve import read_key

    key = tmp_path / "key"
    key.write_text("s" * 40 + "\n")
    assert read_key(str(key)) == b"s" * 40
    key.write_text("short\n")
    db = str(tmp_path / "t.db")
    assert main(["serve", "--snapshot-key", str(key), "--db", db, "--port", "0"]) == 2
    assert "a secret of at least 32 characters, not 5" in capsys.readouterr().err
    assert main(["serve", "--snapshot-key", "/dev/zero", "--db", db, "--port", "0"]) == 2
    assert "not a regular file" in capsys.readouterr().err
