"""The evaluator (RULES.md EV-1, EV-2) against a brute-force reference, phevaluator and
eval7, and its batch entry point."""

from __future__ import annotations

import sys
import threading
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import doubleholdem as dh
from conftest import random_hands
from doubleholdem import (
    Category,
    DuplicateCard,
    InvalidCard,
    InvalidHand,
    InvalidValue,
    _core,
)
from reference import best_strength, five_card_strength

hands = st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True)


@settings(max_examples=500, deadline=None)
@given(hands, hands)
def test_ev1_order_agrees_with_brute_force(a: list[int], b: list[int]) -> None:
    """EV-1: the value orders hands as the best five of their cards do, ties included."""
    va, vb = dh.evaluate(a), dh.evaluate(b)
    sa, sb = best_strength(a), best_strength(b)
    assert (va > vb) == (sa > sb) and (va == vb) == (sa == sb)
    assert dh.category_of(va) == sa[0]


@settings(max_examples=300, deadline=None)
@given(hands)
def test_best_five_makes_the_value(cards: list[int]) -> None:
    five = dh.best_five(cards)
    assert len(set(five)) == 5 and set(five) <= set(cards)
    assert dh.evaluate(five) == dh.evaluate(cards)


def test_ev2_five_card_oracle() -> None:
    """EV-2: 2,598,960 five-card hands, 7,462 values, exact counts per category."""
    counts = dh.category_counts(5)
    assert counts.total == 2_598_960 and counts.distinct_values == 7_462
    assert counts.royal_flushes == 4
    assert counts.counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }


def test_ev2_seven_card_oracle() -> None:
    """EV-2: 133,784,560 seven-card hands, 4,824 values, exact counts per category."""
    counts = dh.category_counts(7, threads=2)
    assert counts.total == 133_784_560 and counts.distinct_values == 4_824
    assert counts.royal_flushes == 4_324
    assert list(counts.counts.values()) == [
        23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020,
        4_047_644, 3_473_184, 224_848, 4_324 + 37_260,
    ]  # fmt: skip


def test_every_five_card_value_in_order() -> None:
    """All 7,462 distinct five-card classes get values in the reference's order."""
    by_strength: dict[tuple[int, ...], int] = {}
    for five in combinations(range(0, 52, 1), 5):
        if five[0] % 4 == 0 or len({c & 3 for c in five}) == 1:
            by_strength.setdefault(five_card_strength(five), dh.evaluate(list(five)))
        if len(by_strength) == 7_462:
            break
    ordered = [by_strength[s] for s in sorted(by_strength)]
    assert ordered == sorted(set(ordered)) and len(ordered) == 7_462
    assert ordered[-1] == dh.evaluate("As Ks Qs Js Ts") == 8 << 12 | 9
    assert ordered[0] == dh.evaluate("7c 5d 4h 3s 2c") == 0


def _same_order(ours: np.ndarray, theirs: np.ndarray, theirs_higher_is_better: bool) -> None:
    """Both libraries order the hands alike: a one-to-one, monotone map of values."""
    pairs = np.unique(np.stack([ours.astype(np.int64), theirs.astype(np.int64)]), axis=1)
    assert len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1]
    steps = np.diff(pairs[1]) if theirs_higher_is_better else -np.diff(pairs[1])
    assert (steps > 0).all()


MILLION = random_hands(1_000_000, 7, seed=2026)


@pytest.mark.slow
def test_agrees_with_phevaluator_on_a_million_hands() -> None:
    from phevaluator import evaluate_cards

    theirs = np.fromiter((evaluate_cards(*row) for row in MILLION.tolist()), np.int64)
    _same_order(dh.evaluate_batch(MILLION), theirs, theirs_higher_is_better=False)


