"""Helpers of the server tests: a real uvicorn server in a thread on 127.0.0.1, a
WebSocket client with timeouts, the leak audit every message a table sends passes, and
the browser of the browser tests (Debian's Chromium through Playwright)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import http.client
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn
import websockets

from doubleholdem.cards import CARD_NAMES
from doubleholdem.database.url import connect
from doubleholdem.game import Structure, Variant
from doubleholdem.server.http.app import create_app
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.limits import Limits, uvicorn_config
from doubleholdem.server.money.play_chips import GuestMoney, PlayChips
from doubleholdem.server.protocol import apply_patch
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.server.tournaments.spec import TournamentSpec
from doubleholdem.table import TableConfig

DOUBLE_THREE = TableConfig(
    small_blind=5,
    big_blind=10,
    seats=3,
    variant=Variant.DOUBLE,
    structure=Structure.FIXED_LIMIT,
    action_time=60,
    point_time=60,
)
"""Three-seat fixed-limit Double Hold'em 5/10 with a minute a decision: the tables the
server tests play."""

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# the pytestmark of a browser test's module: skipped without Playwright or Chromium
NEEDS_BROWSER = pytest.mark.skipif(
    importlib.util.find_spec("playwright") is None or not os.path.exists(CHROMIUM),
    reason="needs playwright and chromium",
)


def screenshots(tmp_path: Path) -> Path:
    """Where a browser test saves its screenshots: ``$DOUBLEHOLDEM_SCREENSHOTS`` when
    set (made if missing), else ``tmp_path``."""
    shots = Path(os.environ.get("DOUBLEHOLDEM_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Chromium (Playwright's ``Browser``), closed after the block."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            await browser.close()


async def signed_up_page(browser: Any, url: str, name: str, password: str) -> Any:
    """A page of a new browser context at ``url`` that signed up as ``name`` (the room's
    sign-up open), once the account box shows it."""
    page = await (await browser.new_context()).new_page()
    await page.goto(url)
    await page.fill("#account-name", name)
    await page.fill("#account-password", password)
    await page.click("#signup")
    await page.locator("#account-who", has_text=name).wait_for()
    return page


def stored_mid_hand(path: Path | str, settings: RoomSettings) -> dict[int, str]:
    """A room of ``settings`` stored at ``path`` (a SQLite file or a PostgreSQL URL) with
    table 0 three bot moves into a hand after its snapshot (the moves checked in the
    database), closed: each table as stored."""
    room = Room.open(str(path), settings)
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=room.now(runner.table))
    for _ in range(3):
        seat = runner.table.to_act
        assert seat is not None
        runner.bot_turn(seat)
    tables = {i: r.table.to_json() for i, r in room.runners.items()}
    room.store.close()
    db = connect(str(path))
    try:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (3,)
    finally:
        db.close()
    return tables


CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


async def until_hands(room: Room, hands: int) -> None:
    """Waits (a minute at most) until every table of ``room`` has dealt more than
    ``hands`` hands."""
    for _ in range(6000):
        if all(r.table.hand_number > hands for r in room.runners.values()):
            return
        await asyncio.sleep(0.01)


def serve_process(*options: str) -> tuple[subprocess.Popen[str], int]:
    """A ``doubleholdem serve --port 0 OPTIONS`` process of this Python, started, and the
    port it announced it listens on."""
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--port", "0", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "open http://127.0.0.1:" in line, line
    return process, int(line.rsplit(":", 1)[1].strip("/\n"))


def get_json(port: int, path: str, token: str | None) -> tuple[int, Any]:
    """``GET path`` from the server on 127.0.0.1:``port`` (with the session cookie of
    ``token`` if any): the status and the JSON body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {} if token is None else {"Cookie": f"dh_session={token}"}
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


async def play_seat(client: Client, seat: int, hands: int) -> None:
    """Plays ``seat`` through ``client`` (checks or calls, point card 0) until hand
    number ``hands`` is over."""
    count = 0
    while True:
        message = await client.next(None, timeout=30)
        if message["type"] not in ("state", "update"):
            continue
        view = message["view"]
        hand = view["hand"]
        if hand is None:
            continue
        if hand["over"] and view["hand_number"] >= hands:
            return
        legal = hand["legal"]
        if legal is None or view["to_act"] != seat:
            continue
        count += 1
        number = view["hand_number"]
        if legal["decision"] == "point":
            act = {"action": "point", "amount": 0}
        else:
            act = {"action": "check" if legal["can_check"] else "call"}
        await client.send(type="act", id=f"s{seat}-{count}", hand=number, **act)


