"""``doubleholdem loadtest``: bot clients over WebSockets against a running server.

C clients take open seats at the server's tables (``GET /api/tables``), play for S
seconds like calling stations (point card by DH-6's automatic choice, then check or call),
each waiting ``--think`` seconds before it answers, then leave. Prints one JSON object:
``clients``, ``actions``, ``p50_ms`` and ``p99_ms`` (an action sent to its result
received, over the actions sent once every client has its seat: steady play),
``seated_s`` (how long the clients took to sit), ``p99_all_ms`` (over every action, the
seating included), ``errors`` (refused actions, failed connections), and ``chip_errors``
(tables whose chips and rake do not add up to what was bought in, checked at the end).
Only for servers on this machine or your own test hosts."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from doubleholdem.cards import parse_card
from doubleholdem.double import auto_point
from doubleholdem.game.words import CALL, CHECK, POINT
from doubleholdem.server.process import GC_YOUNG
from doubleholdem.server.protocol import apply_patch

__all__ = ["LoadResult", "run_load"]


class LoadResult(dict[str, Any]):
    """The load test's figures (a dict, printed as JSON)."""


def _all_tables(base: str) -> list[Any]:
    """Every table of the server at ``base``: ``GET /api/tables`` page after page (a
    page's ``X-Next-Table`` header says where the next one starts)."""
    tables: list[Any] = []
    first: str | None = "0"
    while first is not None:
        with urllib.request.urlopen(f"{base}/api/tables?from={first}", timeout=30) as response:
            tables += json.loads(response.read())
            first = response.headers.get("X-Next-Table")
    return tables


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Client:
    def __init__(self, index: int, table: int, seat: int, buy_in: int, think: float) -> None:
        self.index = index
        self.table = table
        self.seat = seat
        self.buy_in = buy_in
        self.think = think
        self.latencies: list[tuple[float, float]] = []  # (sent at, milliseconds)
        self.seated_at: float | None = None  # when its first state came
        self.errors = 0
        self.sent: dict[str, float] = {}
        self.count = 0
        self.rng = random.Random(index)
        self.answering: asyncio.Task[None] | None = None
        self.on_seated: Callable[[], None] = lambda: None

    async def play(self, ws_url: str, stop_at: float, gate: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect

        async with gate:
            socket = await connect(ws_url, max_size=2**22, open_timeout=60, compression=None)
        try:
            await socket.send(
                json.dumps(
                    {
                        "v": 2,
                        "type": "sit",
                        "table": self.table,
                        "seat": self.seat,
                        "name": f"load-{self.index}",
                        "buy_in": self.buy_in,
                    }
                )
            )
            # one timeout for the whole session, not one per message received
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._receive(socket), stop_at - time.monotonic())
            if self.answering is not None:
                self.answering.cancel()
            await socket.send(json.dumps({"v": 2, "type": "leave"}))
        finally:
            await socket.close()

    async def _receive(self, socket: Any) -> None:
        """Reads the server's messages and answers them, until cancelled."""
        view: Any = None
        sent = self.sent
        loads = json.loads
        clock = time.perf_counter
        async for text in socket:
            message = loads(text)
            kind = message["type"]
            if kind == "update":
                view = apply_patch(view, message["patch"])
            elif kind == "state":
                view = message["view"]
                if self.seated_at is None:
                    self.seated_at = clock()
                    self.on_seated()
            elif kind in ("result", "error") and message.get("id") in sent:
                started = sent.pop(message["id"])
                if kind == "result":
                    self.latencies.append((started, (clock() - started) * 1000.0))
                else:
                    self.errors += 1
                continue
            if kind == "error":
                self.errors += 1
            elif view is not None and kind in ("state", "update") and not sent:
                answering = self.answering
                if answering is None or answering.done():
                    self.answering = self._answer(socket, view)

    def _answer(self, socket: Any, view: dict[str, Any]) -> asyncio.Task[None] | None:
        """The task that answers ``view`` (read now: later updates change it), if any."""
        hand = view["hand"]
        seat = view["seat"]
        message: dict[str, Any] = {"v": 2}
        if hand is None or hand["over"]:
            mine = view["seats"][seat] if seat is not None else None
            if mine is None or mine["stack"] > 0:
                return None
            message.update(type="top_up", amount=self.buy_in)  # bust: buy back in
            return asyncio.create_task(self._send(socket, message, 0.0))
        legal = hand["legal"]
        if legal is None:
            return None
        self.count += 1
        message.update(type="act", id=f"l{self.index}-{self.count}", hand=view["hand_number"])
        if hand["decision"] == POINT:
            message.update(action=POINT, amount=auto_point([parse_card(c) for c in hand["hole"]]))
        else:
            message["action"] = CHECK if legal["can_check"] else CALL
        think = self.think * self.rng.uniform(0.5, 1.5)
        return asyncio.create_task(self._send(socket, message, think))

    async def _send(self, socket: Any, message: dict[str, Any], think: float) -> None:
        if think > 0:
            await asyncio.sleep(think)
        if "id" in message:
            self.sent[message["id"]] = time.perf_counter()
        await socket.send(json.dumps(message))


