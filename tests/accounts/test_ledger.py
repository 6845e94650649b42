"""The ledger's transactions: transfers of a known kind, amounts in the 64-bit range,
idempotent keys, written inside the caller's transaction only, append-only."""

from __future__ import annotations

import pytest

from databases import integrity_errors
from doubleholdem.accounts import ledger
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.ledger import CASHIER, HOUSE, MAX_AMOUNT, player, table, transfer
from doubleholdem.database.connection import Connection
from doubleholdem.errors import (
    AccountError,
    InsufficientFunds,
    InvalidAmount,
    InvalidKey,
    KeyConflict,
    NotInTransaction,
)

ANN = player("ann")


def _rows(db: Connection) -> tuple[int, int, list[tuple[str, str, int]]]:
    transactions = db.execute("SELECT COUNT(*) FROM ledger_transactions").fetchone()[0]
    entries = db.execute("SELECT COUNT(*) FROM ledger_entries").fetchone()[0]
    balances = db.execute("SELECT kind, name, balance FROM ledger_accounts ORDER BY id").fetchall()
    return transactions, entries, balances


def test_a_transfer_is_two_entries_summing_to_zero(tx: Connection) -> None:
    posted = transfer(tx, "k1", "deposit", CASHIER, ANN, 70, memo={"ref": "r"})
    assert posted.seq == 1 and posted.transfer.amount == 70
    entries = tx.execute("SELECT amount FROM ledger_entries WHERE seq = 1").fetchall()
    assert sorted(amount for (amount,) in entries) == [-70, 70]
    assert ledger.balance(tx, ANN) == 70 and ledger.balance(tx, CASHIER) == -70


def test_a_retry_returns_the_first_result_and_writes_nothing(tx: Connection) -> None:
    first = transfer(tx, "k1", "deposit", CASHIER, ANN, 70, memo={"ref": "r"}, now=5.0)
    before = _rows(tx)
    again = transfer(tx, "k1", "deposit", CASHIER, ANN, 70, memo={"ref": "r"}, now=9.0)
    assert again == first
    assert _rows(tx) == before


@pytest.mark.parametrize(
    "kind, source, target, amount, memo",
    [
        ("deposit", CASHIER, ANN, 71, {"ref": "r"}),
        ("deposit", CASHIER, player("bob"), 70, {"ref": "r"}),
        ("deposit", CASHIER, ANN, 70, {"ref": "other"}),
        ("deposit", CASHIER, HOUSE, 70, {"ref": "r"}),
        ("withdrawal", ANN, CASHIER, 70, {"ref": "r"}),
    ],
)
def test_a_key_used_for_something_else_is_refused(
    tx: Connection,
    kind: str,
    source: ledger.LedgerAccount,
    target: ledger.LedgerAccount,
    amount: int,
    memo: dict[str, object],
) -> None:
    transfer(tx, "k1", "deposit", CASHIER, ANN, 70, memo={"ref": "r"})
    before = _rows(tx)
    with pytest.raises(KeyConflict, match="k1") as caught:
        transfer(tx, "k1", kind, source, target, amount, memo=memo)
    assert caught.value.key == "k1" and caught.value.code == "key_conflict"
    assert _rows(tx) == before


@pytest.mark.parametrize("amount", [0, -1, -MAX_AMOUNT, MAX_AMOUNT + 1, 2**80, True, 1.0, "5"])
def test_amounts_outside_1_to_the_64_bit_limit_are_refused(tx: Connection, amount: object) -> None:
    with pytest.raises(InvalidAmount) as caught:
        transfer(tx, "k", "deposit", CASHIER, ANN, amount)  # type: ignore[arg-type]
    assert (caught.value.low, caught.value.high) == (1, MAX_AMOUNT)
    assert _rows(tx)[0] == 0


def test_a_cash_out_may_be_zero(tx: Connection) -> None:
    transfer(tx, "d", "deposit", CASHIER, ANN, 5)
    transfer(tx, "b", "buy_in", ANN, table(2), 5)
    transfer(tx, "r", "rake", table(2), HOUSE, 5)
    posted = transfer(tx, "c", "cash_out", table(2), ANN, 0)
    assert ledger.find(tx, "c") == posted
    assert audit(tx)["ok"]


def test_the_largest_amount_fits_and_one_more_chip_is_refused(tx: Connection) -> None:
    transfer(tx, "k1", "deposit", CASHIER, ANN, MAX_AMOUNT)
    assert ledger.balance(tx, ANN) == MAX_AMOUNT
    with pytest.raises(InvalidAmount, match="beyond"):
        transfer(tx, "k2", "deposit", CASHIER, ANN, 1)
    # the cashier cannot go below -MAX either
    with pytest.raises(InvalidAmount, match="beyond"):
        transfer(tx, "k3", "deposit", CASHIER, player("bob"), 2)
    assert _rows(tx)[0] == 1
    assert audit(tx)["ok"]


