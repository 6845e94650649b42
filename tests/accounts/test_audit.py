"""The audit finds and names every kind of tampering with the ledger: an edited amount,
a deleted, inserted or reordered transaction, an edited balance, a missing trigger,
and tables whose chips differ from their ledger account."""

from __future__ import annotations

import pytest

from databases import drop_triggers, restore_triggers
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.ledger import CASHIER, HOUSE, player, table, transfer
from doubleholdem.accounts.schema import append_only_triggers
from doubleholdem.database.connection import SQLITE, Connection, dialect


@pytest.fixture
def booked(db: Connection) -> Connection:
    """Five transactions, committed; then the append-only triggers dropped, as a
    tamperer with the file would."""
    db.execute("BEGIN")
    transfer(db, "d1", "deposit", CASHIER, player("ann"), 500)  # 1
    transfer(db, "d2", "deposit", CASHIER, player("bob"), 300)  # 2
    transfer(db, "b1", "buy_in", player("ann"), table(1), 200)  # 3
    transfer(db, "r1", "rake", table(1), HOUSE, 3)  # 4
    transfer(db, "w1", "withdrawal", player("bob"), CASHIER, 100)  # 5
    db.execute("COMMIT")
    assert audit(db) == {"ok": True, "problems": []}
    drop_triggers(db)
    return db


def _problems(db: Connection) -> str:
    result = audit(db)
    assert result["ok"] is False and result["problems"]
    return "\n".join(result["problems"])


def test_missing_triggers_are_named(booked: Connection) -> None:
    text = _problems(booked)
    assert all(name in text for name in append_only_triggers(booked))


def _tamper(db: Connection, *statements: str) -> str:
    for statement in statements:
        db.execute(statement)
    restore_triggers(db)
    return _problems(db)


def _account_id(db: Connection, kind: str, name: str) -> int:
    row = db.execute(
        "SELECT id FROM ledger_accounts WHERE kind = ? AND name = ?", (kind, name)
    ).fetchone()
    return int(row[0])


def test_an_edited_amount_is_named(booked: Connection) -> None:
    text = _tamper(booked, "UPDATE ledger_entries SET amount = 250 WHERE seq = 3 AND amount = 200")
    assert "transaction 3 (buy_in 'b1'): its entries sum to 50, not 0" in text
    assert "transaction 3 (buy_in 'b1'): its hash does not match its content" in text
    assert "table 1: the balance is 197 but its entries sum to 247" in text


def test_an_edit_that_keeps_the_sums_is_found_by_the_hash(booked: Connection) -> None:
    text = _tamper(
        booked,
        "UPDATE ledger_entries SET amount = 400 WHERE seq = 1 AND amount = 500",
        "UPDATE ledger_entries SET amount = -400 WHERE seq = 1 AND amount = -500",
        "UPDATE ledger_accounts SET balance = 200 WHERE name = 'ann'",
        "UPDATE ledger_accounts SET balance = -600 WHERE kind = 'cashier'",
    )
    assert text == "transaction 1 (deposit 'd1'): its hash does not match its content"


def test_an_entry_moved_to_another_account_is_named(booked: Connection) -> None:
    bob = _account_id(booked, "player", "bob")
    text = _tamper(
        booked, f"UPDATE ledger_entries SET account_id = {bob} WHERE seq = 1 AND amount > 0"
    )
    assert "transaction 1 (deposit 'd1'): its hash does not match its content" in text
    assert "player ann: the balance is 300 but its entries sum to -200" in text


def test_a_deleted_transaction_is_named(booked: Connection) -> None:
    text = _tamper(
        booked,
        "DELETE FROM ledger_transactions WHERE seq = 4",
        "DELETE FROM ledger_entries WHERE seq = 4",
    )
    assert "transaction 5 (withdrawal 'w1'): numbered 5 where 4 was expected (a gap)" in text
    assert "transaction 5 (withdrawal 'w1'): its previous hash is not the hash" in text
    assert "house: the balance is 3 but its entries sum to 0" in text


def test_deleting_the_last_transaction_is_found_by_the_head(booked: Connection) -> None:
    text = _tamper(
        booked,
        "DELETE FROM ledger_transactions WHERE seq = 5",
        "DELETE FROM ledger_entries WHERE seq = 5",
        "UPDATE ledger_accounts SET balance = 300 WHERE name = 'bob'",
        "UPDATE ledger_accounts SET balance = -800 WHERE kind = 'cashier'",
    )
    assert text == (
        "the chain ends at transaction 4 but its recorded head is transaction 5: "
        "transactions were deleted or added"
    )


