"""The tournament's state machine (RULES.md TRN-1 to TRN-8, TRN-16, TRN-20): entries,
the start, late registration, re-entry, rebuys and add-ons, levels and breaks,
hand-for-hand, results; bad requests refused with typed errors, changing nothing."""

from __future__ import annotations

import pytest

from doubleholdem.errors import (
    InvalidConfig,
    RebuyRefused,
    RegistrationRefused,
    TournamentError,
    TournamentStateError,
)
from doubleholdem.tournament import (
    BlindStructure,
    Level,
    PayoutTable,
    Rebuys,
    Tournament,
    TournamentConfig,
)

from .driver import Checked

HANDS = BlindStructure.standard(by="hands", length=4)


def _registered(config: TournamentConfig, players: int, seed: int = 1) -> Tournament:
    tournament = Tournament(config, seed=seed)
    for n in range(players):
        tournament.register(f"p{n}")
    return tournament


def test_sit_and_go_starts_when_full() -> None:
    """TRN-2: the last seat taken starts it; TRN-1: buy-ins make the pool, fees not."""
    config = TournamentConfig(kind="sit-and-go", capacity=6, buy_in=100, fee=10, blinds=HANDS)
    tournament = _registered(config, 5)
    assert tournament.state == "registering" and tournament.tables == {}
    tournament.register("last")
    assert tournament.state == "running" and list(tournament.counts().values()) == [6]
    assert (tournament.pool, tournament.fees) == (600, 60)
    with pytest.raises(RegistrationRefused):
        tournament.register("late")


def test_scheduled_start_draws_balanced_tables() -> None:
    """TRN-2, TRN-3: a scheduled start with the minimum; tables within one of each other."""
    config = TournamentConfig(capacity=100, minimum=3, blinds=HANDS)
    tournament = _registered(config, 2)
    with pytest.raises(TournamentStateError):
        tournament.start()
    assert tournament.state == "registering"
    for n in range(2, 40):
        tournament.register(f"p{n}")
    tournament.unregister("p7")
    with pytest.raises(RegistrationRefused):
        tournament.unregister("p7")
    tournament.start(now=0.0)
    counts = sorted(tournament.counts().values())
    assert len(counts) == 5 and counts[-1] - counts[0] <= 1 and sum(counts) == 39
    assert tournament.chips_in_play() == 39 * config.starting_stack
    with pytest.raises(RegistrationRefused):
        tournament.unregister("p1")


@pytest.mark.parametrize("name", ["", None, 3])
def test_bad_names_are_refused(name: object) -> None:
    tournament = Tournament(TournamentConfig(), seed=1)
    with pytest.raises(RegistrationRefused):
        tournament.register(name)  # type: ignore[arg-type]
    assert tournament.entries == []


def test_duplicate_registration_is_refused() -> None:
    tournament = _registered(TournamentConfig(), 2)
    with pytest.raises(RegistrationRefused):
        tournament.register("p0")
    assert len(tournament.entries) == 2 and tournament.pool == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "league"},
        {"seats": 1},
        {"capacity": 1},
        {"starting_stack": 0},
        {"buy_in": -1},
        {"re_entries": 1},  # without late registration
        {"kind": "sit-and-go", "late_registration": 2},
        {"betting": "spread-limit"},
        {"rebuys": "yes"},
        {"blinds": [Level(5, 10)]},
        {"payouts": {"bands": []}},
    ],
)
def test_bad_configs_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidConfig):
        TournamentConfig(**fields)  # type: ignore[arg-type]


def test_late_registration_and_re_entry() -> None:
    """TRN-4, TRN-5: entries during the first levels get full stacks at the tables with
    the fewest players; a busted player re-enters, each entry placed on its own."""
    config = TournamentConfig(capacity=50, seats=6, starting_stack=500, blinds=HANDS,
                              late_registration=3, re_entries=1)  # fmt: skip
    tournament = _registered(config, 10)
    tournament.start()
    driver = Checked(tournament, ("random",))
    tournament.register("late")
    assert sum(tournament.counts().values()) == 11 and tournament.issued == 11 * 500
    for n in range(11, 14):  # 14 players at 6 seats: a third table opens
        tournament.register(f"p{n}")
    assert len(tournament.tables) == 3
    while tournament.late_registration_open():
        busted = [e.player for e in tournament.entries if e.place is not None]
        for player in busted:
            own = [e for e in tournament.entries if e.player == player]
            if len(own) == 1 and all(e.place is not None for e in own):
                tournament.re_enter(player)
                with pytest.raises(RegistrationRefused):
                    tournament.re_enter(player)  # still in
        driver.play(hands=1)
    with pytest.raises(RegistrationRefused):
        tournament.register("too-late")
    driver.play()
    driver.check_result()
    players = [e.player for e in tournament.entries]
    assert len(players) > len(set(players))  # someone re-entered
    assert len(tournament.result().places) == len(tournament.entries)


