"""The game server over real WebSockets on 127.0.0.1 (docs/PROTOCOL.md): seating and
tokens, reconnecting, idempotent retries, spectators, refusals that change nothing,
rate limits, and no message that shows a seat what it may not see (RULES.md DH-8)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.storage.storage import read_tables
from doubleholdem.server.tables.room import Room
from doubleholdem.table import Table
from server_harness import DOUBLE_THREE, Client, ServerThread

DOUBLE = DOUBLE_THREE


def _room(path: Path, *, bots: int = 0, tables: int = 1, pause: float = 0.05) -> Room:
    settings = RoomSettings(
        tables=tables, bots=bots, bot_delay=0.0, pause=pause, configs=[DOUBLE], seed=7
    )
    return Room.open(str(path / "tables.db"), settings)


def _snapshot(path: Path, table: int = 0) -> str:
    """The stored table (its snapshot and moves) as one snapshot."""
    with sqlite3.connect(str(path / "tables.db")) as db:
        return restore(read_tables(db)[table]).to_json()


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        body = response.read()
        kind = response.headers.get("content-type", "")
    return json.loads(body) if "json" in kind else body.decode()


def _my_turn(seat: int) -> Any:
    def test(message: dict[str, Any]) -> bool:
        view = message["view"]
        return bool(view["hand"] and view["hand"]["legal"] and view["to_act"] == seat)

    return test


async def _answer(client: Client, seat: int, state: dict[str, Any], ident: str) -> None:
    """Checks or calls, and picks point card 0 on the flop (DH-5)."""
    view = state["view"]
    legal = view["hand"]["legal"]
    if view["hand"]["decision"] == "point":
        await client.send(type="act", id=ident, hand=view["hand_number"], action="point", amount=0)
    else:
        action = "check" if legal["can_check"] else "call"
        await client.send(type="act", id=ident, hand=view["hand_number"], action=action)


async def _play_out(client: Client, seat: int, number: int) -> None:
    """Plays ``seat``'s decisions in hand ``number`` until it is over."""

    def test(m: dict[str, Any]) -> bool:
        view = m["view"]
        over = view["hand"] is not None and view["hand"]["over"] and view["hand_number"] == number
        return view["hand_number"] > number or over or _my_turn(seat)(m)

    count, current = 0, True
    while True:
        state = await client.state_where(test, current=current)
        view = state["view"]
        if view["hand_number"] > number or view["hand"]["over"]:
            return
        assert view["hand_number"] == number
        count += 1
        ident = f"p{seat}-{number}-{count}"
        await _answer(client, seat, state, ident)
        result = await client.next(None, id=ident)
        assert result["type"] == "result", result
        current = False  # the result comes before the state it led to


def test_http_endpoints(tmp_path: Path) -> None:
    with ServerThread(_room(tmp_path, bots=2, tables=2)) as server:
        assert _get(server.url + "/healthz") == "ok"
        page = _get(server.url + "/")
        assert "<script" in page and "cdn" not in page.lower()
        assert "WebSocket" in _get(server.url + "/static/table.js")
        tables = _get(server.url + "/api/tables")
        assert [t["id"] for t in tables] == [0, 1]
        for t in tables:
            assert t["variant"] == "double" and t["structure"] == "fixed-limit"
            assert t["blinds"] == [5, 10] and len(t["seats"]) == 3
            assert t["seats"][0]["player"] == f"bot-{t['id']}-0" and t["seats"][2] is None
            assert t["chips"] + t["rake"] == t["bought_in"]
            assert set(t) >= {"id", "variant", "structure", "blinds", "seats", "hand_number"}


