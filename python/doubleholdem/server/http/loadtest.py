"""``doubleholdem loadtest``: bot clients over WebSockets against a running server.

C clients take open seats at the server's tables (``GET /api/tables``), play for S
seconds like calling stations (point card by DH-6's automatic choice, then check or call),
each waiting ``--think`` seconds before it answers, then leave: each sits out, plays
out the hand it is in, leaves and waits for ``left``. Prints one JSON object:
``clients``, ``actions``, ``p50_ms`` and ``p99_ms`` (an action sent to its result
received, over the actions sent once every client has its seat and before the time is
up: steady play), ``seated_s`` (how long the clients took to sit), ``p99_all_ms`` (over
every action, the seating and the leaving included), ``p99_leaving_ms`` (the actions sent
while every client sits out and leaves at once, the hands played out), ``errors``
(refused actions, failed connections), ``chip_errors``
(tables whose chips and rake do not add up to what was bought in, checked at the end)
and ``still_seated`` (the clients' seats still taken at the end: 0).

Against an account room (the default of ``serve``) each client first signs up through
the open sign-up (``serve --signup open --welcome-chips N --signups-per-address 0``:
N at least the buy-in; every client comes from one address),
signs in, and opens its WebSocket with the session cookie; a client that busts stops
(its balance is spent) instead of buying back in. Against ``serve --guests`` clients sit
under chosen names. ``accounts`` says which (``"signed_in"`` or ``"guests"``), and
``sign_in_s`` how long the sign-ups and sign-ins took (before the play is timed). With
``db`` (the server's database file, on this machine) the accounts audit runs at the end
of an account room's test (``audit_ok``, ``audit_problems``; each stored table's chips are
compared with its ledger account); else ``audit_ok`` is ``None`` and ``audit`` says why.
Only for servers on this machine or your own test hosts."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import secrets
import time
import urllib.error
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


class Signed:
    """The signed-in clients' side of the load: each client's account, made through the
    open sign-up, and the session cookie of its sign-in."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.origin = base
        self.prefix = "ld" + secrets.token_hex(3)  # one run's accounts: ld1a2b3c-17

    def _post(self, path: str, body: dict[str, str]) -> tuple[int, Any, str]:
        """POSTs ``body`` as JSON: the status, the JSON answer and the session cookie;
        while every hash slot of the server is taken (429 ``busy``), tries again after
        the second it asks for (a minute at most)."""
        for _ in range(60):
            status, answer, cookie = self._post_once(path, body)
            if status != 429 or not answer or answer.get("error") != "busy":
                break
            time.sleep(1.0)
        return status, answer, cookie

    def _post_once(self, path: str, body: dict[str, str]) -> tuple[int, Any, str]:
        request = urllib.request.Request(
            self.base + path,
            json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Origin": self.origin},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                cookie = response.headers.get("Set-Cookie", "")
                return response.status, json.loads(response.read()), cookie.split(";")[0]
        except urllib.error.HTTPError as error:
            with contextlib.suppress(ValueError):
                return error.code, json.loads(error.read()), ""
            return error.code, None, ""

    def account(self, index: int, buy_in: tuple[int, int]) -> tuple[str, int]:
        """Signs client ``index`` up and in: its cookie header and the buy-in its
        balance pays (the table's maximum, or all of a smaller balance)."""
        name, password = f"{self.prefix}-{index}", secrets.token_urlsafe(12)
        status, answer, _ = self._post("/api/signup", {"name": name, "password": password})
        if status == 403 and answer and answer.get("error") == "signup_closed":
            raise ValueError(
                "the server's sign-up is closed: start it with --signup open and "
                "--welcome-chips N (or --guests)"
            )
        if status == 429:
            raise ValueError(
                "the server bounds the sign-ups from one address: start it with "
                "--signups-per-address 0 for the load test"
            )
        if status != 201:
            raise ValueError(f"sign-up refused: {status} {answer}")
        status, answer, cookie = self._post("/api/signin", {"name": name, "password": password})
        if status != 200 or not cookie:
            raise ValueError(f"sign-in refused: {status} {answer}")
        if answer["balance"] < buy_in[0]:
            raise ValueError(
                f"a new account gets {answer['balance']} chips, under the buy-in of "
                f"{buy_in[0]}: start the server with more --welcome-chips"
            )
        return cookie, min(buy_in[1], answer["balance"])


def _room_kind(base: str) -> str:
    """``"guests"`` when the server at ``base`` takes guests, else ``"signed_in"``."""
    try:
        with urllib.request.urlopen(f"{base}/api/me", timeout=30):
            return "signed_in"
    except urllib.error.HTTPError as error:
        return "guests" if error.code == 404 else "signed_in"


def _audit(db: str | None, kind: str) -> dict[str, Any]:
    """The accounts audit of the server's database ``db``, each stored table's chips
    (pots included) against its ledger account, read in one snapshot of the file
    (:func:`~doubleholdem.server.money.money.audit_room`); none in a guest room, whose chips
    are not money."""
    if db is None:
        return {"audit_ok": None, "audit": "not run: no --db (the server's database file)"}
    if kind == "guests":
        return {"audit_ok": None, "audit": "not run: a guest room's chips are not in the ledger"}
    from doubleholdem.accounts.bank import Bank
    from doubleholdem.server.money.money import audit_room

    with Bank(db) as bank:
        found = audit_room(bank.db)
    return {"audit_ok": found["ok"], "audit_problems": found["problems"][:10]}


def _playing(view: dict[str, Any]) -> bool:
    """True while the seat of ``view`` is dealt into a hand being played."""
    hand = view["hand"]
    return hand is not None and not hand["over"] and str(view["seat"]) in hand["stacks"]


def _sat_out(view: dict[str, Any]) -> bool:
    """True once the seat of ``view`` sits out: no later hand deals it in, so a ``leave``
    sent now takes effect at once (sent on an older view, a hand dealt meanwhile would
    hold the seat, played by its deadlines, until that hand ends)."""
    seat = view["seat"]
    return seat is not None and bool(view["seats"][seat]["sitting_out"])


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
        self.cookie: str | None = None  # the session, signed in; None: a guest
        self.origin = ""
        self.leaving = False  # sat out: leaves once out of the hand it plays
        self.asked_to_leave = False
        self.view: Any = None  # the view the server sent, patched

    def _sit(self) -> str:
        sit: dict[str, Any] = {"v": 2, "type": "sit", "table": self.table, "seat": self.seat}
        if self.cookie is None:
            sit["name"] = f"load-{self.index}"
        sit["buy_in"] = self.buy_in
        return json.dumps(sit)

    async def play(self, ws_url: str, stop_at: float, gate: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect

        headers = {} if self.cookie is None else {"Cookie": self.cookie}
        async with gate:
            socket = await connect(
                ws_url,
                max_size=2**22,
                open_timeout=60,
                compression=None,
                origin=self.origin or None,  # type: ignore[arg-type]
                additional_headers=headers,
            )
        try:
            await socket.send(self._sit())
            # one timeout for the whole session, not one per message received
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._receive(socket), stop_at - time.monotonic())
            await self._leave(socket)
        finally:
            await socket.close()

    async def _leave(self, socket: Any) -> None:
        """Sits out, plays out the hand it is in, then leaves and waits for ``left``."""
        if self.seated_at is None:  # never sat
            return
        self.leaving = True
        await socket.send(json.dumps({"v": 2, "type": "sit_out"}))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._receive(socket), 60.0)
        if self.answering is not None:
            self.answering.cancel()

    async def _receive(self, socket: Any) -> None:
        """Reads the server's messages and answers them, until cancelled."""
        view: Any = self.view  # from an earlier call
        sent = self.sent
        loads = json.loads
        clock = time.perf_counter
        async for text in socket:
            message = loads(text)
            kind = message["type"]
            if kind == "update":
                view = self.view = apply_patch(view, message["patch"])
            elif kind == "state":
                view = self.view = message["view"]
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
            if kind == "left":
                return
            if kind == "error":
                self.errors += 1
            elif self.leaving and view is not None and _sat_out(view) and not _playing(view):
                if not self.asked_to_leave:
                    self.asked_to_leave = True
                    await socket.send(json.dumps({"v": 2, "type": "leave"}))
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
            if mine is None or mine["stack"] > 0 or self.cookie is not None or self.leaving:
                return None  # an account's balance is spent: it stops
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


