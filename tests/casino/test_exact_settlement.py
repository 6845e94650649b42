"""Casino settlements are exact or refused up front, and a refused call changes
nothing (issue 12)."""

from __future__ import annotations

import copy

import pytest

from doubleholdem import casino
from doubleholdem.casino import MAX_STAKE, Round, Stage
from doubleholdem.errors import InvalidRules, InvalidWager

# Player As Ad, dealer Kc Kd, board Ah 7c 2d 9s Jh: the player's trips beat the
# dealer's pair (a qualified dealer): Ante 1:1, Odds push, Play 1:1, Trips Plus 3:1,
# Pocket Bonus aces 30:1.
ORDER = "As Ad Kc Kd Ah 7c 2d 9s Jh"


def test_the_largest_stake_is_documented() -> None:
    assert MAX_STAKE == 2**63 - 1
    assert "MAX_STAKE" in (Round.__doc__ or "")


def test_a_huge_play_bet_settles_exactly() -> None:
    r = Round(2**62, order=ORDER)
    r.raise_(3)
    assert r.settlement is not None
    assert (r.settlement.ante, r.settlement.odds, r.settlement.play) == (2**62, 0, 3 * 2**62)
    assert r.settlement.total == 4 * 2**62


def test_a_huge_pocket_bonus_pays_exactly() -> None:
    r = Round(10, pocket_bonus=2**59, trips=MAX_STAKE, order=ORDER)
    r.raise_(3)
    assert r.settlement is not None
    assert r.settlement.pocket_bonus == 30 * 2**59
    assert r.settlement.trips == 3 * MAX_STAKE


def test_the_largest_stakes_settle_exactly() -> None:
    r = Round(MAX_STAKE, trips=MAX_STAKE, pocket_bonus=MAX_STAKE, order=ORDER)
    r.check()
    r.check()
    r.raise_(1)
    assert r.settlement is not None
    assert r.settlement.total == MAX_STAKE * (1 + 0 + 1 + 3 + 30)


@pytest.mark.parametrize(
    "wagers",
    [{"ante": 2**63}, {"ante": 10, "trips": 2**63}, {"ante": 10, "pocket_bonus": 2**100}],
)
def test_stakes_above_the_largest_are_refused_up_front(wagers: dict[str, int]) -> None:
    ante = wagers.pop("ante")
    with pytest.raises(InvalidWager, match="at most 9223372036854775807"):
        Round(ante, order=ORDER, **wagers)


@pytest.mark.parametrize("multiple", [3.0, "3", None, 3 + 0j, True])
def test_a_raise_that_is_not_a_whole_number_is_refused_and_changes_nothing(
    multiple: object,
) -> None:
    r = Round(10, order=ORDER)
    before = copy.deepcopy(vars(r))
    with pytest.raises(InvalidWager):
        r.raise_(multiple)  # type: ignore[arg-type]
    assert vars(r) == before
    assert r.stage is Stage.PREFLOP and r.settlement is None
    r.raise_(3)
    assert r.settlement is not None


def test_a_settled_round_always_has_its_settlement() -> None:
    r = Round(10, order=ORDER)
    r.raise_(3)
    assert r.stage is Stage.SETTLED and r.settlement is not None
    with pytest.raises(InvalidWager):
        r.raise_(3)


def test_rules_by_name() -> None:
    assert Round(10, rules="heads-up", order=ORDER).rules is casino.HEADS_UP
    assert Round(10, rules="ultimate", order=ORDER).rules is casino.ULTIMATE
    with pytest.raises(InvalidRules, match="no game 'poker': choose heads-up or ultimate"):
        Round(10, rules="poker")
    with pytest.raises(TypeError, match="rules must be a Rules or a game name"):
        Round(10, rules=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("start", "stop"), [(-1, 0), (0, -1), (5, 4), (0, 10**30), (0, 1.5), ("0", 1), (True, 1)]
)
def test_analysis_chunk_bounds_are_checked(start: object, stop: object) -> None:
    with pytest.raises((ValueError, TypeError), match="flop classes"):
        casino.analysis_chunk(casino.HEADS_UP, start, stop)  # type: ignore[arg-type]


def test_analysis_chunk_bounds_are_not_an_overflow() -> None:
    with pytest.raises(ValueError, match=r"flop classes -1:0 are not within 0:\d+"):
        casino.analysis_chunk(casino.HEADS_UP, -1, 0)


@pytest.mark.parametrize("rounds", [2**64, 10**30])
def test_simulation_rounds_are_checked(rounds: int) -> None:
    with pytest.raises(InvalidWager, match="rounds"):
        casino.simulate(rounds, 1)


@pytest.mark.parametrize("action", ["raise \u00b3", "raise 3.0", "raise " + "9" * 5000, "raise -3"])
def test_an_action_that_is_not_one_is_refused_and_changes_nothing(action: str) -> None:
    r = Round(10, order=ORDER)
    before = copy.deepcopy(vars(r))
    with pytest.raises(InvalidWager, match="is not an action"):
        r.act(action)
    assert vars(r) == before
