"""The ledger wallet: buy-ins, top-ups and cash-outs with one seat per account per
table, refused for frozen or closed accounts, retried harmlessly; and a wallet of an
embedding server's own satisfies the same protocol."""

from __future__ import annotations

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Passwords, create_account, create_bot, set_state
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.cashier import deposit
from doubleholdem.accounts.wallet import LedgerWallet, Wallet
from doubleholdem.database.connection import Connection
from doubleholdem.errors import (
    AccountClosed,
    AccountFrozen,
    AlreadySeated,
    InsufficientFunds,
    KeyConflict,
    NotSeated,
    UnknownAccount,
)


@pytest.fixture
def wallet(tx: Connection, fast: Passwords) -> LedgerWallet:
    create_account(tx, "ann", "correct horse", passwords=fast)
    deposit(tx, "ann", 1000, ref="w1")
    return LedgerWallet(tx)


def _count(db: Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM ledger_transactions").fetchone()[0])


def test_a_seat_is_bought_topped_up_and_cashed_out(tx: Connection, wallet: LedgerWallet) -> None:
    wallet.debit("ann", 5, 300, key="t5:join")
    assert wallet.seats("ann") == [5] and wallet.balance("ann") == 700
    wallet.debit("ann", 5, 100, key="t5:top", reason="top_up")
    assert ledger.balance(tx, ledger.table(5)) == 400
    wallet.rake(5, 7, key="t5:hand1")
    wallet.credit("ann", 5, 393, key="t5:leave")
    assert wallet.seats("ann") == [] and wallet.balance("ann") == 993
    assert audit(tx, table_chips={5: 0})["ok"]


def test_one_seat_per_account_per_table(wallet: LedgerWallet) -> None:
    wallet.debit("ann", 5, 100, key="a")
    with pytest.raises(AlreadySeated) as caught:
        wallet.debit("ann", 5, 100, key="b")
    assert caught.value.table_id == 5 and caught.value.code == "already_seated"
    wallet.debit("ann", 6, 100, key="c")
    assert wallet.seats("ann") == [5, 6]


def test_top_up_and_cash_out_need_a_seat(tx: Connection, wallet: LedgerWallet) -> None:
    before = _count(tx)
    with pytest.raises(NotSeated):
        wallet.debit("ann", 5, 100, key="a", reason="top_up")
    with pytest.raises(NotSeated):
        wallet.credit("ann", 5, 0, key="b")
    assert _count(tx) == before


def test_retries_are_harmless_and_conflicts_refused(tx: Connection, wallet: LedgerWallet) -> None:
    first = wallet.debit("ann", 5, 300, key="join")
    assert wallet.debit("ann", 5, 300, key="join") == first  # seated now, still a retry
    with pytest.raises(KeyConflict):
        wallet.debit("ann", 5, 301, key="join")
    with pytest.raises(KeyConflict):
        wallet.debit("ann", 6, 300, key="join")
    out = wallet.credit("ann", 5, 300, key="leave")
    assert wallet.credit("ann", 5, 300, key="leave") == out  # not seated now, still a retry
    with pytest.raises(KeyConflict):
        wallet.credit("ann", 5, 299, key="leave")
    assert wallet.balance("ann") == 1000 and _count(tx) == 3


def test_insufficient_funds_change_nothing(tx: Connection, wallet: LedgerWallet) -> None:
    with pytest.raises(InsufficientFunds) as caught:
        wallet.debit("ann", 5, 1001, key="join")
    assert caught.value.balance == 1000 and caught.value.amount == 1001
    assert wallet.seats("ann") == [] and _count(tx) == 1


def test_frozen_and_closed_accounts_cannot_sit_but_are_cashed_out(
    tx: Connection, wallet: LedgerWallet
) -> None:
    wallet.debit("ann", 5, 300, key="join")
    set_state(tx, "ann", "frozen")
    with pytest.raises(AccountFrozen):
        wallet.debit("ann", 6, 100, key="b")
    with pytest.raises(AccountFrozen):
        wallet.debit("ann", 5, 100, key="c", reason="top_up")
    set_state(tx, "ann", "closed")
    with pytest.raises(AccountClosed):
        wallet.debit("ann", 6, 100, key="d")
    wallet.credit("ann", 5, 300, key="leave")
    assert wallet.balance("ann") == 1000  # held


def test_a_bot_buys_in_from_its_bankroll_until_it_is_gone(tx: Connection) -> None:
    create_bot(tx, "robot", 500)
    wallet = LedgerWallet(tx)
    wallet.debit("robot", 1, 500, key="j1")
    wallet.credit("robot", 1, 0, key="l1")  # lost it all
    with pytest.raises(InsufficientFunds):
        wallet.debit("robot", 1, 200, key="j2")
    assert ledger.balance(tx, ledger.bot("robot")) == 0


def test_unknown_owners_are_refused(wallet: LedgerWallet) -> None:
    with pytest.raises(UnknownAccount):
        wallet.debit("nobody", 1, 10, key="k")


class MemoryWallet:
    """A wallet of an embedding server's own: balances in a dict (docs/accounts.md)."""

    def __init__(self, balances: dict[str, int]) -> None:
        self.balances = balances
        self.done: dict[str, tuple[str, str, int, int]] = {}

    def balance(self, owner: str) -> int:
        return self.balances[owner]

    def _once(self, key: str, request: tuple[str, str, int, int], change: int) -> object:
        if key in self.done:
            if self.done[key] != request:
                raise KeyConflict(f"the key {key!r} was used for another request", key=key)
            return key
        if self.balances[request[1]] + change < 0:
            raise InsufficientFunds(
                "not enough chips",
                account=request[1],
                balance=self.balances[request[1]],
                amount=-change,
            )
        self.balances[request[1]] += change
        self.done[key] = request
        return key

    def debit(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: str = "buy_in"
    ) -> object:
        return self._once(key, (reason, owner, table_id, amount), -amount)

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> object:
        return self._once(key, ("cash_out", owner, table_id, amount), amount)

    def rake(self, table_id: int, amount: int, *, key: str) -> object:
        return key


def _play(wallet: Wallet) -> int:
    """What a server does with any wallet: buy in, retry, cash out."""
    wallet.debit("ann", 1, 400, key="join")
    wallet.debit("ann", 1, 400, key="join")
    wallet.rake(1, 10, key="hand1")
    wallet.credit("ann", 1, 390, key="leave")
    return wallet.balance("ann")


def test_any_wallet_serves_the_same_way(tx: Connection, wallet: LedgerWallet) -> None:
    assert _play(wallet) == 990
    assert _play(MemoryWallet({"ann": 1000})) == 990