def test_not_enough_chips_is_refused_and_changes_nothing(tx: Connection) -> None:
    transfer(tx, "k1", "deposit", CASHIER, ANN, 10)
    before = _rows(tx)
    with pytest.raises(InsufficientFunds) as caught:
        transfer(tx, "k2", "buy_in", ANN, table(1), 11)
    assert (caught.value.balance, caught.value.amount, caught.value.account) == (10, 11, "ann")
    assert caught.value.code == "insufficient_funds"
    with pytest.raises(InsufficientFunds):
        transfer(tx, "k3", "rake", table(1), HOUSE, 1)
    assert _rows(tx)[:2] == before[:2]


def test_the_house_may_go_below_zero(tx: Connection) -> None:
    transfer(tx, "w", "welcome", HOUSE, ANN, 100)
    assert ledger.balance(tx, HOUSE) == -100
    assert audit(tx)["ok"]


@pytest.mark.parametrize(
    "kind, source, target",
    [
        ("deposit", ANN, CASHIER),
        ("buy_in", HOUSE, table(1)),
        ("rake", table(1), ANN),
        ("gift", CASHIER, ANN),
        ("cash_out", table(1), HOUSE),
    ],
)
def test_a_kind_moves_chips_between_its_own_accounts_only(
    tx: Connection,
    kind: str,
    source: ledger.LedgerAccount,
    target: ledger.LedgerAccount,
) -> None:
    with pytest.raises(AccountError):
        transfer(tx, "k", kind, source, target, 1)
    assert _rows(tx)[0] == 0


@pytest.mark.parametrize("key", ["", "x" * 201, "tab\there", "new\nline", None, 5])
def test_keys_are_short_printable_text(tx: Connection, key: object) -> None:
    with pytest.raises(InvalidKey):
        transfer(tx, key, "deposit", CASHIER, ANN, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("table_id", [-1, True, 1.5, "3", 2**63])
def test_table_ids_are_whole_numbers_from_zero(table_id: object) -> None:
    with pytest.raises(AccountError):
        table(table_id)  # type: ignore[arg-type]


def test_outside_a_transaction_nothing_is_written(db: Connection) -> None:
    with pytest.raises(NotInTransaction):
        transfer(db, "k", "deposit", CASHIER, ANN, 1)
    assert _rows(db)[0] == 0


def test_it_never_commits_the_callers_transaction(db: Connection) -> None:
    db.execute("BEGIN")
    transfer(db, "k", "deposit", CASHIER, ANN, 1)
    assert db.in_transaction
    db.execute("ROLLBACK")
    assert _rows(db)[0] == 0 and ledger.balance(db, ANN) == 0


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ledger_entries SET amount = 5",
        "DELETE FROM ledger_entries",
        "UPDATE ledger_transactions SET kind = 'rake'",
        "DELETE FROM ledger_transactions",
    ],
)
def test_the_ledger_is_append_only(tx: Connection, statement: str) -> None:
    transfer(tx, "k", "deposit", CASHIER, ANN, 1)
    with pytest.raises(integrity_errors(), match="append-only"):
        tx.execute(statement)


def test_each_hash_covers_the_previous_one(tx: Connection) -> None:
    first = transfer(tx, "k1", "deposit", CASHIER, ANN, 1)
    second = transfer(tx, "k2", "deposit", CASHIER, ANN, 1)
    prev = tx.execute("SELECT prev FROM ledger_transactions WHERE seq = 2").fetchone()[0]
    assert prev == first.hash != second.hash
    assert ledger.head(tx) == (2, second.hash)


def test_a_statement_lists_the_accounts_transactions_newest_first(
    tx: Connection,
) -> None:
    transfer(tx, "d", "deposit", CASHIER, ANN, 100, memo={"ref": "wire"})
    transfer(tx, "b", "buy_in", ANN, table(4), 60, memo={"table": 4})
    transfer(tx, "c", "cash_out", table(4), ANN, 0, memo={"table": 4})
    lines = ledger.statement(tx, ANN)
    assert [(x.kind, x.amount, x.balance, str(x.other)) for x in lines] == [
        ("cash_out", 0, 40, "table 4"),
        ("buy_in", -60, 40, "table 4"),
        ("deposit", 100, 100, "cashier"),
    ]
    assert lines[2].memo == {"ref": "wire"}
    assert [x.seq for x in ledger.statement(tx, ANN, last=1)] == [3]