@pytest.mark.slow
def test_agrees_with_eval7_on_a_million_hands() -> None:
    import eval7

    deck = [eval7.Card(name) for name in dh.cards.CARD_NAMES]
    theirs = np.fromiter(
        (eval7.evaluate([deck[c] for c in row]) for row in MILLION.tolist()), np.int64
    )
    _same_order(dh.evaluate_batch(MILLION), theirs, theirs_higher_is_better=True)


@pytest.mark.parametrize(
    ("cards", "category", "words"),
    [
        ("As Ks Qs Js Ts 2c 3d", Category.STRAIGHT_FLUSH, "Royal Flush"),
        ("5d 4d 3d 2d Ad Kd", Category.STRAIGHT_FLUSH, "Straight Flush, Five high"),
        ("Kc Kd Ks 7h 7s 2c 3d", Category.FULL_HOUSE, "Full House, Kings full of Sevens"),
        ("Kc Kd Ks 7h 7s 7c 3d", Category.FULL_HOUSE, "Full House, Kings full of Sevens"),
        ("Ah 2c 3d 4s 5h", Category.STRAIGHT, "Straight, Five high"),
        ("2c 2d 2h 2s 3c 3d 3h", Category.FOUR_OF_A_KIND, "Four of a Kind, Twos, Three kicker"),
        ("Ac Ad Kh Ks Qc Qd 2s", Category.TWO_PAIR, "Two Pair, Aces and Kings, Queen kicker"),
    ],
)
def test_describe_and_category(cards: str, category: Category, words: str) -> None:
    value = dh.evaluate(cards)
    assert dh.category_of(value) is category
    assert dh.describe(value) == words


def test_category_labels() -> None:
    assert [c.label for c in Category][::4] == ["High Card", "Straight", "Straight Flush"]


