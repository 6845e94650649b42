"""kill -9 at random moments while a process writes deposits, buy-ins, rakes, cash-outs
and withdrawals, each in its own transaction and acknowledged only after its commit:
after every restart the audit holds, every acknowledged movement is in the ledger once,
nothing else is but the one movement that was in flight, and a retried reference is
applied once. On a SQLite file and on PostgreSQL (the process's connection dies with it:
its transaction in flight is rolled back by the server). (The server's own crash test,
with its tables, comes with the wiring.)"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from doubleholdem.accounts.audit import audit
from doubleholdem.database.url import connect

CYCLES = {"sqlite": 15, "postgresql": 5}  # a PostgreSQL child starts slower

CHILD = r"""
import sys
from doubleholdem.accounts import cashier
from doubleholdem.accounts.accounts import Passwords, create_account
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect, is_postgres
from doubleholdem.errors import AccountError


def say(*words):
    # one write a line: print writes its words one by one, and unbuffered (python -u,
    # PYTHONUNBUFFERED) each is a system call of its own, so a kill -9 could cut a line
    sys.stdout.write(" ".join(words) + "\n")
    sys.stdout.flush()


path, start, retry_ref = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = connect(path, mode="rwc")
if not is_postgres(path):
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
ensure_schema(db)
wallet = LedgerWallet(db)
fast = Passwords(time_cost=1, memory_cost=8, insecure=True)
names = ["p0", "p1", "p2"]
begin(db)
if db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0:
    for name in names:
        create_account(db, name, "correct horse", passwords=fast)
db.execute("COMMIT")
if retry_ref != "-":
    begin(db)
    assert cashier.applied(db, retry_ref) is not None
    i = int(retry_ref[3:])
    cashier.deposit(db, names[i % 3], 1000 + i, ref=retry_ref)
    db.execute("COMMIT")
    say("retried", retry_ref)


def step(i):
    name, table = names[i % 3], i % 3
    op = (i // 3) % 5
    if op == 0:
        return f"cashier:dep{i}", lambda: cashier.deposit(db, name, 1000 + i, ref=f"dep{i}")
    if op == 1:
        return f"join{i}", lambda: wallet.debit(name, table, 300, key=f"join{i}")
    if op == 2:
        return f"rake{i}", lambda: wallet.rake(table, 2, key=f"rake{i}")
    if op == 3:
        stack = db.execute(
            "SELECT balance FROM ledger_accounts WHERE kind = 'table' AND name = ?", (str(table),)
        ).fetchone()
        amount = 0 if stack is None else stack[0]
        return f"leave{i}", lambda: wallet.credit(name, table, amount, key=f"leave{i}")
    return f"cashier:out{i}", lambda: cashier.withdraw(db, name, 7, ref=f"out{i}")


i = start
while True:
    begin(db)
    key, run = step(i)
    say("try", key)
    try:
        run()
    except AccountError:
        db.execute("ROLLBACK")
        say("refused", key)
    else:
        db.execute("COMMIT")
        say("ack", key)
    i += 1
"""


def _keys(path: str) -> list[str]:
    db = connect(path)
    try:
        return [str(k) for (k,) in db.execute("SELECT key FROM ledger_transactions")]
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_kill_9_loses_and_doubles_nothing(
    tmp_path: Path, request: pytest.FixtureRequest, kind: str
) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    path = str(tmp_path / "room.db")
    if kind == "postgresql":
        path = request.getfixturevalue("postgres_url")
    rng = random.Random(19)
    acked: set[str] = set()
    in_flight: set[str] = set()
    start, retry_ref = 0, "-"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for _ in range(CYCLES[kind]):
        child = subprocess.Popen(
            [sys.executable, str(script), path, str(start), retry_ref],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert child.stdout is not None
        deadline = time.monotonic() + rng.uniform(0.05, 0.6)
        lines = []
        while time.monotonic() < deadline or sum(w == "ack" for w, _ in lines) < 2:
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line.split())
        child.send_signal(signal.SIGKILL)
        lines += [line.split() for line in child.stdout.read().splitlines()]
        child.wait()
        assert lines, "the child printed nothing"
        if retry_ref != "-":
            assert lines[0] == ["retried", retry_ref]
        tried = [key for word, key in lines if word == "try"]
        acked.update(key for word, key in lines if word == "ack")
        in_flight.add(tried[-1])
        start += len(tried)
        deposits = [key for key in acked if key.startswith("cashier:dep")]
        retry_ref = max(deposits, key=lambda k: int(k[11:]))[8:] if deposits else "-"
        stored = _keys(path)
        assert len(stored) == len(set(stored))
        assert acked <= set(stored), "an acknowledged movement is missing"
        assert set(stored) <= acked | in_flight, "a movement nobody asked for"
        db = connect(path)
        assert audit(db) == {"ok": True, "problems": []}
        db.close()
    assert len(acked) >= 2 * CYCLES[kind]
