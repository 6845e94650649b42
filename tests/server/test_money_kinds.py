"""Money has one owner (issue 31 item 2): a room's kind of money is chosen once, when the
room is made (``server/money/choose.py``), and each table's money is of that kind; a
guest room builds no ledger wallet; the ledger's payments are opened and committed by
the group commit (``GroupCommit.paying``); a ledger credit never goes through the calls
module of a wallet outside the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import SQLITE, dialect
from doubleholdem.database.url import connect
from doubleholdem.errors import DatabaseBusy, InsufficientFunds
from doubleholdem.server.money import wallet_calls
from doubleholdem.server.money.ledger_money import LedgerMoney, LedgerTableMoney
from doubleholdem.server.money.play_chips import GuestMoney, PlayChips
from doubleholdem.server.money.wallet_money import WalletMoney, WalletTableMoney
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage
from money_room import audit_ok, balance, kinds, money_room, play_hand, send, sign_up
from wallets import DictWallet


@pytest.mark.parametrize(
    ("guests", "wallet", "room_kind", "table_kind", "stored"),
    [
        (True, None, GuestMoney, PlayChips, "guests"),
        (True, DictWallet({"ann": 100}), GuestMoney, PlayChips, "guests"),
        (False, None, LedgerMoney, LedgerTableMoney, "ledger"),
        (False, DictWallet({"ann": 100}), WalletMoney, WalletTableMoney, "wallet"),
    ],
)
def test_the_kind_is_chosen_once_and_every_table_has_it(
    room_db: str,
    guests: bool,
    wallet: DictWallet | None,
    room_kind: type,
    table_kind: type,
    stored: str,
) -> None:
    room = money_room(bots=1, path=room_db, guests=guests, wallet=wallet)
    try:
        assert type(room.tables.money) is room_kind and room.tables.money.kind == stored
        assert room.store.money_kind() == stored
        assert [type(runner.money) for runner in room.runners.values()] == [table_kind] * 2
        assert room.wallet is (None if guests else wallet or room.tables.money.wallet)
    finally:
        room.store.close()


def test_a_guest_room_builds_no_ledger_wallet(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play chips from nowhere: no :class:`LedgerWallet` is made, whatever happens at
    the tables (a bot seated, a guest sitting, topping up, playing and leaving)."""

    def refused(self: LedgerWallet, db: sqlite3.Connection) -> None:
        raise AssertionError("a guest room made a LedgerWallet")

    monkeypatch.setattr(LedgerWallet, "__init__", refused)
    room = money_room(bots=1, path=room_db, guests=True)
    try:
        ann = room.connect()
        assert kinds(send(room, ann, type="sit", table=0, name="ann", buy_in=500)) == ["seated"]
        runner = room.runners[0]
        play_hand(runner)
        assert kinds(send(room, ann, type="top_up", amount=100)) == ["result"]
        assert kinds(send(room, ann, type="leave")) == ["result"]
        seated = [seat["player"] for seat in runner.table.seats() if seat is not None]
        assert ann.seat is None and "ann" not in seated
    finally:
        room.store.close()


def test_a_ledger_cash_out_and_rake_do_not_go_through_the_wallet_calls(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger writes its credits and rake in the commit itself: the module of the
    calls to a wallet outside the database is never asked to make them."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a ledger movement went through wallet_calls")

    monkeypatch.setattr(wallet_calls, "finish", refused)
    monkeypatch.setattr(wallet_calls, "note", refused)
    room = money_room(path=room_db)
    try:
        ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
        send(room, ann, type="sit", table=0, buy_in=500)
        send(room, bob, type="sit", table=0, buy_in=500)
        play_hand(room.runners[0])
        send(room, ann, type="leave")
        send(room, bob, type="leave")
        house = ledger.balance(room.store.db, ledger.HOUSE)
        assert balance(room, "ann") + balance(room, "bob") + house == 2000 and house > 0
        audit_ok(room)
    finally:
        room.store.close()


def _other_writer(path: Path | str) -> bool:
    """Whether another connection can take the SQLite database's write lock now."""
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def _committed(room_db: str) -> set[str]:
    """The keys of the meta rows another connection sees (those committed)."""
    db = connect(room_db)
    try:
        return {key for (key,) in db.execute("SELECT key FROM meta").fetchall()}
    finally:
        db.close()


def test_the_payment_is_opened_and_committed_by_the_group_commit(room_db: str) -> None:
    """``GroupCommit.paying`` writes into the next commit's transaction (holding it,
    and on SQLite the write lock, until the flush commits it with the change); a refused
    payment is undone and, alone in the transaction, ends it (the write lock goes) at
    once."""
    store = Storage(room_db)
    commit = GroupCommit(store)
    on_sqlite = dialect(store.db) == SQLITE
    try:
        with store.transaction():
            store.db.execute("INSERT INTO meta VALUES ('x', '1')")
        with pytest.raises(InsufficientFunds), commit.paying():
            store.db.execute("INSERT INTO meta VALUES ('refused', '1')")
            raise InsufficientFunds("refused", account="ann", balance=0, amount=5)
        assert not store.in_transaction and (not on_sqlite or _other_writer(room_db))
        with commit.paying():
            store.db.execute("INSERT INTO meta VALUES ('paid', '1')")
        assert store.in_transaction and (not on_sqlite or not _other_writer(room_db))
        assert "paid" not in _committed(room_db)  # held for the change it pays for
        change = "INSERT INTO meta VALUES ('change', '1')"
        commit.later([lambda s: s.db.execute(change).close()], lambda: None)  # flushed at once
        assert not store.in_transaction and (not on_sqlite or _other_writer(room_db))
        assert {"paid", "change"} <= _committed(room_db)  # committed, with the change
        assert "refused" not in _committed(room_db)
    finally:
        store.close()


def test_a_payment_waits_for_the_write_lock_a_little_then_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
    store = Storage(str(path))
    commit = GroupCommit(store)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy), commit.paying():
            raise AssertionError("paid while another process held the lock")
        with pytest.raises(DatabaseBusy):
            commit.write_now(lambda s: s.db.execute("INSERT INTO meta VALUES ('y', '1')"))
        other.execute("ROLLBACK")
        commit.write_now(lambda s: s.db.execute("INSERT INTO meta VALUES ('y', '1')"))
        assert other.execute("SELECT value FROM meta WHERE key = 'y'").fetchone() == ("1",)
    finally:
        other.close()
        store.close()
