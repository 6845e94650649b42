from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from accounts_harness import FAST
from doubleholdem.accounts.accounts import Passwords
from doubleholdem.accounts.schema import ensure_schema


@pytest.fixture
def fast() -> Passwords:
    return FAST


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    """A fresh database with the accounts schema, outside any transaction."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    ensure_schema(connection)
    yield connection
    connection.close()


@pytest.fixture
def tx(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """The same database inside a transaction, committed at the end of the test."""
    db.execute("BEGIN")
    yield db
    if db.in_transaction:
        db.execute("COMMIT")
