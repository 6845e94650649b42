"""An embedding server's wallet can neither stall nor be stormed by the room (issue 30,
item 5; docs/accounts.md): its calls run off the event loop, one at a time per table,
given up after a timeout; after failures the room waits before asking again, longer
at each failure in a row, up to a cap; each movement owes at most one note however
often it is tried; a failing ``balance`` sits the bots out instead of crashing the
table's task; the room's health names a bounded number of calls owed.

No test here depends on time: the wallet blocks on an event the test sets, and the
backoff runs on a clock the test moves."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest

from doubleholdem.errors import UnknownAccount
from doubleholdem.server.money import wallet_gate
from doubleholdem.server.money.wallet_calls import WalletCall, note
from doubleholdem.server.money.wallet_gate import WalletFailed, WalletGate, WalletUnavailable
from doubleholdem.server.money.wallet_money import HEALTH_OWED
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from money_room import RAKED, send
from wallets import FlakyWallet

OUTAGE = 20.0  # seconds of the room's clock


class Clock:
    """A clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def _schedule(first: float, longest: float, span: float) -> list[float]:
    """When a gate that fails every call lets one through, from 0, within ``span``."""
    times, at, failures = [], 0.0, 0
    while at < span:
        times.append(at)
        at += min(longest, first * 2**failures)
        failures += 1
    return times


def test_a_failing_wallet_is_asked_only_as_the_backoff_schedule_allows() -> None:
    clock = Clock()
    start = clock.now
    gate = WalletGate(clock, first=0.5, longest=8.0)
    asked: list[float] = []

    def down() -> int:
        asked.append(clock.now - start)
        raise ConnectionError("the wallet service is unreachable")

    async def outage() -> None:
        refused = 0
        while clock.now - start < OUTAGE:  # a caller that would try every 50 ms
            try:
                await gate.call(down)
            except WalletUnavailable:
                refused += 1
            except ConnectionError:
                pass
            clock.now += 0.05
        assert refused > 0
        clock.now += gate.wait()
        assert await gate.call(lambda: 7) == 7  # it answers again: the backoff ends
        assert gate.failures == 0 and gate.wait() == 0.0

    asyncio.run(outage())
    assert len(asked) <= len(_schedule(0.5, 8.0, OUTAGE)) == 6  # of 400 tries
    for failures, (before, after) in enumerate(zip(asked, asked[1:])):
        backoff = min(8.0, 0.5 * 2**failures)  # asked again at the first try after it
        assert backoff - 1e-6 <= after - before < backoff + 0.05 + 1e-6


def test_a_refusal_is_an_answer_and_ends_the_backoff() -> None:
    clock = Clock()
    gate = WalletGate(clock, first=1.0, longest=4.0)

    def refuses() -> int:
        raise UnknownAccount("no account 'x'", account="x")

    def fails() -> int:
        raise ConnectionError("down")

    async def calls() -> None:
        with pytest.raises(ConnectionError):
            await gate.call(fails)
        assert gate.closed() is not None
        clock.now += 1.0
        with pytest.raises(UnknownAccount):
            await gate.call(refuses)
        assert gate.closed() is None and gate.failures == 0

    asyncio.run(calls())


def test_one_call_in_flight_and_a_hanging_call_blocks_the_next_without_calling() -> None:
    """A call that hangs is given up after the timeout (a failure); the call waiting
    behind it is then refused without reaching the wallet while the first still hangs;
    once it ends and the backoff passes, the wallet is asked again."""
    clock = Clock()
    gate = WalletGate(clock, timeout=0.05, first=1.0, longest=1.0)
    release = threading.Event()
    calls: list[str] = []

    def hangs() -> str:
        calls.append("hangs")
        release.wait(30.0)
        return "late"

    def quick() -> str:
        calls.append("quick")
        return "ok"

    async def two() -> None:
        first = asyncio.create_task(gate.call(hangs))
        second = asyncio.create_task(gate.call(quick))
        with pytest.raises(WalletFailed, match=r"did not answer within 0\.05 s"):
            await first
        with pytest.raises(WalletUnavailable, match="not answered an earlier call"):
            await second
        assert calls == ["hangs"]  # one in flight; the second never reached the wallet
        clock.now += 1.0  # the backoff passed, but the first call still hangs
        with pytest.raises(WalletUnavailable):
            await gate.call(quick)
        release.set()
        while gate.closed() is not None:
            await asyncio.sleep(0.001)
        assert await gate.call(quick) == "ok"
        assert calls == ["hangs", "quick"]

    asyncio.run(two())