@pytest.mark.parametrize("bad", [-1, 1 << 16, 9 << 12, (8 << 12) | 10, 1277, True, "1"])
def test_values_never_made_are_rejected(bad: object) -> None:
    with pytest.raises(InvalidValue):
        dh.describe(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidValue):
        dh.category_of(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("As Ks Qs Js", InvalidHand, "5, 6 or 7 cards, not 4"),
        ("As Ks Qs Js Ts 9s 8s 7s", InvalidHand, "not 8"),
        ("As Ks Qs Js As", DuplicateCard, "duplicate card As"),
        ([51, 47, 43, 39, 52], InvalidCard, "52 is not a card"),
        ("As Ks Qs Js Tx", InvalidCard, "'Tx'"),
    ],
)
def test_bad_hands_are_typed_errors(cards: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        dh.evaluate(cards)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        dh.best_five(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_single_evaluation(k: int) -> None:
    rows = random_hands(3_000, k, seed=k)
    values = dh.evaluate_batch(rows)
    assert values.dtype == np.uint16 and values.shape == (3_000,)
    assert values.tolist() == [dh.evaluate(row) for row in rows.tolist()]


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_of_any_length_equals_single_evaluation(k: int) -> None:
    # The batch kernels take blocks of hands (16 with AVX-512) and finish the rest on
    # their own: every length up to a few blocks, half of the hands flushes.
    rng = np.random.default_rng(k)
    rows = random_hands(50, k, seed=10 + k)
    for row in rows[::2]:
        suit = rng.integers(4)
        ranks = rng.choice(13, 5, replace=False)
        others = [c for c in rng.permutation(52) if c % 4 != suit][: k - 5]
        row[:] = [4 * r + suit for r in ranks] + others
    for n in range(len(rows) + 1):
        assert dh.evaluate_batch(rows[:n]).tolist() == [dh.evaluate(r) for r in rows[:n].tolist()]


@pytest.mark.parametrize("card", [52, 64, None])
def test_batch_names_a_bad_row_anywhere_in_a_block(card: int | None) -> None:
    for row in range(35):
        rows = random_hands(35, 7, seed=row)
        rows[row, row % 7] = rows[row, (row + 1) % 7] if card is None else card
        with pytest.raises((InvalidCard, DuplicateCard), match=f"row {row}:") as raised:
            dh.evaluate_batch(rows)
        assert raised.value.row == row


def test_batch_converts_other_inputs(hands7: np.ndarray) -> None:
    expected = dh.evaluate_batch(hands7)
    assert (dh.evaluate_batch(hands7.astype(np.int64)) == expected).all()
    assert (dh.evaluate_batch(hands7[:50].tolist()) == expected[:50]).all()
    fortran = np.asfortranarray(hands7)
    assert (dh.evaluate_batch(fortran) == expected).all()
    assert (dh.evaluate_batch(hands7[::2]) == expected[::2]).all()
    assert dh.evaluate_batch(np.zeros((0, 7), np.uint8)).shape == (0,)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_batch_threads_give_the_same_values(hands7: np.ndarray, threads: int) -> None:
    assert (dh.evaluate_batch(hands7, threads=threads) == dh.evaluate_batch(hands7)).all()


def test_batch_is_safe_from_many_python_threads(hands7: np.ndarray) -> None:
    expected = dh.evaluate_batch(hands7)
    results: list[bool] = []

    def work() -> None:
        for _ in range(5):
            results.append(bool((dh.evaluate_batch(hands7, threads=2) == expected).all()))

    workers = [threading.Thread(target=work) for _ in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert results == [True] * 40


@pytest.mark.parametrize(
    ("row", "col", "card", "error", "message"),
    [
        (17, 3, 52, InvalidCard, "row 17: 52 is not a card"),
        (40_000, 0, 255, InvalidCard, "row 40000: 255 is not a card"),
        (12, 6, None, DuplicateCard, "row 12: duplicate card"),
    ],
)
def test_batch_names_the_first_bad_row(
    row: int, col: int, card: int | None, error: type, message: str
) -> None:
    rows = random_hands(50_000, 7, seed=3)
    rows[row, col] = rows[row, 0] if card is None else card
    rows[45_000, 2] = 200  # a later bad row must not be the one reported
    with pytest.raises(error, match=message) as raised:
        dh.evaluate_batch(rows)
    assert raised.value.row == row


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.array([[0, 1, 2, 3, -1]]), "row 0: -1 is not a card"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 300]]), "row 1: 300 is not a card"),
        (np.zeros((3, 4), np.uint8), "5, 6 or 7 cards, not 4"),
        (np.zeros((3, 8), np.uint8), "5, 6 or 7 cards, not 8"),
        (np.zeros(7, np.uint8), "2 dimension"),
        (np.zeros((2, 7), np.float64), "integers"),
    ],
)
def test_batch_rejects_bad_arrays(array: np.ndarray, message: str) -> None:
    with pytest.raises((InvalidCard, InvalidHand), match=message):
        dh.evaluate_batch(array)


def test_uint8_input_is_read_in_place(hands7: np.ndarray) -> None:
    """Zero-copy: the core gets the caller's buffer (the conversion returns it as is)."""
    from doubleholdem._arrays import as_uint8

    assert as_uint8(hands7, "hands", 2) is hands7 or np.shares_memory(
        as_uint8(hands7, "hands", 2), hands7
    )


def test_import_does_not_load_numpy() -> None:
    import subprocess

    code = "import doubleholdem, sys; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_tables_fit_in_l2() -> None:
    assert _core.table_bytes() < 512 * 1024


def _evaluate_in_child(rows: np.ndarray) -> list[int]:
    return dh.evaluate_batch(rows).tolist() + dh.evaluate_batch(rows, threads=2).tolist()


def test_batch_works_in_a_forked_child(hands7: np.ndarray) -> None:
    """The parent's pools have no threads in a forked child; the child must not hang."""
    import multiprocessing

    expected = dh.evaluate_batch(hands7).tolist()
    dh.evaluate_batch(hands7, threads=2)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(_evaluate_in_child, (hands7,)).get(timeout=60)
    assert result == expected + expected
