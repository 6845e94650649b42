"""The server's accounts desk without HTTP: a sign-in replaces a hash made with weaker
parameters (hashed before the write transaction), by the one sign-in rule the command
line's bank follows too; a throttled sign-in does no Argon2 work at all."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from doubleholdem.accounts.accounts import Passwords
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.households import signed_in
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.errors import BadCredentials, SignInThrottled
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from passwords_double import FAST, CountingPasswords

STRONGER = Passwords(time_cost=2, memory_cost=16, insecure=True)


def _hash(path: Path | str) -> str:
    with Bank(str(path)) as bank:
        return str(bank.db.execute("SELECT password_hash FROM accounts").fetchone()[0])


def test_a_weaker_hash_is_replaced_at_sign_in(room_db: str) -> None:
    path = room_db
    with Bank(str(path), passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
    assert "m=8,t=1" in _hash(path)
    desk = Desk(str(path), RoomSettings(), passwords=STRONGER)
    try:
        desk.sign_in("ann", "correct horse", address="192.0.2.1")
        assert "m=16,t=2" in _hash(path)
        desk.sign_in("ann", "correct horse", address="192.0.2.1")  # verified by the new hash
    finally:
        desk.close()


def test_a_throttled_sign_in_costs_no_hashing(room_db: str) -> None:
    hasher = CountingPasswords()
    throttle = Throttle(clock=lambda: 0.0, per_account=(1, 60.0))
    desk = Desk(room_db, RoomSettings(), passwords=hasher, throttle=throttle)
    try:
        with pytest.raises(BadCredentials):
            desk.sign_in("ann", "wrong horse", address="192.0.2.1")
        assert hasher.verified == 1
        with pytest.raises(SignInThrottled) as refused:
            desk.sign_in("ann", "wrong horse", address="192.0.2.1")
        assert refused.value.retry_after == 60 and hasher.verified == 1
    finally:
        desk.close()


class _LockFreeHashing(Passwords):
    """The stronger hasher, which notes at each hash whether the database's write lock
    was free (another connection may begin a write transaction at once)."""

    def __init__(self, path: Path) -> None:
        super().__init__(time_cost=2, memory_cost=16, insecure=True)
        self.path = path
        self.lock_free: list[bool] = []

    def hash(self, password: str) -> str:
        other = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            self.lock_free.append(True)
        except sqlite3.OperationalError:
            self.lock_free.append(False)
        finally:
            other.close()
        return super().hash(password)


@pytest.mark.parametrize("door", ["desk", "bank"])
def test_the_desk_and_the_bank_sign_in_by_one_rule(tmp_path: Path, door: str) -> None:
    """The server's desk and the command line's bank sign in alike
    (:func:`doubleholdem.accounts.sessions.sign_in`): a weaker hash is made anew once,
    outside the write transaction, stored, and the next sign-in verifies by it; the
    address is recorded and the session lives."""
    path = tmp_path / "room.db"
    with Bank(str(path), passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
    hasher = _LockFreeHashing(path)
    if door == "desk":
        desk = Desk(str(path), RoomSettings(), passwords=hasher)
        sign_in, session, close = desk.sign_in, desk.session, desk.close
    else:
        bank = Bank(str(path), passwords=hasher)
        sign_in, session, close = bank.sign_in, bank.session, bank.close
    try:
        account, token = sign_in("ann", "correct horse", address="192.0.2.1")
        assert hasher.lock_free == [True] and "m=16,t=2" in _hash(path)
        sign_in("ann", "correct horse", address="192.0.2.1")  # verified by the new hash
        assert hasher.lock_free == [True]  # not made again
        found = session(token)
        assert found is not None and found.name == account.name == "ann"
    finally:
        close()
    with Bank(str(path)) as bank:
        assert signed_in(bank.db, "ann", "192.0.2.1")
