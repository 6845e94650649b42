"""Tournaments in the room (issue 34 item 3, docs/tournaments.md): entries paid through
the ledger (buy-in and fee as separate entries), unregistration refunded, a sit-and-go
of bots and people played to the end with the prizes paid, the cancellation rule, a
final-table deal by ICM, and a restart from the stored row; the audit (every pool held
against its tournament's state) is clean after every step. Each test of a room runs on
SQLite and on PostgreSQL (``room_db``)."""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect
from doubleholdem.errors import InsufficientFunds, RegistrationRefused, TournamentError
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.storage.tournament_rows import pool_problems
from tournaments_room import (
    BUY_IN,
    FEE,
    Clock,
    all_in,
    audit,
    balance,
    open_room,
    play,
    registered,
    sign_up,
    sit_and_go,
)


def _keys(db: object, prefix: str) -> list[tuple[str, str, int]]:
    rows = db.execute(  # type: ignore[attr-defined]
        "SELECT t.key, t.kind, e.amount FROM ledger_transactions t JOIN ledger_entries e "
        "ON e.seq = t.seq WHERE t.key LIKE ? AND e.amount > 0 ORDER BY t.seq",
        (prefix + "%",),
    ).fetchall()
    return [(str(k), str(kind), int(a)) for k, kind, a in rows]