def leaks(
    runner: TableRunner, connection: Connection, text: str, view: dict[str, Any] | None = None
) -> list[str]:
    """What ``text``, sent to ``connection`` about ``runner``'s table now, shows that its
    seat may not see: another seat's unshown hole cards, an undealt or burned card, or
    another seat's hidden point card (DH-8). ``view``: the view the connection holds
    after the message (for an ``update``, the view its patch led to)."""
    table = runner.table
    seat = connection.seat
    hand = table.hand
    found: list[str] = []
    if hand is None:
        allowed: set[str] = set()
    else:
        shown = {e.seat for e in hand.events if e.kind == "show"}
        dealt = table.dealt
        own = dealt.index(seat) if seat in dealt and not sat_down_since(table, seat) else None
        allowed = {CARD_NAMES[c] for c in hand.board}
        for index in range(len(dealt)):
            if index == own or index in shown:
                allowed.update(CARD_NAMES[c] for c in hand.hole(index))
        reveal = table.config.reveal_point
        message = json.loads(text)
        view = message.get("view", view)
        if view and view.get("hand"):
            for key in view["hand"]["points"]:
                index = dealt.index(int(key))
                if index != own and index not in shown and not reveal:
                    found.append(f"point of seat {key}")
        for entry in message.get("log", []):
            hidden = entry["kind"] == "point" and "point" in entry and entry["seat"] != seat
            if hidden and dealt.index(entry["seat"]) not in shown and not reveal:
                found.append(f"point entry of seat {entry['seat']}")
            if entry["kind"] == "burn" and "cards" in entry:
                found.append("a burned card")
    for card in CARD.findall(text):
        if card not in allowed:
            found.append(f"card {card}")
    return found


def sat_down_since(table: Any, seat: int) -> bool:
    """True if someone sat down in ``seat`` after the table's last hand started (read off
    the table's log, not by the player's name: whoever sits down later, under any name,
    was not dealt in). The log is released only between hands, so a log without the
    hand's start holds only what came after it."""
    log = table.event_log(everything=True)
    starts = [i for i, e in enumerate(log) if e["kind"] == "hand_start"]
    since = log[starts[-1] :] if starts else log
    return any(e["kind"] == "join" and e["seat"] == seat for e in since)


def _take_guests(room: Room) -> None:
    """``room`` (opened with any money) takes guests from now on: its settings say so
    and each table's money becomes play chips (what a room opened with ``guests`` has)."""
    room.settings.guests = True
    room.tables.money = GuestMoney()
    for runner in room.runners.values():
        runner.money = PlayChips(runner.id)


