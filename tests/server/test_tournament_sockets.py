"""Tournaments over the WebSocket (issue 34 item 3, docs/PROTOCOL.md "Tournaments"): a
connection watches a tournament and holds, after every message, exactly the view the
HTTP API gives its account (patches applied to the whole view it was sent), its own
table's cards and nobody else's; people register, play a sit-and-go to its end and are
moved between tables over the same connection; refusals are typed error replies that
change nothing; a connection watching makes its player present. Driven step by step on
the test's clock without an event loop (each change committed at once); each test runs
on SQLite and PostgreSQL (``room_db``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.protocol import apply_patch
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments import views
from doubleholdem.server.tournaments.room import Tournaments
from tournaments_room import BUY_IN, FEE, Clock, audit, balance, open_room, sign_up, sit_and_go


@pytest.fixture(autouse=True)
def _no_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole tournament's decisions are sent in a few milliseconds of real time: the
    rate limit (tested in test_bounds.py) is lifted."""
    monkeypatch.setattr(Connection, "allow", lambda self: True)


class Client:
    """One connection and what it holds: the tournament's view, the lobby, replies."""

    def __init__(self, room: Room, account: str | None) -> None:
        self.room = room
        self.connection = room.connect(account=account)
        self.account = account
        self.view: dict[str, Any] | None = None
        self.lobby: list[dict[str, Any]] | None = None
        self.replies: list[dict[str, Any]] = []
        self.texts: list[str] = []

    def send(self, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """Sends a message; returns the replies (``result`` and ``error``) it got."""
        self.room.handle(self.connection, json.dumps({"v": 2, "type": kind, **fields}))
        before = len(self.replies)
        self.read()
        return self.replies[before:]

    def read(self) -> None:
        outbox = self.connection.outbox
        while not outbox.empty():
            text = outbox.get_nowait()
            assert text is not None
            self.texts.append(text)
            message = json.loads(text)
            kind = message["type"]
            if kind == "tournament":
                self.view = message["view"]
            elif kind == "tournament_update":
                assert self.view is not None, "an update before the whole view"
                self.view = apply_patch(self.view, message["patch"])
            elif kind == "tournament_lobby":
                self.lobby = message["tournaments"]
            elif kind in ("result", "error"):
                self.replies.append(message)


def _room(room_db: str, seed: int = 7, **spec: Any) -> tuple[Room, Tournaments, Clock]:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(**spec), clock, seed=seed)
    room.tournaments = TournamentSockets(tournaments)
    return room, tournaments, clock


def _expected(tournaments: Tournaments, viewer: str | None, clock: Clock) -> dict[str, Any]:
    runner = tournaments.runner(0)
    view = views.detail(runner.stored, runner.tournament, clock.now, viewer)
    view["version"] = runner.version
    return json.loads(json.dumps(view))  # as sent: JSON's keys and lists


