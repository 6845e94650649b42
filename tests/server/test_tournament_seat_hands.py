"""The WebSocket ``hands`` request at a tournament's table (issue 34, docs/PROTOCOL.md):
``{"type": "hands", "tournament": n}`` answers the signed-in account's own seat at its
table of tournament n, as a cash seat's ``hands`` does: that seating's hands only (a move
to another table starts a new one), newest last, at most ``last`` (1 to 20), each as its
seat saw it (nobody else's hole cards unless shown), spending from the chat's rate. No
field names another account: a spectator, an account without a seat there, a
tournament that does not exist are error replies, and an account's reply never holds
another's cards. Driven step by step without an event loop (each change committed at
once; the reply read at once), on SQLite and PostgreSQL (``room_db``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from doubleholdem.game import phh
from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.protocol import MAX_HANDS
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from tournaments_room import Clock, open_room, play, sign_up, sit_and_go


def _ask(room: Room, connection: Connection, **fields: Any) -> dict[str, Any]:
    """Sends a ``hands`` message; its one reply."""
    room.handle(connection, json.dumps({"v": 2, "type": "hands", **fields}))
    replies = []
    while not connection.outbox.empty():
        message = json.loads(str(connection.outbox.get_nowait()))
        if message["type"] in ("hands", "error"):
            replies.append(message)
    assert len(replies) == 1, replies
    return replies[0]


def _room(room_db: str, seed: int = 7, **spec: Any) -> tuple[Room, Any, Clock]:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(**spec), clock, seed=seed)
    room.tournaments = TournamentSockets(tournaments)
    for name in ("ann", "bob", "eve"):
        sign_up(room, name, 1000)
    for name in ("ann", "bob"):
        tournaments.register(0, name)
    return room, tournaments.runner(0), clock


def _seen_holes(hand: dict[str, Any]) -> dict[int, list[str]]:
    """Each seat's hole cards as the reply's log shows them."""
    return {e["seat"]: e["cards"] for e in hand["log"] if e["kind"] == "deal" and e.get("cards")}


def _shown(hand: dict[str, Any]) -> set[int]:
    return {e["seat"] for e in hand["log"] if e["kind"] == "show"}


def _phh_holes(text: str) -> dict[str, str]:
    """Each PHH player's dealt hole cards (``p1`` -> ``AcKd`` or ``????``)."""
    found = {}
    for action in phh.loads(text).fields["actions"]:
        words = action.split()
        if words[:2] == ["d", "dh"]:
            found[words[2]] = words[3]
    return found


def _stored_numbers(
    room: Room, key: int, player: str, seat: int, occupancy: int | None
) -> list[int]:
    """The hands of table ``key`` whose record seats ``player`` in ``seat`` at that
    ``occupancy`` (``None``: any; read without the hand index: every stored log's
    record)."""
    rows = room.store.db.execute(
        "SELECT number, log FROM hands WHERE table_id = ? ORDER BY number", (key,)
    ).fetchall()
    numbers = []
    for number, log in rows:
        record = json.loads(log)[-1]
        for seating in zip(record["players"], record["seats"], record["occupancies"]):
            if seating[:2] == (player, seat + 1) and occupancy in (None, seating[2]):
                numbers.append(int(number))
    return numbers


def _private(hand: dict[str, Any], seat: int, name: str) -> bool:
    """Whether a hand of the reply shows ``name``'s own hole cards (in ``seat``) and
    nobody else's unless shown at the showdown, in its log and in its PHH."""
    shown = _shown(hand)
    if set(_seen_holes(hand)) != {seat}:
        return False
    fields = phh.loads(hand["phh"]).fields
    lines = _phh_holes(hand["phh"])
    for index, (player, at) in enumerate(zip(fields["players"], fields["seats"])):
        hidden = "?" in lines[f"p{index + 1}"]
        if hidden if player == name else not hidden and at - 1 not in shown:
            return False
    return True


