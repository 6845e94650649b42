"""Double Hold'em (RULES.md DH-2 to DH-6): three hole cards; after the flop one is the
point card, Hand 1 pairs it with the first other card in dealing order, Hand 2 with the
second, and the better of the two Hold'em hands plays.

>>> r = resolve("Kc 2d 6c", auto_point("Kc 2d 6c"), "Kd 6h 9c Jc 3c")
>>> r.hand, describe(r.value)
(2, 'Flush, King-Jack-Nine-Six-Three')
>>> auto_point("Kc Ks 6c"), auto_point("Ks Kh 6c"), auto_point("Ks Kh Kd")
(0, 0, 0)

On the flop, :func:`advise_point` gives the equity of each point card choice (DH-2),
best first; exact when every hand is known:

>>> advice = advise_point("Kc Ks 6c", "Kd 6h 2s", ["Ah Qd Jc"])
>>> [(c.card, round(c.equity, 4)) for c in advice.choices], advice.exact
([('Kc', 0.9734), ('Ks', 0.9734), ('6c', 0.9336)], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from doubleholdem import _core
from doubleholdem._arrays import as_uint8
from doubleholdem.cards import CardLike, parse_cards
from doubleholdem.errors import InvalidHand
from doubleholdem.evaluate import describe
from doubleholdem.point_card import Point, point_error, point_index

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Point",
    "PointAdvice",
    "PointChoice",
    "Resolution",
    "advise_point",
    "auto_point",
    "describe",
    "point_error",
    "point_index",
    "point_values",
    "resolve",
    "resolve_batch",
]


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


def resolve(
    hole: str | Iterable[CardLike], point: Point, board: str | Iterable[CardLike]
) -> Resolution:
    """The value of three hole cards with ``point`` as the point card (DH-3, DH-4): an
    index 0..2, ``"auto"`` or one of the cards (:func:`point_index`).

    >>> resolve("Kc 2d 6c", "6c", "Kd 6h 9c Jc 3c") == resolve("Kc 2d 6c", 2, "Kd 6h 9c Jc 3c")
    True
    """
    cards = _cards(hole, 3, "a Double Hold'em hole")
    index = point_index(cards, point)
    if index is None:
        raise InvalidHand(f"cannot choose {point_error(cards, point)}")
    value, hand, five = _core.resolve(cards, index, _cards(board, 5, "a board"))
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


@dataclass(frozen=True)
class PointChoice:
    """One point card choice: its index in the hole, the card, the player's equity with
    it, and the standard error of that equity (``None`` when exact)."""

    point: int
    card: str
    equity: float
    stderr: float | None


@dataclass(frozen=True)
class PointAdvice:
    """The three choices, best first, whether they are exact and the showdowns each
    counted."""

    choices: tuple[PointChoice, ...]
    exact: bool
    showdowns: int

    @property
    def best(self) -> PointChoice:
        """The choice of highest equity."""
        return self.choices[0]


def advise_point(
    hole: str | Iterable[CardLike],
    flop: str | Iterable[CardLike],
    opponents: int | Sequence[str | Iterable[CardLike]] = 1,
    *,
    points: Sequence[int | str] | None = None,
    dead: str | Iterable[CardLike] | None = None,
    samples: int | None = None,
    stderr: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
) -> PointAdvice:
    """The equity of each point card choice of ``hole`` on ``flop`` (DH-2, DH-3, DH-4),
    best first. ``opponents`` is a number of random hands (1 to 9) or a list of known
    holes; their point cards are ``points`` (0..2 or ``"auto"``), by DH-6 unless given.

    Exact when every hand is known; otherwise Monte Carlo (``samples=`` or ``stderr=``,
    by default to a standard error of 0.001), the three choices on the same deals for a
    given ``seed``.
    """
    from doubleholdem.cards import format_card
    from doubleholdem.equity import calculate

    cards = _cards(hole, 3, "a Double Hold'em hole")
    flop_cards = _cards(flop, 3, "the flop")
    if isinstance(opponents, int) and not isinstance(opponents, bool):
        if not 1 <= opponents <= 9:
            raise InvalidHand(f"opponents must be 1 to 9, not {opponents}")
        others: list[str | Iterable[CardLike]] = ["random"] * opponents
    elif isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        raise InvalidHand("opponents is a number of random hands or a list of holes")
    else:
        others = [_cards(o, 3, "an opponent's hole") for o in opponents]
        if not 1 <= len(others) <= 9:
            raise InvalidHand(f"opponents must be 1 to 9, not {len(others)}")
    if points is not None and len(points) != len(others):
        raise InvalidHand(f"give one point per opponent ({len(others)}), not {len(points)}")
    theirs = list(points) if points is not None else ["auto"] * len(others)
    known = all(o != "random" for o in others)
    if known and (samples is not None or stderr is not None):
        raise InvalidHand("every hand is known: the equities are exact, take no samples")
    if not known and samples is None and stderr is None:
        stderr = 0.001
    if seed is None:
        import secrets

        seed = secrets.randbits(64)  # one seed for the three: the same deals
    choices = []
    showdowns = 0
    for point in range(3):
        result = calculate(
            [cards, *others],
            flop_cards,
            dead,
            variant="double",
            points=[point, *theirs],
            exact=True if known else None,
            samples=samples,
            stderr=stderr,
            seed=seed,
            threads=threads,
        )
        showdowns = max(showdowns, result.showdowns)
        choices.append(
            PointChoice(
                point,
                format_card(cards[point]),
                result.equity[0],
                None if result.stderr is None else result.stderr[0],
            )
        )
    choices.sort(key=lambda c: -c.equity)
    return PointAdvice(tuple(choices), known, showdowns)
