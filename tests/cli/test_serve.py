"""``doubleholdem serve`` and ``loadtest`` refuse bad input with one line on stderr and
exit status 2."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main


@pytest.mark.parametrize(
    "words",
    [
        ["serve", "--tables", "many"],
        ["serve", "--bot-delay", "-1"],
        ["serve", "--sync", "off"],
        ["serve", "--keep-hands", "-1"],
        ["serve", "--keep-hands", "all"],
        ["serve", "--header-timeout", "0"],
        ["serve", "--per-address", "-3"],
        ["serve", "--welcome-chips", "-5"],
        ["serve", "--signup", "maybe"],
        ["serve", "--config", "/nonexistent/tables.toml"],
        ["loadtest", "--url", "http://127.0.0.1:9", "--clients", "0", "--seconds", "1"],
        ["loadtest", "--clients", "1", "--seconds", "1"],
        ["serve", "--port", "70000"],
        ["serve", "--port", "-1"],
        ["serve", "--config", "/dev/zero"],
        ["serve", "--config", "/"],
        ["serve", "--keep-hands-days", "0"],
        ["serve", "--keep-hands-days", "nan"],
        ["serve", "--keep-hands", "-1"],
        ["serve", "--hash-slots", "0"],
        ["serve", "--hash-slots", "65"],
        ["serve", "--hash-slots", "many"],
        ["loadtest", "--url", "http://127.0.0.1:9", "--clients", "1", "--seconds", "nan"],
        ["loadtest", "--url", "http://127.0.0.1:9", "--clients", "1", "--seconds", "1e9"],
        [
            "loadtest",
            "--url",
            "http://127.0.0.1:9",
            "--clients",
            "1",
            "--seconds",
            "1",
            "--think",
            "-1",
        ],
    ],
)
def test_bad_input(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(words) == 2
    err = capsys.readouterr().err
    assert re.match(r"doubleholdem( serve| loadtest)?: error: ", err) and err.count("\n") == 1


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["serve", "--port", "70000"], "70000 is not a port in 0..65535"),
        (["serve", "--config", "/dev/zero"], "/dev/zero: not a regular file"),
    ],
)
def test_the_refusal_names_the_value_and_the_range(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(words) == 2
    assert said in capsys.readouterr().err


def test_a_config_file_over_the_cap_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from doubleholdem.server.settings import MAX_CONFIG_BYTES

    path = tmp_path / "tables.toml"
    path.write_text("# " + "x" * MAX_CONFIG_BYTES + "\n[[table]]\nseats = 4\n")
    assert main(["serve", "--config", str(path), "--db", str(tmp_path / "x.db")]) == 2
    assert f"larger than {MAX_CONFIG_BYTES} bytes" in capsys.readouterr().err


def test_bad_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tables.toml"
    for text in (
        "[[table]]\nseats = 4\n",
        "not toml [",
        "[[table]]\nsmall_blind = 5\nbig_blind = 10\nseats = 11\n",
    ):
        path.write_text(text)
        assert main(["serve", "--config", str(path), "--db", str(tmp_path / "x.db")]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert main(["serve", "--port", port, "--db", str(tmp_path / "t.db")]) == 2
    assert "cannot listen" in capsys.readouterr().err


def test_serve_opens_sign_up_with_welcome_chips(tmp_path: Path) -> None:
    """``serve --signup open --welcome-chips N``: an account made on the page has N chips
    (OWASP's Argon2id, as a room runs it)."""
    import json
    import subprocess
    import sys
    import urllib.request

    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(tmp_path / "t.db")]
    command += ["--port", "0", "--tables", "1", "--signup", "open", "--welcome-chips", "250"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "open http://127.0.0.1:" in line, line
        url = line.split("open ", 1)[1].strip()
        assert "accounts: sign-up open, 250 welcome chips" in process.stdout.readline()
        body = json.dumps({"name": "ann", "password": "correct horse"}).encode()
        request = urllib.request.Request(
            url + "api/signup", body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 201
            assert json.loads(reply.read())["balance"] == 250
    finally:
        process.terminate()
        process.wait(30)


def _served(tmp_path: Path, *words: str, db: str | None = None) -> Any:
    """``serve`` in a process of its own on a free port (one table, sign-up open), on
    ``db`` (by default a file in ``tmp_path``): the process and its page's URL."""
    import subprocess
    import sys

    db = str(tmp_path / "t.db") if db is None else db
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", db]
    command += ["--port", "0", "--tables", "1", "--signup", "open", *words]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "open http://127.0.0.1:" in line, line
    return process, line.split("open ", 1)[1].strip()


def _sign_up(url: str, name: str, forwarded_for: str) -> int:
    import json
    import urllib.error
    import urllib.request

    body = json.dumps({"name": name, "password": "correct horse"}).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for}
    request = urllib.request.Request(url + "api/signup", body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.parametrize(
    ("words", "recorded"),
    [([], "127.0.0.1"), (["--forwarded-allow-ips", "127.0.0.1"], "198.51.100.7")],
)
def test_serve_believes_forwarded_addresses_only_when_told(
    tmp_path: Path, words: list[str], recorded: str
) -> None:
    """``X-Forwarded-For`` from the server's own machine is not believed by default
    (uvicorn's default would), only from ``--forwarded-allow-ips``."""
    import sqlite3

    process, url = _served(tmp_path, *words)
    try:
        assert _sign_up(url, "ann", "198.51.100.7") == 201
    finally:
        process.terminate()
        process.wait(30)
    db = sqlite3.connect(tmp_path / "t.db")
    assert db.execute("SELECT address FROM account_addresses").fetchall() == [(recorded,)]


def test_serve_takes_signups_per_address_from_the_config(tmp_path: Path) -> None:
    config = tmp_path / "room.toml"
    config.write_text('[room]\nsignup = "open"\nsignups_per_address = 1\n')
    process, url = _served(tmp_path, "--config", str(config))
    try:
        assert _sign_up(url, "ann", "") == 201
        assert _sign_up(url, "bob", "") == 429
    finally:
        process.terminate()
        process.wait(30)


def test_serve_says_it_upgrades_a_database_of_schema_4(tmp_path: Path) -> None:
    import shutil
    import sqlite3
    import subprocess
    import sys

    db = tmp_path / "t.db"
    shutil.copy(Path(__file__).parents[1] / "server" / "data" / "schema4.db", db)
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(db), "--port", "0"]
    command += ["--tables", "2", "--guests", "--keep-hands-days", "3650"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    try:
        said = process.stderr.readline()
        assert "open http://127.0.0.1:" in process.stdout.readline()
    finally:
        process.terminate()
        process.wait(30)
    upgrading = f"doubleholdem: upgrading {db} from schema 4 to 9: indexing its 18 stored hands"
    assert said == upgrading + ", in one transaction\n"
    with sqlite3.connect(db) as connection:
        schema = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    assert schema == ("9",)


def test_serve_refuses_a_database_whose_ledger_triggers_were_dropped(tmp_path: Path) -> None:
    """One line naming the missing triggers, the audit and the way to restore them; exit
    status 2; the database left as it was (issue 30)."""
    import sqlite3
    import subprocess
    import sys

    from doubleholdem.accounts.schema import APPEND_ONLY_TRIGGERS
    from doubleholdem.server.storage.database import open_database

    db = tmp_path / "t.db"
    open_database(str(db), "normal", busy_seconds=1.0).close()
    dropped = sorted(APPEND_ONLY_TRIGGERS)[0]
    with sqlite3.connect(db) as raw:
        raw.execute(f"DROP TRIGGER {dropped}")
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(db), "--port", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert dropped in done.stderr and "doubleholdem accounts audit" in done.stderr
    assert "serve --repair" in done.stderr
    with sqlite3.connect(db) as raw:
        found = raw.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (dropped,)).fetchall()
    assert found == []


def test_serve_runs_the_tournaments_of_its_config_file(tmp_path: Path, room_db: str) -> None:
    """``[[tournament]]`` entries of ``--config`` (docs/room-tournaments.md): the lobby
    shows the sit-and-go with its bots registered and paid. On either database."""
    import json
    import urllib.request

    config = tmp_path / "room.toml"
    config.write_text(
        '[[tournament]]\nname = "Turbo"\nkind = "sit-and-go"\ncapacity = 6\nbuy_in = 100\n'
        'fee = 10\nbots = 4\nlevel_by = "hands"\n'
    )
    process, url = _served(tmp_path, "--config", str(config), db=room_db)
    try:
        with urllib.request.urlopen(url + "api/tournaments", timeout=30) as reply:
            lobby = json.loads(reply.read())
    finally:
        process.terminate()
        process.wait(30)
    assert [(t["name"], t["status"], t["entrants"], t["pool"]) for t in lobby] == [
        ("Turbo", "registering", 4, 400)
    ]
