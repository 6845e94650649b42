"""The server's accounts desk without HTTP: a sign-in replaces a hash made with weaker
parameters (hashed before the write transaction); a throttled sign-in does no Argon2
work at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from doubleholdem.accounts.accounts import Passwords
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.errors import BadCredentials, SignInThrottled
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from passwords_double import FAST, CountingPasswords

STRONGER = Passwords(time_cost=2, memory_cost=16, insecure=True)


def _hash(path: Path) -> str:
    with Bank(str(path)) as bank:
        return str(bank.db.execute("SELECT password_hash FROM accounts").fetchone()[0])


def test_a_weaker_hash_is_replaced_at_sign_in(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
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


def test_a_throttled_sign_in_costs_no_hashing(tmp_path: Path) -> None:
    hasher = CountingPasswords()
    throttle = Throttle(clock=lambda: 0.0, per_account=(1, 60.0))
    desk = Desk(str(tmp_path / "room.db"), RoomSettings(), passwords=hasher, throttle=throttle)
    try:
        with pytest.raises(BadCredentials):
            desk.sign_in("ann", "wrong horse", address="192.0.2.1")
        assert hasher.verified == 1
        with pytest.raises(SignInThrottled) as refused:
            desk.sign_in("ann", "wrong horse", address="192.0.2.1")
        assert refused.value.retry_after == 60 and hasher.verified == 1
    finally:
        desk.close()
