"""``doubleholdem tournament cancel ID --db DB`` (issue 34 item 3, docs/room-tournaments.md,
"Cancelling"): on a room's database no server serves, by the room's refund rule (before
the start every buy-in and fee back; after it the pool paid out by the settlement, fees
kept; with a hand in play left cancelling for the room to pay out once it ended), with
``--json``; refused with one line and nothing changed for a tournament that is not there
or is over, a database that is not a room's, and while a server serves the room. Each
test runs on SQLite and PostgreSQL (``room_db``); on PostgreSQL also once its processes
were killed (their leases still naming them)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.cli import main
from doubleholdem.database.url import connect
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from tournaments_room import (
    BUY_IN,
    FEE,
    Clock,
    audit,
    balance,
    open_room,
    play,
    registered,
    sign_up,
    sit_and_go,
)


def _reopened(room_db: str) -> Room:
    return Room.open(room_db, RoomSettings(tables=0, bots=0))


def test_cancelled_before_the_start_every_buy_in_and_fee_goes_back(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    room, tournaments = open_room(room_db, sit_and_go(), Clock())
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    room.store.close()
    assert main(["tournament", "cancel", "1", "--db", room_db, "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["status"] == "cancelled" and done["id"] == 0 and done["name"] == "sng"
    refunded = sorted((s["player"], s["buy_in"], s["fee"]) for s in done["refunded"])
    assert refunded == [("ann", BUY_IN, FEE), ("tbot-0-1", BUY_IN, FEE), ("tbot-0-2", BUY_IN, FEE)]
    room = _reopened(room_db)
    assert balance(room, "ann") == 1000
    assert ledger.balance(room.store.db, ledger.bot("tbot-0-1")) == BUY_IN + FEE
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    assert audit(room) == []
    room.store.close()
    assert main(["tournament", "cancel", "1", "--db", room_db]) == 2  # over now
    assert "tournament 1 is over (cancelled)" in capsys.readouterr().err


def test_cancelled_after_the_start_between_hands_the_pool_is_paid_out_at_once(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    room, _tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    play(runner, clock, ("ann", "bob"),
         until=lambda: runner.tournament.remaining <= 4 and not any(
             t.in_hand for t in runner.tournament.tables.values()))  # fmt: skip
    before = {name: balance(room, name) for name in ("ann", "bob")}
    room.store.close()
    assert main(["tournament", "cancel", "1", "--db", room_db]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tournament 1 (sng) cancelled\n") and "  paid " in out
    paid: dict[str, int] = {}
    for line in out.splitlines()[1:]:  # "  paid NAME (entry N): CHIPS"
        name, chips = line.removeprefix("  paid ").split(" (entry ")[0], line.rsplit(": ", 1)[1]
        paid[name] = paid.get(name, 0) + int(chips)
    assert sum(paid.values()) == 5 * BUY_IN  # the whole pool, fees kept
    room = _reopened(room_db)
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    for name in before:
        assert balance(room, name) == before[name] + paid.get(name, 0)
    assert audit(room) == []
    room.store.close()


def test_cancelled_with_a_hand_in_play_it_is_left_cancelling_for_the_room(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    room, tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    play(runner, clock, ("ann", "bob"),
         until=lambda: any(t.in_hand for t in runner.tournament.tables.values()))  # fmt: skip
    room.store.close()
    assert main(["tournament", "cancel", "1", "--db", room_db, "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done == {"id": 0, "name": "sng", "status": "cancelling", "refunded": [], "paid": []}
    assert main(["tournament", "cancel", "1", "--db", room_db]) == 2
    assert "being cancelled already" in capsys.readouterr().err
    # the room's next start plays the hand out and pays the pool (fees kept)
    room, tournaments = open_room(room_db, sit_and_go(5, bots=3), clock)
    runner = tournaments.runner(0)
    assert runner.stored.cancelling
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "cancelled")
    assert sum(runner.stored.paid.values()) == 5 * BUY_IN
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    assert audit(room) == []
    room.store.close()


def test_refusals_say_why_in_one_line_and_change_nothing(
    room_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room, tournaments = open_room(room_db, sit_and_go(), Clock())
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    # a server serves the room (it holds the room's lock): refused, pointing at its API
    assert main(["tournament", "cancel", "1", "--db", room_db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is in use by" in err
    assert "cancel through it as an operator (POST /api/tournaments/0/cancel)" in err
    room.store.close()
    assert main(["tournament", "cancel", "9", "--db", room_db]) == 2
    assert capsys.readouterr().err == "doubleholdem: error: there is no tournament 9\n"
    missing = str(tmp_path / "nowhere.db")
    assert main(["tournament", "cancel", "1", "--db", missing]) == 2
    assert "no such room database" in capsys.readouterr().err
    assert not Path(missing).exists()  # nothing made
    assert main(["tournament", "cancel", "0", "--db", room_db]) == 2  # numbered from 1
    assert "ID" in capsys.readouterr().err
    room = _reopened(room_db)
    assert balance(room, "ann") == 1000 - BUY_IN - FEE  # still registered
    assert audit(room) == []
    room.store.close()


def test_cancelled_in_postgresql_after_its_processes_were_killed(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The leases still name the killed processes: the command, holding the room
    alone, leaves them with no owner, and the database's fencing takes its writes."""
    room, tournaments = open_room(postgres_url, sit_and_go(), Clock())
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    room.store.close()
    with contextlib.closing(connect(postgres_url)) as db:
        db.execute("UPDATE leases SET owner = 'killed'").close()
    assert main(["tournament", "cancel", "1", "--db", postgres_url]) == 0
    capsys.readouterr()
    room = _reopened(postgres_url)
    assert balance(room, "ann") == 1000 and audit(room) == []
    room.store.close()