def test_registering_pays_the_buy_in_and_the_fee_as_two_ledger_entries(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    sign_up(room, "ann", 1000)
    house = ledger.balance(room.store.db, ledger.HOUSE)
    tournaments.register(0, "ann")
    db = room.store.db
    assert balance(room, "ann") == 1000 - BUY_IN - FEE
    assert ledger.balance(db, ledger.tournament(0)) == 3 * BUY_IN  # two bots and ann
    assert ledger.balance(db, ledger.HOUSE) == house + FEE
    assert _keys(db, "entry:0:2") == [("entry:0:2", "entry", BUY_IN)]
    assert _keys(db, "entry_fee:0:2") == [("entry_fee:0:2", "entry_fee", FEE)]
    assert audit(room) == []
    room.store.close()


def test_a_refused_registration_changes_nothing(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    sign_up(room, "ann", 1000)
    sign_up(room, "poor", BUY_IN + FEE - 1)
    with pytest.raises(InsufficientFunds):
        tournaments.register(0, "poor")
    tournaments.register(0, "ann")
    with pytest.raises(RegistrationRefused, match="already registered"):
        tournaments.register(0, "ann")
    runner = tournaments.runner(0)
    assert [e.player for e in runner.tournament.entries] == ["tbot-0-1", "tbot-0-2", "ann"]
    assert balance(room, "poor") == BUY_IN + FEE - 1
    assert balance(room, "ann") == 1000 - BUY_IN - FEE
    assert runner.stored.sales == 3  # the refused ones sold nothing
    assert audit(room) == []
    room.store.close()


def test_unregistering_before_the_start_refunds_both(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    tournaments.runner(0).unregister("ann")
    assert balance(room, "ann") == 1000
    db = room.store.db
    assert _keys(db, "entry_refund:0:2") == [("entry_refund:0:2", "entry_refund", BUY_IN)]
    assert _keys(db, "fee_refund:0:2") == [("fee_refund:0:2", "fee_refund", FEE)]
    assert ledger.balance(db, ledger.tournament(0)) == 2 * BUY_IN
    with pytest.raises(TournamentError, match="not registered"):
        tournaments.runner(0).unregister("ann")
    assert audit(room) == []
    room.store.close()


def test_a_sit_and_go_of_bots_and_people_plays_to_the_end_and_pays_its_prizes(room_db: str) -> None:
    room, tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    assert runner.stored.status == "running"  # full: it started (TRN-2)
    assert tournaments.runner(1).stored.status == "registering"  # the next one opened
    before = {name: balance(room, name) for name in ("ann", "bob")}
    problems: list[str] = []

    def audited() -> None:
        problems.extend(audit(room))

    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "finished",
         each=audited)  # fmt: skip
    assert problems == []
    result = runner.tournament.result()
    pool = 5 * BUY_IN
    assert result.pool == pool and sum(result.prizes.values()) == pool
    assert sum(runner.stored.paid.values()) == pool
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    for place in result.places:
        won = result.prizes.get(place.entry, 0)
        if place.player in before:
            assert balance(room, place.player) == before[place.player] + won
        elif won:
            assert _keys(room.store.db, f"prize:0:{place.entry}")[0][2] == won
    room.store.close()


def test_a_restart_goes_on_with_the_same_tournament(room_db: str) -> None:
    path = room_db
    room, tournaments, runner, clock = registered(path, sit_and_go())
    play(runner, clock, ("ann",), until=lambda: runner.tournament.hands >= 3)
    key = room.settings.snapshot_key
    before = runner.stored.to_text(runner.tournament, key)
    whole = runner.tournament.to_json(key)  # every table's snapshot with it
    room.store.close()
    room, tournaments = open_room(path, sit_and_go(), clock)
    again = tournaments.runner(0)
    assert again.stored.to_text(again.tournament, key) == before
    assert again.tournament.to_json(key) == whole
    assert sorted(tournaments.runners) == [0, 1]  # no third one opened
    assert audit(room) == []
    room.store.close()


def test_cancelled_before_the_start_every_buy_in_and_fee_goes_back(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    tournaments.cancel(0)
    runner = tournaments.runner(0)
    assert runner.stored.status == "cancelled"
    assert balance(room, "ann") == 1000
    assert ledger.balance(room.store.db, ledger.bot("tbot-0-1")) == BUY_IN + FEE
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    with pytest.raises(TournamentError, match="over"):
        tournaments.cancel(0)
    assert audit(room) == []
    room.store.close()


def test_cancelled_after_the_start_the_pool_is_split_by_icm_fees_kept(room_db: str) -> None:
    room, tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.remaining <= 3)
    tournaments.cancel(0)
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "cancelled")
    assert sum(runner.stored.paid.values()) == 5 * BUY_IN
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    assert runner.stored.ended_by == "cancelled"
    placed = {e.number for e in runner.tournament.entries if e.place is not None}
    stacks = {e.number: runner.tournament.tables[e.table].stack(e.seat)
              for e in runner.tournament.entries if e.table is not None}  # fmt: skip
    bigger = sorted(stacks, key=stacks.get)  # type: ignore[arg-type]
    paid = runner.stored.paid
    assert all(paid.get(a, 0) <= paid.get(b, 0) for a, b in zip(bigger, bigger[1:]))  # ICM
    assert placed  # some had been placed before the cancellation
    assert audit(room) == []
    room.store.close()


def test_a_final_table_deal_by_icm_is_paid_once_every_player_left_accepts(room_db: str) -> None:
    room, _tournaments, runner, clock = registered(room_db, sit_and_go(3, bots=1))
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands >= 2)
    if runner.stored.status != "running" or runner.tournament.remaining < 3:
        pytest.skip("the seeded play ended too soon")  # pragma: no cover
    runner.offer_deal("ann")
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.deal["amounts"] is not None)
    deal = runner.stored.deal
    assert deal is not None and deal["accepted"] == ["tbot-0-1"]  # the bot accepts
    assert sum(deal["amounts"].values()) == 3 * BUY_IN
    hands = runner.tournament.hands
    runner.step(clock.now + 1)
    assert runner.tournament.hands == hands  # no hand while the deal is offered
    runner.answer_deal("ann", True)
    assert runner.stored.status == "running"  # bob has not answered
    runner.answer_deal("bob", True)
    assert runner.stored.status == "finished" and runner.stored.ended_by == "deal"
    entries = runner.tournament.entries
    for entry, amount in deal["amounts"].items():
        player = entries[int(entry)].player
        if player in ("ann", "bob"):
            assert balance(room, player) == 1000 - BUY_IN - FEE + amount
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 0
    assert audit(room) == []
    room.store.close()


def test_a_deal_declined_lets_play_go_on(room_db: str) -> None:
    room, _tournaments, runner, clock = registered(room_db, sit_and_go(3, bots=1))
    runner.offer_deal("bob")
    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.deal["amounts"] is not None)
    with pytest.raises(TournamentError, match="already asked"):
        runner.offer_deal("ann")
    runner.answer_deal("ann", False)
    assert runner.stored.deal is None
    hands = runner.tournament.hands
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands > hands)
    with pytest.raises(TournamentError, match="no deal"):
        runner.answer_deal("ann", True)
    assert audit(room) == []
    room.store.close()


def test_the_audit_names_a_pool_that_does_not_match_its_tournament(room_db: str) -> None:
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    db = room.store.db
    with room.store.transaction():  # chips moved into the pool behind the room's back
        room.store.fencing.writes(db, TOURNAMENTS)  # (under the lease the room holds)
        ledger.transfer(db, "sneak", "deposit", ledger.CASHIER, ledger.player("x"), 5)
        ledger.transfer(db, "sneak2", "entry", ledger.player("x"), ledger.tournament(0), 5)
        ledger.transfer(db, "sneak3", "deposit", ledger.CASHIER, ledger.player("y"), 5)
        ledger.transfer(db, "sneak4", "entry", ledger.player("y"), ledger.tournament(9), 5)
    assert pool_problems(db) == [
        "tournament 1: the ledger holds 205 chips in its pool, its state says 200",
        "tournament 10: the ledger holds 5 chips in its pool, but no such tournament is stored",
    ]
    assert not tournaments.runner(0).gone
    room.store.close()