def _holes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every ``hole`` in ``value``."""
    found = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "hole" and inner:
                found.append((*path, key))
            found += _holes(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _holes(inner, (*path, index))
    return found


def test_a_watcher_holds_the_tournament_as_the_api_shows_it_after_every_change(
    room_db: str,
) -> None:
    room, tournaments, clock = _room(room_db)
    sign_up(room, "ann", 1000)
    spectator = Client(room, None)
    spectator.send("tournament_lobby")
    assert spectator.lobby == json.loads(json.dumps(tournaments.lobby()))
    spectator.send("tournament_watch", tournament=0)
    assert spectator.view == _expected(tournaments, None, clock)
    ann = Client(room, "ann")
    [reply] = ann.send("tournament_register", tournament=0)
    assert reply == {"v": 2, "type": "result", "id": None, "ok": True, "tournament": 0, "entry": 2}
    spectator.read()
    assert spectator.view == _expected(tournaments, None, clock)  # the patch applied
    assert [e["player"] for e in spectator.view["entries"]][-1] == "ann"
    assert spectator.lobby is not None and spectator.lobby[-1]["entrants"] == 3  # pushed
    assert any(json.loads(t)["type"] == "tournament_update" for t in spectator.texts)
    [reply] = ann.send("tournament_unregister", tournament=0)
    assert reply["ok"] and balance(room, "ann") == 1000
    spectator.read()
    assert spectator.view == _expected(tournaments, None, clock)
    spectator.send("tournament_unwatch")
    ann.send("tournament_register", tournament=0)
    sent = len(spectator.texts)
    spectator.read()
    updates = [json.loads(t)["type"] for t in spectator.texts[sent:]]
    assert "tournament_update" not in updates and "tournament_lobby" in updates
    assert audit(room) == []
    room.store.close()


def _play(
    room: Room, tournaments: Tournaments, clock: Clock, people: list[Client], until: Any
) -> int:
    """Steps the tournament: each person whose held view offers options decides (the
    first legal of check, call, fold) over its connection; after every step each
    client's view is the API's for its account and holds its own cards only."""
    runner = tournaments.runner(0)
    for steps in range(20_000):
        for client in people:
            client.read()
            assert client.view == _expected(tournaments, client.account, clock)
            assert all(path[:1] == ("me",) for path in _holes(client.view))
        if until():
            return steps
        acted = False
        for client in people:
            me = client.view["me"] if client.view else None
            hand = me.get("view", {}).get("hand") if me else None
            legal = hand and hand.get("legal")
            if legal:
                action = "check" if legal["can_check"] else "fold"
                action = "call" if legal["call_amount"] else action
                number = me["view"]["hand_number"]
                [reply] = client.send("tournament_act", tournament=0, id=f"a{steps}",
                                      hand=number, action=action)  # fmt: skip
                assert reply == {"v": 2, "type": "result", "id": f"a{steps}", "ok": True,
                                 "tournament": 0}  # fmt: skip
                acted = True
        if not acted:
            wait = runner.step(clock.now)
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
    raise AssertionError("the tournament did not get there")


def _entered(room: Room, names: tuple[str, ...]) -> list[Client]:
    """A client for each of ``names``, signed up with 1000 chips, watching tournament 0
    and registered in it over its connection."""
    people = []
    for name in names:
        sign_up(room, name, 1000)
        client = Client(room, name)
        client.send("tournament_watch", tournament=0)
        [reply] = client.send("tournament_register", tournament=0)
        assert reply["ok"] and reply["tournament"] == 0
        people.append(client)
    return people


@pytest.mark.parametrize("seed", [7, 11, 12])
def test_people_play_a_sit_and_go_to_its_end_over_their_connections(
    room_db: str, seed: int
) -> None:
    room, tournaments, clock = _room(room_db, seed, capacity=4, bots=2)
    people = _entered(room, ("ann", "bob"))
    runner = tournaments.runner(0)
    assert runner.stored.status == "running"
    assert not runner.away("ann", clock.now)  # its connection watches
    _play(room, tournaments, clock, people, until=lambda: runner.stored.status == "finished")
    for client in people:
        assert client.view is not None and client.view["status"] == "finished"
        me = client.view["me"]
        assert me["place"] is not None
        assert balance(room, client.account or "") == 1000 - BUY_IN - FEE + me["prize"]
    assert audit(room) == []
    room.store.close()


def test_a_move_between_tables_is_followed_on_the_same_connection(room_db: str) -> None:
    room, tournaments, clock = _room(room_db, capacity=6, bots=0, seats=3)
    names = ("ann", "bob", "cat", "dan", "eve", "fay")
    people = _entered(room, names)
    runner = tournaments.runner(0)
    assert len(runner.tournament.tables) == 2
    _play(room, tournaments, clock, people, until=lambda: bool(runner.stored.moves))
    move = runner.stored.moves[0]
    client = people[names.index(move["player"])]
    assert client.view is not None
    me = client.view["me"]
    assert me["last_move"] == json.loads(json.dumps(move))
    assert (me["table"], me["seat"]) == (move["to_table"], move["to_seat"])
    assert me["view"]["seats"][move["to_seat"]]["player"] == move["player"]  # its new table
    room.store.close()


def test_refusals_are_error_replies_that_change_nothing(room_db: str) -> None:
    room, tournaments, _clock = _room(room_db)
    sign_up(room, "ann", BUY_IN + FEE - 1)
    spectator = Client(room, None)
    ann = Client(room, "ann")
    assert [(r["code"], r.get("id")) for r in spectator.send(
        "tournament_act", tournament=0, id="x1", hand=1, action="fold")] == [
        ("not_signed_in", "x1")]  # fmt: skip
    [error] = ann.send("tournament_watch", tournament=7)
    assert error["code"] == "no_tournament" and error["message"] == "there is no tournament 8"
    [error] = ann.send("tournament_register", tournament=0)
    assert error["code"] == "insufficient_funds"
    [error] = ann.send("tournament_unregister", tournament=0)
    assert error["code"] == "refused" and "not registered" in error["message"]
    [error] = ann.send("tournament_act", tournament=0, id="x2", hand=1, action="fold")
    assert error["code"] == "refused" and error["id"] == "x2"  # no seat
    [error] = ann.send("tournament_deal", tournament=0, answer="maybe")
    assert error["code"] == "bad_field"
    runner = tournaments.runner(0)
    assert [e.player for e in runner.tournament.entries] == ["tbot-0-1", "tbot-0-2"]
    assert balance(room, "ann") == BUY_IN + FEE - 1
    assert audit(room) == []
    room.store.close()


def test_a_room_without_tournaments_says_so(room_db: str) -> None:
    room, _tournaments, _clock = _room(room_db)
    room.tournaments = None
    [error] = Client(room, None).send("tournament_lobby")
    assert error["code"] == "no_tournament"
    room.store.close()


def test_a_player_is_present_while_a_connection_watches_and_away_once_it_left(
    room_db: str,
) -> None:
    room, tournaments, clock = _room(room_db)
    sign_up(room, "ann", 1000)
    ann = Client(room, "ann")
    ann.send("tournament_register", tournament=0)
    runner = tournaments.runner(0)
    assert runner.away("ann", clock.now)  # registered over the socket, not watching
    ann.send("tournament_watch", tournament=0)
    other = Client(room, "ann")  # a second window
    other.send("tournament_watch", tournament=0)
    clock.now += 3600
    assert not runner.away("ann", clock.now)
    room.disconnect(ann.connection)
    assert not runner.away("ann", clock.now)  # the other window watches
    other.send("tournament_unwatch")
    assert runner.away("ann", clock.now)
    room.store.close()


def test_a_deal_is_asked_for_offered_and_accepted_over_the_connection(room_db: str) -> None:
    room, tournaments, clock = _room(room_db, capacity=3, bots=1)
    people = _entered(room, ("ann", "bob"))
    runner = tournaments.runner(0)
    _play(room, tournaments, clock, people,
          until=lambda: any(t.in_hand for t in runner.tournament.tables.values()))  # fmt: skip
    ann = people[0]
    [reply] = ann.send("tournament_deal", tournament=0, answer="ask")
    assert reply["ok"]

    def offered() -> bool:
        return runner.stored.deal is not None and runner.stored.deal["amounts"] is not None

    _play(room, tournaments, clock, people, until=offered)
    for client in people:
        client.read()
        assert client.view is not None and client.view["deal"]["amounts"] is not None
    for client in people:
        if client.account in client.view["deal"]["players"]:  # type: ignore[index]
            [reply] = client.send("tournament_deal", tournament=0, answer="accept")
            assert reply["ok"]
    ann.read()
    assert ann.view is not None and ann.view["status"] == "finished"
    assert ann.view["ended_by"] == "deal"
    assert audit(room) == []
    room.store.close()


def test_a_change_whose_commit_fails_is_never_shown_and_its_request_is_unavailable(
    room_db: str,
) -> None:
    """Watchers are sent a change only after its commit: when the commit fails, the
    request is answered ``unavailable``, the tournament goes back to its stored state,
    and a watcher holds that state, never having been shown the change. On the event
    loop, as the server runs: the commit comes after the request's turn."""
    from faults import disarm, fail_next_commit_statement

    room, tournaments, clock = _room(room_db)
    sign_up(room, "ann", 1000)

    async def until(client: Client, done: Any) -> None:
        """Turns of the event loop until ``done()`` (bounded: a message never sent fails
        the test rather than hanging it)."""
        for _ in range(10_000):
            client.read()
            if done():
                return
            await asyncio.sleep(0)
        raise AssertionError("the message never came")

    async def answered(client: Client, kind: str, **fields: Any) -> dict[str, Any]:
        before = len(client.replies)
        room.handle(client.connection, json.dumps({"v": 2, "type": kind, **fields}))
        await until(client, lambda: len(client.replies) > before)  # after the commit
        return client.replies[before]

    async def scenario() -> tuple[Client, dict[str, Any] | None, dict[str, Any]]:
        spectator = Client(room, None)
        room.handle(spectator.connection, json.dumps({"v": 2, "type": "tournament_watch",
                                                      "tournament": 0}))  # fmt: skip
        await until(spectator, lambda: spectator.view is not None)
        before = spectator.view
        fail_next_commit_statement(room)
        late = Client(room, None)  # starts watching in the turn of the failing commit
        room.handle(late.connection, json.dumps({"v": 2, "type": "tournament_watch",
                                                 "tournament": 0}))  # fmt: skip
        error = await answered(Client(room, "ann"), "tournament_register", tournament=0)
        await until(late, lambda: late.view is not None)  # sent all the same, as stored
        assert late.view == spectator.view or late.view["entries"] == before["entries"]
        spectator.read()
        return spectator, before, error

    spectator, before, error = asyncio.run(scenario())
    assert error["type"] == "error" and error["code"] == "unavailable"
    assert not any('"ann"' in text for text in spectator.texts)  # the entry never shown
    assert spectator.view is not None and before is not None
    assert spectator.view["entries"] == before["entries"]
    assert spectator.view == _expected(tournaments, None, clock)  # as stored
    disarm(room)
    assert balance(room, "ann") == 1000
    assert [e.player for e in tournaments.runner(0).tournament.entries] == ["tbot-0-1", "tbot-0-2"]
    assert audit(room) == []
    room.store.close()
