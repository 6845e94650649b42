"""Slow, obviously-correct references the tests compare the fast code with."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

STRAIGHTS = [list(range(top, top - 5, -1)) for top in range(12, 3, -1)] + [[3, 2, 1, 0, 12]]


def five_card_strength(cards: tuple[int, ...]) -> tuple[int, ...]:
    """(category, deciding ranks...) of exactly five cards (RULES.md EV-1)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    straight_top = next(
        (i for i, run in enumerate(STRAIGHTS) if sorted(run) == sorted(ranks)), None
    )
    if straight_top is not None:
        top = STRAIGHTS[straight_top][0]
        return (8 if flush else 4, top)
    if flush:
        return (5, *ranks)
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    by_group = [rank for rank, _ in groups]
    category = {
        (4, 1): 7,
        (3, 2): 6,
        (3, 1, 1): 3,
        (2, 2, 1): 2,
        (2, 1, 1, 1): 1,
        (1, 1, 1, 1, 1): 0,
    }[tuple(shape)]
    return (category, *by_group)


def best_strength(cards: list[int]) -> tuple[int, ...]:
    """The best five-card strength among 5 to 7 cards."""
    return max(five_card_strength(five) for five in combinations(cards, 5))


def auto_point(hole: list[int]) -> int:
    """DH-6 written out from the rule's words."""
    top = max(c >> 2 for c in hole)
    highest = [i for i, c in enumerate(hole) if c >> 2 == top]
    if len(highest) == 1:
        return highest[0]  # (a)
    if len(highest) == 3:
        return max(highest, key=lambda i: hole[i] & 3)  # (d)
    (third,) = [i for i in range(3) if i not in highest]
    matching = [i for i in highest if hole[i] & 3 == hole[third] & 3]
    if matching:
        return matching[0]  # (b)
    return max(highest, key=lambda i: hole[i] & 3)  # (c)
