"""One client of ``doubleholdem loadtest`` (:mod:`doubleholdem.server.http.loadtest`):
a calling station over a WebSocket that records each decision the server acknowledged,
and, following the room, finds where its table is served after its connection dropped
and resumes its seat there, sending an unanswered decision again with its ``id``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.parse
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from doubleholdem.cards import parse_card
from doubleholdem.double import auto_point
from doubleholdem.game.words import CALL, CHECK, POINT
from doubleholdem.server.protocol import apply_patch

__all__ = ["Client", "Move", "ws_url"]

AGAIN = frozenset({"unavailable", "busy"})  # a sit refused for the moment: sent again
SIT_TRIES = 5
SIT_PAUSE = 0.2  # seconds before the first try again (then twice, thrice, ...)
TRAIL = 40  # the last messages a client keeps, to tell why its seat was still taken


class Move(NamedTuple):
    """A decision the server acknowledged (``result``): the client's table and seat, the
    hand it was sent in, its ``id``, its action and the process that answered."""

    table: int
    hand: int
    seat: int
    id: str
    action: str
    url: str


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


def _seat_said(view: dict[str, Any]) -> str:
    """The seat of ``view`` and its state, for the trail."""
    seat = view.get("seat")
    mine = None if seat is None else view["seats"][seat]
    if mine is None:
        return f"{seat}: none"
    return f"{seat}: sitting out {mine.get('sitting_out')}, in hand {_playing(view)}"


def ws_url(base: str) -> str:
    """The WebSocket of the process at ``base``."""
    parts = urllib.parse.urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/ws"  # a path prefix kept


class Client:
    """One bot client of the load: sits at its table's seat, answers its decisions,
    follows its table to another process when told how to find it, then leaves."""

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
        # called once its sit is settled: its first state came, or it was refused for good
        self.on_settled: Callable[[], None] = lambda: None
        self.cookie: str | None = None  # the session, signed in; None: a guest
        self.origin = ""
        self.leaving = False  # sat out: leaves once out of the hand it plays
        self.asked_to_leave = False
        self.view: Any = None  # the view the server sent, patched
        self.base = ""  # the process serving the table
        self.ws_url = ""  # its WebSocket
        self.locate: Callable[[int], str | None] | None = None  # following the room
        self.token: str | None = None  # the seat's (a guest's)
        self.pending: dict[str, Any] | None = None  # the decision sent, not yet answered
        self.acknowledged: list[Move] = []
        self.reconnects = 0
        self.left = False  # the server said ``left``
        self.told_elsewhere: str | None = None  # answered elsewhere: its address, or ""
        self.stopped = asyncio.Event()  # set: the time to play is up (shared by the load)
        self.sit_refusals = 0  # its sit refused for the moment (sent again, a few times)
        self.refused: str | None = None  # its sit refused for good: the error's code
        self.born = time.monotonic()
        # what it sent and was told (its connections, seat requests, the server's word
        # on its seat, errors), the last :data:`TRAIL`, each with its second
        self.trail: deque[str] = deque(maxlen=TRAIL)
        self._seat_noted = ""

    def note(self, what: str) -> None:
        """Adds ``what`` to :attr:`trail`."""
        self.trail.append(f"{time.monotonic() - self.born:.2f} {what}")

    async def _say(self, socket: Any, text: str) -> None:
        """Sends ``text`` (a seat request), noted in :attr:`trail`."""
        self.note(f"sent {text}")
        await socket.send(text)

    def _note_seat(self, view: dict[str, Any], kind: str = "update") -> None:
        """Notes the hand of ``view`` and its seat's state, where a ``state`` or they
        changed."""
        said = f"hand {view.get('hand_number')}, its seat {_seat_said(view)}"
        if kind == "state" or said != self._seat_noted:
            self._seat_noted = said
            self.note(f"{kind}: {said}")

    def _sitting(self) -> bool:
        """Whether it waits for the answer to its sit (it never sat)."""
        return self.seated_at is None and self.token is None and not self.leaving

    async def _sit_refused(self, socket: Any, message: dict[str, Any]) -> bool:
        """An error while it sits down: its sit sent again, after a moment, when the
        room refused it for the moment (``unavailable``: a commit failed or the
        database is busy; ``busy``), as a person would click again, :data:`SIT_TRIES`
        times at most; else the sit is refused for good and the client gives up
        (:attr:`refused` says why: ``True``, its play ends) rather than wait for a
        seat that never comes. ``False`` for an error on anything else."""
        if not self._sitting():
            return False
        code = str(message.get("code"))
        if code in AGAIN and self.sit_refusals < SIT_TRIES:
            self.sit_refusals += 1
            await asyncio.sleep(SIT_PAUSE * self.sit_refusals)
            await self._say(socket, self._sit())
            return False
        self.refused = code
        self.on_settled()
        return True

    def _sit(self) -> str:
        sit: dict[str, Any] = {"v": 2, "type": "sit", "table": self.table, "seat": self.seat}
        if self.cookie is None:
            sit["name"] = f"load-{self.index}"
        sit["buy_in"] = self.buy_in
        return json.dumps(sit)

    async def play(self, stop_at: float, gate: asyncio.Semaphore) -> None:
        """Sits, plays until ``stop_at`` (or :attr:`stopped` is set), then leaves.
        Following the room (``locate`` set), a connection that drops is opened again
        where the table is served now, the seat resumed and an unanswered decision sent
        again with its ``id``; its seat is left wherever the table is then, even if the
        play ended while it looked for it."""
        socket: Any = await self._connect(gate)
        try:
            await self._say(socket, self._sit())
            while True:
                await self._play_until(socket, stop_at)
                sitting = self.seated_at is not None or self.told_elsewhere is not None
                if self.locate is None or not sitting or self._over(stop_at):
                    break
                await socket.close()  # the connection dropped: follow the table
                socket = await self._follow(stop_at, gate)
                if socket is None:  # the play ended meanwhile: leave where the table is
                    break
            socket = await self._leave(socket, gate)
        except Exception as error:
            self.note(f"failed: {error!r}")
            raise
        finally:
            if socket is not None:
                await socket.close()

    def _over(self, stop_at: float) -> bool:
        """Whether the time to play (or, leaving, to leave) is up."""
        return time.monotonic() >= stop_at or (self.stopped.is_set() and not self.leaving)

    async def _play_until(self, socket: Any, stop_at: float) -> None:
        """Plays on ``socket`` until ``stop_at``, :attr:`stopped` or the connection's
        end (one timeout for the whole session, not one per message received)."""
        receiving = asyncio.ensure_future(self._receive(socket))
        stopping = asyncio.ensure_future(self.stopped.wait())
        timeout = max(0.0, stop_at - time.monotonic())
        await asyncio.wait((receiving, stopping), timeout=timeout, return_when="FIRST_COMPLETED")
        for task in (receiving, stopping):
            task.cancel()
        await asyncio.gather(receiving, stopping, return_exceptions=True)
        if not receiving.cancelled() and receiving.exception() is not None:
            raise receiving.exception()  # type: ignore[misc]

    async def _connect(self, gate: asyncio.Semaphore) -> Any:
        from websockets.asyncio.client import connect

        headers = {} if self.cookie is None else {"Cookie": self.cookie}
        self.note(f"connects to {self.ws_url}")
        async with gate:
            return await connect(
                self.ws_url,
                max_size=2**22,
                open_timeout=60,
                compression=None,
                origin=self.origin or None,  # type: ignore[arg-type]
                additional_headers=headers,
            )

    async def _follow(self, stop_at: float, gate: asyncio.Semaphore) -> Any:
        """A new connection to where the table is served now (the address an
        ``elsewhere`` named, else where the processes' lobbies say), its seat taken
        again (:meth:`_sit_again`), or ``None`` once the time is up. A decision still
        being thought of for the connection gone is dropped: made later, it went on
        that connection and was noted as sent, and the client, waiting for its answer,
        decided nothing more (its seat played by its deadlines, the first after the
        action time and its time bank: 45 s; one leaving at the load's end then waited
        out its minute, its seat still in that hand)."""
        from websockets.exceptions import WebSocketException

        assert self.locate is not None
        self.reconnects += 1
        if self.answering is not None:
            self.answering.cancel()
        self.sent.clear()  # a pending decision is sent again once seated
        while not self._over(stop_at):
            base, self.told_elsewhere = self.told_elsewhere or None, None
            if base is None:
                base = await asyncio.to_thread(self.locate, self.table)
                self.note(f"the lobbies say table {self.table} is at {base}")
            if base is not None:
                self.base, self.ws_url = base, ws_url(base)
                try:
                    socket = await self._connect(gate)
                except (OSError, asyncio.TimeoutError, WebSocketException) as error:
                    self.note(f"could not connect: {error!r}")
                    socket = None
                if socket is not None:
                    await self._say(socket, self._sit_again())
                    return socket
            await asyncio.sleep(0.1)  # no process serves the table yet: ask again
        return None

    def _sit_again(self) -> str:
        """The request that takes the seat at the table's process now: ``resume`` (by
        the seat's token, or the account's table), or ``sit`` if it never sat."""
        if self.seated_at is None and self.token is None:
            return self._sit()
        resume: dict[str, Any] = {"v": 2, "type": "resume"}
        if self.token is None:
            resume["table"] = self.table
        else:
            resume["token"] = self.token
        return json.dumps(resume)

    async def _leave(self, socket: Any, gate: asyncio.Semaphore) -> Any:
        """Sits out, plays out the hand it is in, then leaves and waits for ``left``
        (a minute at most); following the room, on the table's process of the moment
        (a connection that drops meanwhile is followed; ``socket`` ``None``: the table
        is looked for first). The socket it ends on."""
        from websockets.exceptions import ConnectionClosed

        if self.seated_at is None:  # never sat
            return socket
        self.leaving = True
        deadline = time.monotonic() + 60.0
        while True:
            if socket is not None:
                with contextlib.suppress(ConnectionClosed):
                    await self._say(socket, json.dumps({"v": 2, "type": "sit_out"}))
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._receive(socket), deadline - time.monotonic())
                if self.left or self.locate is None or time.monotonic() >= deadline:
                    break
                self.note("its connection dropped while it leaves")
                await socket.close()  # the connection dropped: leave where the table is now
            self.asked_to_leave = False
            socket = await self._follow(deadline, gate)
            if socket is None:
                break
        if self.answering is not None:
            self.answering.cancel()
        return socket

    async def _receive(self, socket: Any) -> None:
        """Reads the server's messages and answers them, until the seat is left, the
        connection drops or this is cancelled."""
        from websockets.exceptions import ConnectionClosed

        loads = json.loads
        try:
            async for text in socket:
                if await self._on(socket, loads(text)):
                    return
            self.note("connection closed")
        except ConnectionClosed as closed:
            self.note(f"connection closed: {closed}")

    async def _on(self, socket: Any, message: dict[str, Any]) -> bool:
        """Handles one message of the server; ``True`` once the seat is left."""
        kind = message["type"]
        view: Any = self.view
        if kind == "update":
            view = self.view = apply_patch(view, message["patch"])
            if self.leaving:  # how its seat goes, for the trail
                self._note_seat(view)
        elif kind == "state":
            view = self.view = message["view"]
            self._note_seat(view, "state")
            if self.seated_at is None:
                self.seated_at = time.perf_counter()
                self.on_settled()
        elif kind == "result" and message.get("id") is None:  # a seat request's
            self.note(f"told {message}")
        elif kind in ("result", "error") and message.get("id") in self.sent:
            if self._answered(kind, message):
                return False  # applied now: the states that follow say what is next
            # refused, or applied before (a decision sent again once resumed): nothing
            # changed, so no state follows; the view as it is is decided on, as a state
            kind = "unchanged"
        elif kind == "elsewhere":  # another process serves the table: follow it
            self.note(f"told {message}")
            self.told_elsewhere = (message.get("address") or "").rstrip("/")
            return self.locate is not None
        elif kind == "seated":
            self.note(f"told seated at seat {message.get('seat')}")
            self.token = message["token"] or self.token
            await self._send_pending(socket)
            return False
        if kind == "left":
            self.note(f"told {message}")
            self.left = True
            return True
        if kind == "error":
            self.note(f"told {message}")
            self.errors += 1
            return await self._sit_refused(socket, message)
        if self.leaving and view is not None and _sat_out(view) and not _playing(view):
            if not self.asked_to_leave:
                self.asked_to_leave = True
                await self._say(socket, json.dumps({"v": 2, "type": "leave"}))
        elif view is not None and kind in ("state", "update", "unchanged") and not self.sent:
            answering = self.answering
            if answering is None or answering.done():
                self.answering = self._answer(socket, view)
        return False

    def _answered(self, kind: str, message: dict[str, Any]) -> bool:
        """A decision's ``result`` (acknowledged: recorded) or ``error``: whether the
        server applied it now (not refused, not ``repeated``)."""
        ident = message["id"]
        started = self.sent.pop(ident)
        pending = self.pending
        self.pending = None
        if kind == "error":
            self.note(f"told {message}")
            self.errors += 1
            return False
        self.latencies.append((started, (time.perf_counter() - started) * 1000.0))
        if pending is not None and pending["id"] == ident:
            hand, action = pending["hand"], pending["action"]
            move = Move(self.table, hand, self.seat, ident, action, self.base)
            self.acknowledged.append(move)
        return not message.get("repeated")

    async def _send_pending(self, socket: Any) -> None:
        """Sends the decision whose answer the lost connection never brought again,
        with its ``id`` (applied already, it is answered ``repeated``)."""
        pending = self.pending
        if pending is not None:
            self.sent[pending["id"]] = time.perf_counter()
            await socket.send(json.dumps(pending))

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
        from websockets.exceptions import ConnectionClosed

        if think > 0:
            await asyncio.sleep(think)
        if "id" in message:
            self.pending = message
            self.sent[message["id"]] = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):  # sent again once resumed elsewhere
            await socket.send(json.dumps(message))