class ServerThread:
    """The app for ``room`` served by uvicorn in a thread on 127.0.0.1 (a free port);
    every message about a table is audited for leaks into ``self.leaks``, and every
    ``update`` applied to the view its connection holds must give the table's view of
    the seat exactly (mismatches into ``self.mismatches``). Without a ``desk`` the room
    takes guests (anyone sits under a chosen name: what most tests rely on); with one,
    only its signed-in accounts sit. ``port``: the one it listens on (0: a free one).
    ``options``: more of
    :func:`~doubleholdem.server.http.limits.uvicorn_config`'s (``forwarded_allow_ips``)."""

    def __init__(
        self,
        room: Room,
        limits: Limits | None = None,
        *,
        desk: Desk | None = None,
        tournaments: Sequence[TournamentSpec] = (),
        operator_token: bytes | None = None,
        port: int = 0,
        **options: Any,
    ) -> None:
        if desk is None:
            _take_guests(room)
        self.room = room
        self.limits = Limits() if limits is None else limits
        self.leaks: list[str] = []
        self.mismatches: list[str] = []
        self.audited = 0
        self.views: dict[Connection, Any] = {}
        room.audit = self._audit
        config = uvicorn_config(
            create_app(room, desk, tournaments=tournaments, operator_token=operator_token),
            self.limits,
            host="127.0.0.1",
            port=port,
            **options,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def _audit(self, connection: Connection, runner: TableRunner, text: str) -> None:
        self.audited += 1
        message = json.loads(text)
        if message["type"] == "state":
            self.views[connection] = message["view"]
        elif message["type"] == "update":
            held = apply_patch(self.views[connection], message["patch"])
            self.views[connection] = held
            exact = runner.table.view(message["seat"], events=False)
            if json.dumps(held, sort_keys=True) != json.dumps(exact, sort_keys=True):
                self.mismatches.append(f"table {runner.id} seat {connection.seat}: {held}")
        self.leaks.extend(leaks(runner, connection, text, self.views.get(connection)))

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


_Outcome = TypeVar("_Outcome")


def served(
    room: Room, scenario: Callable[[ServerThread], Coroutine[Any, Any, _Outcome]]
) -> _Outcome:
    """Serves ``room``, runs ``scenario(server)`` to its end and gives what it returns;
    no message leaked a hidden card and every update reproduced its view."""
    with ServerThread(room) as server:
        outcome = asyncio.run(scenario(server))
        assert server.leaks == [] and server.mismatches == []
    return outcome


class Client:
    """A WebSocket client that keeps every message it receives. It applies each
    ``update`` to the view of the last ``state``: the update as received gets that new
    view as its ``view`` (a copy), so tests read states and updates alike."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.view: Any = None

    @classmethod
    async def connect(cls, url: str, **options: Any) -> Client:
        """Connects (``options``: of ``websockets.connect``, e.g. ``origin`` or
        ``additional_headers``) and reads the ``welcome``."""
        client = cls(await websockets.connect(url, max_size=2**22, **options))
        welcome = await client.next("welcome")
        assert welcome["protocol"] == 2
        return client

    async def send(self, **message: Any) -> None:
        await self.socket.send(json.dumps({"v": 2, **message}))

    async def raw(self, text: str | bytes) -> None:
        await self.socket.send(text)

    async def next(self, kind: str | None = None, timeout: float = 10.0, **match: Any) -> Any:
        """The next message (of ``kind``, with the ``match`` fields)."""

        async def wait() -> Any:
            while True:
                text = await self.socket.recv()
                self.texts.append(text)
                message = json.loads(text)
                if message["type"] == "state":
                    self.view = copy.deepcopy(message["view"])
                elif message["type"] == "update":
                    self.view = apply_patch(self.view, message["patch"])
                    message["view"] = copy.deepcopy(self.view)
                self.received.append(message)
                if (kind is None or message["type"] == kind) and all(
                    message.get(k) == v for k, v in match.items()
                ):
                    return message

        return await asyncio.wait_for(wait(), timeout)

    async def state_where(
        self, test: Any, timeout: float = 10.0, *, current: bool = False
    ) -> dict[str, Any]:
        """The next state or update for which ``test(message)`` holds (with ``current``,
        the last one received if it holds)."""
        kinds = ("state", "update")
        if current:
            states = [m for m in self.received if m["type"] in kinds]
            if states and test(states[-1]):
                return states[-1]

        async def wait() -> dict[str, Any]:
            while True:
                message = await self.next(None, timeout)
                if message["type"] in kinds and test(message):
                    return message  # type: ignore[no-any-return]

        return await asyncio.wait_for(wait(), timeout)

    async def close(self) -> None:
        await self.socket.close()


def fill(disk: Path) -> Path:
    """Fills ``disk`` with one file, to the last byte."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(descriptor, b"\0" * size)
    finally:
        os.close(descriptor)
    return filler


async def waits_for_commits(
    commit: Any, run: Coroutine[Any, Any, None], changed: Callable[[], bool]
) -> None:
    """A task of the room (``run``: a table's, a tournament's) changes nothing while the
    group ``commit`` is not ready (a commit in flight): woken as one lands, it waits
    again if the next took off before it ran; once ready, it changes (``changed()``).
    Returns once the commit of that change ended (the room may close)."""
    ready = commit.ready
    ready.clear()  # a commit in flight
    task = asyncio.create_task(run)
    await asyncio.sleep(0)
    ready.set()  # it landed ...
    ready.clear()  # ... and the next took off before the task ran
    for _ in range(10):
        await asyncio.sleep(0)
    assert not changed()
    ready.set()
    while not changed():
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    ended = asyncio.Event()
    commit.after(ended.set)
    await ended.wait()
