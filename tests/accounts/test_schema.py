"""The accounts tables live beside the game server's in one database file, are created
idempotently, and a database of another schema version is refused by name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from doubleholdem.accounts.schema import SCHEMA_VERSION, ensure_schema, schema_version
from doubleholdem.database.connection import SQLITE, Connection, dialect
from doubleholdem.errors import SchemaMismatch
from doubleholdem.server.storage.storage import Storage


def _names(db: Connection) -> set[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(name) for (name,) in rows}


def test_it_shares_the_servers_database_without_touching_its_tables(tmp_path: Path) -> None:
    """The server's storage makes the accounts' tables beside its own (its schema 4);
    making them again adds nothing and leaves the server's rows as they were."""
    path = str(tmp_path / "room.db")
    store = Storage(path)
    with store.transaction():
        store.add_table(0, '{"snapshot": 1}', {})
    made = _names(store.db)
    store.close()
    ours = {n for n in made if n.startswith(("account", "ledger_"))}
    assert ours and made - ours  # both the accounts' tables and the server's
    db = sqlite3.connect(path, isolation_level=None)
    ensure_schema(db)
    assert _names(db) == made
    assert schema_version(db) == str(SCHEMA_VERSION)
    db.close()
    store = Storage(path)  # the server opens it again, its tables intact
    assert [row.snapshot for row in store.tables()] == ['{"snapshot": 1}']
    store.close()


def test_inside_a_transaction_it_commits_nothing(tmp_path: Path) -> None:
    db = sqlite3.connect(str(tmp_path / "x.db"), isolation_level=None)
    db.execute("BEGIN")
    ensure_schema(db)
    assert db.in_transaction
    db.execute("ROLLBACK")
    assert schema_version(db) is None and not _names(db)


def test_another_version_is_refused_naming_both(db: Connection) -> None:
    db.execute("UPDATE accounts_meta SET value = '7' WHERE key = 'schema'")
    with pytest.raises(SchemaMismatch, match=r"version 7.*version 2") as caught:
        ensure_schema(db)
    assert (caught.value.found, caught.value.expected) == ("7", SCHEMA_VERSION)
    assert not db.in_transaction


_VERSION_1_KINDS = "kind IN ('player', 'bot', 'table', 'house', 'cashier')"


def _back_to_version_1(db: Connection) -> None:
    """``ledger_accounts`` as version 1 made it (no tournament accounts), its rows kept."""
    if dialect(db) == SQLITE:
        db.execute("ALTER TABLE ledger_accounts RENAME TO now")
        db.execute(
            "CREATE TABLE ledger_accounts (id INTEGER PRIMARY KEY, kind TEXT NOT NULL "
            f"CHECK ({_VERSION_1_KINDS}), name TEXT NOT NULL, balance INTEGER NOT NULL "
            "DEFAULT 0, UNIQUE (kind, name))"
        )
        db.execute("INSERT INTO ledger_accounts SELECT * FROM now")
        db.execute("DROP TABLE now")
    else:
        db.execute(
            "ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check, "
            f"ADD CONSTRAINT ledger_accounts_kind_check CHECK ({_VERSION_1_KINDS})"
        )
    db.execute("UPDATE accounts_meta SET value = '1' WHERE key = 'schema'")


def test_a_version_1_database_is_upgraded_keeping_every_account(db: Connection) -> None:
    from doubleholdem.accounts import ledger
    from doubleholdem.accounts.audit import audit

    db.execute("BEGIN")
    ledger.transfer(db, "d1", "deposit", ledger.CASHIER, ledger.player("ann"), 50)
    _back_to_version_1(db)
    db.execute("COMMIT")
    before = db.execute("SELECT * FROM ledger_accounts ORDER BY id").fetchall()
    db.execute("BEGIN")
    with pytest.raises(Exception, match=r"(?i)check"):  # version 1 has no tournament accounts
        db.execute("INSERT INTO ledger_accounts (kind, name) VALUES ('tournament', '0')")
    db.execute("ROLLBACK")
    ensure_schema(db)
    assert schema_version(db) == "2"
    assert db.execute("SELECT * FROM ledger_accounts ORDER BY id").fetchall() == before
    db.execute("BEGIN")
    ledger.transfer(db, "e1", "entry", ledger.player("ann"), ledger.tournament(0), 20)
    db.execute("COMMIT")
    assert audit(db) == {"ok": True, "problems": []}
