"""``doubleholdem loadtest`` against a server on 127.0.0.1, with a small number of
clients (the 1,000-client target is a benchmark: benches/bench_server.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts.bank import Bank
from doubleholdem.cli import main
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.load_client import Client
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import ServerThread


def test_loadtest_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = RoomSettings(tables=3, bots=0, bot_delay=0.0, pause=0.01)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        args = ["--clients", "12", "--seconds", "3", "--think", "0.01", "--json"]
        status = main(["loadtest", "--url", server.url, *args])
        result = json.loads(capsys.readouterr().out)
        seated = [s for r in room.runners.values() for s in r.table.seats() if s is not None]
        assert seated == [] and all(not r.humans for r in room.runners.values())
        assert server.leaks == []
        assert server.mismatches == []
        refused = main(["loadtest", "--url", server.url, "--clients", "999", "--seconds", "1"])
        assert refused == 2 and "open seats" in capsys.readouterr().err
    assert status == 0
    assert result["clients"] == 12 and result["tables"] == 3
    assert result["actions"] > 0 and result["errors"] == 0 and result["chip_errors"] == 0
    assert result["still_seated"] == 0  # every client left its seat at the end
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    # the percentiles count steady play, after the last client sat; p99_all_ms everything
    assert 0 < result["seated_s"] < 3 and result["p99_all_ms"] > 0
    assert result["actions_per_s"] > 0  # steady play's


def test_loadtest_signs_its_clients_in(room_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Against an account room (on either database): each client signs up (welcome
    chips), signs in, sits under its account's name with its session cookie and plays;
    the audit runs on the database at the end (``--db`` its file or its URL)."""
    settings = RoomSettings(
        tables=2, bots=0, bot_delay=0.0, pause=0.01, signup=True, welcome_chips=5000
    )
    room = Room.open(room_db, settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        args = ["--clients", "6", "--seconds", "3", "--think", "0.01", "--json"]
        status = main(["loadtest", "--url", server.url, *args, "--db", room.store.path])
        result = json.loads(capsys.readouterr().out)
        assert server.leaks == [] and server.mismatches == []
    assert status == 0, result
    assert result["accounts"] == "signed_in" and result["clients"] == 6
    assert result["actions"] > 0 and result["errors"] == 0 and result["audit_ok"] is True
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    with Bank(room_db) as bank:
        made = [row[0] for row in bank.db.execute("SELECT name FROM accounts")]
        assert len(made) == 6 and all(name.startswith("ld") for name in made)
        hands = " ".join(row[0] for row in bank.db.execute("SELECT log FROM hands"))
    assert all(f'"{name}"' in hands for name in made)  # each sat under its account's name


def test_loadtest_says_when_sign_up_is_closed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=0.01)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        status = main(["loadtest", "--url", server.url, "--clients", "1", "--seconds", "1"])
    assert status == 2 and "sign-up is closed" in capsys.readouterr().err
    missing = str(tmp_path / "none.db")
    assert (
        main(["loadtest", "--url", server.url, "--clients", "1", "--seconds", "1", "--db", missing])
        == 2
    )


