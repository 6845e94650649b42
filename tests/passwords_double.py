"""The tests' one stand-in for :class:`~doubleholdem.accounts.accounts.Passwords`:
Argon2id with tiny parameters, for speed (tests only; never a default), shared as
:data:`FAST`, and :class:`CountingPasswords`, the same that counts its work from any
thread."""

from __future__ import annotations

import threading

from doubleholdem.accounts.accounts import Passwords

__all__ = ["FAST", "CountingPasswords"]

FAST = Passwords(time_cost=1, memory_cost=8, insecure=True)  # one pass, 8 KiB, one lane


class CountingPasswords(Passwords):
    """:data:`FAST`'s Argon2id that counts its verifications and hashes, safely from the
    server's threads."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, insecure=True)
        self._counting = threading.Lock()
        self.verified = 0
        self.hashed = 0

    def verify(self, hashed: str, password: str) -> bool:
        with self._counting:
            self.verified += 1
        return super().verify(hashed, password)

    def hash(self, password: str) -> str:
        with self._counting:
            self.hashed += 1
        return super().hash(password)
