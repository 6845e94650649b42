"""``doubleholdem accounts``: create (password from standard input, never an argument),
freeze/unfreeze/close, deposit/withdraw by reference (applied once), show, audit (exit 0
or 1), shared-addresses; typed errors are one line and exit status 2. On a SQLite file
and on a PostgreSQL database (``--db postgresql://...``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from accounts_harness import FAST
from accounts_harness import run_accounts as _run
from databases import drop_triggers
from doubleholdem.accounts.bank import Bank
from doubleholdem.database.url import connect

PASSWORD = "a long pass phrase"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A room database with ann's account: a SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        target = str(tmp_path / "room.db")
    else:
        target = request.getfixturevalue("postgres_url")
    status, out, _ = _run(capsys, "create", "ann", "--db", target, stdin=PASSWORD + "\n")
    assert (status, out) == (0, "created player ann\n")
    return target


def test_create_reads_the_password_from_standard_input(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Bank(db, passwords=FAST) as bank:
        account, _ = bank.sign_in("ann", PASSWORD, address="127.0.0.1")
    assert account.role == "player"
    status, out, _ = _run(capsys, "create", "root", "--admin", "--db", db, stdin="x" * 12)
    assert (status, out) == (0, "created admin root\n")


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["create", "ann"], PASSWORD, "the name ann is taken"),
        (["create", "bob"], "short\n", "a password is 8 to 256 characters"),
        (["create", "bob"], "", "a password is 8 to 256 characters"),
        (["create", "<b>x</b>"], PASSWORD, "an account name is 1 to 24 characters"),
        (["create", "bob", "--password", "x"], PASSWORD, "unrecognized arguments"),
        (["deposit", "bob", "5", "--ref", "r"], "", "no account is named bob"),
        (["deposit", "ann", "0", "--ref", "r"], "", "0 is not an amount of chips"),
        (["deposit", "ann", "9223372036854775808", "--ref", "r"], "", "not an amount of chips"),
        (["deposit", "ann", "5"], "", "the following arguments are required: --ref"),
        (["deposit", "ann", "5", "--ref", ""], "", "a reference must be text of 1 to 200"),
        (["withdraw", "ann", "5", "--ref", "r"], "", "holds 0 chips, not the 5"),
        (["unfreeze", "ann"], "", "ann is active: it cannot become active"),
        (["show", "ann';--"], "", "an account name is"),
        (["show", "nobody"], "", "no account is named nobody"),
    ],
)
def test_bad_requests_are_one_line_and_status_2(
    db: str, capsys: pytest.CaptureFixture[str], args: list[str], stdin: str, message: str
) -> None:
    status, out, err = _run(capsys, *args, "--db", db, stdin=stdin)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert PASSWORD not in err


def test_a_missing_database_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typo.db"
    status, _, err = _run(capsys, "audit", "--db", str(path))
    assert status == 2 and "no such database" in err and not path.exists()


def test_a_reference_used_twice_is_applied_once(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "deposit", "ann", "500", "--ref", "wire-9", "--db", db)[:2] == (
        0,
        "deposit 'wire-9': 500 chips, transaction 1; ann's balance is 500\n",
    )
    status, out, _ = _run(capsys, "deposit", "ann", "500", "--ref", "wire-9", "--db", db)
    assert status == 0 and "applied already: nothing changed" in out and "balance is 500" in out
    status, _, err = _run(capsys, "deposit", "ann", "501", "--ref", "wire-9", "--db", db)
    assert status == 2 and "was used for another movement" in err
    assert _run(capsys, "withdraw", "ann", "200", "--ref", "out-1", "--db", db)[0] == 0
    status, out, _ = _run(capsys, "show", "ann", "--json", "--db", db)
    shown = json.loads(out)
    assert (shown["balance"], shown["state"], shown["seats"]) == (300, "active", [])
    assert [line["kind"] for line in shown["statement"]] == ["withdrawal", "deposit"]
    status, out, _ = _run(capsys, "show", "ANN", "--db", db)
    assert out.splitlines()[:2] == ["ann (player, active): balance 300", "seats at tables: none"]


def test_freeze_unfreeze_close(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "deposit", "ann", "50", "--ref", "r1", "--db", db)
    assert _run(capsys, "freeze", "ann", "--db", db)[1] == "ann is frozen\n"
    status, _, err = _run(capsys, "withdraw", "ann", "5", "--ref", "r2", "--db", db)
    assert status == 2 and "frozen" in err
    assert _run(capsys, "unfreeze", "ann", "--db", db)[1] == "ann is active\n"
    assert _run(capsys, "close", "ann", "--db", db)[1] == "ann is closed\n"
    status, _, err = _run(capsys, "deposit", "ann", "5", "--ref", "r3", "--db", db)
    assert status == 2 and "closed" in err
    assert json.loads(_run(capsys, "show", "ann", "--json", "--db", db)[1])["balance"] == 50


def test_audit_exits_0_or_1(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "deposit", "ann", "50", "--ref", "r1", "--db", db)
    assert _run(capsys, "audit", "--db", db)[:2] == (0, "the ledger holds together\n")
    status, out, _ = _run(capsys, "audit", "--json", "--db", db)
    assert (status, json.loads(out)) == (0, {"ok": True, "problems": []})
    raw = connect(db)
    drop_triggers(raw)
    raw.execute("UPDATE ledger_entries SET amount = 5000 WHERE amount = 50")
    raw.close()
    status, out, _ = _run(capsys, "audit", "--json", "--db", db)
    problems = json.loads(out)["problems"]
    assert status == 1 and "transaction 1 (deposit 'cashier:r1'): its hash does not match" in (
        "\n".join(problems)
    )
    status, out, _ = _run(capsys, "audit", "--db", db)
    assert status == 1 and out.startswith("the ledger does not hold together:\n")


def test_shared_addresses(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "create", "bob", "--db", db, stdin=PASSWORD)
    assert _run(capsys, "shared-addresses", "--db", db)[1] == "no shared address\n"
    with Bank(db) as bank:
        bank.sign_in("ann", PASSWORD, address="192.0.2.4")
        bank.sign_in("bob", PASSWORD, address="192.0.2.4")
    assert _run(capsys, "shared-addresses", "--db", db)[1] == "192.0.2.4: ann bob\n"
    out = _run(capsys, "shared-addresses", "--json", "--db", db)[1]
    assert json.loads(out) == {"shared": [{"address": "192.0.2.4", "names": ["ann", "bob"]}]}


def test_the_console_script_reads_a_piped_password(tmp_path: Path) -> None:
    path = str(tmp_path / "room.db")
    command = [sys.executable, "-m", "doubleholdem.cli", "accounts", "create", "cy", "--db", path]
    done = subprocess.run(
        command, input=PASSWORD + "\r\n", capture_output=True, text=True, env=dict(os.environ)
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "created player cy\n", "")
    with Bank(path) as bank:
        assert bank.sign_in("cy", PASSWORD, address="::1")[0].name == "cy"
