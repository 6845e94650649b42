"""Hand ranges, in a strict grammar: every token is read whole or the range is refused.

A range is tokens separated by commas (spaces around them are ignored):

=================  ===============================================================
``TT``             a pair: its 6 combos
``TT+``            that pair and every higher one (TT, JJ, QQ, KK, AA)
``JJ-88``          the pairs from one to the other (either order)
``AKs`` ``AKo``    suited (4 combos) or offsuit (12); ``AK`` is both (16); the
                   higher rank comes first
``A2s+`` ``KTo+``  the second rank rising up to one below the first (A2s..AKs)
``A5s-A2s``        one first rank, the second from one to the other
``T9s-54s``        the same gap, both ranks stepping together (T9s, 98s, .. 54s)
``AhKh``           one exact hand (Double Hold'em: three cards, ``AhKh7c``)
``random``         every hand (alone)
``TOKEN:W``        any token but ``random`` with weight W, a decimal in (0, 1] with
                   at most three decimals (``AKo:0.5``); the default weight is 1
=================  ===============================================================

Weights count exactly: a hand of weight 0.5 takes part in half as many deals as one
of weight 1, in exact enumeration as in Monte Carlo. A token this grammar does not
know, a hand listed twice or a bad weight raises :class:`RangeError` with the token and
its position (0-based, in characters).

>>> r = parse_range("QQ+, AKs, A5s-A4s:0.5")
>>> len(r.combos), r.combos[0]
(30, ((40, 41), 1000))
>>> from doubleholdem.cards import format_cards
>>> [format_cards(cards) for cards, _ in parse_range("T9s-98s").combos][:2]
['Tc 9c', 'Td 9d']
>>> parse_range("QQ+,AKx")
Traceback (most recent call last):
...
doubleholdem.errors.RangeError: unknown token 'AKx' at position 4 of 'QQ+,AKx'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from doubleholdem.cards import RANKS, parse_card
from doubleholdem.errors import InvalidCard, RangeError

__all__ = ["WEIGHT_SCALE", "Range", "parse_range"]

WEIGHT_SCALE = 1000
"""Weights are whole thousandths: ``:0.5`` is 500 of :data:`WEIGHT_SCALE`."""

_RANK = "[2-9TJQKA]"
_PAIR = re.compile(rf"({_RANK})\1(\+)?$")
_PAIR_SPAN = re.compile(rf"({_RANK})\1-({_RANK})\2$")
_TWO = re.compile(rf"({_RANK})({_RANK})([so]?)(\+)?$")
_TWO_SPAN = re.compile(rf"({_RANK})({_RANK})([so]?)-({_RANK})({_RANK})([so]?)$")
_CARDS = re.compile(r"(?:[2-9TJQKA][cdhs]\s*){2,3}$")
_WEIGHT = re.compile(r"(?:0?\.\d{1,3}|0|1|1\.0{1,3})$")

Hand = tuple[int, ...]


@dataclass(frozen=True)
class Range:
    """A parsed range: ``combos`` holds (cards, weight) pairs, the weight in
    thousandths (:data:`WEIGHT_SCALE`), in the order the tokens list them."""

    text: str
    combos: tuple[tuple[Hand, int], ...]


def _rank(char: str) -> int:
    return RANKS.index(char)


def _pairs(rank: int) -> list[Hand]:
    return [(rank * 4 + a, rank * 4 + b) for a, b in combinations(range(4), 2)]


def _two(high: int, low: int, kind: str) -> list[Hand]:
    """The combos of two different ranks: ``s`` suited, ``o`` offsuit, ``""`` both."""
    return [
        (high * 4 + a, low * 4 + b)
        for a in range(4)
        for b in range(4)
        if (kind == "" or (a == b) == (kind == "s"))
    ]


def _token_hands(item: str, hole_cards: int) -> list[Hand] | None:
    """The hands of one token without its weight, or None when it is not a token."""
    if _CARDS.match(item):
        item = "".join(item.split())
        try:
            cards = tuple(parse_card(item[i : i + 2]) for i in range(0, len(item), 2))
        except InvalidCard:
            return None
        if len(cards) != hole_cards or len(set(cards)) != len(cards):
            return None
        return [cards]
    if hole_cards != 2:
        return None
    if m := _PAIR.match(item):
        first = _rank(m[1])
        return [h for r in range(first, 13 if m[2] else first + 1) for h in _pairs(r)]
    if m := _PAIR_SPAN.match(item):
        return [h for r in _steps(_rank(m[1]), _rank(m[2])) for h in _pairs(r)]
    if m := _TWO.match(item):
        high, low = _rank(m[1]), _rank(m[2])
        if high <= low:
            return None
        lows = range(low, high) if m[4] else range(low, low + 1)
        return [h for r in lows for h in _two(high, r, m[3])]
    if m := _TWO_SPAN.match(item):
        h1, l1, h2, l2 = (_rank(m[i]) for i in (1, 2, 4, 5))
        if m[3] != m[6] or h1 <= l1 or h2 <= l2:
            return None
        if h1 == h2:
            return [h for r in _steps(l1, l2) for h in _two(h1, r, m[3])]
        if h1 - l1 != h2 - l2:
            return None
        return [h for r in _steps(l1, l2) for h in _two(r + h1 - l1, r, m[3])]
    return None


def _steps(first: int, last: int) -> range:
    """From ``first`` to ``last`` inclusive, in the order written."""
    return range(first, last + 1) if first <= last else range(first, last - 1, -1)


def _all_hands(hole_cards: int) -> list[Hand]:
    return [tuple(c) for c in combinations(range(52), hole_cards)]


def parse_range(text: str, hole_cards: int = 2) -> Range:
    """Reads a range (two-card hands; ``hole_cards=3`` for Double Hold'em, where only
    exact hands and ``random`` exist). See the module docstring for the grammar."""
    if not isinstance(text, str):
        raise RangeError(f"a range is text, not {type(text).__name__}", token=None, position=None)
    if hole_cards not in (2, 3):
        raise RangeError(f"hands have 2 or 3 cards, not {hole_cards}", token=None, position=None)
    return _parse(text, hole_cards)


@lru_cache(maxsize=256)
def _parse(text: str, hole_cards: int) -> Range:
    """:func:`parse_range` of checked arguments; a range read before is not read again."""
    if text.strip().lower() == "random":
        return Range(text, tuple((h, WEIGHT_SCALE) for h in _all_hands(hole_cards)))
    combos: list[tuple[Hand, int]] = []
    seen: set[frozenset[int]] = set()
    position = 0
    for raw in text.split(","):
        token = raw.strip()
        at = position + len(raw) - len(raw.lstrip())
        position += len(raw) + 1
        if not token:
            raise RangeError(f"empty token '' at position {at} of {text!r}", token="", position=at)
        item, _, weight_text = token.partition(":")
        item = item.strip()
        weight = WEIGHT_SCALE
        if weight_text:
            weight_text = weight_text.strip()
            if not _WEIGHT.match(weight_text) or not 0 < float(weight_text) <= 1:
                raise RangeError(
                    f"weight {weight_text!r} of {token!r} at position {at} of {text!r} is not "
                    "a decimal in (0, 1] with at most three decimals",
                    token=token,
                    position=at,
                )
            weight = round(float(weight_text) * WEIGHT_SCALE)
        if item.lower() == "random":
            raise RangeError(
                f"'random' stands alone: it is the whole range, at position {at} of {text!r}",
                token=token,
                position=at,
            )
        hands = _token_hands(item, hole_cards)
        if hands is None:
            hint = " (Double Hold'em hands are three exact cards)" if hole_cards == 3 else ""
            raise RangeError(
                f"unknown token {token!r} at position {at} of {text!r}{hint}",
                token=token,
                position=at,
            )
        for hand in hands:
            key = frozenset(hand)
            if key in seen:
                raise RangeError(
                    f"token {token!r} at position {at} of {text!r} repeats a hand listed before",
                    token=token,
                    position=at,
                )
            seen.add(key)
            combos.append((hand, weight))
    return Range(text, tuple(combos))
