"""The Bank: one transaction per request on a database file or a PostgreSQL database
(rolled back on any error), sign-in with the throttle, and no password or session token
in the file in clear."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from accounts_harness import FAST
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.sessions import Throttle, token_hash
from doubleholdem.errors import (
    AccountFrozen,
    BadCredentials,
    InsufficientFunds,
    KeyConflict,
    SignInThrottled,
)

PASSWORD = "Tr0ub4dor&3-unique-password"


@pytest.fixture(params=["sqlite", "postgresql"])
def bank(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Bank]:
    """A bank on a new SQLite file, then on a new PostgreSQL schema."""
    if request.param == "sqlite":
        target = str(tmp_path / "room.db")
    else:
        target = request.getfixturevalue("postgres_url")
    with Bank(target, passwords=FAST, create=True) as bank:
        yield bank


def test_a_missing_file_is_not_created_without_create(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Bank(str(tmp_path / "typo.db"))
    assert not (tmp_path / "typo.db").exists()


def test_deposits_and_withdrawals_by_reference(bank: Bank) -> None:
    bank.create("ann", PASSWORD)
    first = bank.deposit("ann", 500, ref="wire-1")
    again = bank.deposit("ann", 500, ref="wire-1")
    assert not first.repeated and again.repeated and again.posted == first.posted
    assert again.balance == 500
    with pytest.raises(KeyConflict):
        bank.withdraw("ann", 500, ref="wire-1")  # a reference names one movement
    with pytest.raises(InsufficientFunds):
        bank.withdraw("ann", 501, ref="out-1")
    assert bank.withdraw("ann", 200, ref="out-1").balance == 300
    bank.set_state("ann", "frozen")
    with pytest.raises(AccountFrozen):
        bank.withdraw("ann", 1, ref="out-2")
    assert bank.deposit("ann", 1, ref="wire-2").balance == 301  # a frozen account receives
    assert bank.show("ann")["balance"] == 301
    assert bank.audit() == {"ok": True, "problems": []}


def test_an_error_rolls_the_whole_request_back(bank: Bank) -> None:
    bank.create("ann", PASSWORD)
    with pytest.raises(InsufficientFunds), bank.transaction():
        bank.wallet.debit("ann", 1, 1, key="never")  # fails: no chips
    with pytest.raises(RuntimeError), bank.transaction() as db:
        db.execute("UPDATE accounts SET role = 'admin'")
        raise RuntimeError
    assert bank.show("ann")["role"] == "player"


def test_sign_in_records_the_address_and_starts_a_session(bank: Bank) -> None:
    bank.create("ann", PASSWORD)
    bank.create("bob", PASSWORD)
    account, token = bank.sign_in("ann", PASSWORD, address="10.1.1.1", now=100.0)
    assert bank.session(token, now=101.0) == account
    bank.sign_in("bob", PASSWORD, address="10.1.1.1", now=102.0)
    assert [tuple(x) for x in bank.shared_addresses()] == [("10.1.1.1", ("ann", "bob"))]
    bank.sign_out(token, now=103.0)
    assert bank.session(token, now=104.0) is None


def test_sign_in_is_throttled(bank: Bank) -> None:
    bank.create("ann", PASSWORD)
    now = [0.0]
    throttle = Throttle(clock=lambda: now[0], per_account=(3, 60.0))
    for _ in range(3):
        with pytest.raises(BadCredentials):
            bank.sign_in("ann", "wrong password", address="10.0.0.9", throttle=throttle)
    with pytest.raises(SignInThrottled) as caught:
        bank.sign_in("ann", PASSWORD, address="10.0.0.9", throttle=throttle)
    assert caught.value.retry_after == 60
    bank.sign_in("ann", PASSWORD, address="10.0.0.8", throttle=throttle)  # elsewhere: not locked
    now[0] = 60.0
    bank.sign_in("ann", PASSWORD, address="10.0.0.9", throttle=throttle)


def test_no_password_or_token_in_the_database_in_clear(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "room.db"
    bank = Bank(str(path), passwords=FAST, create=True)
    bank.create("ann", PASSWORD)
    with pytest.raises(BadCredentials) as caught:
        bank.sign_in("ann", PASSWORD + "x", address="10.0.0.1")
    assert PASSWORD not in str(caught.value)
    _, token = bank.sign_in("ann", PASSWORD, address="10.0.0.1")
    written = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the file and its WAL
    bank.close()
    written += path.read_bytes()
    assert written.count(b"argon2id") >= 1  # the hash is there
    for secret in (PASSWORD, token):
        for encoding in ("utf-8", "utf-16-le", "utf-16-be"):
            assert secret.encode(encoding) not in written
    assert token_hash(token).encode() in written
    assert all(
        PASSWORD not in r.getMessage() and token not in r.getMessage() for r in caplog.records
    )
    db = sqlite3.connect(path)
    text = "\n".join(db.iterdump())
    assert PASSWORD not in text and token not in text


def test_the_name_bound_spares_the_addresses_the_owner_signed_in_from(bank: Bank) -> None:
    """The desk's sign-in rule (docs/server.md, "Throttles"): guessers from many
    addresses spend the name's bound for new addresses only; its owner still signs in
    from an address it signed in from before (issue 30)."""
    bank.create("ann", PASSWORD)
    bank.sign_in("ann", PASSWORD, address="192.0.2.1")  # home
    throttle = Throttle(clock=lambda: 0.0, per_name=(3, 3600.0))
    for n in range(3):
        with pytest.raises(BadCredentials):
            bank.sign_in("ann", "wrong password", address=f"203.0.113.{n}", throttle=throttle)
    with pytest.raises(SignInThrottled):
        bank.sign_in("ann", PASSWORD, address="198.51.100.7", throttle=throttle)
    account, _ = bank.sign_in("ann", PASSWORD, address="192.0.2.1", throttle=throttle)
    assert account.name == "ann"
