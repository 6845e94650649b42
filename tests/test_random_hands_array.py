"""random_hands (issue 22 item 5): n hands of distinct cards dealt in the core straight
into a numpy array; reproducible from the seed whatever the threads; rows uniformly
distributed (exact chi-square bounds on small cases, with fixed seeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import doubleholdem
from doubleholdem import evaluate_batch, random_hands
from doubleholdem.errors import InvalidHand


def test_rows_are_distinct_cards_and_the_seed_alone_decides() -> None:
    hands = random_hands(50_000, 7, seed=3)
    assert hands.shape == (50_000, 7) and hands.dtype == np.uint8
    assert hands.flags["C_CONTIGUOUS"] and int(hands.max()) < 52
    ordered = np.sort(hands, axis=1)
    assert (np.diff(ordered, axis=1) > 0).all()
    assert (random_hands(50_000, 7, seed=3, threads=1) == hands).all()
    assert (random_hands(50_000, 7, seed=3, threads=2) == hands).all()
    assert not (random_hands(50_000, 7, seed=4) == hands).all()
    assert (random_hands(10, 7, seed=3 + 2**64) == hands[:10]).all()
    assert len(evaluate_batch(hands)) == 50_000
    assert random_hands(0, 5, seed=1).shape == (0, 5)
    assert sorted(random_hands(1, 52, seed=1)[0]) == list(range(52))
    assert doubleholdem.random_hands is random_hands


def _chi_square_is_plausible(counts: np.ndarray, expected: float) -> bool:
    """Within 6 standard deviations of the chi-square's mean (df = cells - 1)."""
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = counts.size - 1
    return abs(chi2 - df) < 6 * math.sqrt(2 * df)


def test_every_ordered_pair_equally_often() -> None:
    n = 2652 * 100
    hands = random_hands(n, 2, seed=11).astype(np.int64)
    counts = np.bincount(hands[:, 0] * 52 + hands[:, 1], minlength=52 * 52)
    off_diagonal = counts.reshape(52, 52)[~np.eye(52, dtype=bool)]
    assert off_diagonal.size == 2652 and off_diagonal.sum() == n
    assert _chi_square_is_plausible(off_diagonal, n / 2652)


def test_every_card_equally_often_in_every_position() -> None:
    n = 52 * 2000
    hands = random_hands(n, 5, seed=12).astype(np.int64)
    for position in range(5):
        counts = np.bincount(hands[:, position], minlength=52)
        assert _chi_square_is_plausible(counts, n / 52)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((-1, 5), {}, "n must be a whole number from 0"),
        ((10, 0), {}, "cards must be a whole number from 1 to 52"),
        ((10, 53), {}, "cards must be"),
        ((1.5, 5), {}, "n must be"),
        ((10, 5), {"seed": 1.5}, "seed must be a whole number"),
        ((2**34, 7), {}, "more than 17,179,869,184 cards"),
    ],
)
def test_refusals(args: tuple[object, ...], kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidHand, match=match):
        random_hands(*args, **kwargs)  # type: ignore[arg-type]
