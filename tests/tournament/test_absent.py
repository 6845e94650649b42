"""Absent players in a tournament (RULES.md TRN-21): their chips stay in play, they are
dealt in and blinded off with dead hands, their absence goes with them when they are
moved, and the tournament still plays to its end by the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubleholdem.errors import TournamentError
from doubleholdem.tournament import BlindStructure, Tournament, TournamentConfig

from .driver import Checked

HANDS = BlindStructure.standard(by="hands", length=3)


def _tournament(players: int, seats: int = 9, seed: int = 1) -> Tournament:
    config = TournamentConfig(kind="sit-and-go", capacity=players, seats=seats,
                              starting_stack=500, blinds=HANDS)  # fmt: skip
    tournament = Tournament(config, seed=seed)
    for n in range(players):
        tournament.register(f"p{n}")
    return tournament


def _absent_seats(tournament: Tournament) -> set[str]:
    return {
        table.player(seat)
        for number, table in tournament.tables.items()
        for seat in tournament.seats[number]
        if table.sitting_out(seat)
    }


def test_an_absent_player_is_dealt_in_and_blinded_off() -> None:
    """TRN-21: sitting out at a tournament table is not TH-37's sitting out: the seat is
    dealt every hand, posts its blinds, has its hand killed as dealt (TH-24: no decision,
    no showdown, never a chip won) and never holds up play."""
    tournament = _tournament(3)
    tournament.set_absent("p0", True)
    (entry,) = tournament.entries_of("p0")
    table = tournament.tables[entry.table]  # type: ignore[index]
    driver = Checked(tournament, ("station",))
    for _ in range(6):
        since, before = table.log_length, table.stack(entry.seat)
        driver.play(hands=1)
        assert entry.seat in table.dealt and table.to_act is None
        assert table.seats()[entry.seat]["missed_big"] is False  # type: ignore[index]
        own = [e["kind"] for e in table.event_log()[since:] if e.get("seat") == entry.seat]
        assert own.count("kill") == 1
        assert not set(own) & {"fold", "check", "call", "bet", "raise", "timeout", "show"}
        assert table.stack(entry.seat) <= before
    tournament.set_absent("p0", False)
    assert _absent_seats(tournament) == set()
    driver.play()
    driver.check_result()


def test_set_absent_refuses_what_it_cannot_do() -> None:
    tournament = _tournament(3)
    before = tournament.to_json()
    with pytest.raises(TournamentError):
        tournament.set_absent("nobody", True)
    with pytest.raises(TournamentError):
        tournament.set_absent("p1", "yes")  # type: ignore[arg-type]
    assert tournament.to_json() == before
    waiting = Tournament(TournamentConfig(capacity=5))
    waiting.register("ann")
    with pytest.raises(TournamentError):
        waiting.set_absent("ann", True)  # not seated before the start


def test_a_table_of_absent_players_still_plays() -> None:
    """Nobody at the table: every hand is dealt and folded to the big blind."""
    tournament = _tournament(2)
    tournament.set_absent("p0", True)
    tournament.set_absent("p1", True)
    Checked(tournament).play(hands=20)
    assert tournament.hands == 20
    assert tournament.chips_in_play() == 1000


@given(
    players=st.integers(4, 30),
    seats=st.integers(2, 9),
    absent=st.sets(st.integers(0, 29), max_size=12),
    flips=st.lists(st.integers(0, 29), max_size=40),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_tournaments_with_absent_players_keep_the_rules(
    players: int, seats: int, absent: set[int], flips: list[int], seed: int
) -> None:
    """Chips conserved, every entrant placed once, prizes equal to the pool, tables
    balanced (the driver's checks), and an absent player stays absent wherever it is
    moved until it comes back (players go and come back between hands, ``flips``)."""
    tournament = _tournament(players, seats, seed)
    gone = {f"p{n}" for n in absent if n < players}
    for player in gone:
        tournament.set_absent(player, True)
    driver = Checked(tournament, ("random", "station"))
    while tournament.state == "running":
        driver.play(hands=1)
        seated = {e.player for e in tournament.entries if e.table is not None}
        assert _absent_seats(tournament) == gone & seated
        player = f"p{flips.pop() % players}" if flips else None
        if player in seated:
            gone ^= {player}
            tournament.set_absent(player, player in gone)  # type: ignore[arg-type]
    driver.check_result()


def test_tables_restored_from_an_older_snapshot_take_the_tournament_settings() -> None:
    """A snapshot written before TRN-21 (and TRN-9's order) holds tables without those
    settings: restored, each table has its level's settings as made now."""
    tournament = _tournament(4)
    for table in tournament.tables.values():  # as an older version made them
        table.config = replace(table.config, absent_dealt_in=False, blind_before_ante=False)
    copy = Tournament.from_json(tournament.to_json())
    for number, table in copy.tables.items():
        assert table.config == tournament.config.table_config(copy.table_levels[number])
        assert table.config.absent_dealt_in and table.config.blind_before_ante