class _ScriptedSocket:
    """A socket that yields the server's messages of a script and records what is sent."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = [json.dumps(m) for m in messages]
        self.sent: list[dict[str, Any]] = []

    def __aiter__(self) -> AsyncIterator[str]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[str]:
        for text in self.messages:
            yield text

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _view(sitting_out: bool, hand: dict[str, Any] | None) -> dict[str, Any]:
    seat = {"player": "load-0", "stack": 990, "sitting_out": sitting_out}
    return {"seat": 0, "seats": [seat, None], "hand": hand}


def test_a_leaving_client_waits_until_its_seat_sits_out() -> None:
    """The race the 1,000-client run found: the client sits out between hands, and the
    server deals the next hand before it reads the ``sit_out``. A ``leave`` sent on the
    older view (the last hand over, the seat not yet sitting out) would come during the
    new hand and hold the seat, played by its deadlines, until that hand ends; the client
    leaves once a view shows its seat sitting out and out of any hand."""
    over = {"over": True, "stacks": {"0": 990}, "legal": None}
    dealt = {"over": False, "stacks": {"0": 985, "1": 990}, "legal": None, "decision": "bet"}
    client = Client(0, 0, 0, 1000, 0.0)
    client.view = _view(False, over)
    client.seated_at = 0.0
    client.leaving = True
    script = [
        {"type": "result", "id": None, "ok": True},  # the sit_out's reply: nothing seen yet
        {"type": "state", "view": _view(True, dealt)},  # sat out, but dealt in: play it out
        {"type": "state", "view": _view(True, {**dealt, "over": True})},  # now it may go
    ]
    socket = _ScriptedSocket(script[:2])
    asyncio.run(client._receive(socket))
    assert socket.sent == []
    socket = _ScriptedSocket(script[2:])
    asyncio.run(client._receive(socket))
    assert socket.sent == [{"v": 2, "type": "leave"}]


def test_a_following_client_goes_where_the_lobby_says_its_table_is() -> None:
    """In a room of many processes the lobby names the ``address`` serving each table
    (``None`` while none does); a following client told ``elsewhere`` stops reading
    that connection and looks its table up again; one not following ignores it."""
    from doubleholdem.server.http.load_client import ws_url
    from doubleholdem.server.http.loadtest import _served_at

    assert _served_at({"id": 3}, "http://a:1") == "http://a:1"  # one process: its own
    assert _served_at({"id": 3, "address": "http://b:2/room/"}, "http://a:1") == "http://b:2/room"
    assert _served_at({"id": 3, "process": None, "address": None}, "http://a:1") is None
    assert _served_at({"id": 3, "process": "p1", "address": None}, "http://a:1") == "http://a:1"
    assert (
        ws_url("https://b:2/room") == "wss://b:2/room/ws" and ws_url("http://a:1/") == "ws://a:1/ws"
    )
    elsewhere = {"type": "elsewhere", "table": 0, "process": "p2", "address": "http://b:2"}
    for follows in (False, True):
        client = Client(0, 0, 0, 1000, 0.0)
        client.locate = (lambda table: "http://b:2") if follows else None
        socket = _ScriptedSocket([elsewhere, {"type": "error", "code": "x"}])
        asyncio.run(client._receive(socket))
        assert client.errors == (0 if follows else 1)  # read on past it, or not


def test_a_following_client_follows_an_elsewhere_that_names_no_address() -> None:
    """A process that stops serving a table (it lost its lease, or hands the table
    over) tells the table's connections ``elsewhere`` with the table alone (``address``
    absent: docs/PROTOCOL.md) and closes them: a following client looks its table up
    again, rather than failing on the missing field and leaving its seat taken (seen
    after the failover tests' takeovers: clients that never left)."""
    for elsewhere in (
        {"type": "elsewhere", "table": 0},
        {"type": "elsewhere", "table": 0, "process": None, "address": None},
    ):
        client = Client(0, 0, 0, 1000, 0.0)
        client.locate = lambda table: "http://b:2"
        socket = _ScriptedSocket([elsewhere, {"type": "error", "code": "x"}])
        asyncio.run(client._receive(socket))
        assert client.told_elsewhere == "" and client.errors == 0  # looked up again


class _ClosedSocket(_ScriptedSocket):
    """A scripted socket whose ``close`` calls ``on_close``."""

    def __init__(self, messages: list[dict[str, Any]], on_close: Any = None) -> None:
        super().__init__(messages)
        self.on_close = on_close

    async def close(self) -> None:
        if self.on_close is not None:
            self.on_close()


def test_a_following_client_stopped_while_it_follows_its_table_still_leaves() -> None:
    """The load's end comes while a following client looks for its table's new owner
    (its connection closed with ``elsewhere``): it still goes there and leaves its seat,
    rather than ending with the seat taken (seen after the failover tests' takeovers:
    1 or 2 of 6 clients left seated)."""
    client = Client(0, 0, 0, 1000, 0.0)
    seated = {"type": "seated", "table": 0, "seat": 0, "token": "t0"}
    first = _ClosedSocket(
        [seated, {"type": "state", "view": _view(False, None)}, {"type": "elsewhere", "table": 0}],
        on_close=client.stopped.set,  # the load ends as the client follows its table
    )
    sat_out = _view(True, None)
    second = _ClosedSocket(
        [seated, {"type": "state", "view": sat_out}, {"type": "left", "table": 0, "seat": 0}]
    )
    sockets = iter([first, second])

    async def connect(gate: asyncio.Semaphore) -> _ClosedSocket:
        return next(sockets)

    client._connect = connect  # type: ignore[method-assign]
    client.locate = lambda table: "http://b:2"
    asyncio.run(client.play(time.monotonic() + 60.0, asyncio.Semaphore(1)))
    assert client.left
    assert [m["type"] for m in second.sent] == ["resume", "sit_out", "leave"]
    # its trail: what it sent and was told, in order (the load reports it for a client
    # still seated at the end)
    assert [entry.split(" ", 1)[1] for entry in client.trail] == [
        'sent {"v": 2, "type": "sit", "table": 0, "seat": 0, "name": "load-0", "buy_in": 1000}',
        "told seated at seat 0",
        "state: hand None, its seat 0: sitting out False, in hand False",
        "told {'type': 'elsewhere', 'table': 0}",
        "the lobbies say table 0 is at http://b:2",
        'sent {"v": 2, "type": "resume", "token": "t0"}',
        'sent {"v": 2, "type": "sit_out"}',
        "told seated at seat 0",
        "state: hand None, its seat 0: sitting out True, in hand False",
        'sent {"v": 2, "type": "leave"}',
        "told {'type': 'left', 'table': 0, 'seat': 0}",
    ]


def test_a_client_resumed_decides_once_its_decision_sent_again_changed_nothing() -> None:
    """A client that resumes its seat elsewhere sends its unanswered decision again
    (with its ``id``); applied before, it is answered ``repeated`` (or refused as
    stale), which changes nothing, so no state follows it. The client then decides on
    its view as it is, rather than waiting for a state that only its deadline would
    bring (seen after the failover tests' takeovers: each moved table waited the
    action time, 15 s, for its client)."""
    client = Client(0, 0, 0, 1000, 0.0)
    client.seated_at = 0.0
    to_act = {
        "over": False, "stacks": {"0": 900, "1": 900}, "decision": "bet",
        "legal": {"can_check": True},
    }  # fmt: skip
    view = {**_view(False, to_act), "hand_number": 4}
    for reply in (
        {"type": "result", "id": "l0-7", "ok": True, "repeated": True},
        {"type": "error", "id": "l0-7", "code": "stale", "message": "hand 3 is over"},
    ):
        client.sent.clear()  # as on following its table (Client._follow)
        client.pending = {"v": 2, "type": "act", "id": "l0-7", "hand": 3, "action": "call"}
        seated = {"type": "seated", "table": 0, "seat": 0, "token": "t0"}
        socket = _ScriptedSocket([seated, {"type": "state", "view": view}, reply])

        async def resumed(socket: _ScriptedSocket = socket) -> None:
            await client._receive(socket)
            assert client.answering is not None
            await client.answering

        asyncio.run(resumed())
        sent = [(m["type"], m.get("id"), m.get("hand"), m.get("action")) for m in socket.sent]
        assert sent[0] == ("act", "l0-7", 3, "call")  # sent again once seated
        assert sent[1][0] == "act" and sent[1][2:] == (4, "check")  # then the view's


def test_a_sit_refused_for_the_moment_is_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sit the room refuses for the moment (``unavailable``: the commit it was in
    failed; ``busy``) is sent again, as a person clicks again, a few times at most; one
    refused for good (a name taken, say) is not."""
    from doubleholdem.server.http import load_client

    monkeypatch.setattr(load_client, "SIT_PAUSE", 0.0)
    unavailable = {"type": "error", "code": "unavailable", "message": "try again"}
    client = Client(0, 0, 0, 1000, 0.0)
    socket = _ScriptedSocket([unavailable] * (load_client.SIT_TRIES + 2))
    asyncio.run(client._receive(socket))
    assert [m["type"] for m in socket.sent] == ["sit"] * load_client.SIT_TRIES
    # refused once more: it gives up (the last message is never read)
    assert client.errors == load_client.SIT_TRIES + 1 and client.refused == "unavailable"
    client = Client(1, 0, 1, 1000, 0.0)
    socket = _ScriptedSocket([{"type": "error", "code": "name_taken", "message": "taken"}])
    asyncio.run(client._receive(socket))
    assert socket.sent == [] and client.refused == "name_taken"


def test_a_load_whose_sit_is_refused_for_good_ends_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client whose sit the room refuses for good (its seat taken by another) gives
    up: the load's ``all_seated`` comes once every sit is settled, and its result
    counts the refusal (``sit_refused``, by code). Before, the client waited for a seat
    that never came and the load (benches/failover.py, the failover tests: waiting for
    every client to sit, with a day to play) waited for it for good."""
    from doubleholdem.server.http import loadtest

    players = loadtest._players

    def one_seat_twice(tables: Any, clients: int, think: float) -> list[Client]:
        first, second = players(tables, clients, think)
        second.table, second.seat = first.table, first.seat
        return [first, second]

    monkeypatch.setattr(loadtest, "_players", one_seat_twice)
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=0.01)
    room = Room.open(str(tmp_path / "tables.db"), settings)

    async def load(url: str) -> dict[str, Any]:
        stop, settled = asyncio.Event(), asyncio.Event()
        running = asyncio.ensure_future(
            loadtest.run_load(url, 2, 86_400.0, think=0.01, stop=stop, all_seated=settled)
        )
        await asyncio.wait_for(settled.wait(), 120.0)  # (a bound on a hang: the event)
        stop.set()
        return await asyncio.wait_for(running, 120.0)

    with ServerThread(room) as server:
        result = asyncio.run(load(server.url))
    assert result["sit_refused"] == 1 and result["sit_refused_codes"] == {"refused": 1}
    assert result["still_seated"] == 0 and result["still_seated_trails"] == {}