def _asked(room: Room, runner: Any, name: str) -> dict[str, Any]:
    """``name`` asks for its seat's hands: the reply is that seating's stored hands, the
    last ``MAX_HANDS``, oldest first, each private."""
    entry = runner.tournament.entries_of(name)[-1]
    table = runner.tournament.tables[entry.table]
    reply = _ask(room, room.connect(account=name), tournament=0, last=MAX_HANDS)
    assert reply["type"] == "hands", reply
    assert (reply["tournament"], reply["table"], reply["seat"]) == (0, entry.table, entry.seat)
    key = -1 - entry.table  # tournament 0's table (hands.tournament_key)
    expected = _stored_numbers(room, key, name, entry.seat, table.occupancy(entry.seat))
    assert [h["number"] for h in reply["hands"]] == expected[-MAX_HANDS:]
    assert all(_private(hand, entry.seat, name) for hand in reply["hands"])
    return reply


def test_an_account_gets_its_own_seats_hands_at_its_tournament_table(room_db: str) -> None:
    room, runner, clock = _room(room_db, capacity=4, bots=2, level_length=50)
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands >= 25)
    seated = [n for n in ("ann", "bob") if runner.tournament.entries_of(n)[-1].table]
    assert seated  # the seed keeps one in
    for name in seated:
        _asked(room, runner, name)
    room.store.close()


def test_the_bounds_and_refusals_of_a_tournament_seats_hands(room_db: str) -> None:
    room, runner, clock = _room(room_db, capacity=4, bots=2)
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands >= 4)
    name = next(n for n in ("ann", "bob") if runner.tournament.entries_of(n)[-1].table)
    mine = room.connect(account=name)
    two = _ask(room, mine, tournament=0, last=2)
    assert len(two["hands"]) == 2
    whole = _ask(room, mine, tournament=0)  # 10 by default
    assert [h["number"] for h in whole["hands"]][-2:] == [h["number"] for h in two["hands"]]
    assert _ask(room, mine, tournament=0, last=MAX_HANDS + 1)["code"] == "bad_field"
    assert _ask(room, mine, tournament=0, player="eve")["code"] == "bad_field"  # no such field
    assert _ask(room, mine, tournament=7)["code"] == "no_tournament"
    for _ in range(3):  # refusals before the rate spent none of it: five at once in all
        assert _ask(room, mine, tournament=0)["type"] == "hands"
    assert _ask(room, mine, tournament=0)["code"] == "rate_limited"
    spectator = room.connect()
    assert _ask(room, spectator, tournament=0)["code"] == "not_signed_in"
    eve = room.connect(account="eve")  # signed in, not entered
    assert _ask(room, eve, tournament=0)["code"] == "unauthorised"
    assert _ask(room, eve)["code"] == "unauthorised"  # and no cash seat either
    room.tournaments = None
    assert _ask(room, room.connect(account=name), tournament=0)["code"] == "no_tournament"
    room.store.close()


def test_a_move_between_tables_starts_a_new_seating(room_db: str) -> None:
    # seed 8: ann moves from table 2 to table 1 (broken) and plays hands there
    room, runner, clock = _room(room_db, seed=8, capacity=6, bots=4, seats=3)
    first = runner.tournament.entries_of("ann")[-1]
    before = (first.table, first.seat)

    def moved() -> bool:
        entry = runner.tournament.entries_of("ann")[-1]
        assert entry.table is not None, "ann is out before a move"
        return (entry.table, entry.seat) != before

    play(runner, clock, ("ann", "bob"), until=moved)
    table = runner.tournament.tables[runner.tournament.entries_of("ann")[-1].table]
    arrived = table.hand_number
    play(runner, clock, ("ann", "bob"), until=lambda: table.hand_number > arrived + 3)
    assert first.table is not None and first.seat is not None
    old = _stored_numbers(room, -1 - before[0], "ann", before[1], None)  # its first seating
    assert old  # ann played at its first table: none of those hands is in the reply
    reply = _asked(room, runner, "ann")  # the new seating's hands only
    assert reply["table"] != before[0] and reply["hands"]
    room.store.close()


@pytest.fixture(autouse=True)
def _no_message_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decisions are not rate limited here (the hands' own bucket is the chat's)."""
    monkeypatch.setattr(Connection, "allow", lambda self: True)