def test_reordered_transactions_are_named(booked: Connection) -> None:
    text = _tamper(
        booked,
        "UPDATE ledger_transactions SET seq = 100 WHERE seq = 1",
        "UPDATE ledger_transactions SET seq = 1 WHERE seq = 2",
        "UPDATE ledger_transactions SET seq = 2 WHERE seq = 100",
        "UPDATE ledger_entries SET seq = 100 WHERE seq = 1",
        "UPDATE ledger_entries SET seq = 1 WHERE seq = 2",
        "UPDATE ledger_entries SET seq = 2 WHERE seq = 100",
    )
    assert "transaction 1 (deposit 'd2'): its previous hash is not the hash" in text
    assert "transaction 1 (deposit 'd2'): its hash does not match its content" in text
    assert "transaction 2 (deposit 'd1')" in text


def test_an_inserted_transaction_is_named(booked: Connection) -> None:
    ann = _account_id(booked, "player", "ann")
    cashier = _account_id(booked, "cashier", "cashier")
    text = _tamper(
        booked,
        "INSERT INTO ledger_transactions VALUES (6, 'x', 'deposit', '{}', 0, 'f', 'f')",
        f"INSERT INTO ledger_entries VALUES (6, {ann}, 1000000)",
        f"INSERT INTO ledger_entries VALUES (6, {cashier}, -1000000)",
        "UPDATE ledger_accounts SET balance = balance + 1000000 WHERE name = 'ann'",
        "UPDATE ledger_accounts SET balance = balance - 1000000 WHERE kind = 'cashier'",
    )
    assert "transaction 6 (deposit 'x'): its previous hash is not the hash" in text
    assert "transaction 6 (deposit 'x'): its hash does not match its content" in text
    assert "recorded head is transaction 5" in text


def test_an_edited_balance_is_named(booked: Connection) -> None:
    text = _tamper(booked, "UPDATE ledger_accounts SET balance = 1000 WHERE name = 'ann'")
    assert "player ann: the balance is 1000 but its entries sum to 300" in text
    held = "players, tables, tournaments, house and bots hold 1400"
    assert f"deposits - withdrawals is 700 but {held}" in text


def test_entries_without_a_transaction_are_named(booked: Connection) -> None:
    ann = _account_id(booked, "player", "ann")
    text = _tamper(booked, f"INSERT INTO ledger_entries VALUES (9, {ann}, 5)")
    assert "entries of transaction 9: no such transaction" in text


@pytest.mark.parametrize(
    "chips, expected",
    [
        ({1: 197}, None),
        ({1: 196}, "table 1: the ledger holds 197 chips, the table holds 196"),
        ({}, "table 1: the ledger holds 197 chips, no table"),
        ({1: 197, 2: 10}, "table 2: the ledger holds 0 chips, the table holds 10"),
    ],
)
def test_the_tables_chips_are_compared_with_their_accounts(
    db: Connection, chips: dict[int, int], expected: str | None
) -> None:
    db.execute("BEGIN")
    transfer(db, "d1", "deposit", CASHIER, player("ann"), 500)
    transfer(db, "b1", "buy_in", player("ann"), table(1), 200)
    transfer(db, "r1", "rake", table(1), HOUSE, 3)
    db.execute("COMMIT")
    result = audit(db, table_chips=chips)
    assert result["problems"] == ([] if expected is None else [expected])


def test_fields_edited_into_other_types_are_named_not_a_crash(
    booked: Connection,
) -> None:
    if dialect(booked) != SQLITE:
        pytest.skip("PostgreSQL's typed columns refuse such edits: SQLite's take them")
    text = _tamper(
        booked,
        "UPDATE ledger_entries SET amount = 'lots' WHERE seq = 2 AND amount > 0",
        "UPDATE ledger_transactions SET created = 'yesterday' WHERE seq = 3",
        "UPDATE ledger_transactions SET memo = x'00ff' WHERE seq = 4",
    )
    assert "transaction 2 (deposit 'd2'): an amount that is not a whole number" in text
    for seq in (2, 3, 4):
        assert f"transaction {seq} " in text
    assert text.count("its hash does not match its content") == 3
