"""The point card a caller names (RULES.md DH-2, DH-5, DH-6): an index 0..2 into the
three hole cards in dealing order, ``"auto"`` (the automatic choice) or the card itself.
:func:`point_index` is the one reader of a point card, for the library and the command
line alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from doubleholdem import _core
from doubleholdem.cards import CARD_NAMES, parse_card

__all__ = ["Point", "point_error", "point_index"]

Point = Union[int, str]
"""A point card as a caller names it: an index 0..2 into the hole in dealing order,
``"auto"`` (DH-6) or the card itself (``"Kc"``): see :func:`point_index`."""


def point_index(hole: Sequence[int], point: object) -> int | None:
    """The index in ``hole`` (three card numbers in dealing order) of the point card
    ``point`` names: an index 0..2, ``"auto"`` (the automatic choice, DH-6) or one of
    the hole's cards as text (``"Kc"``); ``None`` if it names none of them. The one
    reader of a point card: :func:`doubleholdem.double.resolve`,
    :meth:`doubleholdem.game.Hand.choose_point`, :func:`doubleholdem.equity.calculate`
    and ``doubleholdem double --point``.

    >>> from doubleholdem.cards import parse_cards
    >>> hole = parse_cards("Kc 2d 6c")
    >>> point_index(hole, 2), point_index(hole, "auto"), point_index(hole, "6c")
    (2, 0, 2)
    >>> point_index(hole, "As"), point_index(hole, 3), point_index(hole, True)
    (None, None, None)
    """
    if isinstance(point, str):
        if point == "auto":
            return int(_core.auto_point(list(hole)))
        try:
            card = parse_card(point)
        except ValueError:
            return None
        return list(hole).index(card) if card in hole else None
    if isinstance(point, int) and not isinstance(point, bool) and 0 <= point < len(hole):
        return point
    return None


def point_error(hole: Sequence[int], point: object) -> str:
    """Why ``point`` names no point card of ``hole``, for the callers' errors:
    ``"point 3: give 0, 1, 2, auto or one of Kc 2d 6c"``."""
    shown = point if not isinstance(point, str) or len(point) <= 20 else point[:20] + "..."
    cards = " ".join(CARD_NAMES[c] for c in hole)
    return f"point {shown!r}: give 0, 1, 2, auto or one of {cards}"