def test_a_rebuy_is_paid_into_the_pool_and_a_refused_add_on_changes_nothing(room_db: str) -> None:
    rebuys = {"until_level": 3, "price": 100, "chips": 500, "add_on_price": 50,
              "add_on_chips": 300}  # fmt: skip
    spec = sit_and_go(4, bots=2, rebuys=rebuys)
    room, _tournaments, runner, _ = registered(room_db, spec)
    runner.buy("ann", "rebuy")  # between hands, with no more than the starting stack
    assert balance(room, "ann") == 1000 - BUY_IN - FEE - 100
    assert runner.tournament.pool == 4 * BUY_IN + 100
    assert ledger.balance(room.store.db, ledger.tournament(0)) == runner.tournament.pool
    sales = runner.stored.sales
    with pytest.raises(TournamentError, match="add-ons"):
        runner.buy("ann", "add-on")  # only in the level after the rebuys
    with pytest.raises(TournamentError, match="still in"):
        runner.buy("bob", "re-entry")
    assert runner.stored.sales == sales and balance(room, "ann") == 1000 - BUY_IN - FEE - 100
    assert audit(room) == []
    room.store.close()


def test_a_player_out_re_enters_during_late_registration(room_db: str) -> None:
    clock = Clock()
    levels = [{"small_blind": 100, "big_blind": 200}, {"small_blind": 200, "big_blind": 400}]
    spec = sit_and_go(10, bots=4, kind="scheduled", start_at=clock.now, late_registration=2,
                      re_entries=1, levels=levels, level_length=20,
                      bot_kinds=["station"])  # fmt: skip
    room, tournaments = open_room(room_db, spec, clock, seed=3)  # ann out first
    sign_up(room, "ann", 1000)
    tournaments.register(0, "ann")
    runner = tournaments.runner(0)
    out = lambda: runner.tournament.entries_of("ann")[-1].place is not None  # noqa: E731
    play(runner, clock, ("ann",), until=out, choose=all_in)
    runner.buy("ann", "re-entry")
    own = runner.tournament.entries_of("ann")
    assert len(own) == 2 and own[-1].place is None and own[-1].table is not None
    assert balance(room, "ann") == 1000 - 2 * (BUY_IN + FEE)
    assert ledger.balance(room.store.db, ledger.tournament(0)) == 6 * BUY_IN
    with pytest.raises(TournamentError):
        runner.buy("ann", "re-entry")  # still in
    assert audit(room) == []
    room.store.close()


def test_a_player_whose_page_stopped_looking_is_away(room_db: str) -> None:
    room, tournaments, runner, clock = registered(room_db, sit_and_go(3, bots=1))

    def person_to_act() -> tuple[Any, int] | None:
        for table in runner.tournament.tables.values():
            seat = table.to_act
            if table.in_hand and seat is not None and table.player(seat) in ("ann", "bob"):
                return table, seat
        return None

    play(runner, clock, (), until=lambda: person_to_act() is not None)
    found = person_to_act()
    assert found is not None
    table, seat = found
    runner.step(clock.now)
    assert table.seats()[seat]["away"]  # its page never looked: no time bank (TH-40)
    tournaments.detail(0, table.player(seat))  # the page looks
    runner.step(clock.now)
    assert not table.seats()[seat]["away"]
    assert audit(room) == []
    room.store.close()


