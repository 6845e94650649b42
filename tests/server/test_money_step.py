"""The money of a group commit moves last (python/doubleholdem/server/storage/money_step.py,
issue 33): a hand's end writes its table's rows first and then rakes into the ledger, so
that on PostgreSQL the ledger's lock is taken after them and held for the movements and
the ``COMMIT`` only; the money stays right (the audit, the house's rake)."""

from __future__ import annotations

import sqlite3
from typing import Any

from doubleholdem.accounts import ledger
from doubleholdem.server.storage.commit import TableStep
from doubleholdem.server.storage.money_step import MoneyStep, money_last
from doubleholdem.server.tables.room import Room
from money_room import audit_ok, kinds, money_room, play_hand, send, sign_up

# the statements that write a table's rows at a hand's end
TABLE_ROWS = ("INSERT INTO hands", "UPDATE tables SET snapshot", "DELETE FROM moves")


def test_money_last_keeps_each_sides_order() -> None:
    done: list[str] = []

    def step(name: str) -> Any:
        return lambda store: done.append(name)

    steps = [
        step("hand"),
        MoneyStep(step("rake")),
        TableStep(1, 0, MoneyStep(step("cash-out"))),
        TableStep(1, 0, step("snapshot")),
    ]
    for ordered in money_last(steps):
        ordered(None)
    assert done == ["hand", "snapshot", "rake", "cash-out"]
    plain = [step("a"), step("b")]
    assert money_last(plain) is plain


def _recorded(room: Room) -> list[str]:
    """Every statement the room's connection runs from now on (its text)."""
    statements: list[str] = []
    db = room.store.db
    if isinstance(db, sqlite3.Connection):
        db.set_trace_callback(statements.append)
        return statements
    execute, executemany = db.execute, db.executemany

    def recorded(sql: str, *args: Any) -> Any:
        statements.append(sql)
        return execute(sql, *args)

    def recorded_many(sql: str, *args: Any) -> Any:
        statements.append(sql)
        return executemany(sql, *args)

    db.execute = recorded  # type: ignore[method-assign]
    db.executemany = recorded_many  # type: ignore[method-assign]
    return statements


def test_a_hands_end_writes_its_table_before_the_ledger_moves(room_db: str) -> None:
    room = money_room(path=room_db)
    try:
        ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
        assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=400)) == ["seated"]
        assert kinds(send(room, bob, type="sit", table=0, name="bob", buy_in=300)) == ["seated"]
        runner = room.runners[0]
        statements = _recorded(room)
        play_hand(runner)  # no event loop: each change committed at once
        rake = runner.table.rake
        assert rake > 0 and ledger.balance(room.store.db, ledger.HOUSE) == rake
        audit_ok(room)
        end = max(i for i, s in enumerate(statements) if s.startswith("INSERT INTO hands"))
        begun = max(i for i, s in enumerate(statements[:end]) if s.startswith("BEGIN"))
        ended = end + next(i for i, s in enumerate(statements[end:]) if s.startswith("COMMIT"))
        commit = statements[begun:ended]
        rows = [i for i, s in enumerate(commit) if s.startswith(TABLE_ROWS)]
        money = [i for i, s in enumerate(commit) if "ledger_" in s or "advisory_xact" in s]
        assert rows and money
        assert max(rows) < min(money)  # the ledger's lock taken after the table's rows
    finally:
        room.store.close()
