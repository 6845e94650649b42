"""Side bets exactly (RULES.md HU-9, HU-10): the Rust enumeration equals the closed form
from the EV-2 seven-card counts (Trips Plus) and from the 1,326 two-card hands (Pocket
Bonus), for the default tables and for other operators' tables (HU-11)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from doubleholdem import casino

# RULES.md EV-2, seven cards, by pay class: high card .. straight flush (without the
# royals), royal flush.
SEVEN_CARD_COUNTS = (
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    37_260,
    4_324,
)


def closed_form_trips(table: casino.PayTable) -> Fraction:
    total = sum(Fraction(to, per) * n for (to, per), n in zip(table, SEVEN_CARD_COUNTS))
    return total / sum(SEVEN_CARD_COUNTS)


def closed_form_pocket(table: tuple[casino.Pay, ...]) -> Fraction:
    """HU-10 applied to each of the 1,326 two-card hands, classified here in Python."""
    aces, suited, offsuit, pair, other = (Fraction(to, per) for to, per in table)
    total = Fraction(0)
    for a, b in itertools.combinations(range(52), 2):
        high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
        if high == low == 12:
            total += aces
        elif high == 12 and low in (9, 10, 11):
            total += suited if a & 3 == b & 3 else offsuit
        elif high == low:
            total += pair
        else:
            total += other
    return total / 1326


@pytest.mark.parametrize("rules", [casino.HEADS_UP, casino.ULTIMATE], ids=["heads-up", "ultimate"])
def test_side_bets_equal_the_closed_form(rules: casino.Rules) -> None:
    bets = casino.side_bets(rules)
    trips = closed_form_trips(rules.trips)
    pocket = closed_form_pocket(rules.pocket_bonus)
    assert bets["trips_plus"]["expected_value"] == pytest.approx(float(trips), abs=1e-15)
    assert bets["trips_plus"]["house_edge"] == pytest.approx(-float(trips), abs=1e-15)
    assert bets["trips_plus"]["hands"] == 133_784_560
    assert bets["pocket_bonus"]["expected_value"] == pytest.approx(float(pocket), abs=1e-15)
    assert bets["pocket_bonus"]["hands"] == 1326


def test_ultimate_trips_matches_the_published_figure() -> None:
    """Ultimate Texas Hold'em Trips, 50-40-30-8-6-5-3: house edge 1.90% (Wizard of Odds)."""
    edge = casino.side_bets(casino.ULTIMATE)["trips_plus"]["house_edge"]
    assert abs(edge - 0.0190) < 0.0001


def test_an_operators_other_tables() -> None:
    """HU-11: Pocket Bonus paying 5:1 on pairs; Trips Plus paying 3:2 on trips."""
    trips = (*casino.TRIPS_PLUS_TABLE[:3], (3, 2), *casino.TRIPS_PLUS_TABLE[4:])
    pocket = (*casino.POCKET_BONUS_TABLE[:3], (5, 1), casino.POCKET_BONUS_TABLE[4])
    rules = casino.Rules(trips=trips, pocket_bonus=pocket)
    bets = casino.side_bets(rules)
    assert bets["trips_plus"]["expected_value"] == pytest.approx(float(closed_form_trips(trips)))
    assert bets["pocket_bonus"]["expected_value"] == pytest.approx(
        float(closed_form_pocket(pocket))
    )
    default = casino.side_bets()
    assert bets["pocket_bonus"]["house_edge"] < default["pocket_bonus"]["house_edge"]