async def run_load(
    url: str, clients: int, seconds: float, *, think: float = 0.5, seed: int = 1
) -> LoadResult:
    """Runs the load test against the server at ``url``; see the module docstring."""
    base = url.rstrip("/")
    parts = urllib.parse.urlsplit(base)
    ws_url = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}/ws"
    tables = await asyncio.to_thread(_all_tables, base)
    seats = [
        (t["id"], s, t["buy_in"][1])
        for t in tables
        for s, occupant in enumerate(t["seats"])
        if occupant is None
    ]
    if len(seats) < clients:
        raise ValueError(f"the server has {len(seats)} open seats, not {clients}")
    # fill tables evenly: seat k of every table before seat k+1 of any
    seats.sort(key=lambda item: (item[1], item[0]))
    players = [_Client(i, *seats[i], think) for i in range(clients)]
    waiting = [clients]

    def sat() -> None:
        waiting[0] -= 1
        if waiting[0] == 0:  # everyone sits: the connections are old objects from here on
            gc.freeze()  # (and the clients make next to no reference cycles)
            gc.set_threshold(GC_YOUNG, 10, 10)  # as the server does

    for player in players:
        player.on_seated = sat
    gate = asyncio.Semaphore(64)
    started, clock_start = time.monotonic(), time.perf_counter()
    stop_at = started + seconds
    thresholds = gc.get_threshold()
    try:
        outcomes = await asyncio.gather(
            *(p.play(ws_url, stop_at, gate) for p in players), return_exceptions=True
        )
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    failed = sum(1 for o in outcomes if isinstance(o, BaseException))
    await asyncio.sleep(0.5)  # let the server apply the leaves
    after = await asyncio.to_thread(_all_tables, base)
    chip_errors = sum(1 for t in after if t["chips"] + t["rake"] != t["bought_in"])
    timed = [x for p in players for x in p.latencies]
    seated = [p.seated_at for p in players if p.seated_at is not None]
    everyone = max(seated) if len(seated) == len(players) else None  # the last one sat
    steady = [ms for sent, ms in timed if everyone is not None and sent >= everyone]
    steady = steady or [ms for _, ms in timed]  # nobody played after the last one sat
    return LoadResult(
        clients=clients,
        tables=len({p.table for p in players}),
        seconds=round(time.monotonic() - started, 2),
        actions=len(timed),
        p50_ms=round(_percentile(steady, 0.50), 3),
        p99_ms=round(_percentile(steady, 0.99), 3),
        seated_s=None if everyone is None else round(everyone - clock_start, 2),
        p99_all_ms=round(_percentile([ms for _, ms in timed], 0.99), 3),
        errors=failed + sum(p.errors for p in players),
        chip_errors=chip_errors,
    )
