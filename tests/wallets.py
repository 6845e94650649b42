"""Wallets of an embedding server, for the tests of a room's money through a wallet
outside its database: :class:`DictWallet` (the docs' example, typed: balances in a dict,
each key's request remembered), :class:`SeatWallet` (one that keeps seats, and is
refunded what it took for no seat), :class:`FlakyWallet` (a failing one) and
:class:`FileWallet` (a DictWallet in a SQLite file of its own, which outlives a process
killed with SIGKILL, and can kill its process just before or just after it applies a
call: the bad moments of a crash)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
from collections.abc import Callable
from typing import Any

from doubleholdem.errors import (
    AlreadySeated,
    InsufficientFunds,
    KeyConflict,
    NotSeated,
    UnknownAccount,
)

HOUSE = "(house)"  # the wallet's own account of the rake and the write-offs


class DictWallet:
    """Balances in a dict; every key's request remembered (idempotent by key), every
    call noted in :attr:`calls` (method, key) as it comes, applied or not."""

    def __init__(self, balances: dict[str, int]) -> None:
        self.balances = dict(balances)
        self.done: dict[str, tuple[Any, ...]] = {}
        self.house = 0
        self.calls: list[tuple[str, str]] = []
        self.written_off: list[tuple[int, str]] = []

    def total(self) -> int:
        """Every chip the wallet holds: the balances and the house."""
        return sum(self.balances.values()) + self.house

    def balance(self, owner: str) -> int:
        if owner not in self.balances:
            raise UnknownAccount(f"no account {owner!r}", account=owner)
        return self.balances[owner]

    def _once(self, key: str, request: tuple[Any, ...], apply: Callable[[], None]) -> str:
        self.calls.append((request[0], key))
        if key in self.done:
            if self.done[key] != request:
                raise KeyConflict(f"the key {key!r} was used for another request", key=key)
            return key
        apply()
        self.done[key] = request
        return key

    def debit(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: str = "buy_in"
    ) -> str:
        def take() -> None:
            if self.balance(owner) < amount:
                raise InsufficientFunds(
                    "not enough chips", account=owner, balance=self.balances[owner], amount=amount
                )
            self._seat(owner, table_id, reason)
            self.balances[owner] -= amount

        return self._once(key, (reason, owner, table_id, amount), take)

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> str:
        def give() -> None:
            self._seat(owner, table_id, "cash_out")
            self.balances[owner] = self.balances.get(owner, 0) + amount

        return self._once(key, ("cash_out", owner, table_id, amount), give)

    def _seat(self, owner: str, table_id: int, reason: str) -> None:
        """What a call of ``reason`` does to ``owner``'s seat at ``table_id`` (before
        its chips move: it may refuse): nothing here, it keeps no seats."""

    def rake(self, table_id: int, amount: int, *, key: str) -> str:
        def keep() -> None:
            self.house += amount

        return self._once(key, ("rake", table_id, amount), keep)


class TellingWallet(DictWallet):
    """A :class:`DictWallet` told of a repair (``write_off``): it knows its seats at
    the table only by what it paid, so here it notes the table and the key."""

    def write_off(self, table_id: int, *, key: str, problem: str) -> str:
        def note() -> None:
            self.written_off.append((table_id, key))

        return self._once(key, ("write_off", table_id, problem), note)


class SeatWallet(DictWallet):
    """A :class:`DictWallet` that keeps each owner's seats, as the ledger's does: a
    buy-in opens one (refused if it is open), a top-up needs it, a cash-out closes it;
    with :meth:`refund` (:class:`~doubleholdem.accounts.wallet.Refunds`), a debit given
    back closes the seat a buy-in opened and leaves a top-up's open. :attr:`seats`:
    (owner, table) of the open seats."""

    def __init__(self, balances: dict[str, int]) -> None:
        super().__init__(balances)
        self.seats: set[tuple[str, int]] = set()

    def _seat(self, owner: str, table_id: int, reason: str) -> None:
        seat = (owner, table_id)
        if (seat in self.seats) != (reason != "buy_in"):
            error = AlreadySeated if reason == "buy_in" else NotSeated
            raise error(f"{owner} at table {table_id}", account=owner, table_id=table_id)
        if reason == "cash_out":
            self.seats.discard(seat)
        else:
            self.seats.add(seat)

    def refund(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: str = "buy_in"
    ) -> str:
        def give() -> None:
            self.balances[owner] += amount
            if reason == "buy_in":
                self.seats.discard((owner, table_id))

        return self._once(key, ("refund", reason, owner, table_id, amount), give)


class FlakyWallet(SeatWallet):
    """A :class:`SeatWallet` whose service fails: the methods in :attr:`down` raise
    ``ConnectionError`` (after applying the call when :attr:`lose_replies`: the reply
    is lost, not the request)."""

    def __init__(self, balances: dict[str, int]) -> None:
        super().__init__(balances)
        self.down: set[str] = set()
        self.lose_replies = False

    def _once(self, key: str, request: tuple[Any, ...], apply: Callable[[], None]) -> str:
        method = "debit" if request[0] in ("buy_in", "top_up") else request[0]
        if method in self.down and not self.lose_replies:
            raise ConnectionError("the wallet service is unreachable")
        receipt = super()._once(key, request, apply)
        if method in self.down:
            raise ConnectionError("the wallet's reply was lost")
        return receipt


class FileWallet:
    """A :class:`DictWallet` in the SQLite file at ``path`` (each call one transaction):
    it outlives its process. With ``kill`` = (``"before"`` or ``"after"``, a key's
    prefix), the process kills itself with SIGKILL just before or just after applying a
    call whose key starts with the prefix."""

    def __init__(
        self, path: str, balances: dict[str, int] | None = None, kill: tuple[str, str] = ("", "")
    ) -> None:
        # the room calls a wallet from threads of its own (one call at a time a table)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS balances (owner TEXT PRIMARY KEY, chips INT)")
        self.db.execute("CREATE TABLE IF NOT EXISTS done (key TEXT PRIMARY KEY, request TEXT)")
        for owner, chips in (balances or {}).items():
            self.db.execute("INSERT INTO balances VALUES (?, ?)", (owner, chips))
        self.kill = kill

    def total(self) -> int:
        (chips,) = self.db.execute("SELECT COALESCE(SUM(chips), 0) FROM balances").fetchone()
        return int(chips)

    def keys(self) -> list[str]:
        return [key for (key,) in self.db.execute("SELECT key FROM done ORDER BY key")]

    def balance(self, owner: str) -> int:
        row = self.db.execute("SELECT chips FROM balances WHERE owner = ?", (owner,)).fetchone()
        if row is None:
            raise UnknownAccount(f"no account {owner!r}", account=owner)
        return int(row[0])

    def _die_at(self, moment: str, key: str) -> None:
        when, prefix = self.kill
        if when == moment and prefix and key.startswith(prefix):
            os.kill(os.getpid(), signal.SIGKILL)

    def _once(self, key: str, request: list[Any], owner: str, change: int) -> str:
        text = json.dumps(request)
        row = self.db.execute("SELECT request FROM done WHERE key = ?", (key,)).fetchone()
        if row is not None:
            if row[0] != text:
                raise KeyConflict(f"the key {key!r} was used for another request", key=key)
            return key
        self._die_at("before", key)
        self.db.execute("BEGIN IMMEDIATE")
        if change < 0 and self.balance(owner) < -change:
            self.db.execute("ROLLBACK")
            raise InsufficientFunds(
                "not enough chips", account=owner, balance=self.balance(owner), amount=-change
            )
        self.db.execute("INSERT OR IGNORE INTO balances VALUES (?, 0)", (owner,))
        self.db.execute("UPDATE balances SET chips = chips + ? WHERE owner = ?", (change, owner))
        self.db.execute("INSERT INTO done VALUES (?, ?)", (key, text))
        self.db.execute("COMMIT")
        self._die_at("after", key)
        return key

    def debit(
        self, owner: str, table_id: int, amount: int, *, key: str, reason: str = "buy_in"
    ) -> str:
        return self._once(key, [reason, owner, table_id, amount], owner, -amount)

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> str:
        return self._once(key, ["cash_out", owner, table_id, amount], owner, amount)

    def rake(self, table_id: int, amount: int, *, key: str) -> str:
        return self._once(key, ["rake", table_id, amount], HOUSE, amount)