async def _sign_in(base: str, players: list[_Client], ranges: dict[int, list[int]]) -> None:
    """Signs every client up and in (a few at a time: the server hashes each password)."""
    signed = Signed(base)
    gate = asyncio.Semaphore(8)

    async def one(player: _Client) -> None:
        async with gate:
            low_high = ranges[player.table]
            cookie, buy_in = await asyncio.to_thread(
                signed.account, player.index, (low_high[0], low_high[1])
            )
        player.cookie, player.buy_in, player.origin = cookie, buy_in, signed.origin

    await asyncio.gather(*(one(p) for p in players))


async def run_load(
    url: str,
    clients: int,
    seconds: float,
    *,
    think: float = 0.5,
    seed: int = 1,
    db: str | None = None,
) -> LoadResult:
    """Runs the load test against the server at ``url``; see the module docstring."""
    base = url.rstrip("/")
    parts = urllib.parse.urlsplit(base)
    ws_url = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}/ws"
    tables = await asyncio.to_thread(_all_tables, base)
    kind = await asyncio.to_thread(_room_kind, base)
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
    signing = time.perf_counter()
    if kind == "signed_in":
        await _sign_in(base, players, {t["id"]: t["buy_in"] for t in tables})
    signing = time.perf_counter() - signing
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
    taken = {(p.table, p.seat) for p in players if p.seated_at is not None}
    still = sum(1 for t in after for s, o in enumerate(t["seats"]) if o and (t["id"], s) in taken)
    timed = [x for p in players for x in p.latencies]
    seated = [p.seated_at for p in players if p.seated_at is not None]
    everyone = max(seated) if len(seated) == len(players) else None  # the last one sat
    leaving_from = clock_start + seconds  # from here the clients sit out and leave at once
    steady = [ms for sent, ms in timed if everyone is not None and everyone <= sent < leaving_from]
    steady = steady or [ms for _, ms in timed]  # nobody played after the last one sat
    leaving = [ms for sent, ms in timed if sent >= leaving_from]
    return LoadResult(
        accounts=kind,
        sign_in_s=round(signing, 2),
        clients=clients,
        tables=len({p.table for p in players}),
        seconds=round(time.monotonic() - started, 2),
        actions=len(timed),
        p50_ms=round(_percentile(steady, 0.50), 3),
        p99_ms=round(_percentile(steady, 0.99), 3),
        seated_s=None if everyone is None else round(everyone - clock_start, 2),
        p99_all_ms=round(_percentile([ms for _, ms in timed], 0.99), 3),
        p99_leaving_ms=round(_percentile(leaving, 0.99), 3) if leaving else None,
        errors=failed + sum(p.errors for p in players),
        chip_errors=chip_errors,
        still_seated=still,
        **await asyncio.to_thread(_audit, db, kind),
    )
