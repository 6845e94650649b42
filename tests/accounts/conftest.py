from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from accounts_harness import FAST
from doubleholdem.accounts.accounts import Passwords
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.database.connection import Connection
from doubleholdem.database.url import connect
from postgres_cluster import Cluster


@pytest.fixture
def fast() -> Passwords:
    return FAST


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> Iterator[Connection]:
    """A fresh database with the accounts schema, outside any transaction: SQLite in
    memory, then PostgreSQL (the worker's accounts schema, emptied, its triggers made
    again if a test dropped them)."""
    if request.param == "sqlite":
        connection: Connection = sqlite3.connect(":memory:", isolation_level=None)
    else:
        cluster: Cluster = request.getfixturevalue("postgres")
        connection = connect(cluster.reused_schema("accounts"))
    ensure_schema(connection, restore_triggers=True)
    yield connection
    connection.close()


@pytest.fixture
def tx(db: Connection) -> Iterator[Connection]:
    """The same database inside a transaction, committed at the end of the test."""
    db.execute("BEGIN")
    yield db
    if db.in_transaction:
        db.execute("COMMIT")
