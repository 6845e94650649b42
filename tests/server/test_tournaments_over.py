"""The tournaments over stay in the database (issue 34, docs/room-tournaments.md, "The
API"): a room with many of them starts without reading one (only those registering or
running are loaded), and the lobby pages through all of them, newest first, each once,
a bounded page at a time, in the room, over the WebSocket and through the HTTP API; one
over is read on request. On SQLite and on PostgreSQL (``room_db``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from doubleholdem.errors import TournamentError
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import tournament_rows
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments import room as tournaments_room
from doubleholdem.server.tournaments import stored
from doubleholdem.server.tournaments.room import OVER_PAGE, Tournaments
from http_harness import Browser
from passwords_double import FAST
from server_harness import ServerThread
from tournaments_room import Clock, audit, open_room, play, registered, run_here, sit_and_go

CANCELLED = 2 * OVER_PAGE + 3  # three pages of tournaments over, the last one short


def _specs() -> list[Any]:
    """A sit-and-go of people (cancelled again and again) and a duel with a bot."""
    return [sit_and_go(4, bots=0), sit_and_go(2, bots=1, name="duel")]


def _room_with_tournaments_over(room_db: str) -> tuple[list[int], int]:
    """Makes at ``room_db`` one duel played to its end and ``CANCELLED`` sit-and-gos
    cancelled while registering (each opening the next): the ids of those over, newest
    first, and the duel's."""
    room, tournaments, runner, clock = registered(room_db, _specs()[1], ("ann",))
    play(runner, clock, ("ann",), until=lambda: runner.stored.status == "finished")
    room.store.close()
    clock = Clock()
    room, tournaments = _open(room_db, clock)
    for _ in range(CANCELLED):
        (sng,) = [r.id for r in tournaments.runners.values() if r.stored.spec.name == "sng"
                  and r.stored.status == "registering"]  # fmt: skip
        tournaments.cancel(sng)
    room.commit.flush()
    assert audit(room) == []
    over = sorted((i for i, _ in tournament_rows.rows(room.store.db, over=True)), reverse=True)
    room.store.close()
    return over, runner.id