def test_the_load_seats_one_client_at_a_seat_while_a_table_changes_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each table of the room is counted once, whatever its processes' lobbies say at a
    hand-over: each process that answers says which tables it serves (another's word
    may be older). Counted twice, two clients were given one seat: the second was
    refused for good and never sat (a failover test waited two minutes for it).
    Processes serving rooms of their own list theirs each."""
    from doubleholdem.server.http import loadtest

    def table(table_id: int, address: str | None) -> dict[str, Any]:
        summary = {"id": table_id, "address": address, "seats": [None] * 3, "buy_in": [1, 9]}
        return summary if address is not None else {**summary, "process": None}

    lobbies = {  # table 4 handed from b to c: a read it at b, b lets it go, c serves it
        "http://a:1": [table(3, "http://a:1"), table(4, "http://b:2")],
        "http://b:2": [table(3, "http://a:1"), table(4, None)],
        "http://c:3": [table(3, "http://a:1"), table(4, "http://c:3")],
    }
    monkeypatch.setattr(loadtest, "_all_tables", lambda base, timeout: lobbies[base])
    tables = loadtest._room_tables(list(lobbies))
    assert sorted((t["id"], base) for base, t in tables) == [(3, "http://a:1"), (4, "http://c:3")]
    players = loadtest._players(tables, 6, 0.0)
    assert len({(p.table, p.seat) for p in players}) == 6
    lobbies = {"http://x:1": [table(0, "http://x:1")], "http://y:2": [table(0, "http://y:2")]}
    assert len(loadtest._room_tables(list(lobbies))) == 2  # two rooms, a table 0 in each


def test_a_following_client_drops_the_decision_it_was_thinking_of_for_the_old_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client asked to decide thinks a moment before it answers; its connection
    dropped meanwhile (told ``elsewhere``), the answer it was thinking of is dropped
    as it follows its table. Made later, it went on the connection gone and was noted
    as sent, and the client, waiting for that answer, decided nothing more: its seat
    was played by its deadlines (45 s for the first), and a client leaving at the
    load's end waited out its minute with its seat still in that hand (the SIGSTOP
    failover benchmark: one client of twelve left seated in three runs of seven)."""
    to_act = {
        "over": False, "stacks": {"0": 900, "1": 900}, "decision": "bet",
        "legal": {"can_check": True},
    }  # fmt: skip
    view = {**_view(False, to_act), "hand_number": 4}
    client = Client(0, 0, 0, 1000, 3600.0)  # it thinks for an hour: still thinking
    client.seated_at = 0.0
    client.locate = lambda table: "http://b:2"
    old = _ClosedSocket([{"type": "state", "view": view}, {"type": "elsewhere", "table": 0}])
    new = _ClosedSocket([])

    async def connect(gate: asyncio.Semaphore) -> _ClosedSocket:
        return new

    client._connect = connect  # type: ignore[method-assign]

    async def follow() -> None:
        await client._receive(old)  # asked to decide, then told elsewhere
        thinking = client.answering
        assert thinking is not None and not thinking.done()
        assert await client._follow(time.monotonic() + 60.0, asyncio.Semaphore(1)) is new
        await asyncio.sleep(0)  # (a task cancelled ends at its next turn)
        assert thinking.cancelled()  # never sent on the old connection, nor noted
        assert old.sent == [] and client.sent == {} and client.pending is None

    asyncio.run(follow())
