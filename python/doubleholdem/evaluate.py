"""Hand values (RULES.md EV-1): 5, 6 or 7 cards to an ``int`` 0..65535, higher is better,
laid out as ``category << 12 | rank within the category``.

>>> value = evaluate("As Ks Qs Js Ts 2c 3d")
>>> category_of(value).label, describe(value)
('Straight Flush', 'Royal Flush')
>>> evaluate("Kc Kd Ks 7h 7s") > evaluate("Ac Ad Ah Kh Qs")
True
>>> format_cards(best_five("2c 7s Kd 7h Kc 3d Ks"))
'Ks Kd Kc 7s 7h'
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from doubleholdem import _core
from doubleholdem._arrays import as_uint8
from doubleholdem.cards import CardLike, format_cards, parse_cards
from doubleholdem.errors import InvalidHand, InvalidValue
from doubleholdem.extras import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Category",
    "CategoryCounts",
    "best_five",
    "category_counts",
    "category_of",
    "describe",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "random_hands",
]


class Category(enum.IntEnum):
    """Hand categories, low to high (RULES.md EV-1). ``label`` is the name in words."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """'Full House' for FULL_HOUSE."""
        return str(_core.CATEGORY_NAMES[self.value])


def evaluate(cards: str | Iterable[CardLike]) -> int:
    """Value of the best five of 5, 6 or 7 distinct cards."""
    return _core.evaluate(parse_cards(cards))


def _check_value(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 16:
        raise InvalidValue(f"{value!r} is not a hand value")
    return value


def category_of(value: int) -> Category:
    """The category of a hand value; :class:`InvalidValue` if the evaluator never makes it."""
    describe(value)
    return Category(value >> 12)


def describe(value: int) -> str:
    """A value in words: 'Full House, Kings full of Sevens'."""
    return _core.describe(_check_value(value))


def best_five(cards: str | Iterable[CardLike]) -> list[int]:
    """The five cards that make the value, largest group and higher ranks first."""
    return list(_core.best_five(parse_cards(cards)))


MAX_THREADS: int = _core.MAX_THREADS
"""The most threads a call may ask for (256). Every ``threads=`` of the package
(:func:`evaluate_batch`, :func:`category_counts`, ``double.resolve_batch``, the casino
analysis and simulation, the Double Hold'em statistics) takes ``None`` (all cores) or a
whole number from 1 to ``MAX_THREADS``; anything else is an
:class:`~doubleholdem.errors.InvalidThreads` (a ``ValueError`` naming the value and the
range; a ``TypeError`` for what is not an integer) raised before any work starts.

Pools are bounded: at most 4 pools of a chosen size are kept and reused, the least
recently used one is let go when a fifth size is asked for."""


def evaluate_batch(hands: Any, *, threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of many hands: an array of shape (N, 5), (N, 6) or (N, 7) of cards.

    A C-contiguous uint8 array is read in place; other integer arrays and nested lists
    are converted. The work runs without the GIL on ``threads`` threads (default: all
    cores; at most :data:`MAX_THREADS`). A bad row (a card above 51, a card twice)
    raises an error naming the first.

    >>> evaluate_batch([[51, 47, 43, 39, 35]], threads=0)
    Traceback (most recent call last):
    ...
    doubleholdem.errors.InvalidThreads: threads must be a whole number from 1 to 256, not 0
    """
    return _core.evaluate_batch(as_uint8(hands, "hands", 2), threads)


MAX_RANDOM_CARDS = 2**34
"""The most cards :func:`random_hands` deals in one call (16 GiB of uint8)."""


def random_hands(
    n: int, cards: int, *, seed: int | None = None, threads: int | None = None
) -> npt.NDArray[np.uint8]:
    """``n`` random hands of ``cards`` distinct cards each (1 to 52), dealt in Rust
    straight into a C-contiguous (n, cards) uint8 array that :func:`evaluate_batch`
    reads in place. Each row is a uniformly random ordered choice of distinct cards,
    rows independent. ``seed`` makes it reproducible (the same rows whatever
    ``threads``); without one a strong random seed is drawn.

    >>> hands = random_hands(1000, 7, seed=1)
    >>> hands.shape, str(hands.dtype), bool((random_hands(1000, 7, seed=1) == hands).all())
    ((1000, 7), 'uint8', True)
    >>> int(evaluate_batch(hands).max()) >> 12 <= 8
    True
    """
    require("numpy", "numpy", "random_hands")
    for value, name, high in ((n, "n", MAX_RANDOM_CARDS), (cards, "cards", 52)):
        low = 0 if name == "n" else 1
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidHand(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    if n * cards > MAX_RANDOM_CARDS:
        raise InvalidHand(
            f"{n:,} hands of {cards} cards are more than {MAX_RANDOM_CARDS:,} cards in one call"
        )
    if seed is None:
        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidHand(f"seed must be a whole number (or None), not {seed!r}")
    hands: npt.NDArray[np.uint8] = _core.random_hands(n, cards, seed % 2**64, threads)
    return hands


@dataclass(frozen=True)
class CategoryCounts:
    """The outcome of enumerating every hand of k cards."""

    counts: dict[Category, int]
    royal_flushes: int
    distinct_values: int
    total: int


def category_counts(k: int, *, threads: int | None = None) -> CategoryCounts:
    """Enumerates all C(52, k) hands (k = 5, 6, 7) in Rust and counts each category.

    >>> counts = category_counts(5)
    >>> counts.total, counts.distinct_values, counts.counts[Category.FLUSH]
    (2598960, 7462, 5108)
    """
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"category_counts takes k = 5, 6 or 7 cards, not {k!r}")
    if k not in (5, 6, 7):
        raise InvalidHand(f"category_counts takes k = 5, 6 or 7 cards, not {k}")
    counts, royal, distinct, total = _core.category_counts(k, threads)
    return CategoryCounts(dict(zip(Category, counts)), royal, distinct, total)
