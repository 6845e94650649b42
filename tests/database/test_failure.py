"""A database that cannot be used is a typed error naming it (never its password), one
line and exit status 2 from the command line: a PostgreSQL server that is not there, a
database that is not a room's, a lock another writer holds."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from accounts_harness import run_accounts
from doubleholdem.accounts.bank import Bank
from doubleholdem.database.failure import database_error, database_errors
from doubleholdem.database.url import connect, is_postgres, shown
from doubleholdem.errors import DamagedDatabase, DatabaseBusy, DatabaseUnavailable
from postgres_cluster import Cluster


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:  # bound, never listening: a connection is refused
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_chooser_tells_a_url_from_a_path() -> None:
    assert is_postgres("postgresql://h/db") and is_postgres("postgres://h/db")
    assert not is_postgres("room.db") and not is_postgres("/tmp/postgresql:/x.db")
    assert isinstance(connect(":memory:"), sqlite3.Connection)
    assert (
        shown("postgresql://u:pw@h:5/db?sslmode=require") == "postgresql://u@h:5/db?sslmode=require"
    )
    assert shown("postgresql://h/db") == "postgresql://h/db"
    with pytest.raises(ValueError, match="a mode is one of"):
        connect(":memory:", mode="w")


def test_an_unreachable_server_is_named_without_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("psycopg")
    url = f"postgresql://dh:s3cret-word@127.0.0.1:{_closed_port()}/room"
    with pytest.raises(database_errors()) as caught:
        Bank(url)
    error = database_error(url, caught.value)
    assert isinstance(error, DatabaseUnavailable)
    assert str(error).startswith(f"postgresql://dh@127.0.0.1:{url.rsplit(':', 1)[1]}: ")
    status, out, err = run_accounts(capsys, "audit", "--db", url)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "PostgreSQL cannot be reached" in err and "s3cret-word" not in err


def test_a_database_that_is_not_a_rooms_is_refused(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(DamagedDatabase, match="not a doubleholdem room database"):
        Bank(postgres_url)
    status, _, err = run_accounts(capsys, "show", "ann", "--db", postgres_url)
    assert status == 2 and "not a doubleholdem room database" in err
    db = connect(postgres_url)
    assert (
        db.execute("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[
            0
        ]
        == 0
    )
    db.close()


def test_a_lock_held_by_another_writer_is_busy(postgres: Cluster, postgres_url: str) -> None:
    holder, other = connect(postgres_url), connect(postgres_url)
    holder.execute("CREATE TABLE items (n BIGINT)")
    holder.execute("INSERT INTO items VALUES (1)")
    holder.execute("BEGIN")
    holder.execute("SELECT n FROM items FOR UPDATE").fetchall()
    with pytest.raises(database_errors()) as caught:
        other.execute("SELECT n FROM items FOR UPDATE NOWAIT")
    error = database_error(postgres_url, caught.value)
    assert isinstance(error, DatabaseBusy) and "try again" in str(error)
    holder.execute("ROLLBACK")
    holder.close()
    other.close()


def test_serve_on_an_unreachable_postgres_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``serve --db postgresql://...`` names the server it cannot reach (no password),
    in one line, rather than a traceback."""
    from doubleholdem.cli import main

    status = main(["serve", "--db", "postgresql://dh:secret@127.0.0.1:1/room", "--port", "0"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "postgresql://dh@127.0.0.1:1/room: PostgreSQL cannot be reached" in err
    assert "secret" not in err


def test_without_psycopg_the_extra_to_install_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    status, out, err = run_accounts(capsys, "show", "ann", "--db", "postgresql://h/room")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "a PostgreSQL database needs psycopg" in err and "[postgres]" in err