def test_rebuys_and_add_ons() -> None:
    """TRN-6: rebuys at or below the threshold and after busting (seated again); the
    add-on in the level after; each adds its price to the pool and its chips."""
    rebuys = Rebuys(until_level=2, price=50, chips=400, most=2, add_on_price=50, add_on_chips=600)
    config = TournamentConfig(kind="sit-and-go", capacity=6, starting_stack=400, buy_in=50,
                              blinds=HANDS, rebuys=rebuys)  # fmt: skip
    tournament = _registered(config, 6)
    tournament.rebuy("p0")  # 400 chips: at the threshold
    with pytest.raises(RebuyRefused):
        tournament.rebuy("p0")  # 800 chips now
    assert tournament.pool == 350 and tournament.issued == 6 * 400 + 400
    with pytest.raises(RebuyRefused):
        tournament.add_on("p1")  # not yet
    driver = Checked(tournament, ("random",))
    rebought = 0
    while tournament.state == "running" and tournament.current_level() < 2:
        report = driver.hand(tournament.ready_tables()[0])
        for player in report.may_rebuy:
            entry = [e for e in tournament.entries if e.player == player][-1]
            if entry.rebuys < 2:
                tournament.rebuy(player)
                rebought += 1
                assert entry.table is not None  # seated again by draw
    assert rebought > 0
    if tournament.state == "running":
        player = next(iter(tournament.players()))
        tournament.add_on(player)
        with pytest.raises(RebuyRefused):
            tournament.add_on(player)
        with pytest.raises(RebuyRefused):
            tournament.rebuy(player)  # the period is over
    driver.play()
    driver.check_result()
    assert tournament.pool == 50 * 6 + 50 * (1 + rebought) + 50 * sum(
        e.add_on for e in tournament.entries
    )


def test_breaks_stop_play_and_levels_follow_the_clock() -> None:
    """TRN-7, TRN-8: levels by time, a break in which no table starts a hand."""
    blinds = BlindStructure((Level(10, 20, length=1, break_after=1), Level(20, 40, length=1)))
    tournament = _registered(TournamentConfig(kind="sit-and-go", capacity=4, blinds=blinds), 4)
    assert tournament.ready_tables(now=30.0) == [1]
    table = tournament.start_hand(1, now=30.0)
    assert table.config.big_blind == 20
    while table.in_hand:
        table.act(table.to_act, "fold", now=31.0)  # type: ignore[arg-type]
    tournament.finish_hand(1, now=31.0)
    assert tournament.ready_tables(now=90.0) == [] and tournament.on_break(90.0)
    with pytest.raises(TournamentStateError):
        tournament.start_hand(1, now=90.0)
    table = tournament.start_hand(1, now=121.0)
    assert table.config.big_blind == 40 and tournament.current_level(121.0) == 1


def test_steps_at_the_wrong_moment_are_refused() -> None:
    tournament = _registered(TournamentConfig(kind="sit-and-go", capacity=3, blinds=HANDS), 3)
    with pytest.raises(TournamentStateError):
        tournament.finish_hand(1)  # no hand started
    with pytest.raises(TournamentStateError):
        tournament.start_hand(7)
    table = tournament.start_hand(1)
    with pytest.raises(TournamentStateError):
        tournament.start_hand(1)
    with pytest.raises(TournamentStateError):
        tournament.finish_hand(1)  # still played
    with pytest.raises(TournamentStateError):
        tournament.result()
    assert table.in_hand
    with pytest.raises(TournamentError):
        Tournament("config")  # type: ignore[arg-type]


