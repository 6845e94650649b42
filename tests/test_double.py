"""Double Hold'em resolution (RULES.md DH-2 to DH-6) against brute force."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import doubleholdem as dh
from conftest import random_hands
from doubleholdem import DuplicateCard, InvalidCard, InvalidHand, double
from reference import auto_point as reference_auto_point

deals = st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True)


def brute_force(hole: list[int], point: int, board: list[int]) -> tuple[int, int]:
    """DH-3, DH-4: Hand 1 = point + first other card, Hand 2 = point + second."""
    first, second = [hole[i] for i in range(3) if i != point]
    hand1 = dh.evaluate([hole[point], first, *board])
    hand2 = dh.evaluate([hole[point], second, *board])
    return max(hand1, hand2), 1 if hand1 >= hand2 else 2


@settings(max_examples=400, deadline=None)
@given(deals, st.integers(0, 2))
def test_dh4_value_is_the_better_of_the_two_hands(deal: list[int], point: int) -> None:
    hole, board = deal[:3], deal[3:]
    r = double.resolve(hole, point, board)
    assert (r.value, r.hand) == brute_force(hole, point, board)
    assert dh.evaluate(r.best_five) == r.value
    partner = [c for i, c in enumerate(hole) if i != point][r.hand - 1]
    assert set(r.best_five) <= {hole[point], partner, *board}


@settings(max_examples=200, deadline=None)
@given(deals)
def test_point_values_are_each_point_resolved(deal: list[int]) -> None:
    hole, board = deal[:3], deal[3:]
    assert double.point_values(hole, board) == [
        brute_force(hole, point, board)[0] for point in range(3)
    ]


def test_dh3_non_point_cards_never_combine() -> None:
    """9h 9d with the board's 9s Kd Kc would be a full house, but they never play together."""
    r = double.resolve("2c 9h 9d", 0, "9s Kd Kc 5h 3s")
    assert dh.category_of(r.value) is dh.Category.TWO_PAIR
    assert double.resolve("2c 9h 9d", 1, "9s Kd Kc 5h 3s").value == dh.evaluate("9h 9d 9s Kd Kc")


def test_dh4_second_best_hand_never_breaks_a_tie() -> None:
    """Two players with equal better hands tie whatever their other hands hold."""
    board = "As Ks Qs 2d 7c"
    strong_other = double.resolve("Js Ts 2h", 0, board)  # Hand 1: royal flush
    weak_other = double.resolve("Js Ts 3h", 0, board)
    assert strong_other.value == weak_other.value == 8 << 12 | 9


def test_dh3_hand_numbers_follow_dealing_order() -> None:
    board = "2c 7d 9h Js Qs"
    assert double.resolve("Ks 3c As", 0, board).hand == 2  # K+A beats K+3
    assert double.resolve("As 3c Ks", 2, board).hand == 1  # K+A: A is dealt first
    equal = double.resolve("Kd Kh 3c", 2, "Ks Kc 8d 9h 2s")  # both hands: quad kings
    assert equal.hand == 1


@pytest.mark.parametrize(
    ("hole", "point", "branch"),
    [
        ("Kc Ks 6c", 0, "b: the suit matches the third card, though clubs rank lowest"),
        ("Ks Kh 6c", 0, "c: neither matches, higher suit"),
        ("Ks Kh Kd", 0, "d: three of a kind, highest suit"),
        ("2c 9d As", 2, "a: highest rank"),
        ("6c Ks Kc", 2, "b: matching suit wins, in any dealing position"),
        ("Kd 6c Kh", 2, "c: hearts above diamonds"),
        ("Kc Kd Kh", 2, "d: hearts highest of clubs, diamonds, hearts"),
        ("Qh Qs 2s", 1, "b: spades match"),
    ],
)
def test_dh6_automatic_point(hole: str, point: int, branch: str) -> None:
    assert double.auto_point(hole) == point, branch


def test_dh6_every_hole_in_every_order_matches_the_rule() -> None:
    for hole in permutations(range(0, 52, 3), 3):  # 4,080 ordered holes over all suits
        assert double.auto_point(list(hole)) == reference_auto_point(list(hole))
    for hole in permutations([48, 49, 50, 51, 44, 45], 3):  # pairs and trips of aces, kings
        assert double.auto_point(list(hole)) == reference_auto_point(list(hole))


def test_batch_equals_single_resolution() -> None:
    deal = random_hands(5_000, 8, seed=8)
    holes, boards = deal[:, :3], deal[:, 3:]
    points = np.random.default_rng(1).integers(0, 3, 5_000).astype(np.uint8)
    values = double.resolve_batch(holes, points, boards)
    assert values.dtype == np.uint16
    expected = [
        double.resolve(h, int(p), b).value
        for h, p, b in zip(holes.tolist(), points, boards.tolist())
    ]
    assert values.tolist() == expected
    assert (double.resolve_batch(holes, points, boards, threads=1) == values).all()


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda h, p, b: p.__setitem__(30_000, 3), InvalidHand, "row 30000: point 3"),
        (lambda h, p, b: b.__setitem__((20_000, 4), h[20_000, 1]), DuplicateCard, "row 20000"),
        (lambda h, p, b: h.__setitem__((25_000, 0), 60), InvalidCard, "row 25000: 60"),
    ],
)
def test_batch_names_the_first_bad_row(change, error: type, message: str) -> None:  # type: ignore[no-untyped-def]
    deal = random_hands(40_000, 8, seed=9)
    holes, boards = deal[:, :3].copy(), deal[:, 3:].copy()
    points = np.zeros(40_000, np.uint8)
    change(holes, points, boards)
    points[39_000] = 9
    with pytest.raises(error, match=message):
        double.resolve_batch(holes, points, boards)


def test_batch_rejects_bad_shapes() -> None:
    ok = random_hands(4, 8, seed=1)
    with pytest.raises(InvalidHand, match="must agree on N"):
        double.resolve_batch(ok[:, :3], np.zeros(3, np.uint8), ok[:, 3:])
    with pytest.raises(InvalidHand, match=r"\(N, 3\)"):
        double.resolve_batch(ok[:, :4], np.zeros(4, np.uint8), ok[:, 4:])
    with pytest.raises(InvalidHand, match="row 1: -1"):
        double.resolve_batch(ok[:, :3], np.array([0, -1, 0, 0]), ok[:, 3:])


@pytest.mark.parametrize(
    ("hole", "point", "board", "error", "message"),
    [
        ("Kc Ks", 0, "2c 3c 4c 5c 7d", InvalidHand, "3 cards, not 2"),
        ("Kc Ks 6c", 3, "2c 3c 4c 5c 7d", InvalidHand, "point 3"),
        ("Kc Ks 6c", -1, "2c 3c 4c 5c 7d", InvalidHand, "point -1"),
        ("Kc Ks 6c", True, "2c 3c 4c 5c 7d", InvalidHand, "point True"),
        ("Kc Ks 6c", 0, "2c 3c 4c 5c", InvalidHand, "5 cards, not 4"),
        ("Kc Ks 6c", 0, "2c 3c 4c 5c Kc", DuplicateCard, "duplicate card Kc"),
        ("Kc Ks 6x", 0, "2c 3c 4c 5c 7d", InvalidCard, "'6x'"),
    ],
)
def test_bad_input_is_a_typed_error(
    hole: str, point: int, board: str, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        double.resolve(hole, point, board)
