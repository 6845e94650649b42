"""Hand-for-hand beyond the bubble (RULES.md TRN-16): at the director's stated numbers
of players left as well as (or instead of) the money bubble, every table plays one hand
a round and a round's eliminations are placed together."""

from __future__ import annotations

import pytest

from doubleholdem.errors import InvalidConfig
from doubleholdem.tournament import BlindStructure, PayoutTable, Tournament, TournamentConfig

from .driver import Checked

EIGHT_PAID = PayoutTable(((1000, (8, 7, 6, 5, 4, 3, 2, 1)),))


def _played(bubble: bool, at: tuple[int, ...], seed: int) -> set[int]:
    """The numbers of players left while hand-for-hand was on, in a tournament of 24 at
    tables of 6 paying 8 places, played to the end by the test driver's checks."""
    config = TournamentConfig(kind="sit-and-go", capacity=24, seats=6, starting_stack=600,
                              blinds=BlindStructure.standard(by="hands", length=4),
                              payouts=EIGHT_PAID, hand_for_hand=bubble,
                              hand_for_hand_at=at)  # fmt: skip
    tournament = Tournament(config, seed=seed)
    for n in range(24):
        tournament.register(f"p{n}")
    driver = Checked(tournament, ("random", "station"))
    seen: set[int] = set()
    while tournament.state == "running":
        if tournament.hand_for_hand:
            assert len(tournament.tables) > 1
            seen.add(tournament.remaining)
        driver.play(hands=1)
    driver.check_result()
    return seen


@pytest.mark.parametrize(
    ("bubble", "at", "allowed"),
    [
        (True, (), {9}),  # the default: the money bubble only
        (True, (13,), {13, 9}),  # and at 13 players left
        (False, (13, 7), {13, 7}),  # only the stated points
        (False, (), set()),  # never
    ],
)
def test_hand_for_hand_is_played_at_the_stated_points(
    bubble: bool, at: tuple[int, ...], allowed: set[int]
) -> None:
    seen: set[int] = set()
    for seed in range(6):
        seen |= _played(bubble, at, seed)
    assert seen <= allowed
    assert seen == allowed  # each point met in some seed


def test_the_points_are_checked_and_kept() -> None:
    config = TournamentConfig(hand_for_hand_at=[10, 19, 10])  # type: ignore[arg-type]
    assert config.hand_for_hand_at == (19, 10)
    assert TournamentConfig.from_dict(config.to_dict()) == config
    assert TournamentConfig().hand_for_hand_at == ()
    for bad in ("10", 10, (1,), (True,), (2.5,)):
        with pytest.raises(InvalidConfig, match="hand_for_hand_at"):
            TournamentConfig(hand_for_hand_at=bad)  # type: ignore[arg-type]


def test_eliminations_at_different_tables_in_one_round_tie() -> None:
    """TRN-17: out in one hand-for-hand hand at different tables, entries tie whatever
    their chips (the biggest stack out at each table shares the best places); at one
    table the bigger stack still finishes higher (the driver checks each report)."""
    found = 0
    for seed in range(40):
        config = TournamentConfig(kind="sit-and-go", capacity=16, seats=4, starting_stack=300,
                                  blinds=BlindStructure.standard(by="hands", length=2),
                                  payouts=PayoutTable(((1000, (6, 5, 4, 3, 2)),)),
                                  hand_for_hand_at=(10, 9, 8, 7))  # fmt: skip
        tournament = Tournament(config, seed=seed)
        for n in range(16):
            tournament.register(f"p{n}")
        driver = Checked(tournament, ("station",))
        while tournament.state == "running":
            report = driver.hand(driver.tournament.ready_tables()[0])
            tables = {driver.table[p.entry] for p in report.eliminated}
            chips = {driver.start[p.entry] for p in report.eliminated}
            if len(tables) > 1 and len(chips) > 1:
                found += 1
                best = [p for p in report.eliminated if driver.rank_at_table(
                    p.entry, list(report.eliminated)) == 0]  # fmt: skip
                assert len({p.shared for p in best}) == 1 and len(best[0].shared) > 1
        driver.check_result()
    assert found
