"""An embedding server's wallet that hangs or fails, against a served room (issue 30,
item 5): a script, not a test (tests/server/test_wallet_gate.py checks the structure).

- **Hang**: ann's buy-in at table 1 waits ``HANG`` (5) seconds in the wallet. Over twice
  that, a probe on the room's event loop answers a ping sent every 10 ms and records how
  late each was answered (the loop's stall: what every table, ping and ``/healthz`` of
  the room waits), and the hands table 2 deals are counted; the same window without the
  hang beside it.
- **Outage**: the wallet fails every call but ``balance``, then every call, for
  ``OUTAGE`` (20) seconds while each table's two bots are short with a bankroll to top up from: the
  wallet calls made, the notes owed at the end, the room's health text's length, and
  whether a table's task stopped on an error.

It uses only what every version of the room has, so that the same script measures
another tree side by side: ``PYTHONPATH=TREE/python python3 benches/wallet_stall.py``.
Figures: benches/README.md ("A wallet that hangs or fails").
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import threading
import time
from typing import Any

from doubleholdem.errors import InsufficientFunds, UnknownAccount
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig

HANG = float(os.environ.get("DOUBLEHOLDEM_WALLET_HANG", "5"))
OUTAGE = float(os.environ.get("DOUBLEHOLDEM_WALLET_OUTAGE", "20"))
CONFIG = TableConfig(small_blind=5, big_blind=10, seats=3)


class Wallet:
    """Balances in a dict, each key applied once; ann's debits sleep ``hang`` seconds;
    every call fails while ``down``; every call counted."""

    def __init__(self, balances: dict[str, int]) -> None:
        self.balances = dict(balances)
        self.done: dict[str, Any] = {}
        self.house = 0
        self.hang = 0.0
        self.down = False
        self.failing = "every call"  # or "all but balance"
        self.calls = 0
        self.lock = threading.Lock()

    def _enter(self, method: str = "") -> None:
        with self.lock:
            self.calls += 1
        if self.down and (self.failing == "every call" or method != "balance"):
            raise ConnectionError("the wallet service is unreachable")

    def balance(self, owner: str) -> int:
        self._enter("balance")
        if owner not in self.balances:
            raise UnknownAccount(f"no account {owner!r}", account=owner)
        return self.balances[owner]

    def debit(self, owner: str, table_id: int, amount: int, *, key: str, reason: str = "") -> str:
        self._enter()
        if owner == "ann" and self.hang:
            time.sleep(self.hang)
        if key not in self.done:
            if self.balances.get(owner, 0) < amount:
                raise InsufficientFunds("short", account=owner, balance=0, amount=amount)
            self.balances[owner] -= amount
            self.done[key] = amount
        return key

    def credit(self, owner: str, table_id: int, amount: int, *, key: str) -> str:
        self._enter()
        if key not in self.done:
            self.balances[owner] = self.balances.get(owner, 0) + amount
            self.done[key] = amount
        return key

    def rake(self, table_id: int, amount: int, *, key: str) -> str:
        self._enter()
        if key not in self.done:
            self.house += amount
            self.done[key] = amount
        return key


def _room(wallet: Wallet, tables: int) -> Room:
    settings = RoomSettings(
        tables=tables, bots=2, bot_delay=0.01, pause=0.1, configs=[CONFIG], seed=5, guests=False
    )
    return Room.open(":memory:", settings, wallet=wallet)


async def _probe(seconds: float) -> list[float]:
    """How late (seconds) the loop answers a ping sent every 10 ms for ``seconds``: each
    10 ms tick that passed is answered when the loop next wakes (a stall of the loop
    makes every ping sent during it late)."""
    late = []
    tick = time.monotonic()
    end = tick + seconds
    while tick < end:
        await asyncio.sleep(max(0.0, tick + 0.01 - time.monotonic()))
        now = time.monotonic()
        while tick + 0.01 <= now:
            tick += 0.01
            late.append(now - tick)
    return late


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


async def _window(room: Room, hang: bool, wallet: Wallet) -> dict[str, float]:
    """The loop's lateness and table 2's hands over ``HANG`` seconds, ann's buy-in at
    table 1 hanging in the wallet meanwhile (or no buy-in)."""
    hands = room.runners[1].table.hand_number
    if hang:
        wallet.hang = HANG
        ann = room.connect(account="ann")
        message = {"v": 2, "type": "sit", "table": 0, "seat": 2, "buy_in": 400}
        # sent as the probe runs (before issue 30 the handler held the loop for the hang)
        asyncio.get_running_loop().call_later(0.1, room.handle, ann, json.dumps(message))
    late = await _probe(2 * HANG)
    wallet.hang = 0.0
    played = room.runners[1].table.hand_number - hands
    return {"p99_ms": _p99(late) * 1e3, "max_ms": max(late) * 1e3, "hands": played}


async def _hang() -> None:
    wallet = Wallet({"ann": 1000, **{f"bot-{t}-{s}": 10**6 for t in range(2) for s in range(2)}})
    room = _room(wallet, tables=2)
    await room.start()
    await asyncio.sleep(0.5)
    quiet = await _window(room, False, wallet)
    hanging = await _window(room, True, wallet)
    await asyncio.sleep(0.5)
    await room.stop()
    for name, figures in (("no hang", quiet), (f"{HANG:g} s hang", hanging)):
        print(
            f"{name:>10}: loop lateness p99 {figures['p99_ms']:7.1f} ms, "
            f"max {figures['max_ms']:7.1f} ms; table 2 dealt {figures['hands']:.0f} hands"
        )


async def _outage(failing: str) -> None:
    tables = 2
    bots = {f"bot-{t}-{s}": 300 for t in range(tables) for s in range(2)}  # short at once
    wallet = Wallet(bots)
    room = _room(wallet, tables=tables)
    for name in bots:
        wallet.balances[name] = 5000  # a bankroll to top up from
    errors = _Count()
    logging.getLogger("doubleholdem.server").addHandler(errors)
    logging.getLogger("doubleholdem.server").propagate = False
    wallet.calls, wallet.down = 0, True
    wallet.failing = failing
    await room.start()
    await asyncio.sleep(OUTAGE)
    calls = wallet.calls
    health = room.health() or ""
    owed = len([row for row in room.store.wallet_calls() if row[3]])
    wallet.down = False
    await room.stop()
    print(
        f"{OUTAGE:g} s outage ({failing} failing), {tables} tables: {calls} wallet calls, "
        f"{owed} notes owed, "
        f"health text {len(health)} characters, {errors.lines} log lines, "
        f"{errors.stopped} table task restarts"
    )


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines = 0
        self.stopped = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.lines += 1
        self.stopped += "stopped on an error" in record.getMessage()


if __name__ == "__main__":
    asyncio.run(_hang())
    asyncio.run(_outage("all but balance"))
    asyncio.run(_outage("every call"))
