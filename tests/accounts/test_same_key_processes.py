"""Two processes never pay twice (issue 33 item 5): a buy-in, a top-up, a cash-out, a rake,
a deposit and a withdrawal are each one transaction under an idempotency key. Two
processes post the same movement under the same key at once, the second while the
first holds its transaction open (on PostgreSQL, waiting on the ledger's lock, seen in
``pg_locks``): the movement is applied once, both are answered with the same ledger
transaction, and the audit is clean. The key is a unique constraint of the database
itself: two connections that bypass the ledger's lock and write the same key at once
are refused by PostgreSQL, the second after the first commits."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from accounts_harness import FAST
from doubleholdem.accounts import ledger
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import Connection, begin
from doubleholdem.database.url import connect, is_postgres

CHILD = r"""
import sys
from doubleholdem.accounts import cashier
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect

path, kind = sys.argv[1], sys.argv[2]
db = connect(path, timeout=60.0)
wallet = LedgerWallet(db)
MOVES = {
    "deposit": lambda: cashier.deposit(db, "ann", 50, ref="race"),
    "withdrawal": lambda: cashier.withdraw(db, "ann", 50, ref="race"),
    "buy_in": lambda: wallet.debit("ann", 2, 100, key="race"),
    "top_up": lambda: wallet.debit("ann", 1, 100, key="race", reason="top_up"),
    "cash_out": lambda: wallet.credit("ann", 1, 300, key="race"),
    "rake": lambda: wallet.rake(1, 20, key="race"),
}
sys.stdout.write("ready\n")
sys.stdout.flush()
assert sys.stdin.readline() == "go\n"
sys.stdout.write("going\n")
sys.stdout.flush()
begin(db)
posted = MOVES[kind]()
sys.stdout.write(f"posted {posted.seq}\n")
sys.stdout.flush()
assert sys.stdin.readline() == "commit\n"
db.execute("COMMIT")
sys.stdout.write("committed\n")
sys.stdout.flush()
"""

# what each movement does to ann's balance (the rake moves table 1's chips to the house)
MOVED = {
    "deposit": 50,
    "withdrawal": -50,
    "buy_in": -100,
    "top_up": -100,
    "cash_out": 300,
    "rake": 0,
}
START = 1000
SEATED = 300  # ann's buy-in at table 1, before the race


@pytest.fixture
def room(room_db: str) -> Iterator[str]:
    """ann with 1,000 chips, 300 of them bought in at table 1."""
    with Bank(room_db, passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
        bank.deposit("ann", START, ref="start")
        begin(bank.db)
        LedgerWallet(bank.db).debit("ann", 1, SEATED, key="seat")
        bank.db.execute("COMMIT")
    yield room_db


class Child:
    """A process posting one movement, step by step through its standard input."""

    def __init__(self, script: Path, path: str, kind: str) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        self.process = subprocess.Popen(
            [sys.executable, str(script), path, kind],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.expect("ready")

    def tell(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
        self.process.stdin.flush()

    def expect(self, word: str) -> list[str]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline().split()
        assert line[:1] == [word], line
        return line[1:]

    def end(self) -> None:
        assert self.process.wait(60) == 0


def _waiting_on_a_lock(db: Connection, locktype: str) -> bool:
    """Whether some session of the cluster waits for a lock of ``locktype`` (the ledger's
    advisory lock, or a transaction's: a row another transaction wrote)."""
    row = db.execute(
        "SELECT COUNT(*) FROM pg_locks WHERE locktype = ? AND NOT granted", (locktype,)
    ).fetchone()
    return int(row[0]) > 0


def _until(condition: Callable[[], bool]) -> None:
    """Waits for ``condition()`` to come true (an event, however long it takes)."""
    while not condition():
        time.sleep(0.01)


@pytest.mark.parametrize("kind", sorted(MOVED))
def test_two_processes_racing_one_key_pay_once(room: str, tmp_path: Path, kind: str) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    first, second = Child(script, room, kind), Child(script, room, kind)
    first.tell("go")
    first.expect("going")
    (seq,) = first.expect("posted")  # the first holds its transaction open
    second.tell("go")
    second.expect("going")
    if is_postgres(room):  # the second waits for the first's ledger lock
        watcher = connect(room)
        # (or, were there none, for the first's row of the next number in the chain)
        _until(lambda: any(_waiting_on_a_lock(watcher, t) for t in ("advisory", "transactionid")))
        watcher.close()
    first.tell("commit")
    first.expect("committed")
    assert second.expect("posted") == [seq]  # the same transaction, found by its key
    second.tell("commit")
    second.expect("committed")
    first.end()
    second.end()
    db = connect(room)
    try:
        count = db.execute("SELECT COUNT(*) FROM ledger_transactions").fetchone()[0]
        assert count == 3  # the deposit, ann's seat, and the movement once
        ann = ledger.balance(db, ledger.player("ann"))
        assert ann == START - SEATED + MOVED[kind]
        house = ledger.balance(db, ledger.HOUSE)
        assert house == (20 if kind == "rake" else 0)
        assert audit(db) == {"ok": True, "problems": []}
    finally:
        db.close()


def test_the_key_is_the_databases_unique_constraint(postgres_url: str) -> None:
    """Without the ledger's lock, two connections writing the same key at once: the
    second's insert waits for the first's transaction, then PostgreSQL refuses it."""
    import psycopg

    with Bank(postgres_url, passwords=FAST, create=True):
        pass
    first, second = connect(postgres_url), connect(postgres_url)
    row = "INSERT INTO ledger_transactions VALUES (?, 'same', 'deposit', '{}', 0, '', '')"
    refused: list[BaseException] = []

    def insert_second() -> None:
        begin(second)
        try:
            second.execute(row, (2,))
        except psycopg.errors.UniqueViolation as error:
            refused.append(error)
        second.execute("ROLLBACK")

    try:
        begin(first)
        first.execute(row, (1,))
        racer = threading.Thread(target=insert_second)
        racer.start()
        watcher = connect(postgres_url)
        _until(lambda: _waiting_on_a_lock(watcher, "transactionid"))
        watcher.close()
        first.execute("COMMIT")
        racer.join()
        assert len(refused) == 1
        keys = first.execute("SELECT seq FROM ledger_transactions WHERE key = 'same'").fetchall()
        assert keys == [(1,)]
    finally:
        first.close()
        second.close()
