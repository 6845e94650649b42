"""Blind structures and the chip race (RULES.md TRN-7 to TRN-10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import InvalidConfig
from doubleholdem.game.config import AnteType
from doubleholdem.tournament.race import race
from doubleholdem.tournament.structure import BlindStructure, Clocking, Level, Moment


def test_levels_by_hands() -> None:
    """TRN-7: a level lasts its hands; after the last, the last goes on."""
    structure = BlindStructure((Level(5, 10, length=3), Level(10, 20, length=2)), by="hands")
    assert [structure.level_after_hands(h) for h in range(7)] == [0, 0, 0, 1, 1, 1, 1]


def test_levels_and_breaks_by_time() -> None:
    """TRN-7, TRN-8: minutes of play, then the break's minutes, in which no level runs."""
    structure = BlindStructure((Level(5, 10, length=10, break_after=5), Level(10, 20, length=10)))
    moments = [structure.at_time(minute * 60) for minute in (0, 9, 10, 14, 15, 24, 99)]
    assert moments == [Moment(0, False), Moment(0, False), Moment(0, True), Moment(0, True),
                       Moment(1, False), Moment(1, False), Moment(1, False)]  # fmt: skip


def test_standard_structure() -> None:
    """The default: antes from the fifth level, a big-blind ante the size of the big
    blind, chip units that never fall and divide the blinds."""
    plain = BlindStructure.standard()
    assert [level.ante for level in plain.levels[:5]] == [0, 0, 0, 0, 25]
    big = BlindStructure.standard(ante_type="big-blind", by="hands", length=5)
    assert big.by is Clocking.HANDS and big.ante_type is AnteType.BIG_BLIND
    assert all(level.ante == level.big_blind for level in big.levels[4:])
    for before, after in zip(plain.levels, plain.levels[1:]):
        assert after.chip_unit % before.chip_unit == 0
        assert after.small_blind % after.chip_unit == 0 and after.big_blind % after.chip_unit == 0
    assert BlindStructure.from_dict(plain.to_dict()) == plain


@pytest.mark.parametrize(
    "make",
    [
        lambda: BlindStructure(()),
        lambda: BlindStructure((Level(20, 10),)),
        lambda: BlindStructure((Level(5, 10, chip_unit=5), Level(10, 20, chip_unit=7))),
        lambda: BlindStructure((Level(5, 10, break_after=5),), by="hands"),
        lambda: BlindStructure((Level(5, 10),), by="weeks"),
        lambda: Level(5, 10, length=0),
        lambda: Level(5, 10.5),  # type: ignore[arg-type]
        lambda: BlindStructure.from_dict({"levels": [[1]]}),
    ],
)
def test_bad_structures_are_refused(make: object) -> None:
    with pytest.raises(InvalidConfig):
        make()  # type: ignore[operator]


@given(
    st.lists(st.integers(1, 100_000), min_size=2, max_size=10),
    st.sampled_from([(1, 5), (5, 25), (25, 100), (100, 1000), (5, 100)]),
    st.integers(0, 2**32),
)
@settings(max_examples=300, deadline=None)
def test_chip_race(stacks: list[int], units: tuple[int, int], seed: int) -> None:
    """TRN-10: every stack ends in whole new chips, keeps its whole new chips and wins
    at most one more, is never raced out; the chips handed out are R // v, one more if
    R % v >= v / 2."""
    old, new = units
    stacks = [stack - stack % old or old for stack in stacks]  # stacks of old chips
    changes = race(stacks, old, new, random.Random(seed))
    after = [stack + change for stack, change in zip(stacks, changes)]
    assert all(stack % new == 0 and stack >= new for stack in after)
    kept = [stack - stack % new for stack in stacks]
    assert all(0 <= a - k <= new for a, k in zip(after, kept))
    remainders = sum(stack % new for stack in stacks)
    won = sum(a - k for a, k in zip(after, kept) if k > 0)
    rescued = sum(1 for k in kept if k == 0)
    chips = remainders // new + (1 if 2 * (remainders % new) >= new else 0)
    assert won // new + rescued >= chips >= won // new


def test_chip_race_prefers_high_cards_and_is_seeded() -> None:
    """TRN-10: the same seed races the same way; over seeds, a stack with more odd
    chips (more cards) wins more often."""
    wins = [0, 0]
    for seed in range(300):
        changes = race([1020, 1005], 5, 25, random.Random(seed))  # 4 cards against 1
        assert race([1020, 1005], 5, 25, random.Random(seed)) == changes
        wins[0] += changes[0] > 0
        wins[1] += changes[1] > 0
    assert wins[0] > 2 * wins[1] > 0