def test_seat_token_retry_reconnect_spectator(tmp_path: Path) -> None:
    async def scenario(server: ServerThread) -> None:
        ann, bob = await Client.connect(server.ws_url), await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        seated = await ann.next("seated")
        token = seated["token"]
        assert seated["seat"] == 0 and len(token) >= 32
        await bob.send(type="sit", table=0, seat=0, name="bob", buy_in=1000)
        refused = await bob.next("error")
        assert refused["code"] == "refused" and "taken" in refused["message"]
        await bob.send(type="sit", table=0, name="bob", buy_in=1000)  # first open seat
        assert (await bob.next("seated"))["seat"] == 1
        # the hand starts: ann is the button and acts first heads-up (TH-3)
        state = await ann.state_where(_my_turn(0))
        assert len(state["view"]["hand"]["hole"]) == 3  # DH-1
        number = state["view"]["hand_number"]
        before = _snapshot(tmp_path)
        await ann.send(type="act", id="a-1", hand=number, action="call")
        assert (await ann.next("result", id="a-1"))["ok"] is True
        after = _snapshot(tmp_path)
        assert after != before
        await ann.send(type="act", id="a-1", hand=number, action="call")  # a retry
        again = await ann.next("result", id="a-1")
        assert again["ok"] is True and again["repeated"] is True
        assert _snapshot(tmp_path) == after  # applied once
        # a spectator sees no hole cards
        eve = await Client.connect(server.ws_url)
        await eve.send(type="watch", table=0)
        watched = await eve.next("state")
        assert watched["seat"] is None and watched["view"]["hand"]["hole"] == []
        # ann goes away and comes back with her token: her seat and cards are back
        hole = state["view"]["hand"]["hole"]
        await ann.close()
        ann2 = await Client.connect(server.ws_url)
        await ann2.send(type="resume", token=token)
        assert (await ann2.next("seated"))["seat"] == 0
        resumed = await ann2.next("state")
        assert resumed["seat"] == 0 and resumed["view"]["hand"]["hole"] == hole
        assert any(e["kind"] == "call" and e["seat"] == 0 for e in resumed["log"])
        await ann2.send(type="resume", token="x" * 32)
        assert (await ann2.next("error"))["code"] == "bad_token"
        # both play the hand out: big blind checks, point cards, check down
        await asyncio.gather(_play_out(ann2, 0, number), _play_out(bob, 1, number))
        end = await eve.state_where(lambda m: m["view"]["hand"]["over"], current=True)
        assert end["view"]["hand_number"] == number
        for client in (ann2, bob, eve):
            await client.close()

    with ServerThread(_room(tmp_path)) as server:
        asyncio.run(scenario(server))
        assert server.audited > 10
        assert server.leaks == []
        assert server.mismatches == []


def test_refusals_change_nothing(tmp_path: Path) -> None:
    async def scenario(server: ServerThread) -> None:
        ann, bob = await Client.connect(server.ws_url), await Client.connect(server.ws_url)
        await bob.send(type="act", id="b-0", hand=1, action="fold")
        assert (await bob.next("error"))["code"] == "unauthorised"
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        await ann.next("seated")
        await bob.send(type="sit", table=0, seat=1, name="bob", buy_in=1000)
        await bob.next("seated")
        state = await ann.state_where(_my_turn(0))
        number = state["view"]["hand_number"]
        before = _snapshot(tmp_path)
        bad: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_json"),
            (json.dumps({"v": 1, "type": "ping"}), "bad_version"),
            (json.dumps({"type": "ping"}), "bad_version"),
            (json.dumps({"v": 2, "type": "steal"}), "bad_type"),
            (json.dumps({"v": 2, "type": "act", "id": "i", "hand": number}), "bad_field"),
            (
                json.dumps({"v": 2, "type": "sit", "table": 0, "name": "x" * 99, "buy_in": 1}),
                "bad_field",
            ),
            (json.dumps({"v": 2, "type": "ping", "extra": 1}), "bad_field"),
            (json.dumps({"v": 2, "type": "watch", "table": 99}), "no_table"),
            ("x" * 5000, "too_large"),
            (b"\xff\xfe", "binary_frame"),
            (json.dumps({"v": 2, "type": "ping"}).encode(), "binary_frame"),  # even as JSON
        ]
        for text, code in bad:
            await ann.raw(text)
            assert (await ann.next("error"))["code"] == code, text
        await bob.send(type="act", id="b-1", hand=number, action="fold")  # not bob's turn
        error = await bob.next("error")
        assert error["code"] == "illegal" and error["id"] == "b-1"
        await ann.send(type="act", id="a-1", hand=number + 5, action="fold")
        assert (await ann.next("error"))["code"] == "stale"
        await ann.send(type="act", id="a-2", hand=number, action="raise", amount=10**9)
        assert (await ann.next("error"))["code"] == "illegal"
        await ann.send(type="sit", table=0, seat=2, name="ann2", buy_in=1000)
        assert (await ann.next("error"))["code"] == "already_seated"
        await ann.send(type="top_up", amount=5)
        assert (await ann.next("error"))["code"] == "refused"  # not during her hand
        assert _snapshot(tmp_path) == before
        # a flood is rate-limited: refused messages are answered at most once a second
        for _ in range(120):
            await bob.send(type="ping")
        kinds = []
        while len(kinds) < 41:
            message = await bob.next()
            kinds.append(message["type"])
            if message["type"] == "error":
                assert message["code"] == "rate_limited"
                break
        assert "error" in kinds
        assert _snapshot(tmp_path) == before
        await ann.close()
        await bob.close()

    with ServerThread(_room(tmp_path)) as server:
        asyncio.run(scenario(server))
        assert server.leaks == []
        assert server.mismatches == []