def test_the_audit_command_holds_each_pool_against_its_tournament(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from doubleholdem.cli import main

    room, _, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands >= 2)
    room.store.close()
    assert main(["accounts", "audit", "--db", room_db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["problems"] == []
    with contextlib.closing(connect(room_db)) as db:  # chips taken out of the pool
        begin(db)
        ledger.transfer(db, "forged", "prize", ledger.tournament(0), ledger.player("ann"), 7)
        db.execute("COMMIT")
    assert main(["accounts", "audit", "--db", room_db, "--json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems == [f"tournament 1: the ledger holds {5 * BUY_IN - 7} chips in its pool, "
                        f"its state says {5 * BUY_IN}"]  # fmt: skip


def test_the_operators_log_tells_each_movement_once_committed(
    room_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="doubleholdem.server")
    clock = Clock()
    room, tournaments = open_room(room_db, sit_and_go(), clock)
    sign_up(room, "ann", 1000)
    sign_up(room, "poor", 1)
    caplog.clear()
    tournaments.register(0, "ann")
    with pytest.raises(InsufficientFunds):
        tournaments.register(0, "poor")  # refused: nothing logged
    tournaments.runner(0).unregister("ann")
    tournaments.cancel(0)
    told = [(r.event, r.fields.get("player"), r.fields.get("chips")) for r in caplog.records
            if getattr(r, "event", "").startswith("tournament_")
            and r.fields["tournament"] == 1]  # fmt: skip
    assert told == [
        ("tournament_sale", "ann", BUY_IN),
        ("tournament_refund", "ann", BUY_IN),
        ("tournament_refund", "tbot-0-1", BUY_IN),
        ("tournament_refund", "tbot-0-2", BUY_IN),
        ("tournament_end", None, None),
    ]
    room.store.close()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[[tournament]]\nname = "x"\nkind = "sit-and-go"\ncapacity = 3\nbots = 3\n',
         "bots must leave a seat"),
        ('[[tournament]]\nname = "x"\nseats = 11\nstart_at = 1\n', "seats"),
        ('[[tournament]]\nname = "x"\nkind = "scheduled"\n', "start_at"),
        ('[[tournament]]\nname = "x"\nstart_at = 1\ncolour = "red"\n', "no option 'colour'"),
        ('[[tournament]]\nname = "x"\nstart_at = 1\n[[tournament]]\nname = "x"\nstart_at = 2\n',
         "two tournaments are named 'x'"),
        ('[[tournament]]\nname = "x"\nstart_at = 1\nrebuys = {price = 5}\n', "rebuys"),
    ],
)  # fmt: skip
def test_a_bad_tournament_entry_stops_serve_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    from doubleholdem.cli import main

    path = tmp_path / "room.toml"
    path.write_text(text)
    assert main(["serve", "--config", str(path), "--db", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "tournament" in err


def test_a_deal_asked_for_during_a_hand_waits_without_changing_anything(room_db: str) -> None:
    """While the hand in play goes on, a deal asked for is not due: the task waits for
    the hand's next event instead of storing the tournament again at every turn of the
    loop (it did, about a thousand changes a second, each a commit and a push)."""
    room, _tournaments, runner, clock = registered(room_db, sit_and_go(3, bots=1))

    def person_to_act() -> bool:
        return any(t.in_hand and t.to_act is not None and t.player(t.to_act) in ("ann", "bob")
                   for t in runner.tournament.tables.values())  # fmt: skip

    play(runner, clock, (), until=person_to_act)
    if len(runner.tournament.tables) != 1:
        pytest.skip("the seeded play is not at the final table")  # pragma: no cover
    runner.seen("ann")
    runner.seen("bob")
    runner.step(clock.now)  # what was due (the away marks)
    runner.offer_deal("ann")
    version = runner.version
    wait = runner.step(clock.now)
    assert runner.version == version  # nothing changed
    assert wait is not None and wait > 0  # until the deadline of the person to act
    assert runner.stored.deal is not None and runner.stored.deal["amounts"] is None
    assert audit(room) == []
    room.store.close()


def test_the_api_view_makes_its_parts_once_a_change(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request for a running tournament's view makes the parts that grow with the
    field (entries, tables) once a change: requests between two changes reuse them, a
    change makes them anew, and the view is always what :func:`views.detail` makes."""
    from doubleholdem.server.tournaments import room as tournaments_room
    from doubleholdem.server.tournaments import views

    room, tournaments, runner, clock = registered(room_db, sit_and_go(5, bots=3))
    made: list[int] = []  # the versions the room made the parts at
    parts, asking = views.parts, []

    def counted(stored: Any, tournament: Any) -> Any:
        if asking:  # (views.detail, the expected view, makes them too)
            made.append(runner.version)
        return parts(stored, tournament)

    def asked(viewer: str | None) -> dict[str, Any]:
        asking.append(True)
        try:
            return tournaments.detail(runner.id, viewer)
        finally:
            asking.clear()

    def expected(viewer: str | None) -> dict[str, Any]:
        made = views.detail(runner.stored, runner.tournament, room.settings.clock(), viewer)
        return {**made, "version": runner.version}

    monkeypatch.setattr(tournaments_room.views, "parts", counted)
    for _ in range(3):
        assert asked("ann") == expected("ann")
    assert made == [runner.version]
    play(runner, clock, ("ann", "bob"), until=lambda: runner.version > made[0])
    assert asked(None) == expected(None)
    assert made == [made[0], runner.version]
    room.store.close()
