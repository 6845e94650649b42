"""Shared by the accounts tests: Argon2id with tiny parameters, for speed (tests only;
never a default)."""

from __future__ import annotations

from doubleholdem.accounts.accounts import Passwords

FAST = Passwords(time_cost=1, memory_cost=8, parallelism=1, insecure=True)
