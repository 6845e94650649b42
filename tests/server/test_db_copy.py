"""``doubleholdem db copy``: a room's SQLite file copied into PostgreSQL, every row as it
was, audited before and after (issue 33 item 6); the copy is then a room database the
accounts' commands read and write (the room's read path on PostgreSQL: its tables'
snapshots and moves replayed for the audit's chips). A source whose audit fails, a
target that holds a room, a copy whose audit differs: nothing is written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from accounts_harness import run_accounts
from doubleholdem.cli import main
from doubleholdem.database.connection import has_table
from doubleholdem.database.url import connect
from doubleholdem.table import Decision
from money_room import kinds, money_room, play_hand, send, sign_up


@pytest.fixture
def room_file(tmp_path: Path) -> Path:
    """A room with accounts: two hands played at table 0 with the rake to the house,
    the third begun (its pot in the moves), a chat line; closed."""
    path = tmp_path / "room.db"
    room = money_room(path=str(path))
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
    assert kinds(send(room, bob, type="sit", table=0, name="bob", buy_in=300)) == ["seated"]
    runner = room.runners[0]
    play_hand(runner)
    play_hand(runner)
    with runner.change():
        runner.table.start_hand(now=100.0)
    legal = runner.table.legal_actions()
    assert legal is not None
    with runner.change(moves=True):
        runner.decide(legal.seat, Decision("call"), 100.0)
    send(room, ann, type="chat", text="good luck")
    room.store.close()
    return path


def _copy(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["db", "copy", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _rows(db: Any, table: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in db.execute(f"SELECT * FROM {table}"))


def test_a_room_is_copied_row_for_row_and_goes_on_in_postgresql(
    room_file: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _copy(capsys, str(room_file), postgres_url)
    assert status == 0, err
    assert out.startswith(f"copied {room_file} into postgresql://")
    assert "the audit holds before and after" in out
    assert "copied ledger_transactions: " in err  # progress, table by table
    source, target = sqlite3.connect(room_file), connect(postgres_url)
    names = [n for (n,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert {"moves", "hands", "ledger_transactions", "chat"} <= set(names)
    for table in names:
        if not table.startswith("sqlite_"):
            assert _rows(target, table) == _rows(source, table), table
    moves = target.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    assert moves > 0  # a hand in progress: its moves replayed for the audit
    # the copy is a room the accounts' commands use, and its numbering goes on
    status, out, _ = run_accounts(capsys, "audit", "--json", "--db", postgres_url)
    assert (status, json.loads(out)["problems"]) == (0, [])
    (last,) = source.execute("SELECT MAX(seq) FROM ledger_transactions").fetchone()
    status, out, _ = run_accounts(
        capsys, "deposit", "ann", "5", "--ref", "r9", "--db", postgres_url
    )
    assert status == 0 and f"transaction {last + 1};" in out
    status, out, _ = run_accounts(
        capsys, "create", "cy", "--db", postgres_url, stdin="a long pass phrase\n"
    )
    assert (status, out) == (0, "created player cy\n")
    assert run_accounts(capsys, "audit", "--db", postgres_url)[0] == 0
    source.close()
    target.close()


def test_a_target_that_holds_a_room_is_refused(
    room_file: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _copy(capsys, str(room_file), postgres_url)[0] == 0
    target = connect(postgres_url)
    before = _rows(target, "ledger_transactions")
    status, out, err = _copy(capsys, str(room_file), postgres_url)
    assert (status, out) == (2, "") and "holds a room already" in err
    assert _rows(target, "ledger_transactions") == before
    target.close()


def test_a_room_whose_audit_fails_is_not_copied(
    room_file: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(room_file) as db:
        db.execute("UPDATE ledger_accounts SET balance = balance + 7 WHERE name = 'ann'")
    status, out, _ = _copy(capsys, str(room_file), postgres_url)
    assert status == 1 and "the audit finds problems, nothing copied" in out
    assert "player ann: the balance is" in out
    target = connect(postgres_url)
    assert not has_table(target, "meta") and not has_table(target, "accounts")
    target.close()


def test_a_copy_whose_audit_differs_is_rolled_back(
    room_file: Path,
    postgres_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from doubleholdem.server.money import money

    real = money.audit_room
    audits: list[dict[str, Any]] = []

    def second_differs(db: Any, key: bytes | None = None) -> dict[str, Any]:
        found = real(db, key)
        if audits:
            found = {**found, "ok": False, "problems": ["invented"]}
        audits.append(found)
        return found

    monkeypatch.setattr(money, "audit_room", second_differs)
    status, out, _ = _copy(capsys, str(room_file), postgres_url)
    assert status == 1 and "differs from the source's, nothing copied" in out and len(audits) == 2
    target = connect(postgres_url)
    assert not has_table(target, "meta")
    target.close()


@pytest.mark.parametrize(
    "source, target, message",
    [
        ("room.db", "other.db", "TARGET is a PostgreSQL URL"),
        ("missing.db", "postgresql://h/db", "no such file missing.db"),
        ("postgresql://h/a", "postgresql://h/db", "SOURCE is a room's SQLite file"),
    ],
)
def test_bad_arguments_are_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    source: str,
    target: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "room.db").write_bytes(b"")
    status, out, err = _copy(capsys, source, target)
    assert (status, out) == (2, "") and err.count("\n") == 1 and message in err


def test_a_file_that_is_not_a_room_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (x)")
    status, _, err = _copy(capsys, str(path), postgres_url)
    assert status == 2 and "not a room database of schema 9" in err


def test_ctrl_c_stops_the_copy_with_nothing_written(
    room_file: Path,
    postgres_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from doubleholdem.cli import db as command

    def interrupted(table: str, rows: int) -> None:
        if table == "hands":
            raise KeyboardInterrupt

    monkeypatch.setattr(command, "_progress", interrupted)
    status, out, err = _copy(capsys, str(room_file), postgres_url)
    assert (status, out) == (130, "") and "interrupted" in err
    target = connect(postgres_url)
    assert not has_table(target, "meta") and not has_table(target, "ledger_transactions")
    target.close()


def test_json_names_the_rows_and_both_audits_without_the_password(
    room_file: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with_password = postgres_url.replace("dh@", "dh:s3cret@")  # trust: any password works
    status, out, err = _copy(capsys, str(room_file), with_password, "--json")
    assert (status, err) == (0, "")  # no progress lines with --json
    result = json.loads(out)
    assert result["copied"] is True and result["target"] == postgres_url
    assert result["before"] == result["after"] == {"ok": True, "problems": [], "unchecked": []}
    source = sqlite3.connect(room_file)
    for table, rows in result["rows"].items():
        assert source.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (rows,)
    source.close()
    assert "s3cret" not in out
