"""Crash safety (issue 11): the server is killed with SIGKILL at random moments, mostly
mid-hand (once the player's first decision of the run is applied, however loaded the
machine), 20 times, and started again on the same database. A player keeps playing
through it all, resending an unanswered decision with the same action id after each
restart. Afterwards every chip is accounted for at every table, every finished hand is in
the database once, and the player's decisions in the log are exactly the ones the server
said it applied: none lost, none applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import urllib.request
from typing import Any

import websockets

from cluster_harness import stored_tables
from doubleholdem.database.url import connect
from doubleholdem.server.protocol import apply_patch
from doubleholdem.server.tables.connection import RATE
from server_harness import serve_process

CRASHES = 20
DECISIONS = {"fold", "check", "call", "bet", "raise", "all_in", "point"}


def _start(db: str) -> tuple[subprocess.Popen[str], int]:
    return serve_process(
        "--db", db, "--guests", "--tables", "3", "--bots", "3", "--bot-delay", "0.002",
        "--pause", "0.01",
    )  # fmt: skip


def _tables(port: int) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=10) as r:
        tables: list[dict[str, Any]] = json.loads(r.read())
    return tables


class Player:
    """Plays seat decisions over a WebSocket: point card 0, check or call."""

    def __init__(self) -> None:
        self.token: str | None = None
        self.pending: dict[str, Any] | None = None
        self.answers: dict[str, dict[str, Any]] = {}
        self.count = 0
        self.playing = True

    def applied(self) -> int:
        """How many of its decisions the server said it applied."""
        return sum(answer["type"] == "result" for answer in self.answers.values())

    async def session(self, port: int) -> None:
        """Plays until the connection drops."""
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as socket:
            if self.token is None:
                await socket.send(
                    json.dumps({"v": 2, "type": "sit", "table": 0, "name": "crash", "buy_in": 1000})
                )
            else:
                await socket.send(json.dumps({"v": 2, "type": "resume", "token": self.token}))
            view: Any = None
            async for text in socket:
                message = json.loads(text)
                kind = message["type"]
                if kind == "state":
                    view = message["view"]
                elif kind == "update":
                    view = apply_patch(view, message["patch"])
                if kind == "seated":
                    self.token = message["token"]
                    if self.pending is not None:  # the answer may have been lost: retry
                        await socket.send(json.dumps(self.pending))
                elif kind in ("result", "error") and message.get("id"):
                    assert self.pending is not None and message["id"] == self.pending["id"]
                    self.answers[message["id"]] = message
                    self.pending = None
                elif kind == "error":
                    raise AssertionError(message)
                elif kind in ("state", "update") and self.pending is None:
                    await self._decide(socket, view)

    async def _decide(self, socket: Any, view: dict[str, Any]) -> None:
        hand = view["hand"]
        if hand is None or hand["legal"] is None or not self.playing:
            return
        self.count += 1
        message: dict[str, Any] = {
            "v": 2, "type": "act", "id": f"c{self.count}", "hand": view["hand_number"],
        }  # fmt: skip
        if hand["decision"] == "point":
            message.update(action="point", amount=0)
        else:
            message["action"] = "check" if hand["legal"]["can_check"] else "call"
        self.pending = message
        await asyncio.sleep(1.5 / RATE)  # a player within the rate limit, however fast the bots
        await socket.send(json.dumps(message))


async def _run(db: str, seed: int) -> tuple[Player, list[int]]:
    rng = random.Random(seed)
    player = Player()
    hands_seen: list[int] = [0, 0, 0]
    for _ in range(CRASHES):
        process, port = _start(db)
        try:
            for table in _tables(port):
                assert table["chips"] + table["rake"] == table["bought_in"], table
                assert table["hand_number"] >= hands_seen[table["id"]]
                hands_seen[table["id"]] = table["hand_number"]
            applied = player.applied()
            session = asyncio.create_task(player.session(port))
            for _ in range(6000):  # a decision applied in this run (at most a minute)
                if player.applied() > applied or session.done():
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(rng.uniform(0.0, 0.4))
            os.kill(process.pid, signal.SIGKILL)  # at any moment: mid-hand, mid-write
            with contextlib.suppress(websockets.WebSocketException, OSError):
                await asyncio.wait_for(session, 10)
        finally:
            process.kill()
            process.wait()
    # one last run answers the last pending decision, then stops cleanly
    process, port = _start(db)
    try:
        session = asyncio.create_task(player.session(port))
        await asyncio.sleep(0.2)
        player.playing = False
        for _ in range(200):
            await asyncio.sleep(0.05)
            if player.pending is None:
                break
        hands_seen = [t["hand_number"] for t in _tables(port)]
        process.send_signal(signal.SIGTERM)
        process.wait(30)
        with contextlib.suppress(websockets.WebSocketException, OSError):
            await asyncio.wait_for(session, 10)
    finally:
        process.kill()
        process.wait()
    return player, hands_seen


def test_sigkill_again_and_again_loses_nothing_and_repeats_nothing(room_db: str) -> None:
    """On either database (PostgreSQL: the killed server's session, and its lock of the
    room, end with it; the next server takes the room)."""
    db = room_db
    player, hands_seen = asyncio.run(_run(db, seed=11))
    assert player.pending is None
    applied = {i for i, answer in player.answers.items() if answer["type"] == "result"}
    assert len(applied) >= CRASHES  # the player really played through the crashes (one a run)
    stored = stored_tables(db)
    tables = {table_id: table for table_id, (table, _) in stored.items()}
    logs = {table_id: hands for table_id, (_, hands) in stored.items()}
    with contextlib.closing(connect(db)) as store:
        token_seat = store.execute("SELECT seat FROM tokens").fetchone()
    assert token_seat is not None
    seat = token_seat[0]
    for table_id, table in tables.items():  # restore refuses anything inconsistent
        assert table.chips() + table.rake == table.bought_in
        numbers = [number for number, _ in logs.get(table_id, [])]
        finished = table.hand_number - (1 if table.in_hand else 0)
        assert numbers == list(range(1, finished + 1))  # every finished hand, once
        assert table.hand_number >= hands_seen[table_id]
    # the player's own decisions in table 0's log, hand by hand, live hand included
    table = tables[0]
    entries = [e for _, log in logs.get(0, []) for e in log] + table.event_log(everything=True)
    decisions, timed_out = 0, False
    for entry in entries:
        if entry.get("seat") != seat:
            continue
        if entry["kind"] == "timeout":
            timed_out = True
        elif entry["kind"] in DECISIONS:
            decisions += 0 if timed_out else 1
            timed_out = False
        elif entry["kind"] == "time_bank":
            pass
    assert decisions == len(applied)