class BlockingWallet(FlakyWallet):
    """A :class:`FlakyWallet` whose debits from ann wait for :attr:`go` (set by the
    test; a safety wait of 30 s, noted in :attr:`timed_out`, so that a room that blocks
    on it fails the test rather than hanging it); ``balance`` fails while "balance" is
    in :attr:`down`; every call counted in :attr:`asked`."""

    def __init__(self, balances: dict[str, int]) -> None:
        super().__init__(balances)
        self.go = threading.Event()
        self.go.set()
        self.waiting = threading.Event()
        self.timed_out = False
        self.asked = 0
        self.hang_all = False  # every call waits for go, not only ann's debits

    def _wait(self) -> None:
        self.waiting.set()
        self.timed_out = self.timed_out or not self.go.wait(30.0)

    def balance(self, owner: str) -> int:
        self.asked += 1
        if self.hang_all and not self.go.is_set():
            self._wait()
        if "balance" in self.down:
            raise ConnectionError("the wallet service is unreachable")
        return super().balance(owner)

    def _once(self, key: str, request: tuple[Any, ...], apply: Callable[[], None]) -> str:
        self.asked += 1
        ann_pays = request[0] in ("buy_in", "top_up") and request[1] == "ann"
        if (ann_pays or self.hang_all) and not self.go.is_set():
            self._wait()
        return super()._once(key, request, apply)


def _bots(tables: int, chips: int) -> dict[str, int]:
    return {f"bot-{t}-{s}": chips for t in range(tables) for s in range(2)}


def _room(
    wallet: FlakyWallet, clock: Callable[[], float], tables: int, path: str = ":memory:"
) -> Room:
    settings = RoomSettings(
        tables=tables,
        bots=2,
        bot_delay=0.0,
        pause=0.0,
        configs=[RAKED],
        seed=5,
        guests=False,
        clock=clock,
    )
    return Room.open(path, settings, wallet=wallet)


def _held_after_a_restart(wallet: FlakyWallet, path: str) -> int:
    """The wallet's chips and the tables' once the room, stopped with calls under way
    (a bot's top-up paid, a rake noted), starts again on ``path`` and makes them."""
    room = _room(wallet, Clock(), tables=2, path=path)
    chips = sum(r.table.chips() for r in room.runners.values())
    room.store.close()
    return wallet.total() + chips


BOTH_DATABASES = pytest.mark.parametrize("room_db", ["sqlite", "postgresql"], indirect=True)


@BOTH_DATABASES
def test_the_room_plays_on_while_the_wallet_is_blocked(
    monkeypatch: pytest.MonkeyPatch, room_db: str
) -> None:
    """ann's buy-in at table 1 waits in the wallet (blocked on an event); meanwhile the
    loop answers a ping, the room's health is fine, and the other table plays hands
    (table 1 too, while its bots need no top-up: a call is in flight there); once the
    wallet answers, ann is seated."""
    monkeypatch.setattr(wallet_gate, "CALL_TIMEOUT", 60.0)  # the test ends the block
    wallet = BlockingWallet({"ann": 1000, **_bots(2, 5000)})
    path = room_db
    room = _room(wallet, Clock(), tables=2, path=path)
    total = wallet.total() + sum(r.table.chips() for r in room.runners.values())
    ann, watcher = room.connect(account="ann"), room.connect()

    async def served() -> None:
        await room.start()
        wallet.go.clear()
        room.handle(ann, json.dumps({"v": 2, "type": "sit", "table": 0, "seat": 2, "buy_in": 400}))
        while not wallet.waiting.is_set():  # the debit is in the wallet, blocked
            await asyncio.sleep(0.001)
        other = room.runners[1].table
        hands = other.hand_number
        while other.hand_number < hands + 3:  # the other table plays on, three hands
            await asyncio.sleep(0.001)
        assert "pong" in [r["type"] for r in send(room, watcher, type="ping")]
        assert room.health() is None
        assert not wallet.go.is_set() and room.runners[0].table.seats()[2] is None
        wallet.go.set()
        await room.wallet_calls_ended()
        await room.stop()

    asyncio.run(served())
    assert not wallet.timed_out
    assert room.runners[0].table.seats()[2] is not None  # seated once the wallet answered
    replies = []
    while not ann.outbox.empty():
        text = ann.outbox.get_nowait()
        if text is not None:
            replies.append(json.loads(text))
    assert "seated" in [r["type"] for r in replies]
    assert _held_after_a_restart(wallet, path) == total


