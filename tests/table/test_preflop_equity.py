"""The pre-flop share table (:mod:`doubleholdem.table.preflop_equity`): the hole classes under
suit relabelling and card order, the shipped tables against fresh Monte Carlo estimates
of the core, known values, and :class:`~doubleholdem.table.bots.EquityBot` reading the table
before the flop instead of asking the core."""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from itertools import combinations, permutations
from typing import Any

import pytest

from doubleholdem import _core
from doubleholdem.cards import parse_cards
from doubleholdem.errors import DuplicateCard, InvalidHand
from doubleholdem.game import Variant
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import EquityBot
from doubleholdem.table.preflop_equity import (
    MAX_OPPONENTS,
    preflop_class,
    preflop_classes,
    preflop_share,
    preflop_table,
)

SIZES = {"texas": 2, "double": 3}
SUIT_PERMUTATIONS = list(permutations(range(4)))


def relabel(hole: tuple[int, ...], suits: tuple[int, ...]) -> tuple[int, ...]:
    """The hole with suit s renamed suits[s]."""
    return tuple(card & ~3 | suits[card & 3] for card in hole)


def canonical(hole: tuple[int, ...]) -> tuple[int, ...]:
    """A slow independent class: the least sorted hole over the 24 suit relabellings."""
    return min(tuple(sorted(relabel(hole, suits))) for suits in SUIT_PERMUTATIONS)


def header(variant: str) -> dict[str, Any]:
    name = f"preflop_equity_{variant}.json"
    text = resources.files("doubleholdem").joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.mark.parametrize(("size", "count"), [(2, 169), (3, 1755)])
def test_classes_are_the_holes_up_to_suits_and_order(size: int, count: int) -> None:
    """Two holes share a class exactly when a relabelling of the suits (and reordering)
    turns one into the other: the classes are those of the slow canonical form, 169 for
    Texas Hold'em and 1,755 for the three cards of Double Hold'em (DH-3, DH-4: the best
    point card does not depend on the order)."""
    by_name: dict[str, set[tuple[int, ...]]] = {}
    by_canonical: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for hole in combinations(range(52), size):
        by_name.setdefault(preflop_class(hole), set()).add(hole)
        by_canonical.setdefault(canonical(hole), set()).add(hole)
    assert len(by_name) == len(by_canonical) == count
    assert sorted(map(sorted, by_name.values())) == sorted(map(sorted, by_canonical.values()))
    assert set(preflop_classes(size)) == set(by_name)
    assert all(preflop_class(hole) == name for name, hole in preflop_classes(size).items())


def test_double_class_count_by_shape() -> None:
    """1,755 = 286 rank sets x 5 suit patterns + 156 pairs with a kicker x 2 + 13 trips."""
    names = list(preflop_classes(3))
    distinct = [n for n in names if len({n[0], n[2], n[4]}) == 3]
    trips = [n for n in names if n[0] == n[2] == n[4]]
    assert (len(distinct), len(names) - len(distinct) - len(trips), len(trips)) == (1430, 312, 13)
    assert math.comb(13, 3) * 5 + 13 * 12 * 2 + 13 == 1755


@pytest.mark.parametrize("size", [2, 3])
def test_class_is_invariant_under_suits_and_order(size: int) -> None:
    rng = random.Random(size)
    for _ in range(300):
        hole = tuple(rng.sample(range(52), size))
        name = preflop_class(hole)
        for suits in SUIT_PERMUTATIONS:
            for order in permutations(relabel(hole, suits)):
                assert preflop_class(order) == name


def test_class_names() -> None:
    assert [preflop_class(h) for h in ("As Ah", "Ks As", "2c 7d", "Td Jd")] == [
        "AA",
        "AKs",
        "72o",
        "JTs",
    ]
    assert [
        preflop_class(h)
        for h in ("Qh Kh Ah", "Qc Kd Ah", "As Ks Qd", "As Kd Qs", "Ad Ks Qs", "Kh 2c Kc")
    ] == ["AaKaQa", "AaKbQc", "AaKaQb", "AaKbQa", "AaKbQb", "KaKb2a"]
    assert [preflop_class(h) for h in ("Kh 2d Kc", "Ah Kh Kc", "Ah Kd Kc", "9c 9d 9s")] == [
        "KaKb2c",
        "AaKaKb",
        "AaKbKc",
        "9a9b9c",
    ]


def test_bad_holes() -> None:
    with pytest.raises(InvalidHand, match="not 4"):
        preflop_class("As Kd Qh Jc")
    with pytest.raises(DuplicateCard):
        preflop_class([3, 3])
    with pytest.raises(InvalidHand, match="not 1"):
        preflop_share([3], 1)
    with pytest.raises(ValueError, match="opponents"):
        preflop_share([3, 7], 0)
    with pytest.raises(ValueError, match="opponents"):
        preflop_share([3, 7], MAX_OPPONENTS + 1)
    with pytest.raises(ValueError, match="omaha"):
        preflop_table("omaha")


