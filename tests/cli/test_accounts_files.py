"""``doubleholdem accounts`` reads what it is given without changing it (issue 30, item
6 and its LOWs): the audit opens the database read-only, so a ledger whose append-only
triggers were dropped is reported (the audit no longer re-creates them, erasing the
evidence); it holds the open seats (``account_seats``) against the tables it replays;
every command but ``create`` refuses a file that is not a doubleholdem room database
and writes nothing into it (no schema, no WAL mode); SQLite's errors (a text file, a
held lock) are one line and exit status 2, never an internal error."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

import doubleholdem.accounts.bank as bank_module
from accounts_harness import run_accounts as _run
from doubleholdem.accounts.schema import APPEND_ONLY_TRIGGERS
from money_room import kinds, money_room, send, sign_up

PASSWORD = "a long pass phrase"
# every command but create, with what it needs besides --db
COMMANDS = [
    ["freeze", "ann"],
    ["unfreeze", "ann"],
    ["close", "ann"],
    ["deposit", "ann", "5", "--ref", "r"],
    ["withdraw", "ann", "5", "--ref", "r"],
    ["show", "ann"],
    ["audit"],
    ["audit", "--json"],
    ["shared-addresses"],
]


def _files(path: Path) -> dict[str, str]:
    """The digest of the file at ``path`` and of each file beside it that SQLite keeps
    (its log and shared memory), by name."""
    found = {}
    for each in sorted(path.parent.iterdir()):
        if each.name.startswith(path.name):
            found[each.name] = hashlib.sha256(each.read_bytes()).hexdigest()
    return found


@pytest.fixture
def room_db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "room.db"
    status, _, _ = _run(capsys, "create", "ann", "--db", str(path), stdin=PASSWORD + "\n")
    assert status == 0
    assert _run(capsys, "deposit", "ann", "50", "--ref", "r1", "--db", str(path))[0] == 0
    return path


def test_the_audit_reports_dropped_triggers_and_leaves_them_dropped(
    room_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = sqlite3.connect(room_db)
    for name in APPEND_ONLY_TRIGGERS:
        raw.execute(f"DROP TRIGGER {name}")
    raw.commit()
    raw.close()
    before = _files(room_db)
    for _ in range(2):  # the second audit finds them missing still: the first re-made none
        status, out, err = _run(capsys, "audit", "--json", "--db", str(room_db))
        assert (status, err) == (1, "")
        assert json.loads(out)["problems"] == [
            f"the append-only trigger {name} is missing" for name in sorted(APPEND_ONLY_TRIGGERS)
        ]
    assert _files(room_db)[room_db.name] == before[room_db.name]  # the database unchanged
    raw = sqlite3.connect(room_db)
    triggers = raw.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    raw.close()
    assert triggers == []


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_foreign_sqlite_file_is_refused_and_left_as_it_was(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "photos.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    raw.execute("INSERT INTO photos VALUES (1, 'cat.jpg')")
    raw.commit()
    raw.close()
    before = _files(path)
    status, out, err = _run(capsys, *command, "--db", str(path))
    assert (status, out) == (2, "")
    assert err == (
        f"doubleholdem: error: {path}: not a doubleholdem room database "
        "(it has no accounts tables)\n"
    )
    assert _files(path) == before  # no schema written, no WAL mode
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert raw.execute("SELECT name FROM sqlite_master").fetchall() == [("photos",)]
    raw.close()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_text_file_is_one_line_and_status_2(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 100, encoding="utf-8")
    before = _files(path)
    status, out, err = _run(capsys, *command, "--db", str(path))
    assert (status, out) == (2, "")
    assert err == (
        f"doubleholdem: error: {path}: not a doubleholdem room database (SQLite: file is not "
        "a database)\n"
    )
    assert _files(path) == before


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_held_lock_is_one_line_and_status_2(
    command: list[str],
    room_db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bank_module, "BUSY_SECONDS", 0.05)
    holder = sqlite3.connect(room_db, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("DELETE FROM accounts_meta WHERE key = 'nothing'")
    try:
        status, out, err = _run(capsys, *command, "--db", str(room_db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (status, out) == (2, "")
    assert err == (
        f"doubleholdem: error: {room_db}: the database is locked by another process "
        "(SQLite: database is locked): try again\n"
    )


def _seated_room(path: Path) -> None:
    """A room database where ann (seated at table 1) and bob (not seated) have accounts."""
    room = money_room(path=str(path))
    ann = sign_up(room, "ann", 1000)
    sign_up(room, "bob", 1000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    room.store.close()


def _edit(path: Path, statement: str) -> None:
    raw = sqlite3.connect(path)
    raw.execute(statement)
    raw.commit()
    raw.close()


def test_the_audit_holds_the_open_seats_against_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "room.db"
    _seated_room(path)
    status, out, _ = _run(capsys, "audit", "--json", "--db", str(path))
    assert (status, json.loads(out)["problems"]) == (0, [])

    ann = "(SELECT id FROM accounts WHERE name = 'ann')"
    bob = "(SELECT id FROM accounts WHERE name = 'bob')"
    _edit(path, f"DELETE FROM account_seats WHERE account_id = {ann}")
    status, out, _ = _run(capsys, "audit", "--json", "--db", str(path))
    assert (status, json.loads(out)["problems"]) == (
        1,
        ["table 1: ann is seated there but has no open seat there in the ledger"],
    )
    _edit(path, f"INSERT INTO account_seats VALUES ({ann}, 0)")
    _edit(path, f"INSERT INTO account_seats VALUES ({bob}, 0)")  # an invented seat
    _edit(path, f"INSERT INTO account_seats VALUES ({bob}, 7)")  # at no table at all
    status, out, _ = _run(capsys, "audit", "--json", "--db", str(path))
    assert (status, json.loads(out)["problems"]) == (
        1,
        [
            "table 1: bob has an open seat there in the ledger but is not seated there",
            "table 8: bob has an open seat there in the ledger but is not seated there",
        ],
    )
