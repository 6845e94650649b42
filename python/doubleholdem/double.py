"""Double Hold'em (RULES.md DH-2 to DH-6): three hole cards; after the flop one is the
point card, Hand 1 pairs it with the first other card in dealing order, Hand 2 with the
second, and the better of the two Hold'em hands plays.

>>> r = resolve("Kc 2d 6c", auto_point("Kc 2d 6c"), "Kd 6h 9c Jc 3c")
>>> r.hand, describe(r.value)
(2, 'Flush, King-Jack-Nine-Six-Three')
>>> auto_point("Kc Ks 6c"), auto_point("Ks Kh 6c"), auto_point("Ks Kh Kd")
(0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from doubleholdem import _core
from doubleholdem._arrays import as_uint8
from doubleholdem.cards import CardLike, parse_cards
from doubleholdem.errors import InvalidHand
from doubleholdem.evaluate import describe

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Resolution", "auto_point", "describe", "point_values", "resolve", "resolve_batch"]


@dataclass(frozen=True)
class Resolution:
    """A player's Double Hold'em hand: ``value`` (the better of the two hands), which
    ``hand`` plays (1 or 2; equal values report 1) and its ``best_five`` cards."""

    value: int
    hand: int
    best_five: list[int]


def _cards(cards: str | Iterable[CardLike], n: int, what: str) -> list[int]:
    parsed = parse_cards(cards)
    if len(parsed) != n:
        raise InvalidHand(f"{what} has {n} cards, not {len(parsed)}")
    return parsed


def _point(point: int) -> int:
    if isinstance(point, bool) or not isinstance(point, int) or not 0 <= point <= 2:
        raise InvalidHand(f"point {point!r} is not an index into the three hole cards (0, 1 or 2)")
    return point


def resolve(
    hole: str | Iterable[CardLike], point: int, board: str | Iterable[CardLike]
) -> Resolution:
    """The value of three hole cards with ``point`` (0..2) as the point card (DH-3, DH-4)."""
    value, hand, five = _core.resolve(
        _cards(hole, 3, "a Double Hold'em hole"), _point(point), _cards(board, 5, "a board")
    )
    return Resolution(value, hand, list(five))


def auto_point(hole: str | Iterable[CardLike]) -> int:
    """The point card chosen for a player who does not choose in time (DH-6)."""
    return _core.auto_point(_cards(hole, 3, "a Double Hold'em hole"))


def point_values(hole: str | Iterable[CardLike], board: str | Iterable[CardLike]) -> list[int]:
    """The player's value for each of the three possible point cards."""
    return list(
        _core.point_values(_cards(hole, 3, "a Double Hold'em hole"), _cards(board, 5, "a board"))
    )


def resolve_batch(
    holes: Any, points: Any, boards: Any, *, threads: int | None = None
) -> npt.NDArray[np.uint16]:
    """Values of many players: holes (N, 3), points (N,) of 0..2, boards (N, 5).

    Validation, threads and the GIL as in :func:`doubleholdem.evaluate_batch`.
    """
    return _core.resolve_batch(
        as_uint8(holes, "holes", 2),
        as_uint8(points, "points", 1, cards=False),
        as_uint8(boards, "boards", 2),
        threads,
    )
