"""Tournament hands in the hand history (issue 34 item 3): every hand a tournament's
table finishes is stored with the change that finishes it, as a cash table's (the
``hands`` table and its index), under its own table id
(:func:`~doubleholdem.server.storage.hands.tournament_key`) and marked with the
tournament; an account's history (``GET /api/me/hands``, :meth:`Desk.hands`) lists them
with the tournament and the table's number in it, with its own hole cards only; a
table's and a seating's queries and the PHH read them back. Each test runs on SQLite and
PostgreSQL (``room_db``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main
from doubleholdem.game import phh
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.storage.hands import tournament_key
from passwords_double import FAST
from tournaments_room import audit, play, registered, sit_and_go


def _stored(db: Any) -> list[tuple[int, int, dict[str, Any]]]:
    """Every stored hand of a tournament's table: its table id, number and record."""
    rows = db.execute(
        "SELECT table_id, number, log FROM hands WHERE table_id < 0 ORDER BY table_id, number"
    ).fetchall()
    return [(int(t), int(n), json.loads(log)[-1]) for t, n, log in rows]


def _hole_lines(text: str) -> dict[str, str]:
    """Each PHH player's dealt hole cards (``p1`` -> ``AcKd`` or ``????``)."""
    fields = phh.loads(text).fields
    found = {}
    for action in fields["actions"]:
        words = action.split()
        if words[:2] == ["d", "dh"]:
            found[words[2]] = words[3]
    return found


def test_a_sit_and_gos_hands_are_stored_and_read_back_as_each_player_saw_them(
    room_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room, _tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3, seats=3))
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "finished")
    stored = _stored(room.store.db)
    assert len(stored) == runner.tournament.hands > 0  # every hand, once
    tables = set()
    for table_id, number, record in stored:
        table = record["tournament_table"]
        tables.add(table)
        assert record["kind"] == "phh" and record["tournament"] == 0
        assert table_id == tournament_key(0, table) and record["hand_number"] == number
        fields = phh.loads(record["text"]).fields
        assert (fields["table"], fields["hand"], fields["event"]) == (table, number, "sng")
        assert all("?" not in cards for cards in _hole_lines(record["text"]).values())
    assert tables == {1, 2}  # both tables' hands, each under its own id
    exported = tmp_path / "last.phh"  # a record, exported, replays through the rules
    exported.write_text(stored[-1][2]["text"], encoding="utf-8")
    assert main(["replay", str(exported), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)

    desk = Desk(room_db, room.settings, passwords=FAST)
    try:
        mine = desk.hands("ann")["hands"]
    finally:
        desk.close()
    played = [(t, n, r) for t, n, r in stored if "ann" in r["players"]]
    assert mine and len(mine) == min(20, len(played))
    newest = {(r["tournament_table"], n): r for _t, n, r in played}
    for hand in mine:
        assert hand["tournament"] == 0 and set(hand) == {"tournament", "table", "number", "phh"}
        record = newest[hand["table"], hand["number"]]
        own = f"p{record['players'].index('ann') + 1}"
        for player, cards in _hole_lines(hand["phh"]).items():
            assert ("?" in cards) is (player != own)  # its own cards, nobody else's

    table_id, number, record = played[-1]
    seat = record["seats"][record["players"].index("ann")] - 1
    occupancy = record["occupancies"][record["players"].index("ann")]
    [log] = room.store.seat_hands(table_id, (occupancy, "ann", seat), last=1)
    assert log[-1]["hand_number"] == number and log[-1]["tournament"] == 0
    assert audit(room) == []
    room.store.close()
