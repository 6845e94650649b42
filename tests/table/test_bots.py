"""The equity bot's Monte Carlo share of the pot (``_core.equity``, rust/core/src/equity.rs)
against exact enumeration and a slow pure-Python reference; its input errors; its
reproducibility; and :class:`~doubleholdem.table.bots.EquityBot` at a table."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from doubleholdem import _core
from doubleholdem.cards import parse_cards
from doubleholdem.errors import DoubleHoldemError, DuplicateCard, InvalidCard, InvalidHand
from doubleholdem.evaluate import evaluate
from doubleholdem.game import Structure, Variant
from doubleholdem.table import Decision, Table, TableConfig
from doubleholdem.table.bots import BOTS, EquityBot, RandomBot, make_bot

SAMPLES = 200_000


def share(mine: int, theirs: list[int]) -> float:
    """A win counts 1, a tie with k others 1/(k+1), a loss 0."""
    best = max(theirs)
    if mine < best:
        return 0.0
    return 1.0 if mine > best else 1.0 / (1 + theirs.count(mine))


def double_value(hole: list[int], board: list[int], point: int | None) -> int:
    """DH-3, DH-4: Hand 1 = point + the first other card, Hand 2 = point + the second,
    the better plays; ``None``: the best point card."""
    if point is None:
        return max(double_value(hole, board, p) for p in range(3))
    first, second = (hole[i] for i in range(3) if i != point)
    return max(evaluate([hole[point], first, *board]), evaluate([hole[point], second, *board]))


def unseen(*known: list[int]) -> list[int]:
    seen = {card for cards in known for card in cards}
    return [card for card in range(52) if card not in seen]


def mean_and_variance(shares: Iterator[float]) -> tuple[float, float]:
    values = list(shares)
    mean = sum(values) / len(values)
    return mean, sum(v * v for v in values) / len(values) - mean * mean


def assert_close(estimate: float, exact: float, variance: float, samples: int) -> None:
    """Within 4 standard errors of ``samples`` independent deals."""
    error = math.sqrt(variance / samples)
    assert abs(estimate - exact) <= 4 * error + 1e-12, (estimate, exact, error)


def test_texas_river_against_every_opponent_hand() -> None:
    """EV-1: heads-up on the river the share is the average over all C(45, 2) opponent
    hands, each valued as the best five of seven."""
    hole, board = parse_cards("Kh Qh"), parse_cards("Ks 7h 2d 9c Ah")
    mine = evaluate(hole + board)
    exact, variance = mean_and_variance(
        share(mine, [evaluate([*pair, *board])]) for pair in combinations(unseen(hole, board), 2)
    )
    assert 0.1 < exact < 0.9
    estimate = _core.equity(hole, board, 1, SAMPLES, None, 11)
    assert_close(estimate, exact, variance, SAMPLES)


def test_texas_turn_against_every_river_and_opponent_hand() -> None:
    """EV-1: on the turn the unknown cards are the river and the opponent's hand; every
    (river, hand) deal is equally likely."""
    hole, board = parse_cards("8d 7d"), parse_cards("9d Tc 2d Kh")
    deals = (
        (river, pair)
        for river in unseen(hole, board)
        for pair in combinations(unseen(hole, board, [river]), 2)
    )
    exact, variance = mean_and_variance(
        share(evaluate([*hole, *board, river]), [evaluate([*pair, *board, river])])
        for river, pair in deals
    )
    estimate = _core.equity(hole, board, 1, SAMPLES, None, 12)
    assert_close(estimate, exact, variance, SAMPLES)


@pytest.mark.parametrize("point", [0, 1, 2, None])
def test_double_river_against_every_opponent_hand(point: int | None) -> None:
    """DH-3, DH-4: the player's value uses the given point card (``None``: the best);
    the opponent always plays their best point card, the best of their three two-card
    hands (EV-1 for each)."""
    hole, board = parse_cards("9h 9d 4c"), parse_cards("Ts 8s 2h 5d Kc")
    mine = double_value(hole, board, point)
    exact, variance = mean_and_variance(
        share(mine, [double_value(list(three), board, None)])
        for three in combinations(unseen(hole, board), 3)
    )
    estimate = _core.equity(hole, board, 1, SAMPLES, point, 13)
    assert_close(estimate, exact, variance, SAMPLES)


def test_double_flop_against_a_slow_reference() -> None:
    """DH-3, DH-4 with two opponents and two cards to come (ties split, EV-1): a plain
    Python Monte Carlo agrees within 4 standard errors of the two estimates."""
    hole, board = parse_cards("Ah 9h 9c"), parse_cards("9s 5h 2d")
    rng = random.Random(5)
    rest = unseen(hole, board)

    def one_deal() -> float:
        drawn = rng.sample(rest, 2 + 2 * 3)
        full = board + drawn[:2]
        theirs = [double_value(drawn[i : i + 3], full, None) for i in (2, 5)]
        return share(double_value(hole, full, None), theirs)

    slow_samples = 3000
    slow, slow_variance = mean_and_variance(one_deal() for _ in range(slow_samples))
    estimate = _core.equity(hole, board, 2, SAMPLES, None, 14)
    error = math.sqrt(slow_variance / slow_samples + slow_variance / SAMPLES)
    assert abs(estimate - slow) <= 4 * error, (estimate, slow, error)


def test_known_shares() -> None:
    """EV-1: a royal flush on the board is everyone's hand, so every deal is an
    (opponents + 1)-way tie; the nuts on the river win every deal (DH-3, DH-4: point
    As makes Hand 1 the royal flush)."""
    royal = parse_cards("As Ks Qs Js Ts")
    for opponents in (1, 4, 9):
        expected = 1 / (opponents + 1)
        assert _core.equity(parse_cards("2c 3d"), royal, opponents, 100, None, 1) == expected
        for point in (None, 0, 2):
            hole = parse_cards("2c 3d 4h")
            assert _core.equity(hole, royal, opponents, 100, point, 1) == expected
    nuts = parse_cards("Qs Js Ts 2c 3d")
    assert _core.equity(parse_cards("As Ks"), nuts, 9, 500, None, 2) == 1.0
    assert _core.equity(parse_cards("As Ks 2h"), nuts, 9, 500, 0, 2) == 1.0


def test_the_best_point_is_never_worse_on_the_same_deals() -> None:
    """DH-3, DH-4: with one seed every point meets the same deals, and the best point
    card's value is at least any fixed point's, deal by deal."""
    hole, board = parse_cards("Kd 6c 6h"), parse_cards("Kh 7c 2c")
    for seed in range(5):
        best = _core.equity(hole, board, 3, 2000, None, seed)
        assert all(best >= _core.equity(hole, board, 3, 2000, p, seed) for p in range(3))


def test_reproducible_from_the_seed() -> None:
    hole, board = parse_cards("Ah Kd 7c"), parse_cards("Qs 7d 2c 3h")
    first = _core.equity(hole, board, 4, 500, None, 2**64 - 1)
    assert _core.equity(hole, board, 4, 500, None, 2**64 - 1) == first
    assert len({_core.equity(hole, board, 4, 500, None, seed) for seed in range(8)}) > 1


@pytest.mark.parametrize(
    ("hole", "board", "opponents", "samples", "point", "error", "words"),
    [
        ([51, 60], [], 1, 10, None, InvalidCard, "60 is not a card"),
        ([51, 50], [0, 1, 51], 1, 10, None, DuplicateCard, "duplicate card As"),
        ([51, 50, 50], [], 1, 10, None, DuplicateCard, "duplicate card Ah"),
        ([51], [], 1, 10, None, InvalidHand, "hole has 2 cards"),
        ([51, 50, 49, 48], [], 1, 10, None, InvalidHand, "not 4"),
        ([51, 50], [0, 1], 1, 10, None, InvalidHand, "board has 0, 3, 4 or 5 cards, not 2"),
        ([51, 50], [0, 1, 2, 3, 4, 5], 1, 10, None, InvalidHand, "not 6"),
        ([51, 50], [], 1, 10, 0, InvalidHand, "point 0 given with 2 hole cards"),
        ([51, 50, 49], [], 1, 10, 3, InvalidHand, "point 3 is not an index"),
        ([51, 50, 49], [], 0, 10, None, InvalidHand, "opponents must be 1 to 9, not 0"),
        ([51, 50], [], 10, 10, None, InvalidHand, "opponents must be 1 to 9, not 10"),
        ([51, 50], [], 1, 0, None, InvalidHand, "samples must be at least 1"),
    ],
)
def test_bad_input(
    hole: list[int],
    board: list[int],
    opponents: int,
    samples: int,
    point: int | None,
    error: type[Exception],
    words: str,
) -> None:
    """A typed error from doubleholdem.errors whose message names what is wrong."""
    with pytest.raises(error, match=words) as raised:
        _core.equity(hole, board, opponents, samples, point, 0)
    assert type(raised.value) is error


def observe_first_decision(variant: Variant, decision: str, *, flop: bool = False) -> Any:
    """An observation of a hand at a table of station-like callers, at the first
    decision of kind ``decision`` (``"bet"`` before the flop, ``"point"`` on it), or with
    ``flop`` the first betting decision with a board."""
    config = TableConfig(small_blind=5, big_blind=10, variant=variant, seats=3)
    table = Table(config, seed=4)
    for seat in range(3):
        table.join(seat, f"p{seat}", 1000)
    table.start_hand(now=0.0)
    while True:
        seat = table.to_act
        assert seat is not None
        observation = table.observe(seat)
        if observation.decision == decision and (observation.board or not flop):
            return observation
        table.decide(seat, Decision("check" if observation.legal.can_check else "call"))


def test_point_choice_compares_the_points_on_the_same_deals(calls: list[tuple[Any, ...]]) -> None:
    """DH-2 to DH-4: one estimate per point card, all three in one call on the same deals
    (common random numbers), and the point with the best share is chosen; the flop
    betting after it uses that point."""
    observation = observe_first_decision(Variant.DOUBLE, "point")
    bot = EquityBot(seed=3, samples=500)
    decision = bot.choose(observation)
    assert [call[4] for call in calls] == [[0, 1, 2]]
    hole, board, opponents, samples, _, seed = calls[0]
    shares = [bot.equity(observation, point) for point in range(3)]  # cached: no new calls
    assert len(calls) == 1
    assert shares == [_core.equity(hole, board, opponents, samples, p, seed) for p in range(3)]
    chosen = max(range(3), key=lambda p: (shares[p], -p))
    assert decision == Decision("point", chosen)
    betting = observation._replace(decision="bet")
    bot.choose(betting)
    assert len(calls) == 1  # the flop bet reuses the chosen point's share


def test_estimates_are_reused_within_a_street(calls: list[tuple[Any, ...]]) -> None:
    """The same (hole, board, opponents, point) asks the core once; a new question
    draws a new seed."""
    observation = observe_first_decision(Variant.TEXAS, "bet", flop=True)
    bot = EquityBot(seed=3, samples=100)
    first = bot.equity(observation, None)
    assert bot.equity(observation, None) == first
    assert len(calls) == 1
    fewer = observation._replace(opponents=observation.opponents - 1)
    bot.equity(fewer, None)
    assert len(calls) == 2 and calls[0][5] != calls[1][5]
    assert calls[1][2] == observation.opponents - 1 and calls[1][4] == [None]


def test_same_seed_same_estimates() -> None:
    observation = observe_first_decision(Variant.DOUBLE, "point")
    one, other = EquityBot(seed=8), EquityBot(seed=8)
    assert one.choose(observation) == other.choose(observation)
    assert [one.equity(observation, p) for p in (None, 0, 1, 2)] == [
        other.equity(observation, p) for p in (None, 0, 1, 2)
    ]


@pytest.mark.parametrize("variant", [Variant.TEXAS, Variant.DOUBLE])
@pytest.mark.parametrize("structure", [Structure.FIXED_LIMIT, Structure.NO_LIMIT])
def test_equity_bots_play_legal_decisions(variant: Variant, structure: Structure) -> None:
    """Every decision of an equity bot is one of the legal options at that moment (a
    point card of ``legal.points``, an action of ``legal.actions()``, a raise within
    range), and the chips add up after many hands."""
    config = TableConfig(small_blind=5, big_blind=10, variant=variant, structure=structure)
    seats = 5
    table = Table(config, seed=9)
    players: dict[int, Any] = {s: EquityBot(seed=s, samples=50) for s in range(seats - 1)}
    players[seats - 1] = RandomBot(seed=1)
    for seat in range(seats):
        table.join(seat, f"bot{seat}", 1000)
    decisions = 0
    for _ in range(40):
        for seat in range(seats):
            if table.stack(seat) < 1000:
                table.top_up(seat, 1000 - table.stack(seat))
        table.start_hand(now=0.0)
        while (seat := table.to_act) is not None:
            observation = table.observe(seat)
            decision = players[seat].choose(observation)
            legal = observation.legal
            if observation.decision == "point":
                assert decision.action == "point" and decision.amount in legal.points
            elif seat < seats - 1:
                assert decision.action in [action.value for action in legal.actions()]
                if decision.action in ("bet", "raise"):
                    assert legal.min_raise_to is not None and legal.max_raise_to is not None
                    assert decision.amount is not None
                    assert legal.min_raise_to <= decision.amount <= legal.max_raise_to
                decisions += 1
            table.decide(seat, decision)
    assert decisions > 100
    assert sum(table.stack(s) for s in range(seats)) + table.rake == sum(
        table.bought_in_by(s) for s in range(seats)
    )


def test_decide_is_a_deprecated_alias_of_choose() -> None:
    """Issue 18: a bot chooses (``choose``), a table decides; ``decide`` keeps working
    for a release and warns."""
    table = Table(TableConfig(small_blind=5, big_blind=10), seed=4)
    table.join(0, "ann", 1000)
    table.join(1, "bob", 1000)
    table.start_hand(now=0.0)
    observation = table.observe(table.to_act)
    for name in BOTS:
        chosen = make_bot(name, seed=3).choose(observation)
        with pytest.warns(DeprecationWarning, match="Bot.decide is deprecated.*Bot.choose"):
            assert make_bot(name, seed=3).decide(observation) == chosen


def test_one_registry_makes_every_bot_by_name() -> None:
    """The simulator, the server and the command line seat bots from ``BOTS``."""
    from doubleholdem.server.tables import runner

    assert sorted(BOTS) == ["equity", "random", "station"]
    assert runner.BOT_KINDS is BOTS  # the server seats the equity bot too
    for name in BOTS:
        assert make_bot(name, seed=1).name == name
    with pytest.raises(DoubleHoldemError, match="no bot named 'shark': one of equity, random"):
        make_bot("shark")