def test_many_hands_with_bots_leak_nothing(tmp_path: Path) -> None:
    """Two people and a bot play hands; every message to every seat and spectator is
    audited, the chips add up, and finished hands are in the database, not in memory."""

    async def player(server: ServerThread, name: str, hands: int) -> None:
        client = await Client.connect(server.ws_url)
        await client.send(type="sit", table=0, name=name, buy_in=1000)
        seat = (await client.next("seated"))["seat"]
        count = 0
        while True:
            state = await client.state_where(
                lambda m: (
                    m["view"]["hand_number"] > hands
                    or bool(m["view"]["hand"] and m["view"]["hand"]["legal"])
                )
            )
            if state["view"]["hand_number"] > hands:
                break
            count += 1
            await _answer(client, seat, state, f"{name}-{count}")
        await client.close()

    async def watcher(server: ServerThread, hands: int) -> None:
        client = await Client.connect(server.ws_url)
        await client.send(type="watch", table=0)
        await client.state_where(lambda m: m["view"]["hand_number"] > hands, timeout=60)
        await client.close()

    async def scenario(server: ServerThread) -> None:
        await asyncio.gather(player(server, "ann", 6), player(server, "bob", 6), watcher(server, 6))

    with ServerThread(_room(tmp_path, bots=1)) as server:
        asyncio.run(scenario(server))
        assert server.audited > 50
        assert server.leaks == []
        assert server.mismatches == []
    table = Table.from_json(_snapshot(tmp_path))
    assert table.chips() + table.rake == table.bought_in
    assert table.log_length < 60  # only the current hand in memory
    with sqlite3.connect(str(tmp_path / "tables.db")) as db:
        numbers = [n for (n,) in db.execute("SELECT number FROM hands ORDER BY number")]
    assert numbers[:6] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("count", [1])
def test_restart_restores_tables_and_tokens(tmp_path: Path, count: int) -> None:
    """A server stopped mid-hand and started again on the same database: the table is
    where it was and the token still holds the seat."""

    async def first(server: ServerThread) -> tuple[str, dict[str, Any]]:
        ann, bob = await Client.connect(server.ws_url), await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        token = (await ann.next("seated"))["token"]
        await bob.send(type="sit", table=0, seat=1, name="bob", buy_in=1000)
        await bob.next("seated")
        state = await ann.state_where(_my_turn(0))
        await ann.send(type="act", id="a-1", hand=state["view"]["hand_number"], action="call")
        await ann.next("result")
        return token, state

    async def second(server: ServerThread, token: str, state: dict[str, Any]) -> None:
        ann = await Client.connect(server.ws_url)
        await ann.send(type="resume", token=token)
        await ann.next("seated")
        resumed = await ann.next("state")
        view = resumed["view"]
        assert view["hand_number"] == state["view"]["hand_number"]
        assert view["hand"]["hole"] == state["view"]["hand"]["hole"]
        assert view["to_act"] == 1
        await ann.send(type="act", id="a-1", hand=view["hand_number"], action="call")
        assert (await ann.next("result", id="a-1"))["repeated"] is True
        await ann.close()

    with ServerThread(_room(tmp_path)) as server:
        token, state = asyncio.run(first(server))
    with ServerThread(_room(tmp_path)) as server:
        asyncio.run(second(server, token, state))