def test_hand_for_hand_on_the_bubble() -> None:
    """TRN-16: with one more player than the places paid, every table plays one hand a
    round; the eliminations of a round are placed together by their chips at its start."""
    payouts = PayoutTable(((1000, (8, 7, 6, 5, 4, 3, 2, 1)),))
    config = TournamentConfig(kind="sit-and-go", capacity=24, seats=6, starting_stack=600,
                              blinds=HANDS, payouts=payouts)  # fmt: skip
    seen = False
    for seed in range(8):
        tournament = _registered(config, 24, seed=seed)
        driver = Checked(tournament, ("random", "station"))
        while tournament.state == "running":
            if tournament.hand_for_hand:
                seen = True
                assert tournament.remaining == 9 and len(tournament.tables) > 1
            driver.play(hands=1)
        driver.check_result()
        paid = [p for p in tournament.result().places if p.place <= 8]
        assert len(paid) >= 8
    assert seen


def test_colour_up_races_the_small_chips_away() -> None:
    """TRN-10: at the first hand of a level whose smallest chip is larger, each table
    races: every stack is then a whole number of the new chips, and the chips the race
    added or took are counted in the tournament's chips."""
    blinds = BlindStructure(
        (Level(5, 10, length=1, chip_unit=5), Level(25, 50, length=50, chip_unit=25)),
        by="hands",
    )
    config = TournamentConfig(kind="sit-and-go", capacity=6, seats=6, starting_stack=1005,
                              blinds=blinds)  # fmt: skip
    tournament = _registered(config, 6, seed=4)
    driver = Checked(tournament, ("station",))
    driver.play(hands=1)  # level 1: 5/10, stacks of 5-chips
    table = tournament.tables[1]
    before = {seat: table.stack(seat) for seat in tournament.seats[1]}
    assert any(stack % 25 for stack in before.values())
    since = table.log_length
    tournament.start_hand(1)
    races = {item["seat"]: item["amount"] for item in table.seating_entries(since)
             if item["kind"] == "chip_race"}  # fmt: skip
    assert races
    after = {seat: before[seat] + races.get(seat, 0) for seat in before}
    assert all(stack % 25 == 0 and stack > 0 for stack in after.values())
    assert tournament.issued == 6 * 1005 + sum(races.values())
    assert table.config.big_blind == 50


def test_balancing_moves_follow_the_tda() -> None:
    """TRN-13 in play: each single balancing move takes the player due the big blind next
    to the worst seat at the short table (the driver checks every one)."""
    config = TournamentConfig(kind="sit-and-go", capacity=60, seats=9, starting_stack=800,
                              blinds=HANDS)  # fmt: skip
    checked = 0
    for seed in range(2):  # equity bots: fewer players out at once than random ones
        driver = Checked(_registered(config, 60, seed=seed), ("equity",))
        driver.play()
        driver.check_result()
        checked += driver.moves_checked
    assert checked >= 5


@pytest.mark.parametrize("now", ["soon", float("nan"), float("inf"), True, None])
def test_bad_times_are_refused(now: object) -> None:
    """A time that is not a finite number of seconds is refused, changing nothing."""
    tournament = _registered(TournamentConfig(capacity=10), 3)
    with pytest.raises(TournamentError):
        tournament.start(now=now)  # type: ignore[arg-type]
    assert tournament.state == "registering" and tournament.tables == {}
    tournament.start(now=0.0)
    with pytest.raises(TournamentError):
        tournament.ready_tables(now)  # type: ignore[arg-type]
    if now is not None:  # start_hand(now=None): a hand without the clock
        with pytest.raises(TournamentError):
            tournament.start_hand(1, now=now)  # type: ignore[arg-type]
        assert not tournament.tables[1].in_hand


def test_a_table_opened_after_others_broke_takes_a_number_never_used() -> None:
    """TRN-14: a late entry with no open seat opens a table under a number no table of
    the tournament ever had (a broken table's number is not given again: the room keeps
    each table's hands under its number), and a restart keeps that rule."""
    config = TournamentConfig(capacity=50, seats=3, starting_stack=500, blinds=HANDS,
                              late_registration=20)  # fmt: skip
    tournament = _registered(config, 6)
    tournament.start()
    assert sorted(tournament.tables) == [1, 2]
    driver = Checked(tournament, ("random",))
    while len(tournament.tables) > 1:
        driver.play(hands=1)
    assert tournament.late_registration_open() and list(tournament.tables) == [1]  # 2 broke
    full = 3 - len(tournament.seats[1])
    restored = Tournament.from_json(tournament.to_json())
    for copy in (tournament, restored):
        for n in range(full + 1):  # one more than the open seats: a table opens
            copy.register(f"late{n}")
        assert sorted(copy.tables) == [1, 3]  # not 2 again
        assert copy.tables_opened == 3
