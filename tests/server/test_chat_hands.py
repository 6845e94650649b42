"""Chat at a table (bounds, rate, read-only spectators, kept across a restart), a seat's
hand history (as that seat saw it, in PHH parsed back by game/phh.py, never another
player's hidden cards) and tables of EquityBot bots, over real WebSockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.database.url import connect
from doubleholdem.errors import InvalidConfig
from doubleholdem.game import phh
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.protocol import MAX_CHAT
from doubleholdem.server.settings import RoomSettings, load_room, load_tables
from doubleholdem.server.tables.connection import CHAT_BURST
from doubleholdem.server.tables.room import Room
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import CallingStation
from doubleholdem.table.history import RECORD, hand_record
from passwords_double import FAST
from server_harness import DOUBLE_THREE, Client, ServerThread, get_json, play_seat

PASSWORD = "correct horse battery"
NAMES = ("ann", "bob", "cy")
FRAGMENTS = ["<script>alert(1)</script>", '<img src=x onerror="alert(2)">', "a & b < c"]


def _room(room_db: str, **settings: Any) -> Room:
    fields: dict[str, Any] = dict(tables=1, bots=0, bot_delay=0.0, pause=0.05, guests=True)
    fields["configs"] = [DOUBLE_THREE]
    fields.update(settings)
    return Room.open(room_db, RoomSettings(seed=7, **fields))


async def _sit(server: ServerThread, seat: int, name: str) -> Client:
    client = await Client.connect(server.ws_url)
    await client.send(type="sit", table=0, seat=seat, name=name, buy_in=1000)
    await client.next("seated")
    return client


async def _watch(server: ServerThread) -> Client:
    client = await Client.connect(server.ws_url)
    await client.send(type="watch", table=0)
    await client.next("state")
    return client


def test_chat_is_text_for_everyone_at_the_table(room_db: str) -> None:
    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server, 0, "ann")
        eve = await _watch(server)
        for text in FRAGMENTS:
            await ann.send(type="chat", text=text)
            line = await eve.next("chat")
            assert (line["text"], line["player"], line["seat"]) == (text, "ann", 0)
            assert (await ann.next("chat"))["text"] == text  # the sender sees it too
        await eve.send(type="chat", text="  hello  ")
        line = await ann.next("chat")
        assert line["text"] == "hello" and line["seat"] is None
        assert line["player"].startswith("watcher-")

    with ServerThread(_room(room_db)) as server:
        asyncio.run(scenario(server))


def test_chat_bounds_and_rate(room_db: str) -> None:
    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server, 0, "ann")
        for bad in ("x" * (MAX_CHAT + 1), "   ", "two\nlines", "bell\a", 7):
            await ann.send(type="chat", text=bad)
            error = await ann.next("error")
            assert error["code"] == "bad_field" and "text must be" in error["message"]
        await ann.send(type="chat", text="x" * MAX_CHAT)  # the longest allowed
        assert len((await ann.next("chat"))["text"]) == MAX_CHAT
        for n in range(int(CHAT_BURST) - 1):
            await ann.send(type="chat", text=f"line {n}")
            await ann.next("chat")
        await ann.send(type="chat", text="one too many")
        error = await ann.next("error")
        assert error["code"] == "chat_rate" and "one every 2 s" in error["message"]
        lonely = await Client.connect(server.ws_url)  # neither seated nor watching
        await lonely.send(type="chat", text="hi")
        assert (await lonely.next("error"))["code"] == "unauthorised"

    with ServerThread(_room(room_db)) as server:
        asyncio.run(scenario(server))
    with contextlib.closing(connect(room_db)) as db:
        stored = [json.loads(line) for (line,) in db.execute("SELECT line FROM chat").fetchall()]
    assert len(stored) == CHAT_BURST and "one too many" not in [s["text"] for s in stored]


def test_spectators_read_only(room_db: str) -> None:
    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server, 0, "ann")
        eve = await _watch(server)
        await eve.send(type="chat", text="may I?")
        error = await eve.next("error")
        assert error["code"] == "read_only" and "spectators" in error["message"]
        await ann.send(type="chat", text="no")
        assert (await eve.next("chat"))["text"] == "no"  # they still read

    with ServerThread(_room(room_db, spectator_chat=False)) as server:
        asyncio.run(scenario(server))


def test_chat_survives_a_restart(room_db: str) -> None:
    async def say(server: ServerThread) -> None:
        ann = await _sit(server, 0, "ann")
        for text in ("first", "second", "third"):
            await ann.send(type="chat", text=text)
            await ann.next("chat")

    async def read(server: ServerThread) -> list[dict[str, Any]]:
        eve = await Client.connect(server.ws_url)
        await eve.send(type="watch", table=0)
        return (await eve.next("state"))["chat"]  # type: ignore[no-any-return]

    with ServerThread(_room(room_db)) as server:
        asyncio.run(say(server))
    with ServerThread(_room(room_db, chat_lines=2)) as server:
        chat = asyncio.run(read(server))
    assert [(c["player"], c["text"]) for c in chat] == [("ann", "second"), ("ann", "third")]


def _hidden_cards(full: str, seen: str, me: str) -> list[str]:
    """The hole cards of players other than ``me`` in the full PHH that ``seen`` (the
    seat's PHH) shows although they were never shown."""
    actions = phh.loads(full).actions
    shown = {a.split()[0] for a in actions if a.split()[1] == "sm" and len(a.split()) == 3}
    leaked = []
    for action in actions:
        words = action.split()
        if words[:2] == ["d", "dh"] and words[2] != me and words[2] not in shown:
            cards = [words[3][i : i + 2] for i in range(0, len(words[3]), 2)]
            leaked += [c for c in cards if c in seen]
    return leaked


def test_a_seat_sees_its_own_hands_only(room_db: str) -> None:
    async def scenario(server: ServerThread) -> tuple[Any, Any, Any]:
        ann = await _sit(server, 0, "ann")
        bob = await _sit(server, 1, "bob")
        eve = await _watch(server)
        await asyncio.gather(play_seat(ann, 0, 3), play_seat(bob, 1, 3))
        await ann.send(type="hands")
        ann_hands = await ann.next("hands", timeout=30)
        await bob.send(type="hands", last=1)
        bob_hands = await bob.next("hands", timeout=30)
        await eve.send(type="hands")
        refused = await eve.next("error")
        return ann_hands, bob_hands, refused

    with ServerThread(_room(room_db, bots=0)) as server:
        ann_hands, bob_hands, refused = asyncio.run(scenario(server))
        full = {n: log for n, log in server.room.store.hands(0)}
    assert refused["code"] == "unauthorised"
    assert [h["number"] for h in ann_hands["hands"]] == [1, 2, 3]
    assert [h["number"] for h in bob_hands["hands"]] == [3]
    for reply, seat in ((ann_hands, 0), (bob_hands, 1)):
        for hand in reply["hands"]:
            record = next(e for e in full[hand["number"]] if e["kind"] == RECORD)
            me = f"p{record['seats'].index(seat + 1) + 1}"
            history = phh.loads(hand["phh"])
            assert history.fields["players"] == record["players"]
            own = next(a for a in history.actions if a.startswith(f"d dh {me} "))
            assert "?" not in own  # its own cards
            assert own in record["text"]
            assert _hidden_cards(record["text"], hand["phh"], me) == []
            replayed = phh.replay(history)  # to the server's stacks, unseen cards or not
            assert history.finishing_stacks is not None
            assert replayed.finishing_stacks == list(history.finishing_stacks)
            deals = [e for e in hand["log"] if e["kind"] == "deal"]
            assert [("cards" in e) for e in deals] == [e["seat"] == seat for e in deals]
            assert all(e["kind"] != RECORD for e in hand["log"])


def test_equity_bots_play_a_table(room_db: str) -> None:
    configs = [TableConfig(small_blind=5, big_blind=10, seats=3)]
    room = _room(room_db, bots=3, configs=configs, bot_kinds=[("equity",)])
    assert set(room.runners[0].bot_kinds.values()) == {"equity"}

    async def scenario() -> None:
        await room.start()
        for _ in range(3000):
            if room.runners[0].table.hand_number > 3:
                break
            await asyncio.sleep(0.01)
        await room.stop()

    asyncio.run(scenario())
    with contextlib.closing(connect(room_db)) as db:
        (bots,) = db.execute("SELECT bots FROM tables WHERE id = 0").fetchone()
        (played,) = db.execute("SELECT COUNT(*) FROM hands WHERE table_id = 0").fetchone()
    assert json.loads(bots) == {"0": "equity", "1": "equity", "2": "equity"}
    assert played >= 3


def test_api_me_hands_gives_an_account_its_own_hands_only(room_db: str) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=600.0, configs=[DOUBLE_THREE])
    room = Room.open(room_db, settings)
    desk = Desk(room.store.path, settings, passwords=FAST)
    tokens = {name: desk.sign_up(name, PASSWORD, address="192.0.2.1")[1] for name in NAMES}
    table = Table(DOUBLE_THREE, seed=5)  # a hand of ann, bob and cy, stored as a room does
    for seat, name in enumerate(NAMES):
        table.join(seat, name, 1000)
    full = {}
    for number in (1, 2):
        table.start_hand(now=float(number))
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            table.decide(seat, CallingStation().choose(table.observe(seat)), now=float(number))
        with room.store.transaction():
            log = [*table.release_history(), hand_record(table, table_id=0)]
            room.store.put_hand(0, number, log)
        full[number] = log[-1]["text"]
    with ServerThread(room, desk=desk) as server:
        mine = {name: get_json(server.port, "/api/me/hands", tokens[name]) for name in NAMES}
        nobody = get_json(server.port, "/api/me/hands", None)
        other = get_json(server.port, "/api/me/hands?name=bob", tokens["ann"])
    assert nobody[0] == 401
    assert other == mine["ann"]  # no request names another account
    for name in NAMES:
        status, body = mine[name]
        assert status == 200 and [h["number"] for h in body["hands"]] == [2, 1]
        for hand in body["hands"]:
            history = phh.loads(hand["phh"])
            assert hand["table"] == 1 and name in history.fields["players"]
            me = f"p{history.fields['players'].index(name) + 1}"
            deals = [a.split() for a in history.actions if a.startswith("d dh")]
            assert all(("?" in cards) == (who != me) for _, _, who, cards in deals)
            assert _hidden_cards(full[hand["number"]], hand["phh"], me) == []
            assert history.finishing_stacks is not None  # replays to the server's stacks
            assert phh.replay(history).finishing_stacks == list(history.finishing_stacks)


def test_the_room_setting_makes_spectators_read_only(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text("[room]\nspectator_chat = false\n")
    settings = RoomSettings()
    load_room(str(path), settings)
    assert settings.spectator_chat is False
    path.write_text('[room]\nspectator_chat = "no"\n')
    with pytest.raises(InvalidConfig, match="spectator_chat must be a bool"):
        load_room(str(path), RoomSettings())


def test_a_tables_bots_must_be_known_kinds(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    for bots in ('"shark"', "[]", '["equity", 3]'):
        path.write_text(f"[[table]]\nsmall_blind = 5\nbig_blind = 10\nbots = {bots}\n")
        with pytest.raises(InvalidConfig, match="bots must be a kind of bot"):
            load_tables(str(path))