@pytest.mark.parametrize("variant", ["texas", "double"])
def test_table_shape_and_header(variant: str) -> None:
    """Every class, 9 shares each in [0, 1], falling as opponents are added; the header
    documents a standard error below 0.002 for its sample size and seed."""
    data = header(variant)
    table = preflop_table(variant)
    assert list(table) == list(preflop_classes(SIZES[variant]))
    assert data["opponents"] == list(range(1, MAX_OPPONENTS + 1))
    assert isinstance(data["seed"], int)
    assert data["standard_error"] >= 0.5 / math.sqrt(data["samples"]) - 1e-5
    assert data["standard_error"] < 0.002
    for name, row in table.items():
        assert len(row) == MAX_OPPONENTS and all(0 < share < 1 for share in row), name
        assert all(a > b for a, b in zip(row, row[1:])), (name, row)


@pytest.mark.parametrize("variant", ["texas", "double"])
def test_table_agrees_with_fresh_estimates(variant: str) -> None:
    """30 random (class, opponents) entries against a new estimate of the core on other
    deals (a random hole of the class, another seed): within 4 combined standard errors.
    A deal's share is in [0, 1], so its variance is at most p (1 - p); rounding to 4
    decimals adds at most 0.00005."""
    rng = random.Random(f"fresh {variant}")
    table, samples = preflop_table(variant), header(variant)["samples"]
    fresh = 20_000
    for name in rng.sample(list(table), 30):
        opponents = rng.randint(1, MAX_OPPONENTS)
        hole = relabel(preflop_classes(SIZES[variant])[name], rng.choice(SUIT_PERMUTATIONS))
        hole = tuple(rng.sample(hole, len(hole)))
        assert preflop_class(hole) == name
        estimate = _core.equity(list(hole), [], opponents, fresh, None, rng.getrandbits(64))
        shipped = table[name][opponents - 1]
        variance = shipped * (1 - shipped)
        error = math.sqrt(variance / samples + variance / fresh)
        assert abs(estimate - shipped) <= 4 * error + 5e-5, (name, opponents, estimate, shipped)


def test_known_values() -> None:
    """EV-1: aces win about 85.2% heads-up before the flop, 7-2 offsuit about 34.6%."""
    texas = preflop_table("texas")
    assert texas["AA"][0] == pytest.approx(0.852, abs=0.004)
    assert texas["72o"][0] == pytest.approx(0.34, abs=0.01)
    assert texas["AKs"][0] > texas["AKo"][0] > texas["KQs"][0]
    # DH-3, DH-4: with the best of its three two-card hands, a pair of aces with a
    # kicker is the best class heads-up and far ahead of 7-3-2 in three suits.
    double = preflop_table("double")
    best = max(double, key=lambda name: double[name][0])
    assert best.startswith("AaAb")
    assert double["AaAbKa"][0] > double["7a3b2c"][0]


def test_share_lookup_matches_the_table() -> None:
    """:func:`preflop_share` of every Texas hole, and of Double Hold'em holes in any
    order, is its class's entry."""
    texas = preflop_table("texas")
    for hole in combinations(range(52), 2):
        for opponents in (1, 5, 9):
            assert preflop_share(hole, opponents) == texas[preflop_class(hole)][opponents - 1]
    double = preflop_table("double")
    rng = random.Random(5)
    for _ in range(2000):
        hole = rng.sample(range(52), 3)
        opponents = rng.randint(1, MAX_OPPONENTS)
        assert preflop_share(hole, opponents) == double[preflop_class(hole)][opponents - 1]


@pytest.mark.parametrize("variant", [Variant.TEXAS, Variant.DOUBLE])
def test_bot_reads_the_table_before_the_flop(
    calls: list[tuple[Any, ...]], variant: Variant
) -> None:
    """Every pre-flop decision of the equity bot takes its share from the table (for at
    least one opponent) and asks the core nothing; from the flop on it asks the core."""
    config = TableConfig(small_blind=5, big_blind=10, variant=variant, seats=6)
    table = Table(config, seed=7)
    players = {seat: EquityBot(seed=seat, samples=50) for seat in range(6)}
    for seat in range(6):
        table.join(seat, f"bot{seat}", 1000)
    preflop = 0
    for _ in range(30):
        for seat in range(6):
            if table.stack(seat) < 1000:
                table.top_up(seat, 1000 - table.stack(seat))
        table.start_hand(now=0.0)
        while (seat := table.to_act) is not None:
            observation = table.observe(seat)
            before = len(calls)
            decision = players[seat].choose(observation)
            if not observation.board:
                preflop += 1
                assert len(calls) == before
                share = preflop_share(observation.hole, max(observation.opponents, 1))
                expected = players[seat]._betting(observation.legal, share, observation.pot)
                assert decision == expected
            table.decide(seat, decision)
    assert preflop > 30
    assert calls  # the flop, turn and river still ask the core


def test_bot_preflop_share_is_the_table_entry(calls: list[tuple[Any, ...]]) -> None:
    """Aces raise before the flop on the table's 0.85, with no call to the core."""
    config = TableConfig(small_blind=5, big_blind=10, seats=2)
    table = Table(config, seed=1)
    for seat in range(2):
        table.join(seat, f"p{seat}", 1000)
    table.start_hand(now=0.0)
    seat = table.to_act
    assert seat is not None
    observation = table.observe(seat)._replace(hole=tuple(parse_cards("Ac Ad")))
    decision = EquityBot(seed=1).choose(observation)
    assert decision.action == "raise" and calls == []