def _open(room_db: str, clock: Clock) -> tuple[Room, Tournaments]:
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, seed=7, clock=clock)
    room = Room.open(room_db, settings)
    return room, run_here(room, settings, _specs())


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the tournaments read from the database from now on."""
    read: list[int] = []
    load = stored._load

    def counted(db: Any, tournament_id: int, text: str, key: bytes | None) -> Any:
        read.append(tournament_id)
        return load(db, tournament_id, text, key)

    monkeypatch.setattr(stored, "_load", counted)
    return read


def test_a_room_loads_none_over_and_its_lobby_pages_through_each_once(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    over, duel = _room_with_tournaments_over(room_db)
    assert len(over) == CANCELLED + 1 and duel in over
    read = _counting(monkeypatch)
    room, tournaments = _open(room_db, Clock())
    live = sorted(tournaments.runners)
    assert [tournaments.runners[i].stored.status for i in live] == ["registering"] * 2
    assert read == live  # none over read
    assert [t["id"] for t in tournaments.lobby()] == live[::-1]
    seen: list[int] = []
    before: int | None = None
    pages = 0
    while True:
        page, before = tournaments.over_page(before)
        pages += 1
        assert 0 < len(page) <= OVER_PAGE
        seen += [t["id"] for t in page]
        if before is None:
            break
    assert seen == over and pages == 3  # each once, newest first
    assert read == live  # their lines are stored with them: none read to list them
    lines = {t["id"]: t for t in tournaments.over_page(duel + 1)[0]}
    assert (lines[duel]["status"], lines[duel]["name"], lines[duel]["entrants"]) == (
        "finished", "duel", 2)  # fmt: skip
    view = tournaments.detail(duel, "ann")  # read on request
    assert view["status"] == "finished" and view["me"]["place"] in (1, 2)
    assert read == [*live, duel]
    with pytest.raises(TournamentError, match=f"tournament {duel + 1} is over"):
        tournaments.runner(duel)
    # a new tournament takes the next id, over ones counted
    tournaments.cancel(live[0])
    assert max(tournaments.runners) == max(live) + 1 > max(over)
    room.store.close()


def test_the_websocket_lobby_holds_the_newest_page_and_pages_on(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    over, duel = _room_with_tournaments_over(room_db)
    room, tournaments = _open(room_db, Clock())
    room.tournaments = TournamentSockets(tournaments)
    connection = room.connect(account=None)

    def send(kind: str, **fields: Any) -> list[dict[str, Any]]:
        room.handle(connection, json.dumps({"v": 2, "type": kind, **fields}))
        room.commit.flush()
        found = []
        while not connection.outbox.empty():
            found.append(json.loads(str(connection.outbox.get_nowait())))
        return found

    (lobby,) = [m for m in send("tournament_lobby") if m["type"] == "tournament_lobby"]
    assert [t["id"] for t in lobby["tournaments"]] == sorted(tournaments.runners, reverse=True)
    seen = [t["id"] for t in lobby["over"]]
    after = lobby["next"]
    while after is not None:
        (page,) = send("tournaments_over", before=after)
        assert page["type"] == "tournaments_over" and len(page["tournaments"]) <= OVER_PAGE
        seen += [t["id"] for t in page["tournaments"]]
        after = page["next"]
    assert seen == over
    (watched,) = send("tournament_watch", tournament=duel)  # over: its view, read
    assert watched["type"] == "tournament" and watched["view"]["status"] == "finished"
    (refused,) = send("tournaments_over", before=-1)
    assert refused["type"] == "error"
    room.store.close()


def test_the_http_api_pages_through_the_tournaments_over(room_db: str) -> None:
    over, duel = _room_with_tournaments_over(room_db)
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0)
    room = Room.open(room_db, settings)
    desk = Desk(room.store.path, settings, passwords=FAST)
    with ServerThread(room, desk=desk, tournaments=_specs()) as server:
        browser = Browser(server.port)
        live = browser.request("GET", "/api/tournaments").body
        assert all(t["status"] == "registering" for t in live) and len(live) == 2
        seen: list[int] = []
        path = "/api/tournaments/over"
        while path:
            reply = browser.request("GET", path)
            assert reply.status == 200 and len(reply.body["tournaments"]) <= OVER_PAGE
            seen += [t["id"] for t in reply.body["tournaments"]]
            after = reply.body["next"]
            path = "" if after is None else f"/api/tournaments/over?before={after}"
        assert seen == over
        assert browser.request("GET", "/api/tournaments/over?before=x").status == 400
        view = browser.request("GET", f"/api/tournaments/{duel}").body
        assert view["status"] == "finished" and view["version"] == 0


def test_the_last_few_over_stay_in_memory_and_older_ones_leave_it(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(4, bots=0), clock)
    cancelled = []
    for _ in range(tournaments_room.OVER_KEPT + 3):
        (sng,) = [r.id for r in tournaments.runners.values() if r.stored.status == "registering"]
        tournaments.cancel(sng)
        cancelled.append(sng)
    room.commit.flush()
    held = sorted(i for i in tournaments.runners if i in cancelled)
    assert held == cancelled[-tournaments_room.OVER_KEPT :]
    assert [t["id"] for t in tournaments.over_page()[0]] == cancelled[::-1]
    assert tournaments.detail(cancelled[0], None)["status"] == "cancelled"
    room.store.close()


def test_one_over_stored_in_its_row_before_schema_8_is_listed_and_read(room_db: str) -> None:
    """A tournament over whose row holds its state (as schema 7 and those before stored
    it: no parts, no lobby line) is listed from its state and read on request."""
    room, tournaments, runner, clock = registered(room_db, _specs()[1], ("ann",))
    play(runner, clock, ("ann",), until=lambda: runner.stored.status == "finished")
    room.commit.flush()
    expected = tournaments.over_page()[0]
    db = room.store.db
    text = runner.stored.to_text(runner.tournament, None)
    db.execute("BEGIN")
    room.store.fencing.writes(db, TOURNAMENTS)  # under the lease the room holds
    db.execute("UPDATE tournaments SET state = ?, summary = NULL WHERE id = ?", (text, runner.id))
    db.execute("DELETE FROM tournament_parts WHERE tournament_id = ?", (runner.id,))
    db.execute("COMMIT")
    room.store.close()
    room, tournaments = _open(room_db, Clock())
    (line,) = tournaments.over_page()[0]
    assert line == {**expected[0], "level": line["level"]}  # its level: as of now
    assert tournaments.detail(runner.id, "ann")["me"]["place"] in (1, 2)
    assert audit(room) == []
    room.store.close()
