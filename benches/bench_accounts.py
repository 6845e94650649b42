"""The ledger's cost (issue 19 target: under 0.2 ms per hand; benchmarks, not tests).

Run: ``python -m pytest benches/bench_accounts.py --benchmark-enable``. Each database is
a file in WAL mode with ``synchronous=NORMAL``, as the server's. What is measured:

- a hand's rake posted inside an open transaction (what the server adds to the
  transaction that ends the hand; its commit is the table's, paid anyway);
- a buy-in and its cash-out through the wallet, likewise;
- a rake in a transaction of its own, commit included (an upper bound);
- the audit of a ledger of 10,000 transactions.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts.accounts import create_bot
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.accounts.wallet import LedgerWallet

BANKROLL = 10**15


@pytest.fixture
def room(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(str(tmp_path / "room.db"), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    ensure_schema(db)
    db.execute("BEGIN IMMEDIATE")
    create_bot(db, "robot", BANKROLL)
    LedgerWallet(db).debit("robot", 1, BANKROLL, key="seat")
    db.execute("COMMIT")
    yield db
    db.close()


def test_rake_in_the_tables_transaction(benchmark: Any, room: sqlite3.Connection) -> None:
    benchmark.group = "accounts: the ledger per hand"
    wallet, keys = LedgerWallet(room), itertools.count()
    room.execute("BEGIN IMMEDIATE")
    benchmark(lambda: wallet.rake(1, 3, key=f"hand:{next(keys)}"))
    room.execute("COMMIT")
    benchmark.extra_info["items"] = 1


def test_buy_in_and_cash_out(benchmark: Any, room: sqlite3.Connection) -> None:
    benchmark.group = "accounts: the ledger per hand"
    wallet, keys = LedgerWallet(room), itertools.count()
    room.execute("BEGIN IMMEDIATE")
    wallet.credit("robot", 1, BANKROLL, key="leave")

    def sit_and_leave() -> None:
        n = next(keys)
        wallet.debit("robot", 2, 500, key=f"join:{n}")
        wallet.credit("robot", 2, 500, key=f"leave:{n}")

    benchmark(sit_and_leave)
    room.execute("COMMIT")
    benchmark.extra_info["items"] = 1


def test_rake_with_its_own_commit(benchmark: Any, room: sqlite3.Connection) -> None:
    benchmark.group = "accounts: the ledger per hand"
    wallet, keys = LedgerWallet(room), itertools.count()

    def committed() -> None:
        room.execute("BEGIN IMMEDIATE")
        wallet.rake(1, 3, key=f"hand:{next(keys)}")
        room.execute("COMMIT")

    benchmark(committed)
    benchmark.extra_info["items"] = 1


def test_audit_of_10000_transactions(benchmark: Any, room: sqlite3.Connection) -> None:
    benchmark.group = "accounts: the audit"
    wallet = LedgerWallet(room)
    room.execute("BEGIN IMMEDIATE")
    for n in range(10_000 - 2):
        wallet.rake(1, 1, key=f"hand:{n}")
    room.execute("COMMIT")
    result = benchmark.pedantic(audit, args=(room,), rounds=3, iterations=1)
    assert result["ok"]
    benchmark.extra_info["items"] = 10_000
