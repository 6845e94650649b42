"""The ledger on PostgreSQL against SQLite (issue 33: "a durable commit ... in
milliseconds against SQLite's"; benchmarks, not tests).

Run: ``python -m pytest benches/bench_postgres.py --benchmark-enable``. Both databases
durable: a SQLite file in WAL mode with ``synchronous=FULL``; a PostgreSQL cluster
started for the run as the tests start theirs (tests/postgres_cluster.py) but with its
defaults (``fsync``, ``synchronous_commit`` on), over TCP on 127.0.0.1. What is measured:

- a deposit as the command line makes it (:meth:`Bank.deposit`: its own transaction,
  the checks, the transfer, the commit);
- a transfer inside an open transaction (a hand's rake, its commit the table's).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.bank import Bank
from doubleholdem.database.connection import begin
from passwords_double import FAST
from postgres_cluster import Cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def bank(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Bank]:
    if request.param == "sqlite":
        with Bank(str(tmp_path / "room.db"), passwords=FAST, create=True) as bank:
            bank.db.execute("PRAGMA synchronous=FULL")
            bank.create("ann", "correct horse")
            yield bank
        return
    cluster = request.getfixturevalue("durable")
    with cluster.schema() as url, Bank(url, passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
        yield bank


def test_a_deposit_committed(benchmark: Any, bank: Bank) -> None:
    benchmark.group = "ledger: a deposit in its own transaction, durable commit"
    refs = itertools.count()
    benchmark(lambda: bank.deposit("ann", 5, ref=f"wire-{next(refs)}"))
    benchmark.extra_info["items"] = 1
    assert bank.audit()["ok"]


def test_a_transfer_in_an_open_transaction(benchmark: Any, bank: Bank) -> None:
    benchmark.group = "ledger: a transfer inside an open transaction"
    keys = itertools.count()
    begin(bank.db)
    benchmark(
        lambda: ledger.transfer(
            bank.db, f"rake:{next(keys)}", "deposit", ledger.CASHIER, ledger.HOUSE, 3
        )
    )
    bank.db.execute("COMMIT")
    benchmark.extra_info["items"] = 1


@pytest.mark.parametrize("connections", [1, 4])
def test_deposits_from_several_connections(
    benchmark: Any, durable: Cluster, connections: int
) -> None:
    """Deposits a second, each in its own durable transaction, from ``connections``
    connections at once to one PostgreSQL room: the ledger's writers go one at a time
    (one hash chain), so more connections gain only what they overlap outside the lock."""
    import threading

    benchmark.group = "ledger on PostgreSQL: 200 deposits, durable, from N connections"
    with durable.schema() as url:
        with Bank(url, passwords=FAST, create=True) as bank:
            bank.create("ann", "correct horse")
        banks = [Bank(url, passwords=FAST) for _ in range(connections)]
        rounds = itertools.count()

        def burst() -> None:
            number = next(rounds)

            def send(bank: Bank, part: int) -> None:
                for i in range(part, 200, connections):
                    bank.deposit("ann", 1, ref=f"r{number}-{i}")

            threads = [
                threading.Thread(target=send, args=(bank, part)) for part, bank in enumerate(banks)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        benchmark.pedantic(burst, rounds=3, iterations=1)
        benchmark.extra_info["items"] = 200
        assert banks[0].audit()["ok"]
        for bank in banks:
            bank.close()