@BOTH_DATABASES
@pytest.mark.parametrize("down", [{"debit"}, {"debit", "balance"}], ids=["debit", "all"])
def test_an_outage_costs_calls_bounded_by_the_backoff_and_one_note_per_movement(
    down: set[str], caplog: pytest.LogCaptureFixture, room_db: str
) -> None:
    """Bots short of chips with a bankroll try to top up through a 20 s outage (the
    room's clock moved 50 ms at a time, the tables woken each time): each table asks
    the wallet no more often than its backoff allows, owes at most one give-back (the
    first debit, whose fate the failure leaves unknown), sits its bots out while the
    wallet fails without its task ever stopping on an error, and once the wallet
    answers, tops them up and sits them in, every chip where it was."""
    clock = Clock()
    wallet = BlockingWallet(_bots(2, 300))  # each bot buys in short (300 < 1000 / 2)
    path = room_db
    room = _room(wallet, clock, tables=2, path=path)
    for name in wallet.balances:
        wallet.balances[name] = 5000  # and now has a bankroll to top up from
    total = wallet.total() + sum(r.table.chips() for r in room.runners.values())
    wallet.asked = 0
    caplog.set_level(logging.WARNING, logger="doubleholdem.server")

    async def served() -> None:
        wallet.down = set(down)
        await room.start()
        start = clock.now
        while clock.now - start < OUTAGE:
            clock.now += 0.05
            for runner in room.runners.values():
                runner.wake.set()
            await asyncio.sleep(0.002)
        for runner in room.runners.values():
            seats = runner.table.seats()
            assert all(seats[s]["sitting_out"] for s in runner.bots)  # type: ignore[index]
        asked, wallet.down = wallet.asked, set()
        # a table asks at each opening of its gate at most a balance, the give-back it
        # owes (or the debit, the first time) and one call of its finisher
        openings = len(_schedule(0.5, 8.0, OUTAGE))
        assert asked <= len(room.runners) * 3 * openings, asked
        debits = [c for c in room.store.wallet_calls() if '"debit"' in c[2]]
        owing = {table for _, table, _, attempts, _ in debits if attempts}
        assert len(debits) == len(owing) <= len(room.runners)  # one owed note a table at most
        clock.now += 10.0  # past the longest backoff
        while any(r.money and r.money.gate.wait() for r in room.runners.values()) or any(
            r.table.stack(s) < 500 for r in room.runners.values() for s in r.bots
        ):
            for runner in room.runners.values():
                runner.wake.set()
            await asyncio.sleep(0.002)
        await room.wallet_calls_ended()
        assert [c for c in room.store.wallet_calls() if c[3]] == []  # nothing owed any more
        await room.stop()

    asyncio.run(served())
    assert "stopped on an error" not in caplog.text
    for runner in room.runners.values():
        seats = runner.table.seats()
        assert not any(seats[s]["sitting_out"] for s in runner.bots)  # type: ignore[index]
    assert _held_after_a_restart(wallet, path) == total


def test_the_health_names_a_bounded_number_of_calls_owed(room_db: str) -> None:
    wallet = FlakyWallet({})
    settings = RoomSettings(tables=1, bots=0, configs=[RAKED], guests=False)
    room = Room.open(room_db, settings, wallet=wallet)
    store = room.store
    with store.transaction():
        for number in range(3 * HEALTH_OWED):
            call = note(store, WalletCall("credit", 0, f"cashout:x.0:{number}", "ann", 10))
            store.wallet_call_failed(call.number, "ConnectionError: " + "down " * 100)
    health = room.health() or ""
    lines = health.split("; ")
    assert len(lines) == HEALTH_OWED + 1
    assert lines[-1] == f"and {2 * HEALTH_OWED} more calls the wallet owes"
    assert all(line.startswith("the wallet owes cashout:x.0:") for line in lines[:-1])
    room.store.close()


def test_a_hanging_wallet_holds_up_a_start_by_one_timeout(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room starting with calls to finish (a credit the wallet failed) and bots to
    seat asks a wallet that hangs once: given up after the timeout, the other calls are
    not made; the room opens, and what it owes is made later, once."""
    monkeypatch.setattr(wallet_gate, "CALL_TIMEOUT", 0.05)
    path = room_db
    wallet = BlockingWallet({"ann": 1000, **_bots(2, 5000)})
    room = _room(wallet, Clock(), tables=1, path=path)
    ann = room.connect(account="ann")
    assert "seated" in [r["type"] for r in send(room, ann, type="sit", table=0, buy_in=400)]
    wallet.down = {"cash_out"}
    send(room, ann, type="leave")  # committed; the credit failed: owed
    room.store.close()
    wallet.down, wallet.hang_all, wallet.asked = set(), True, 0
    wallet.go.clear()
    room = _room(wallet, Clock(), tables=2, path=path)  # table 2 is new: its bots to seat
    assert wallet.asked == 1  # the credit, given up; nothing else asked
    assert "the wallet owes cashout:" in (room.health() or "")
    assert room.runners[1].table.seats() == [None, None, None]  # seated at the next start
    room.store.close()
    wallet.go.set()
    while wallet.balances["ann"] != 1000:  # the credit given up is made meanwhile
        threading.Event().wait(0.001)
    wallet.hang_all = False
    room = _room(wallet, Clock(), tables=2, path=path)  # made again: the key applies once
    assert wallet.balances["ann"] == 1000 and room.health() is None
    assert all(room.runners[1].table.seats()[s] is not None for s in (0, 1))
    room.store.close()
    assert not wallet.timed_out
