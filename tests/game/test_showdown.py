"""The end of a hand as pure functions (doubleholdem.game.showdown), table-driven: the
show order (TH-22), who may muck (TH-22), the chips that go back (TH-19, TH-20), the
pots awarded (TH-21, TH-23, TH-30, TH-31) and the value of a hand (EV-1, DH-3, DH-4)."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem import _core
from doubleholdem.cards import parse_cards
from doubleholdem.game import Rake
from doubleholdem.game.pots import Pot
from doubleholdem.game.showdown import (
    HandValue,
    Showing,
    can_win,
    hand_value,
    show_order,
    showdown,
    uncontested,
)

# in_hand, button, last_aggressor, runout -> show order (TH-22)
SHOW_ORDERS = [
    ([True, True, True], 0, 2, False, [2, 0, 1]),  # the last bettor first, then clockwise
    ([True, True, True], 0, None, False, [1, 2, 0]),  # checked through: left of the button
    ([True, True, True], 2, 1, True, [0, 1, 2]),  # all-in runout: left of the button
    ([False, True, False, True], 3, None, False, [1, 3]),  # folded seats do not show
    ([True, False, True, True], 3, 3, False, [3, 0, 2]),
    ([True, True], 1, None, False, [0, 1]),  # heads-up: the big blind first (TH-3)
]


@pytest.mark.parametrize(("in_hand", "button", "aggressor", "runout", "order"), SHOW_ORDERS)
def test_th22_show_order(
    in_hand: list[bool], button: int, aggressor: int | None, runout: bool, order: list[int]
) -> None:
    assert show_order(in_hand, button, aggressor, runout) == order


# seat, value, shown so far, pots -> can it win or tie a pot it is in (TH-22)
CAN_WIN = [
    (1, 500, {}, [Pot(100, (0, 1))], True),  # the first to show always can
    (1, 500, {0: 600}, [Pot(100, (0, 1))], False),  # beaten in its only pot: may muck
    (1, 600, {0: 600}, [Pot(100, (0, 1))], True),  # a tie wins half
    (2, 500, {0: 600}, [Pot(100, (0, 2)), Pot(50, (1, 2))], True),  # the side pot
    (2, 500, {0: 600, 1: 700}, [Pot(100, (0, 1, 2)), Pot(50, (1, 2))], False),
    (0, 900, {}, [Pot(100, (1, 2))], False),  # in no pot
]


@pytest.mark.parametrize(("seat", "value", "shown", "pots", "expected"), CAN_WIN)
def test_th22_a_hand_that_cannot_win_may_be_mucked(
    seat: int, value: int, shown: dict[int, int], pots: list[Pot], expected: bool
) -> None:
    assert can_win(seat, value, shown, pots) is expected


def settle(**given: Any) -> Any:
    """:func:`showdown` with the unlisted arguments at their plain values."""
    n = len(given["committed"])
    arguments: dict[str, Any] = {
        "in_hand": [True] * n,
        "stacks": [1000] * n,
        "dead": 0,
        "shown": [False] * n,
        "rake": None,
        "button": 0,
        **given,
    }
    arguments.setdefault("order", list(arguments["values"]))
    arguments["values"] = {s: HandValue(v) for s, v in arguments["values"].items()}
    return showdown(**arguments)


# the showdown's data -> (returned, showings as (seat, show, value or None), results as
# (amount, rake, eligible, winners, shares))
SHOWDOWNS: list[tuple[str, dict[str, Any], list[Any], list[Any], list[Any]]] = [
    (
        "TH-22: the second hand, beaten, mucks",
        {"committed": [100, 100], "values": {0: 700, 1: 500}},
        [],
        [(0, True, 700), (1, False, None)],
        [(200, 0, (0, 1), (0,), (200,))],
    ),
    (
        "TH-22: face up already (an all-in runout) shows even when beaten",
        {"committed": [100, 100], "values": {0: 700, 1: 500}, "shown": [True, True]},
        [],
        [(0, False, 700), (1, False, 500)],
        [(200, 0, (0, 1), (0,), (200,))],
    ),
    (
        "TH-30: a tie splits, the odd chip to the first winner left of the button",
        {"committed": [51, 50, 50], "values": {1: 600, 2: 600}, "in_hand": [False, True, True]},
        [(0, 1)],  # TH-19: the chip nobody live can win goes back first
        [(1, True, 600), (2, True, 600)],
        [(150, 0, (1, 2), (1, 2), (75, 75))],
    ),
    (
        "TH-30: odd chips clockwise from the button",
        {
            "committed": [25, 25, 25, 25],
            "values": {0: 9, 1: 5, 2: 9, 3: 9},
            "button": 1,
            "order": [0, 1, 2, 3],
        },
        [],
        [(0, True, 9), (1, False, None), (2, True, 9), (3, True, 9)],
        [(100, 0, (0, 1, 2, 3), (2, 3, 0), (34, 33, 33))],
    ),
    (
        "TH-21, TH-23: a short all-in wins the main pot, the side pot goes on",
        {"committed": [40, 200, 200], "stacks": [0, 800, 800], "values": {0: 900, 1: 700, 2: 500}},
        [],
        [(0, True, 900), (1, True, 700), (2, False, None)],
        [(320, 0, (1, 2), (1,), (320,)), (120, 0, (0, 1, 2), (0,), (120,))],
    ),
    (
        "TH-19: a big-blind ante is dead money in the main pot",
        {"committed": [10, 10], "dead": 10, "values": {0: 1, 1: 2}},
        [],
        [(0, True, 1), (1, True, 2)],
        [(30, 0, (0, 1), (1,), (30,))],
    ),
    (
        "TH-31: rake per pot, the hand's cap spent on the main pot first",
        {
            "committed": [100, 300, 300],
            "stacks": [0, 700, 700],
            "values": {0: 9, 1: 8, 2: 7},
            "rake": Rake(basis_points=1000, cap=35),
        },
        [],
        [(0, True, 9), (1, True, 8), (2, False, None)],
        [(400, 5, (1, 2), (1,), (395,)), (300, 30, (0, 1, 2), (0,), (270,))],
    ),
]


@pytest.mark.parametrize(
    ("given", "returned", "showings", "results"),
    [row[1:] for row in SHOWDOWNS],
    ids=[row[0] for row in SHOWDOWNS],
)
def test_showdown(
    given: dict[str, Any], returned: list[Any], showings: list[Any], results: list[Any]
) -> None:
    ending = settle(**given)
    assert ending.returned == returned
    assert [(s.seat, s.show, s.value and s.value.value) for s in ending.showings] == showings
    assert [r[1:] for r in ending.results] == results
    paid = sum(r.amount for r in ending.results) + sum(chips for _, chips in ending.returned)
    assert paid == sum(given["committed"]) + given.get("dead", 0)  # no chip made or lost


# committed, bets, in_hand, dead, rake, flop dealt -> (returned, (amount, rake, winner))
UNCONTESTED = [
    ([5, 50, 10], [5, 50, 10], [False, True, False], 0, None, False, [(1, 40)], (25, 0, 1)),
    ([10, 10], [0, 0], [True, False], 0, None, True, [], (20, 0, 0)),
    ([10, 5, 2], [10, 5, 2], [True, False, False], 2, None, False, [(0, 5)], (14, 0, 0)),
    (  # TH-31: no flop, no drop
        [100, 40],
        [60, 0],
        [True, False],
        0,
        Rake(basis_points=1000, cap=None),
        False,
        [(0, 60)],
        (80, 0, 0),
    ),
    ([100, 40], [60, 0], [True, False], 0, Rake(1000, None), True, [(0, 60)], (80, 8, 0)),
    (  # TH-19 then TH-20: an over-large ante of a folded seat comes back too
        [10, 5, 0],
        [0, 0, 0],
        [False, True, False],
        0,
        None,
        False,
        [(0, 5)],
        (10, 0, 1),
    ),
]


@pytest.mark.parametrize(
    ("committed", "bets", "in_hand", "dead", "rake", "flop", "returned", "won"), UNCONTESTED
)
def test_th5_uncontested(
    committed: list[int],
    bets: list[int],
    in_hand: list[bool],
    dead: int,
    rake: Rake | None,
    flop: bool,
    returned: list[tuple[int, int]],
    won: tuple[int, int, int],
) -> None:
    ending = uncontested(committed, bets, in_hand, dead, rake, flop)
    assert ending.returned == returned and ending.showings == []
    (result,) = ending.results
    amount, taken, winner = won
    assert (result.amount, result.rake, result.winners) == (amount, taken, (winner,))
    assert result.shares == (amount - taken,)


@pytest.mark.parametrize(
    ("hole", "point", "board", "double"),
    [
        ("AsAd", None, "2c7h9c3d4h", False),
        ("KcKs6c", 0, "Kd7h9c3d4h", True),
        ("KcKs6c", 2, "Kd7h9c3d4h", True),
    ],
)
def test_hand_value_is_the_core_s(hole: str, point: int | None, board: str, double: bool) -> None:
    """EV-1, DH-3, DH-4: the value is the core's, best five of seven or the better of
    the two hands of the point card."""
    cards, table = tuple(parse_cards(hole)), tuple(parse_cards(board))
    found = hand_value(cards, point, table, double)
    if double:
        value, which, five = _core.resolve(cards, point, table)
        assert found == HandValue(value, which, tuple(five))
    else:
        assert found == HandValue(_core.evaluate([*cards, *table]), None, found.cards)
        assert sorted(found.cards) == sorted(_core.best_five([*cards, *table]))
    assert isinstance(Showing(0, True, found).value, HandValue)
